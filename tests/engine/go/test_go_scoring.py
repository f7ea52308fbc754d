"""Scoring of finished positions: the dead-stone proposal, area counts, komi, toggling, results.

Each position is drawn as it stands when both players have passed; the tests play the two passes
and check what a player would see in the scoring phase and after accepting the score.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.go import BLACK, WHITE, AliveGroup, Game, NoStone, NotScoring, benson
from app.engine.go.scoring import area_score, propose_dead, status_groups

# Black's two big eyes on the left, white's on the right; one lone stone of each colour sits in
# the other's territory. Black area 45 (dead white B8 included), white area 36 (dead H2).
LONE_INVADERS = """
    . . . . X O . . .
    . O . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    X X X X X O O O O
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . X .
    . . . . X O . . .
"""

# A seki at the top: black's E7-F7-F8-F9 and white's D7-D8-D9 share the liberties E9 and E8 and
# have no eyes; whoever fills one is captured, so both live and E9, E8 are dame.
SEKI = """
    . . X O . X O . .
    . . X O . X O . .
    . . X O X X O . .
    . . X X O O O . .
    X X X X O . . . .
    . . X X O O O O O
    . . X X O . . . .
    . . X X O . . . .
    . . X X O . . . .
"""


def finish(game: Game) -> Game:
    game.play("pass")
    game.play("pass")
    assert game.status == "scoring"
    return game


def test_lone_stones_in_territory_are_proposed_dead(boards: Any) -> None:
    game = finish(boards.game(LONE_INVADERS, komi=7.5))
    assert game.dead_stones == {"B8", "H2"}
    score = game.score()
    assert (score.black_stones, score.black_territory) == (13, 32)
    assert (score.white_stones, score.white_territory) == (12, 24)
    assert score.dame == 0
    assert score.text == "B+1.5"
    territory = game.territory
    assert territory is not None
    assert "B8" in territory["black"] and "H2" in territory["white"]
    assert territory["neutral"] == []
    assert game.result is None  # not over until the score is accepted
    assert game.accept_score() == {"winner": "black", "text": "B+1.5"}
    assert game.status == "over"
    assert game.result == {"winner": "black", "text": "B+1.5"}


def test_komi_decides_and_an_exact_tie_is_a_draw(boards: Any) -> None:
    game = finish(boards.game(LONE_INVADERS, komi=9))
    assert game.score().margin == 0
    assert game.accept_score() == {"winner": None, "text": "0"}
    game = finish(boards.game(LONE_INVADERS, komi=10))
    assert game.accept_score() == {"winner": "white", "text": "W+1"}


def test_seki_groups_live_and_their_shared_liberties_are_dame(boards: Any) -> None:
    game = finish(boards.game(SEKI, komi=7.5))
    assert game.dead_stones == set()
    score = game.score()
    assert score.dame == 2
    assert (score.black_area, score.white_area) == (37, 42)
    territory = game.territory
    assert territory is not None and territory["neutral"] == ["E9", "E8"]
    assert score.text == "W+12.5"


def test_benson_proves_two_real_eyes_and_not_one(boards: Any) -> None:
    board = boards.board("""
        . X . X O . O
        X X X X O O O
        O O O O O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    black = benson(board, BLACK)
    assert [sorted(board.geometry.names[p] for p in board.chains[key].stones)
            for key in black.alive] == [["A6", "B6", "B7", "C6", "D6", "D7"]]
    assert {board.geometry.names[p] for p in black.territory} == {"A7", "C7"}
    # White's F7 is one eye; the open lower side is no second one yet.
    assert benson(board, WHITE).alive == frozenset()


def test_seki_is_not_unconditional_life(boards: Any) -> None:
    """Seki chains live only because filling a shared liberty would be self-atari - a
    judgement Benson leaves to the Monte-Carlo part of the proposal."""
    board = boards.board(SEKI)
    seki = {board.chain_id[board.geometry.index[v]] for v in ("F9", "D9")}
    for color in (BLACK, WHITE):
        assert not seki & benson(board, color).alive


