"""The seed's comparison: steps per solver per start square."""

from __future__ import annotations

from app.engine.knights_tour import SOLVERS, compare_solvers


def test_on_8x8_only_warnsdorff_ever_backtracks_and_plain_backtracking_runs_out() -> None:
    table = compare_solvers(8, budget=200)
    assert set(table) == set(SOLVERS)
    assert all(len(row) == 64 for row in table.values())
    assert table["backtracking"] == [None] * 64  # plain search needs far more than 200 steps
    assert table["circuit"] == table["divide"] == [63] * 64
    warnsdorff = table["warnsdorff"]
    assert warnsdorff.count(63) == 63
    assert all(steps is not None and steps < 100 for steps in warnsdorff)


def test_on_5x5_plain_backtracking_finishes_and_half_the_squares_start_nothing() -> None:
    table = compare_solvers(5, budget=1_000_000)
    corner_coloured = [s for s in range(25) if sum(divmod(s, 5)) % 2 == 0]
    for method in ("backtracking", "warnsdorff", "divide"):
        row = table[method]
        assert all(row[s] is not None and row[s] >= 24 for s in corner_coloured)  # type: ignore[operator]
        assert all(row[s] is None for s in range(25) if s not in corner_coloured)
    assert table["circuit"] == [None] * 25  # odd boards have no circuit
    assert table["backtracking"][0] == 8839
