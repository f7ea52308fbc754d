"""The seed's comparison of solvers: for every start square, how many steps each one takes.

Start with `compare_solvers`. A step is one knight's move made, counting moves later taken back,
so a search that never backtracks takes n*n - 1 steps (63 on 8x8); the stored circuit and the
divide-and-conquer construction always do (their search, if any, happened once, when their
tours were first stored). Plain backtracking runs on a budget per start, as the seed's did (it
stopped at ten billion steps); `None` marks a start whose search ran out.
"""

from __future__ import annotations

from .errors import BudgetExhausted, KnightsTourError
from .solve import solve

SOLVERS: tuple[str, ...] = ("backtracking", "warnsdorff", "circuit", "divide")
COMPARE_BUDGET = 100_000  # steps per start for plain backtracking: ~64 x 0.3 s at worst on 8x8


def compare_solvers(
    n: int = 8, closed: bool = False, budget: int = COMPARE_BUDGET
) -> dict[str, list[int | None]]:
    """For each solver in `SOLVERS`, the steps it takes from each start square 0 .. n*n - 1
    (index row * n + col), or None where it ran out of `budget` or cannot start there (on an
    odd board, half the squares start no tour, and no board there has a circuit)."""
    table: dict[str, list[int | None]] = {}
    for method in SOLVERS:
        row: list[int | None] = []
        for start in range(n * n):
            try:
                row.append(solve(n, start, closed=closed, method=method, budget=budget).steps)
            except BudgetExhausted:
                row.append(None)
            except KnightsTourError:
                row.append(None)
        table[method] = row
    return table