def test_a_two_eyed_group_inside_the_other_side_lives(boards: Any) -> None:
    game = finish(boards.game("""
        . O . O X O . . .
        O O O O X O . . .
        . . . . X O . . .
        . . . . X O . . .
        X X X X X O O O O
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . X .
        . . . . X O . . .
    """))
    assert game.dead_stones == {"H2"}
    territory = game.territory
    assert territory is not None
    assert {"A9", "C9"} <= set(territory["white"])  # white's two eyes
    assert {"A7", "D6"} <= set(territory["neutral"])  # the rest touches both colours


def test_one_eyed_group_inside_territory_is_dead(boards: Any) -> None:
    game = finish(boards.game("""
        O . O . X X O . .
        O O O X . X O . .
        X X X X . X O . .
        . . . . . X O . .
        X X X X X X O O O
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
    """))
    assert game.dead_stones == {"A9", "C9", "A8", "B8", "C8"}
    score = game.score()
    assert (score.black_area, score.white_area) == (54, 27)


def test_toggle_marks_the_whole_group_and_back(boards: Any) -> None:
    game = finish(boards.game(LONE_INVADERS, komi=7.5))
    assert game.toggle_dead("B8") == {"B8"}
    assert game.dead_stones == {"H2"}
    # Alive, the white stone makes black's upper region touch both colours: nobody's.
    score = game.score()
    assert (score.black_area, score.white_area, score.dame) == (29, 37, 15)
    assert score.text == "W+15.5"
    game.toggle_dead("b8")
    assert game.dead_stones == {"B8", "H2"}
    assert game.score().text == "B+1.5"


# Black's area on the left is open at E9 to the dame column F, which touches white's living
# group on the right (two regions of its own, too big for Benson's proof). White B8 is dead.
DAME_GAP = """
    . . . . . . O . .
    . O . . X . O . .
    . . . . X . O . .
    . . . . X . O . .
    X X X X X . O O O
    . . . . X . O . .
    . . . . X . O . .
    . . . . X . O . .
    . . . . X . O . .
"""

# White's one-eyed group in black's area is three chains around the eye B9.
ONE_EYED_CHAINS = """
    O . O . X O . . .
    . O . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    X X X X X O O O O
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . X .
    . . . . X O . . .
"""


def test_toggle_takes_separate_dead_stones_of_one_area_together(boards: Any) -> None:
    game = finish(boards.game(LONE_INVADERS.replace(
        ". . . . X O . . .\n    X X X X X", ". . O . X O . . .\n    X X X X X", 1
    )))
    assert game.dead_stones == {"B8", "C6", "H2"}
    assert game.toggle_dead("C6") == {"B8", "C6"}  # not adjacent, but in one black area
    assert game.dead_stones == {"H2"}
    assert game.toggle_dead("B8") == {"B8", "C6"}  # and back, from either stone
    assert game.dead_stones == {"B8", "C6", "H2"}


def test_toggle_takes_every_chain_of_a_dead_group(boards: Any) -> None:
    game = finish(boards.game(ONE_EYED_CHAINS))
    dead = {"A9", "C9", "B8"}
    assert dead <= game.dead_stones
    assert game.toggle_dead("C9") == dead
    assert not dead & game.dead_stones
    assert game.toggle_dead("A9") == dead  # the eye B9 is no second eye: it dies again
    assert dead <= game.dead_stones


def test_toggle_stops_at_a_living_group_beyond_the_dame(boards: Any) -> None:
    game = finish(boards.game(DAME_GAP))
    before = game.dead_stones
    marked = game.toggle_dead("B8")
    assert marked == {"B8"}  # the living white group touching the dame column stays alive
    assert game.dead_stones == before ^ {"B8"}
    assert game.toggle_dead("B8") == {"B8"}
    assert game.dead_stones == before
    assert not {"G5", "G9", "J5"} & game.dead_stones


