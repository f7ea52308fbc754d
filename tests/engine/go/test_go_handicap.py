"""Fixed handicap placement against GTP: the spec's table for 9/13/19 and GNU Go's own
`fixed_handicap` answers for every size 7-19 (tests/data/go/gnugo_fixed_handicap.json, made by
`bench/go_referee.py handicap`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engine.go import Game, InvalidHandicap, handicap_points, max_handicap
from app.engine.go.coords import geometry

DATA = Path(__file__).resolve().parents[2] / "data" / "go" / "gnugo_fixed_handicap.json"

# GTP v2 specification, section 4.1.1.
SPEC = {
    19: ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"],
    13: ["D4", "K10", "D10", "K4", "D7", "K7", "G4", "G10", "G7"],
    9: ["C3", "G7", "C7", "G3", "C5", "G5", "E3", "E7", "E5"],
}


def names(size: int, stones: int) -> set[str]:
    return {geometry(size).names[p] for p in handicap_points(size, stones)}


@pytest.mark.parametrize("size", [9, 13, 19])
def test_the_spec_table(size: int) -> None:
    order = SPEC[size]
    center = order[8]
    for stones in range(2, 10):
        if stones <= 4:
            expected = set(order[:stones])
        elif stones in (5, 7, 9):
            expected = set(order[: stones - 1]) | {center}
        else:
            expected = set(order[:stones])
        assert names(size, stones) == expected, stones


def test_every_size_matches_gnu_go() -> None:
    placements = json.loads(DATA.read_text())["placements"]
    assert len(placements) == 13
    for size_text, by_stones in placements.items():
        size = int(size_text)
        for stones_text, expected in by_stones.items():
            stones = int(stones_text)
            if expected is None:
                with pytest.raises(InvalidHandicap):
                    handicap_points(size, stones)
            else:
                assert names(size, stones) == set(expected), (size, stones)


def test_limits() -> None:
    assert max_handicap(5) == max_handicap(6) == 0
    assert max_handicap(7) == max_handicap(8) == max_handicap(10) == 4
    assert max_handicap(25) == 9 and max_handicap(24) == 4
    assert names(25, 9) >= {"D4", "W22", "N13"}
    for size, stones in [(5, 2), (6, 4), (8, 5), (19, 10), (19, 1), (19, -2)]:
        with pytest.raises(InvalidHandicap) as caught:
            handicap_points(size, stones)
        assert caught.value.message.startswith("invalid handicap:")


def test_white_moves_first_after_a_handicap() -> None:
    game = Game(13, handicap=5)
    assert game.to_move == "white" and game.komi == 0.5
    game.play("G10")
    assert game.to_move == "black"
