"""Every board that has a tour gets one, verified square by square: open from a corner for every
n from 5 to 60, closed for every even n, and a sample of sizes up to 1000."""

from __future__ import annotations

import random
import time

import pytest

from app.engine.knights_tour import solve, verify
from app.engine.knights_tour.divide import divide_tour

SAMPLE = (61, 99, 100, 101, 250, 299, 300, 500, 999, 1000)


def independent_check(n: int, tour: list[int], closed: bool) -> None:
    """A second, plain-Python check, so that `verify` is not the only judge."""
    assert sorted(tour) == list(range(n * n))
    pairs = list(zip(tour, tour[1:], strict=False)) + ([(tour[-1], tour[0])] if closed else [])
    for a, b in pairs:
        (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
        assert {abs(ra - rb), abs(ca - cb)} == {1, 2}


@pytest.mark.parametrize("n", range(5, 61))
def test_every_board_from_5_to_60(n: int) -> None:
    result = solve(n, (0, 0))
    independent_check(n, result.squares(), closed=False)
    assert result.tour[0] == 0
    if n % 2 == 0:
        closed = solve(n, 0, closed=True)
        independent_check(n, closed.squares(), closed=True)


@pytest.mark.parametrize("n", SAMPLE)
def test_sample_of_large_boards(n: int) -> None:
    open_tour = solve(n, 0)
    verify(n, open_tour.tour, closed=False)
    assert open_tour.method == "divide" and open_tour.tour[0] == 0
    if n % 2 == 0:
        verify(n, solve(n, 0, closed=True).tour, closed=True)


def test_a_closed_1000_board_in_under_a_second() -> None:
    divide_tour(1000, 0, closed=True)  # the blocks' own tours are searched once, then stored
    start = time.perf_counter()
    result = solve(1000, 0, closed=True, method="divide")
    verify(1000, result.tour, closed=True)
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("n", [5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25])
def test_odd_boards_start_on_every_square_of_the_corners_colour(n: int) -> None:
    for start in range(n * n):
        if sum(divmod(start, n)) % 2 == 0:
            tour = solve(n, start, method="divide").tour
            verify(n, tour, closed=False)
            assert tour[0] == start


def test_any_start_on_big_boards() -> None:
    rng = random.Random(2024)
    for n in (26, 27, 40, 41, 64, 65, 101, 150, 151):
        for _ in range(4):
            start = rng.randrange(n * n)
            closed = n % 2 == 0 and rng.random() < 0.5
            if n % 2 and sum(divmod(start, n)) % 2:
                start -= 1  # move onto the corners' colour
            tour = solve(n, start, closed=closed, method="divide").tour
            verify(n, tour, closed)
            assert tour[0] == start


def test_every_board_up_to_300_open_and_closed() -> None:
    for n in range(5, 301):
        verify(n, solve(n, 0).tour, closed=False)
        if n % 2 == 0:
            verify(n, solve(n, 0, closed=True).tour, closed=True)
