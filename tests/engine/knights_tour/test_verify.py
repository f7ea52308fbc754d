"""`verify` accepts real tours and names the first fault of a broken one."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.knights_tour import InvalidTour, solve, verify

OPEN_5 = solve(5, 0).squares()
CLOSED_6 = solve(6, 0, closed=True).squares()


def test_real_tours_pass() -> None:
    verify(5, OPEN_5, closed=False)
    verify(6, CLOSED_6, closed=True)
    verify(6, CLOSED_6, closed=False)  # a closed tour is an open one too
    verify(6, np.array(CLOSED_6[::-1]), closed=True)
    verify(1, [0], closed=False)


def fault(n: int, tour: object, closed: bool = False) -> str:
    with pytest.raises(InvalidTour) as caught:
        verify(n, tour, closed)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_tour"
    return caught.value.message


def test_a_step_that_is_not_a_knights_move() -> None:
    broken = OPEN_5[:]
    broken[3], broken[4] = broken[4], broken[3]
    assert "is not a knight's move" in fault(5, broken)
    assert fault(5, list(range(25))).startswith("Move 2 goes from a1 to b1")


def test_missing_repeated_and_off_board_squares() -> None:
    repeated = OPEN_5[:-1] + [OPEN_5[0]]
    assert "visited more than once" in fault(5, repeated)
    assert "has 24" in fault(5, OPEN_5[:-1])
    assert "has 26" in fault(5, OPEN_5 + [OPEN_5[0]])
    assert "not on the 5x5 board" in fault(5, OPEN_5[:-1] + [25])
    assert "not on the 5x5 board" in fault(5, [-1] + OPEN_5[1:])


def test_an_open_tour_claimed_closed() -> None:
    assert not _closes(5, OPEN_5)
    assert "is meant to be closed" in fault(5, OPEN_5, closed=True)
    assert "is meant to be closed" in fault(1, [0], closed=True)


def test_malformed_input() -> None:
    assert "flat sequence" in fault(5, [[0, 1]])
    assert "flat sequence" in fault(5, [0.5] * 25)


def test_big_broken_tours_are_caught_fast() -> None:
    tour = solve(1000, 0, closed=True).tour.copy()
    tour[500_000], tour[500_001] = tour[500_001], tour[500_000]
    assert "Move 500001" in fault(1000, tour, closed=True)
    assert "(rank" in fault(1000, tour, closed=True)  # big boards name squares by number


def _closes(n: int, tour: list[int]) -> bool:
    (r1, c1), (r2, c2) = divmod(tour[0], n), divmod(tour[-1], n)
    return abs((r1 - r2) * (c1 - c2)) == 2