@pytest.mark.parametrize(
    ("picture", "vertex"),
    [
        (DAME_GAP, "G1"),  # two regions of its own, each closed by the chain alone
        (LONE_INVADERS, "F5"),  # the same, with a dead black stone inside one of them
        (ONE_EYED_CHAINS.replace("O . O . X", ". O . O X", 1).replace(
            ". O . . X", "O O O O X", 1), "D9"),  # two one-point eyes: Benson's proof
    ],
)
def test_a_group_with_two_eyes_cannot_be_marked_dead(
    boards: Any, picture: str, vertex: str
) -> None:
    game = finish(boards.game(picture))
    before = game.dead_stones
    with pytest.raises(AliveGroup) as caught:
        game.toggle_dead(vertex)
    assert caught.value.code == "alive_group" and caught.value.conflict is False
    assert caught.value.message.startswith("alive group: ")
    assert vertex in caught.value.message
    assert game.dead_stones == before


def test_toggle_refuses_an_empty_point_and_outside_scoring(boards: Any) -> None:
    game = boards.game(LONE_INVADERS)
    with pytest.raises(NotScoring):
        game.toggle_dead("B8")
    with pytest.raises(NotScoring):
        game.accept_score()
    with pytest.raises(NotScoring):
        game.score()
    assert game.territory is None
    finish(game)
    with pytest.raises(NoStone) as caught:
        game.toggle_dead("A9")
    assert caught.value.code == "no_stone"


def test_undo_in_scoring_resumes_play_and_forgets_the_marks(boards: Any) -> None:
    game = finish(boards.game(LONE_INVADERS))
    game.toggle_dead("B8")
    game.undo()
    assert game.status == "playing" and game.to_move == "white"  # white passed second
    assert game.dead_stones == set()
    game.play("pass")
    assert game.dead_stones == {"B8", "H2"}  # a fresh proposal


def test_an_empty_board_is_all_dame_and_white_wins_by_komi() -> None:
    game = finish(Game(9))
    assert game.score().dame == 81
    assert game.accept_score()["text"] == "W+7.5"


def test_the_proposal_is_deterministic(boards: Any) -> None:
    board = boards.board(LONE_INVADERS)
    assert propose_dead(board) == propose_dead(board)
    assert area_score(board, set(), 0).black_stones == 14


def test_status_groups_files_each_chain_in_board_order(boards: Any) -> None:
    board = boards.board(LONE_INVADERS)
    groups = status_groups(board, propose_dead(board))
    assert groups["dead"] == [["B8"], ["H2"]]
    assert groups["seki"] == []
    assert [group[:2] for group in groups["alive"]] == [["E9", "E8"], ["F9", "F8"]]
    board = boards.board(SEKI)
    groups = status_groups(board, propose_dead(board))
    assert groups["dead"] == []
    assert groups["seki"] == [["D9", "D8", "D7"], ["F9", "F8", "E7", "F7"]]
    assert [group[0] for group in groups["alive"]] == ["C9", "G9"]


def test_status_groups_calls_seki_only_what_benson_leaves_unproved(boards: Any) -> None:
    """A chain touching a dame point next to a living enemy is in seki unless Benson proves
    it alive: both walls with two eyes live, and the one with a single eye is in seki."""
    walls = "\n".join(["X X X X . O O O O"] * 8)
    board = boards.board(". X . X . O . O .\n" + walls)
    assert [len(group) for group in status_groups(board, frozenset())["alive"]] == [34, 34]
    board = boards.board(". X . X . O . O O\n" + walls)
    groups = status_groups(board, frozenset())
    assert [len(group) for group in groups["alive"]] == [34]
    assert [group[0] for group in groups["seki"]] == ["F9"]
    # The same chain marked dead is dead, whatever touches it.
    white = {board.geometry.index[name] for name in groups["seki"][0]}
    assert status_groups(board, frozenset(white))["dead"] == groups["seki"]
