"""The rules of play on ASCII boards: captures, snapback, suicide, ko and superko, liberties.

Boards are drawn from the top row down; the vertex under the comment is where the move lands.
A refused move must raise the named error and leave the game exactly as it was.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.go import (
    BLACK,
    WHITE,
    Board,
    Game,
    GoError,
    Ko,
    Occupied,
    Suicide,
)
from app.engine.go.coords import parse_vertex


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.board_rows(), game.to_move, game.captures, game.ko, game.moves, game.status,
        game.legal_moves(),
    )


def refused(game: Game, move: str, error: type[GoError]) -> GoError:
    before = snapshot(game)
    with pytest.raises(error) as caught:
        game.play(move)
    assert snapshot(game) == before, "a refused move changed the game"
    assert caught.value.message.startswith(error.code.replace("_", " ") + ":"), caught.value
    return caught.value


# -- captures ---------------------------------------------------------------------------------


def test_single_capture_in_the_centre(boards: Any) -> None:
    game = boards.game("""
        . . . . .
        . . X . .
        . X O . .
        . . X . .
        . . . . .
    """)
    assert game.play("D3") == ["C3"]
    assert game.board_rows() == boards.parse_rows("""
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .
    """)
    assert game.captures == {"black": 1, "white": 0}


def test_capture_in_the_corner_and_on_the_edge(boards: Any) -> None:
    game = boards.game("""
        O X . . .
        . . . . .
        . . . . .
        . . . . .
        . X O O X
    """)
    assert game.play("A4") == ["A5"]  # corner: two liberties, both now black
    game.play("pass")
    assert sorted(game.play("C2")) == []  # edge chain C1-D1 still has one liberty: D2
    game.play("pass")
    assert sorted(game.play("D2")) == ["C1", "D1"]
    assert game.captures == {"black": 3, "white": 0}
    assert game.board_rows()[4] == ".X..X"


def test_one_move_captures_several_groups_at_once(boards: Any) -> None:
    game = boards.game("""
        . X O X .
        X O . O X
        . X O X .
        . . X . .
        . . . . .
    """)
    # C4 takes the last liberty of four separate white stones.
    assert sorted(game.play("C4")) == ["B4", "C3", "C5", "D4"]
    assert game.captures["black"] == 4
    assert game.board_rows()[:3] == boards.parse_rows("""
        . X . X .
        X . X . X
        . X . X .
        . . X . .
        . . . . .
    """)[:3]


def test_snapback(boards: Any) -> None:
    """Black throws a stone in at C1, putting white in atari; white captures it at D1 and is
    left with the single liberty C1, where black takes all five stones back."""
    game = boards.game("""
        . . . . .
        . . . . .
        X X X X X
        X O O O X
        X O . . X
    """, to_move="black")
    assert game.play("C1") == []
    assert [(a.color, a.liberty) for a in game.atari] == [("white", "D1"), ("black", "D1")]
    assert game.play("D1") == ["C1"]
    assert game.ko is None  # the capturing stone joined a chain: no ko
    assert sorted(game.play("C1")) == ["B1", "B2", "C2", "D1", "D2"]
    assert game.captures == {"black": 5, "white": 1}


def test_suicide_of_one_stone_is_refused(boards: Any) -> None:
    game = boards.game("""
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
    """, to_move="white")
    error = refused(game, "A5", Suicide)
    assert "A5" in error.message
    assert game.is_legal("A5") is False


def test_suicide_of_several_stones_is_refused(boards: Any) -> None:
    game = boards.game("""
        O O X . .
        . X X . .
        X . . . .
        . . . . .
        . . . . .
    """, to_move="white")
    error = refused(game, "A4", Suicide)
    assert "3 stones" in error.message


def test_filling_your_last_liberty_is_legal_when_it_captures(boards: Any) -> None:
    game = boards.game("""
        . X O . .
        X O . . .
        O . . . .
        . . . . .
        . . . . .
    """, to_move="white")
    # A5 has no empty neighbour, but takes the last liberty of black's B5 and A4.
    assert sorted(game.play("A5")) == ["A4", "B5"]


def test_occupied_is_refused(boards: Any) -> None:
    game = Game(9)
    game.play("E5")
    refused(game, "E5", Occupied)
    refused(game, "e5", Occupied)


# -- ko and superko ---------------------------------------------------------------------------

KO = """
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_ko_is_refused_and_allowed_after_a_move_elsewhere(boards: Any) -> None:
    game = boards.game(KO)
    assert game.play("C8") == ["B8"]
    assert game.ko == "B8"
    error = refused(game, "B8", Ko)
    assert error.message == "ko: B8 would retake the ko at once; play elsewhere first."
    assert "B8" not in game.legal_moves()
    game.play("G3")  # a ko threat elsewhere ...
    assert game.ko is None
    game.play("G4")  # ... answered
    assert game.play("B8") == ["C8"]  # now white may retake
    assert game.ko == "C8"


