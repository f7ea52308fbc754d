"""The `Game` the web adapter drives: turns, passes, resignation, undo, errors, storage.

Everything here is observable through the public API: what a player sees and what a client
stores and gets back.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from app.engine.go import (
    Game,
    GameOver,
    GoError,
    InvalidHandicap,
    InvalidKomi,
    InvalidSize,
    InvalidState,
    MalformedMove,
    NothingToUndo,
    NotYourTurn,
    OffBoard,
    errors,
)


def test_a_new_game() -> None:
    game = Game()
    assert (game.size, game.komi, game.handicap) == (9, 7.5, 0)
    assert game.to_move == "black" and game.status == "playing"
    assert game.result is None and game.ko is None and game.last_move is None
    assert game.moves == [] and game.captures == {"black": 0, "white": 0}
    assert game.board_rows() == ["." * 9] * 9
    assert len(game.legal_moves()) == 81
    assert game.atari == []


def test_moves_alternate_and_are_recorded() -> None:
    game = Game(13)
    game.play("D4")
    game.play(" k10 ")  # any case, stray spaces
    game.play("pass")
    assert game.moves == ["D4", "K10", "pass"]
    assert game.last_move == "pass" and game.to_move == "white"
    assert game.board_rows()[9][3] == "X" and game.board_rows()[3][9] == "O"


@pytest.mark.parametrize(
    ("move", "error"),
    [
        ("Z99", OffBoard),
        ("DD4", MalformedMove),
        ("I5", MalformedMove),
        ("", MalformedMove),
        ("D 4", MalformedMove),
        (5, MalformedMove),
        (None, MalformedMove),
        ("K1", OffBoard),
        ("D10", OffBoard),
        ("D0", OffBoard),
    ],
)
def test_bad_vertices_are_refused_with_their_code(move: Any, error: type[GoError]) -> None:
    game = Game(9)
    with pytest.raises(error) as caught:
        game.play(move)
    assert isinstance(caught.value, ValueError)
    assert caught.value.code in ("malformed_move", "off_board")
    assert game.moves == []


def test_not_your_turn() -> None:
    game = Game(9)
    with pytest.raises(NotYourTurn) as caught:
        game.play("E5", color="white")
    assert caught.value.code == "not_your_turn"
    assert "black's move" in caught.value.message
    game.play("E5", color="black")
    game.play("E4", color="white")


def test_two_passes_end_play_and_further_moves_are_refused() -> None:
    game = Game(9)
    game.play("E5")
    game.play("pass")
    assert game.status == "playing"
    game.play("pass")
    assert game.status == "scoring" and game.to_move is None
    with pytest.raises(GameOver) as caught:
        game.play("D4")
    assert caught.value.code == "game_over"
    assert caught.value.message.startswith("game over: play stopped after two passes")
    assert game.legal_moves() == [] and not game.is_legal("pass")


def test_a_pass_between_moves_does_not_end_play() -> None:
    game = Game(9)
    game.play("pass")
    game.play("E5")
    game.play("pass")
    assert game.status == "playing"


def test_resignation() -> None:
    game = Game(9)
    game.play("E5")
    game.play("resign")  # white resigns
    assert game.status == "over"
    assert game.result == {"winner": "black", "text": "B+R"}
    assert game.moves == ["E5", "resign"]
    with pytest.raises(GameOver) as caught:
        game.play("D4")
    assert "B+R" in caught.value.message
    game.undo()
    assert game.status == "playing" and game.result is None and game.to_move == "white"


def test_undo_goes_back_one_move_at_a_time() -> None:
    game = Game(9)
    with pytest.raises(NothingToUndo):
        game.undo()
    game.play("E5")
    game.play("D5")
    game.undo()
    assert game.moves == ["E5"] and game.to_move == "white"
    game.undo()
    assert game.moves == [] and game.board_rows() == ["." * 9] * 9


def test_handicap_game() -> None:
    game = Game(19, handicap=4)
    assert game.komi == 0.5 and game.to_move == "white"
    rows = game.board_rows()
    assert sum(row.count("X") for row in rows) == 4
    assert rows[15][3] == "X"  # D4
    assert Game(9, komi=6.5, handicap=2).komi == 6.5


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"size": 4}, InvalidSize),
        ({"size": 26}, InvalidSize),
        ({"size": "9"}, InvalidSize),
        ({"size": 9, "komi": 7.25}, InvalidKomi),
        ({"size": 9, "komi": float("nan")}, InvalidKomi),
        ({"size": 9, "handicap": 1}, InvalidHandicap),
        ({"size": 6, "handicap": 2}, InvalidHandicap),
    ],
)
def test_bad_game_options(kwargs: dict[str, Any], error: type[GoError]) -> None:
    with pytest.raises(error):
        Game(**kwargs)


def test_every_error_is_a_value_error_with_a_unique_code() -> None:
    classes = [
        value for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, errors.GoError)
    ]
    assert len(classes) >= 15
    assert all(issubclass(cls, ValueError) for cls in classes)
    codes = [cls.code for cls in classes]
    assert len(codes) == len(set(codes))
    for code in ("occupied", "suicide", "ko", "not_your_turn", "game_over", "off_board",
                 "malformed_move"):
        assert code in codes


# -- storage ----------------------------------------------------------------------------------


def random_game(size: int, moves: int, seed: int) -> Game:
    """A game of random legal moves (never two passes in a row)."""
    rng = random.Random(seed)
    game = Game(size)
    while len(game.moves) < moves:
        legal = game.legal_moves()
        game.play(rng.choice(legal) if legal else "pass")
    return game


def test_to_dict_and_from_dict_rebuild_the_same_game() -> None:
    game = random_game(9, 120, seed=3)
    data = game.to_dict()
    again = Game.from_dict(data)
    assert again.board_rows() == game.board_rows()
    assert again.captures == game.captures and again.ko == game.ko
    assert again.to_move == game.to_move and again.moves == game.moves
    assert again.legal_moves() == game.legal_moves()  # the superko history came back too
    assert again.to_dict() == data


def test_scoring_state_survives_storage(boards: Any) -> None:
    game = Game(9)
    for move in ["E5", "D5", "E4", "D4", "pass", "pass"]:
        game.play(move)
    game.toggle_dead("D5")
    data = game.to_dict()
    assert data["dead"] == ["D5", "D4"] and data["accepted"] is False
    again = Game.from_dict(data)
    assert again.status == "scoring" and again.dead_stones == {"D5", "D4"}
    again.accept_score()
    final = Game.from_dict(again.to_dict())
    assert final.status == "over" and final.result == again.result


def test_rebuilding_a_300_move_game_is_fast() -> None:
    data = random_game(19, 300, seed=7).to_dict()
    timings = []
    for _ in range(5):
        began = time.perf_counter()
        Game.from_dict(data)
        timings.append(time.perf_counter() - began)
    assert min(timings) < 0.020, timings


@pytest.mark.parametrize(
    "data",
    [
        {"size": 9, "moves": ["E5", "E5"]},
        {"size": 9, "moves": "E5"},
        {"size": 9, "moves": ["pass", "pass", "E5"]},
        {"size": 99, "moves": []},
        {"size": 9, "komi": "x", "moves": []},
        {"size": 9, "moves": [], "setup": {"black": ["E5"], "white": ["E5"]}},
        {"size": 9, "moves": [], "setup": {"black": ["E5"], "to_move": "red"}},
        {"size": 9, "moves": ["pass", "pass"], "dead": ["E5"]},
        [],
    ],
)
def test_broken_stored_games_are_refused(data: Any) -> None:
    with pytest.raises(InvalidState) as caught:
        Game.from_dict(data)
    assert caught.value.code == "invalid_state"
    assert caught.value.message.startswith("invalid state:")


def test_a_player_may_resign_out_of_turn_and_lose_on_time() -> None:
    game = Game(9)
    game.play("E5")
    game.end("black", "resign")  # white is to move; black resigns anyway
    assert game.status == "over" and game.to_move is None
    assert game.result == {"winner": "white", "text": "W+R"}
    assert game.moves == ["E5"]  # no move is recorded for it
    with pytest.raises(GameOver):
        game.play("D4")
    with pytest.raises(GameOver):
        game.end("white", "time")

    timed = Game(9)
    timed.play("pass")
    timed.play("pass")  # in scoring, a clock still runs
    timed.end("white", "time")
    assert timed.result == {"winner": "black", "text": "B+T"}
    rebuilt = Game.from_dict(timed.to_dict())
    assert rebuilt.result == {"winner": "black", "text": "B+T"} and rebuilt.status == "over"


def test_undo_takes_back_an_ending_before_any_move() -> None:
    game = Game(9)
    game.play("E5")
    game.end("white", "time")
    game.undo()
    assert game.status == "playing" and game.moves == ["E5"] and game.to_move == "white"


def test_an_ending_needs_a_colour_and_a_reason() -> None:
    with pytest.raises(InvalidState):
        Game(9).end("green", "resign")
    with pytest.raises(InvalidState):
        Game(9).end("black", "boredom")
