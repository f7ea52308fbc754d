"""`solve`: each method, the choice "auto" makes, and the requests it refuses."""

from __future__ import annotations

import pytest

from app.engine.knights_tour import (
    METHODS,
    BudgetExhausted,
    ImpossibleStart,
    InvalidSize,
    KnightsTourError,
    NoClosedTour,
    NoTour,
    OffBoard,
    TooLarge,
    UnknownMethod,
    solve,
    verify,
)


@pytest.mark.parametrize("method", [m for m in METHODS if m != "backtracking"])
@pytest.mark.parametrize("closed", [False, True])
def test_every_method_on_6x6(method: str, closed: bool) -> None:
    result = solve(6, "c2", closed=closed, method=method)
    verify(6, result.tour, closed)
    assert result.names()[0] == "c2"
    assert result.steps >= 35
    assert result.method == method or method == "auto"


def test_auto_searches_small_boards_and_builds_big_ones() -> None:
    assert solve(8, 0).method == "warnsdorff"
    assert solve(8, 0, closed=True).method == "circuit"
    assert solve(17, 0).method == "divide"


def test_warnsdorff_from_every_start_up_to_16() -> None:
    for n in range(5, 17):
        for closed in (False, True) if n % 2 == 0 else (False,):
            for start in range(n * n):
                if n % 2 and sum(divmod(start, n)) % 2:
                    continue
                verify(n, solve(n, start, closed=closed, method="warnsdorff").tour, closed)


def test_warnsdorff_needs_no_backtracking_from_63_of_64_starts_on_8x8() -> None:
    steps = [solve(8, s, method="warnsdorff").steps for s in range(64)]
    assert steps.count(63) == 63


def test_plain_backtracking_runs_on_a_budget() -> None:
    assert solve(5, 0, method="backtracking").steps == 8839  # clockwise order
    six = solve(6, 0, method="backtracking", budget=300_000)
    verify(6, six.tour, closed=False)
    assert six.steps == 248_168 and six.backtracks == six.steps - 35
    with pytest.raises(BudgetExhausted) as caught:
        solve(8, 0, method="backtracking", budget=10_000)
    assert caught.value.code == "budget"
    assert caught.value.steps == 10_001


def test_the_1x1_board_is_its_own_open_tour() -> None:
    assert solve(1).squares() == [0]
    with pytest.raises(NoClosedTour):
        solve(1, closed=True)


def test_start_may_be_an_index_a_pair_or_a_name() -> None:
    assert solve(8, 10).tour[0] == solve(8, (1, 2)).tour[0] == solve(8, "c2").tour[0] == 10
    assert solve(300, "c2").tour[0] == 302  # names work on any board for the first 26 files


def expect(error: type[KnightsTourError], code: str, **request: object) -> str:
    with pytest.raises(error) as caught:
        solve(**request)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert caught.value.message.endswith(".")
    return caught.value.message


def test_impossible_requests() -> None:
    for n in (2, 3, 4):
        expect(NoTour, "no_tour", n=n)
    for n in (5, 7, 99, 999):
        assert "odd board" in expect(NoClosedTour, "no_closed_tour", n=n, closed=True)
    assert "b1" in expect(ImpossibleStart, "impossible_start", n=5, start="b1")
    expect(ImpossibleStart, "impossible_start", n=999, start=(0, 1))
    expect(TooLarge, "too_large", n=1001)
    expect(InvalidSize, "invalid_size", n=0)
    expect(InvalidSize, "invalid_size", n="8")
    expect(OffBoard, "off_board", n=8, start=64)
    expect(UnknownMethod, "unknown_method", n=8, method="magic")
    expect(NoClosedTour, "no_closed_tour", n=7, method="circuit")


def test_every_corner_coloured_start_of_5x5_has_a_tour() -> None:
    for start in range(0, 25, 2):
        assert solve(5, start).tour[0] == start


def test_the_searching_solvers_stop_at_300() -> None:
    expect(TooLarge, "too_large", n=301, method="warnsdorff")
    expect(TooLarge, "too_large", n=1000, method="backtracking")
    with pytest.raises(BudgetExhausted):
        solve(300, 0, method="warnsdorff", budget=1000)