def test_ko_ban_lasts_one_turn_even_across_a_pass(boards: Any) -> None:
    game = boards.game(KO)
    game.play("C8")
    game.play("pass")  # white passes instead of a threat
    assert game.ko is None  # black to move: no ban applies to black
    game.play("G3")
    assert game.play("B8") == ["C8"]


def test_undo_restores_captures_ko_and_passes(boards: Any) -> None:
    game = boards.game(KO)
    before = snapshot(game)
    game.play("C8")
    after_capture = snapshot(game)
    game.play("pass")
    game.undo()
    assert snapshot(game) == after_capture
    assert game.ko == "B8"  # the ko ban is back with the position
    game.undo()
    assert snapshot(game) == before
    assert game.captures == {"black": 0, "white": 0}


TRIPLE_KO = """
    X O . O . O X . X
    . X O . . . O X .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
"""


def test_triple_ko_cycle_is_refused_by_positional_superko(boards: Any) -> None:
    """Three kos: each capture is legal under the simple ko rule, and six moves later the
    whole board is back where it started. Positional superko refuses the sixth."""
    game = boards.game(TRIPLE_KO)
    start = game.board_rows()
    assert game.play("C9") == ["B9"]  # black takes ko 1
    assert game.play("H9") == ["G9"]  # white takes ko 2
    assert game.play("C1") == ["B1"]  # black takes ko 3
    assert game.play("B9") == ["C9"]  # white retakes ko 1 (legal: not at once)
    assert game.play("G9") == ["H9"]  # black retakes ko 2
    assert game.ko == "H9"  # the simple ko is at ko 2; B1 is refused by superko alone
    error = refused(game, "B1", Ko)  # would recreate the starting position
    assert "superko" in error.message
    assert "B1" not in game.legal_moves()
    assert game.is_legal("B1") is False
    game.play("E5")  # white plays elsewhere; the cycle is broken
    assert game.board_rows() != start


def test_double_ko_with_a_pass_is_refused(boards: Any) -> None:
    """A cycle through a pass: take, take, pass, retake, and the fifth move would repeat the
    start."""
    game = boards.game(TRIPLE_KO)
    start = game.board_rows()
    game.play("C9")  # black takes ko 1
    game.play("H9")  # white takes ko 2
    game.play("pass")  # black may not retake ko 2 at once, and passes
    game.play("B9")  # white retakes ko 1
    refused(game, "G9", Ko)  # retaking ko 2 would recreate the start
    assert game.board_rows() != start


# -- liberties --------------------------------------------------------------------------------


def test_a_liberty_shared_by_two_stones_counts_once(boards: Any) -> None:
    """The seed's bug: a liberty next to two stones of a chain was counted twice, so a chain
    with one liberty could look safe. Here the L-shaped black chain has only D4 left."""
    game = boards.game("""
        . . . . .
        . O O . .
        O X . O .
        O X X O .
        . O O . .
    """, to_move="white")
    board = game.board
    chain = board.chain_at(parse_vertex("B3", 5))
    assert chain is not None
    assert sorted(board.geometry.names[p] for p in chain.liberties) == ["C3"]
    assert [(a.color, a.stones, a.liberty) for a in game.atari] == [
        ("black", ("B3", "B2", "C2"), "C3")
    ]


def test_atari_lists_every_group_in_atari_after_a_move(boards: Any) -> None:
    game = boards.game("""
        . X O . .
        . . X . .
        . . . . .
        . . . . .
        . . . . .
    """)
    assert [(a.color, a.stones, a.liberty) for a in game.atari] == [("white", ("C5",), "D5")]
    game.play("D5")  # captures C5
    assert game.atari == []


@pytest.mark.parametrize("size", [5, 9, 19])
def test_incremental_chains_match_a_flood_fill_in_random_games(size: int, boards: Any) -> None:
    """Liberty sets kept move by move equal those recomputed from scratch, in long random
    games full of captures."""
    rng = random.Random(size)
    for _ in range(3):
        board = Board(size)
        color = BLACK
        for _ in range(size * size * 2):
            moves = board.legal_moves(color)
            if not moves:
                break
            board.play(rng.choice(moves), color)
            color = WHITE if color == BLACK else BLACK
            assert boards.chains_incremental(board) == boards.chains_by_flood_fill(board)
        # The hash is the one a fresh board with these stones has.
        fresh = Board.from_stones(size, board.stones(BLACK), board.stones(WHITE))
        assert fresh.hash == board.hash


def test_copy_is_independent(boards: Any) -> None:
    board = Board(9)
    board.play(40, BLACK)
    twin = board.copy()
    twin.play(41, WHITE)
    assert board.colors[41] == 0 and twin.colors[41] == WHITE
    assert len(board.chains) == 1 and len(twin.chains) == 2
