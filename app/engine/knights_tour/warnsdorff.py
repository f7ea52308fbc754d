"""Warnsdorff's rule (1823): move to the square from which the knight would have the fewest
onward moves. Squares with few ways in are the ones that get cut off, so visit them first.

Start with `warnsdorff_choice`, the rule itself (the puzzle's hint). Ties go to the square that
comes first clockwise from one o'clock (`squares.KNIGHT_STEPS`), as in the seed, so every
choice is deterministic. `warnsdorff_tour` is the solver: the rule with forward checking and
the seed's fast backtracking to the last tie (see `backtracking.fast_search`). On 8x8 it
needs no backtracking from 63 of the 64 start squares (`compare.compare_solvers(8)`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .backtracking import DEFAULT_BUDGET, SearchResult, fast_search
from .squares import neighbours


def onward_moves(n: int, visited: Sequence[int] | bytearray, square: int) -> int:
    """How many unvisited squares a knight on `square` could move to next."""
    return sum(1 for t in neighbours(n)[square] if not visited[t])


def warnsdorff_choice(n: int, visited: Sequence[int] | bytearray, current: int) -> int | None:
    """Warnsdorff's move from `current` on an n x n board where `visited[s]` is true for every
    visited square: the unvisited knight's move with the fewest onward moves, ties clockwise.
    None when every knight's move from `current` is visited."""
    best: int | None = None
    best_count = 9
    for square in neighbours(n)[current]:
        if visited[square]:
            continue
        count = onward_moves(n, visited, square)
        if count < best_count:  # strict: on a tie the earlier (clockwise) square stays
            best, best_count = square, count
    return best


def warnsdorff_tour(
    n: int, start: int, *, closed: bool, budget: int = DEFAULT_BUDGET
) -> SearchResult:
    """A tour of the n x n board from `start` by Warnsdorff's rule, with fast backtracking to
    the last tie when the rule runs into a dead end (closed if asked)."""
    return fast_search(n, n, [start], closed=closed, budget=budget)
