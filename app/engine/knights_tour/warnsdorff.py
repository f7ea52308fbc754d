"""Warnsdorff's rule (1823): move to the square from which the knight would have the fewest
onward moves. Squares with few ways in are the ones that get cut off, so visit them first.

Start with `warnsdorff_order`, the rule itself (the puzzle's hint walks it). Ties go to the
square that comes first clockwise from one o'clock (`squares.KNIGHT_STEPS`), as in the seed, so
every choice is deterministic. `warnsdorff_tour` is the solver: the rule with forward checking and
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


def warnsdorff_order(n: int, visited: Sequence[int] | bytearray, current: int) -> list[int]:
    """The unvisited knight's moves from `current` on an n x n board where `visited[s]` is
    true for every visited square, best first by the rule: fewest onward moves, ties
    clockwise. The puzzle's hint walks this list past the squares its forward check condemns."""
    free = [square for square in neighbours(n)[current] if not visited[square]]  # clockwise
    return sorted(free, key=lambda square: onward_moves(n, visited, square))  # stable: ties stay


def warnsdorff_choice(n: int, visited: Sequence[int] | bytearray, current: int) -> int | None:
    """Warnsdorff's move from `current`: the first of `warnsdorff_order`. None when every
    knight's move from `current` is visited."""
    order = warnsdorff_order(n, visited, current)
    return order[0] if order else None


def warnsdorff_tour(
    n: int, start: int, *, closed: bool, budget: int = DEFAULT_BUDGET
) -> SearchResult:
    """A tour of the n x n board from `start` by Warnsdorff's rule, with fast backtracking to
    the last tie when the rule runs into a dead end (closed if asked)."""
    return fast_search(n, n, [start], closed=closed, budget=budget)
