"""One entry point for every solver: `solve(n, start, closed, method)`, and `solve_from`, which
finishes a player's puzzle.

Start with `solve`. It checks the request first (size, start, whether such a tour exists: see
`check_request`), then runs the method asked for, verifies the tour and returns a `TourResult`.
The methods, from the seed's comparison:

- "backtracking": plain depth-first search in clockwise order (`backtracking.plain_backtracking`);
  fine on 5x5 and 6x6, a matter of luck beyond, so it always runs on a budget.
- "warnsdorff": Warnsdorff's rule with forward checking and fast backtracking to the last tie
  (`warnsdorff.warnsdorff_tour`).
- "circuit": replay of a stored closed tour from the start square (`circuits.stored_circuit`);
  even boards only.
- "divide": blocks of small tours glued together (`divide.divide_tour`), for every board up to
  `MAX_SIZE`.
- "auto": on boards up to `SEARCH_LIMIT` the circuit (closed) or Warnsdorff (open), falling back
  to divide and conquer if the search runs out of budget; divide and conquer above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..errors import quoted
from .backtracking import DEFAULT_BUDGET, complete_search, plain_backtracking
from .circuits import stored_circuit
from .divide import divide_tour
from .errors import (
    BudgetExhausted,
    ImpossibleStart,
    NoClosedTour,
    NoCompletion,
    NoTour,
    TooLarge,
    UnknownMethod,
)
from .puzzle import Puzzle
from .squares import Square, check_size, colour, describe, parse_square, square_name
from .verify import verify
from .warnsdorff import warnsdorff_tour

MAX_SIZE = 1000  # the largest board accepted; its closed tour takes about a tenth of a second
SEARCH_LIMIT = 16  # "auto" searches up to here (the UI's boards); blocks are faster beyond
# The searching solvers' limit: their tables cost ~250 bytes a square and Warnsdorff's rule
# runs at ~25,000 squares a second, so 300x300 is about 4 s and 20 MB.
SEARCH_MAX_SIZE = 300

Method = Literal["auto", "backtracking", "warnsdorff", "circuit", "divide"]
METHODS: tuple[Method, ...] = ("auto", "backtracking", "warnsdorff", "circuit", "divide")

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class TourResult:
    """A verified tour: `tour[k]` is the k-th square visited, as an index row * n + col (row 0 =
    rank 1). `method` is the solver that found it ("auto" resolved), `steps` the knight's moves
    it made, counting moves later taken back, and `backtracks` the moves taken back."""

    n: int
    closed: bool
    method: str
    tour: IntArray
    steps: int
    backtracks: int = 0

    def squares(self) -> list[int]:
        """The tour as a plain list of indices (for JSON)."""
        return [int(s) for s in self.tour]

    def names(self) -> list[str]:
        """The tour as square names ("a1", "c2", ...); boards up to 26x26 only."""
        return [square_name(self.n, int(s)) for s in self.tour]


def check_request(n: int, start: Square | tuple[int, int] | None, closed: bool) -> tuple[int, int]:
    """The request as (n, start index), or the error that says why no such tour exists."""
    n = check_size(n, MAX_SIZE)
    index = parse_square(n, 0 if start is None else start)
    if 2 <= n <= 4:
        raise NoTour(f"No knight's tour exists on a {n}x{n} board; tours exist from 5x5 up.")
    if closed and n % 2:
        raise NoClosedTour(
            f"No closed tour exists on a {n}x{n} board: a closed tour alternates colours, so it "
            "needs as many squares of each colour, and an odd board has one more of its "
            "corners' colour."
        )
    if not closed and n % 2 and colour(n, index):
        raise ImpossibleStart(
            f"No tour of the {n}x{n} board starts on {describe(n, index)}: on an odd board a "
            "tour starts and ends on the corners' colour, which has one square more."
        )
    return n, index


def solve(
    n: int,
    start: Square | tuple[int, int] | None = None,
    closed: bool = False,
    method: str = "auto",
    budget: int = DEFAULT_BUDGET,
) -> TourResult:
    """A knight's tour of the n x n board from `start` (an index, a (row, col) pair with row 0 =
    rank 1, or a name like "c2"; a1 by default), closed if asked, by `method` (one of
    `METHODS`). The searching methods stop after `budget` steps with `BudgetExhausted`."""
    if method not in METHODS:
        raise UnknownMethod(
            f"{quoted(method)} is not a solver; choose one of {', '.join(METHODS)}."
        )
    n, index = check_request(n, start, closed)
    if method in ("backtracking", "warnsdorff") and n > SEARCH_MAX_SIZE:
        raise TooLarge(
            f"The searching solvers go up to {SEARCH_MAX_SIZE}x{SEARCH_MAX_SIZE}; for "
            f"{n}x{n} use \"divide\" (or \"auto\")."
        )
    if n == 1:
        result = TourResult(1, closed, "trivial", np.zeros(1, dtype=np.int64), 0)
    else:
        result = _run(n, index, closed, method, budget)
    verify(n, result.tour, closed)
    return result


def _run(n: int, start: int, closed: bool, method: str, budget: int) -> TourResult:
    if method == "auto":
        if n > SEARCH_LIMIT:
            method = "divide"
        elif closed:
            method = "circuit"
        else:
            try:
                return _run(n, start, closed, "warnsdorff", budget)
            except BudgetExhausted:
                method = "divide"
    if method == "backtracking":
        found = plain_backtracking(n, n, start, closed=closed, budget=budget)
        return _result(n, closed, method, found.tour, found.steps, found.backtracks)
    if method == "warnsdorff":
        found = warnsdorff_tour(n, start, closed=closed, budget=budget)
        return _result(n, closed, method, found.tour, found.steps, found.backtracks)
    if method == "circuit":
        if n % 2:
            raise NoClosedTour(
                f"The circuit method replays a stored closed tour, and a {n}x{n} board has "
                "none; use another method."
            )
        tour = stored_circuit(n).tour_from(start)
        return TourResult(n, closed, method, tour, n * n - 1)
    built = divide_tour(n, start, closed)
    return TourResult(n, closed, "divide", built.tour, n * n - 1 + built.block_steps)


def _result(
    n: int, closed: bool, method: str, tour: list[int], steps: int, backtracks: int
) -> TourResult:
    return TourResult(n, closed, method, np.array(tour, dtype=np.int64), steps, backtracks)


def solve_from(puzzle: Puzzle, node_budget: int = DEFAULT_BUDGET) -> TourResult:
    """The player's path continued to a full tour (closed if the puzzle is), by exhaustive
    search guided by Warnsdorff's rule with forward checking. The tour begins with the path
    (a1 if it is empty). Raises `NoCompletion` when no continuation exists (a proof: every one
    was tried or ruled out) and `BudgetExhausted` when `node_budget` steps did not settle it."""
    n = puzzle.size
    path = puzzle.indices
    status = puzzle.status
    if status == "solved":
        return _result(n, puzzle.closed, "completion", path, 0, 0)
    if status != "playing":
        raise NoCompletion(f"No tour completes this path. {puzzle.message}")
    trouble = puzzle.trouble
    if trouble is not None:
        raise NoCompletion(f"No tour completes this path. {trouble.message}")
    try:
        found = complete_search(n, n, path or [0], closed=puzzle.closed, budget=node_budget)
    except BudgetExhausted as exhausted:
        raise BudgetExhausted(
            f"No completion found within {node_budget:,} steps; the path may or may not be "
            "completable.", exhausted.steps,
        ) from None
    except NoCompletion as none:
        raise NoCompletion(
            f"No tour completes this path: all continuations were tried ({none.steps:,} "
            "steps).", none.steps,
        ) from None
    result = _result(n, puzzle.closed, "completion", found.tour, found.steps, found.backtracks)
    verify(n, result.tour, puzzle.closed)
    return result
