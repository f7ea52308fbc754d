"""`solve_from` finishes a player's path, or proves it cannot, or says the budget ran out; and
forward checking (the search's and the puzzle's) never gives up on a path that has a tour."""

from __future__ import annotations

import random

import pytest

from app.engine.knights_tour import (
    BudgetExhausted,
    NoCompletion,
    Puzzle,
    solve_from,
    verify,
)
from app.engine.knights_tour.backtracking import search


def test_completes_a_partial_tour_keeping_the_players_moves() -> None:
    puzzle = Puzzle(8, path=["d4", "e6", "g5", "h7", "f8"])
    result = solve_from(puzzle)
    verify(8, result.tour, closed=False)
    assert result.names()[:5] == puzzle.path
    assert result.method == "completion"


def test_completes_a_closed_tour() -> None:
    puzzle = Puzzle(8, closed=True, path=["a1", "b3", "c5", "d7"])
    result = solve_from(puzzle)
    verify(8, result.tour, closed=True)
    assert result.names()[:4] == puzzle.path


def test_an_empty_puzzle_gets_a_tour_from_a1() -> None:
    assert solve_from(Puzzle(6)).names()[0] == "a1"
    assert solve_from(Puzzle(6, closed=True)).names()[0] == "a1"


def test_a_solved_puzzle_is_returned_as_it_is() -> None:
    tour = solve_from(Puzzle(5)).names()
    assert solve_from(Puzzle(5, path=tour)).names() == tour


def test_a_path_with_no_completion_is_proved_hopeless() -> None:
    # No warning fires here (every square still has ways in, nothing is split), but the
    # search tries every continuation and finds none.
    puzzle = Puzzle(6, path=["a6", "b4", "c2", "d4", "e6", "f4", "e2", "c3"])
    assert puzzle.warning is None and puzzle.status == "playing"
    with pytest.raises(NoCompletion) as caught:
        solve_from(puzzle)
    assert caught.value.code == "no_completion"
    assert caught.value.steps > 0


def test_warnings_and_ended_games_are_no_completion_at_once() -> None:
    with pytest.raises(NoCompletion, match="cut off"):
        solve_from(Puzzle(8, path=["b3", "d4", "c2", "e3"]))
    with pytest.raises(NoCompletion, match="Stuck"):
        solve_from(Puzzle(5, path=["a1", "b3", "d2", "c4", "a5"]))
    with pytest.raises(NoCompletion, match="corners' colour"):
        solve_from(Puzzle(7, path=["b1"]))
    with pytest.raises(NoCompletion, match="No closed tour"):
        solve_from(Puzzle(7, closed=True))


def test_running_out_of_budget_is_not_a_proof() -> None:
    puzzle = Puzzle(16, path=["a1", "c2"])
    with pytest.raises(BudgetExhausted) as caught:
        solve_from(puzzle, node_budget=100)  # 254 squares left: cannot be done in 100 steps
    assert caught.value.code == "budget"
    assert caught.value.steps == 101
    assert puzzle.path == ["a1", "c2"]  # the puzzle itself is untouched


def _random_paths(n: int, count: int, seed: int, shortest: int) -> list[list[int]]:
    rng = random.Random(seed)
    paths = []
    while len(paths) < count:
        puzzle = Puzzle(n)
        puzzle.play(rng.randrange(n * n))
        for _ in range(rng.randrange(shortest, shortest + 10)):
            if puzzle.status != "playing":
                break
            puzzle.play(rng.choice(puzzle.legal_next))
        if puzzle.status == "playing":
            paths.append(puzzle.indices)
    return paths


@pytest.mark.parametrize("n,closed,shortest", [(5, False, 3), (6, False, 12), (6, True, 12)])
def test_forward_checking_never_rules_out_a_completable_path(
    n: int, closed: bool, shortest: int
) -> None:
    """Against exhaustive backtracking with no look-ahead at all, on random paths."""
    for path in _random_paths(n, 80, seed=n + closed, shortest=shortest):
        try:
            search(n, n, path, closed=closed, forward_check=False, budget=3_000_000)
            completable = True
        except NoCompletion:
            completable = False
        try:
            search(n, n, path, closed=closed)
            found = True
        except NoCompletion:
            found = False
        assert found == completable, path
        if completable:
            assert Puzzle(n, closed, path).warning is None, path


def _tours(n: int, closed: bool) -> list[list[int]]:
    """Many different tours: one from every start by each searching solver, and for closed
    tours their rotations and reversals."""
    from app.engine.knights_tour import solve

    tours = []
    for start in range(n * n):
        if not closed and n % 2 and sum(divmod(start, n)) % 2:
            continue
        tours.append(solve(n, start, closed=closed, method="warnsdorff").squares())
        if closed:
            tours.append(solve(n, start, closed=True, method="circuit").squares()[::-1])
    return tours


@pytest.mark.parametrize("n,closed", [(5, False), (6, False), (6, True), (8, False), (8, True)])
def test_no_prefix_of_a_real_tour_is_warned_about_or_given_up(n: int, closed: bool) -> None:
    for number, tour in enumerate(_tours(n, closed)):
        for k in range(1, n * n):
            assert Puzzle(n, closed, tour[:k]).warning is None, (tour, k)
        k = 1 + number % (n * n - 1)  # one prefix per tour goes to the search
        found = search(n, n, tour[:k], closed=closed, budget=1_000_000)
        verify(n, found.tour, closed)
