"""Depth-first search for knight's tours on a rows x cols board: the engine under every solver
that searches.

Start with `search`. It extends a given path (at least the start square) one knight's move at a
time and takes moves back when it runs into a dead end. Three switches turn it into the solvers
the seed compares:

- `order="fixed"`, no forward checking: plain backtracking, moves tried in clockwise order
  (`plain_backtracking`). Complete but hopeless beyond small boards.
- `order="warnsdorff"`: moves tried fewest-onward-moves first, ties clockwise; with
  `forward_check` every move is taken back at once when it leaves the tour uncompletable (see
  `_still_winnable`). This exhaustive form is `complete_search`, which `solve_from` uses, so its
  `NoCompletion` is a proof.
- `fast_backtrack`: the seed's shortcut. At a dead end, jump back to the last square where
  Warnsdorff's rule met a tie instead of one square back; alternatives at the squares jumped
  over are never tried, so the search is faster but no longer exhaustive
  (`warnsdorff.warnsdorff_tour` falls back to `complete_search` when it runs out of ties).

Every move made counts as one step (a clean 8x8 run takes 63); every move taken back counts
one backtrack. `budget` caps steps and raises `BudgetExhausted` when they run out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import BudgetExhausted, NoCompletion
from .squares import KNIGHT_STEPS, neighbours

DEFAULT_BUDGET = 200_000  # steps; about a second of CPython, so a web request stays bounded
# Fast backtracking gets this many steps a square (plus the extra) before it starts over with
# another tie-break: measured successes need at most ~1.1 steps a square, failures run away.
ATTEMPT_STEPS_PER_SQUARE = 2
ATTEMPT_STEPS_EXTRA = 100

Order = Literal["fixed", "warnsdorff"]


@dataclass(frozen=True)
class SearchResult:
    """A tour found by a search, with the work it took."""

    tour: list[int]
    steps: int
    backtracks: int


class _FastBacktrackFailed(Exception):
    """Raised inside `search` when fast backtracking has skipped alternatives and run dry."""

    def __init__(self, steps: int, backtracks: int) -> None:
        super().__init__()
        self.steps = steps
        self.backtracks = backtracks


def search(
    rows: int,
    cols: int,
    path: Sequence[int],
    *,
    closed: bool,
    budget: int = DEFAULT_BUDGET,
    order: Order = "warnsdorff",
    forward_check: bool = True,
    fast_backtrack: bool = False,
    clock: int = 0,
) -> SearchResult:
    """A full tour of the rows x cols board that begins with `path` (squares `row * cols + col`,
    already legal, at least one), closed if asked. Raises `NoCompletion` when every continuation
    fails and `BudgetExhausted` after `budget` steps."""
    nbrs = neighbours(rows, cols, clock)
    total = rows * cols
    path = list(path)
    visited = bytearray(total)
    for square in path:
        visited[square] = 1
    deg = [sum(1 for t in nbrs[s] if not visited[t]) for s in range(total)]
    low = {s for s in range(total) if not visited[s] and deg[s] <= 1}
    adjacent = [frozenset(t) for t in nbrs]
    first = path[0]
    remaining = total - len(path)
    steps = backtracks = 0
    warnsdorff = order == "warnsdorff"

    if remaining == 0:
        if closed and first not in adjacent[path[-1]]:
            raise NoCompletion("The path covers the board but does not return to its start.")
        return SearchResult(path, 0, 0)
    if not _colours_fit(cols, path, visited, closed):
        raise NoCompletion(
            "No tour completes this path: a knight alternates colours, and the unvisited "
            "squares do not have the right number of each.", 0
        )
    if forward_check and not (
        _still_winnable(path[-1], first, closed, remaining, deg, low, adjacent)
        and _connected(nbrs, visited, remaining)
    ):
        raise NoCompletion("No tour completes this path.", 0)

    def candidates(cur: int) -> tuple[list[int], bool]:
        cands = [t for t in nbrs[cur] if not visited[t]]
        if warnsdorff and len(cands) > 1:
            cands.sort(key=deg.__getitem__)  # stable: equal counts keep the clockwise order
            return cands, deg[cands[0]] == deg[cands[1]]
        return cands, False

    # One frame per square of the path from the end of the given prefix on: the candidates
    # still to try from it, how many were tried, and whether Warnsdorff's rule met a tie there.
    frames: list[tuple[list[int], bool]] = [candidates(path[-1])]
    tried: list[int] = [0]
    skipped = False
    while True:
        cands = frames[-1][0]
        i = tried[-1]
        if i < len(cands):
            tried[-1] = i + 1
            square = cands[i]
            steps += 1
            if steps > budget:
                raise BudgetExhausted(
                    f"The search used its budget of {budget:,} steps without finishing.", steps
                )
            # Visit `square`.
            visited[square] = 1
            path.append(square)
            remaining -= 1
            low.discard(square)
            for t in nbrs[square]:
                deg[t] -= 1
                if deg[t] == 1 and not visited[t]:
                    low.add(t)
            if remaining == 0:
                if not closed or first in adjacent[square]:
                    return SearchResult(path, steps, backtracks)
                winnable = False
            elif forward_check:
                winnable = _still_winnable(
                    square, first, closed, remaining, deg, low, adjacent
                ) and _splits_nothing(nbrs, visited, square)
            else:
                winnable = True
            if winnable:
                frames.append(candidates(square))
                tried.append(0)
                continue
            _unvisit(square, path, visited, deg, low, nbrs)
            remaining += 1
            backtracks += 1
            continue
        # Every candidate from this square failed: take the square back.
        if len(frames) == 1:
            if skipped:
                raise _FastBacktrackFailed(steps, backtracks)
            raise NoCompletion("No tour completes this path.", steps)
        frames.pop()
        tried.pop()
        _unvisit(path[-1], path, visited, deg, low, nbrs)
        remaining += 1
        backtracks += 1
        if fast_backtrack:
            # The seed's fast backtracking: keep going back to the last square where the
            # heuristic had to break a tie, if there is one with moves left to try.
            depth = len(frames) - 1
            while depth >= 0 and not (frames[depth][1] and tried[depth] < len(frames[depth][0])):
                depth -= 1
            if depth >= 0:
                while len(frames) - 1 > depth:
                    if tried[-1] < len(frames[-1][0]):
                        skipped = True
                    frames.pop()
                    tried.pop()
                    _unvisit(path[-1], path, visited, deg, low, nbrs)
                    remaining += 1
                    backtracks += 1


def _unvisit(
    square: int,
    path: list[int],
    visited: bytearray,
    deg: list[int],
    low: set[int],
    nbrs: tuple[tuple[int, ...], ...],
) -> None:
    """Take back the last square of `path`, restoring the counts `search` keeps."""
    path.pop()
    visited[square] = 0
    for t in nbrs[square]:
        deg[t] += 1
        if deg[t] == 2:
            low.discard(t)
    if deg[square] <= 1:
        low.add(square)


def _colours_fit(cols: int, path: Sequence[int], visited: bytearray, closed: bool) -> bool:
    """Whether the unvisited squares can follow the path at all, counting colours: the knight
    alternates colours, so after the current square the rest must go other, same, other, ...
    and a closed tour must end on the colour other than the start's."""
    colour = [(s // cols + s % cols) & 1 for s in range(len(visited))]
    here = colour[path[-1]]
    other = sum(1 for s, seen in enumerate(visited) if not seen and colour[s] != here)
    same = sum(1 for s, seen in enumerate(visited) if not seen and colour[s] == here)
    if other - same not in (0, 1):
        return False
    last = here ^ ((other + same) & 1)  # the colour of the final square
    return not closed or last != colour[path[0]]


def _still_winnable(
    cur: int,
    first: int,
    closed: bool,
    remaining: int,
    deg: list[int],
    low: set[int],
    adjacent: list[frozenset[int]],
) -> bool:
    """Forward checking, the seed's "is the game still winnable": False when some unvisited
    square can no longer take its place in the tour.

    `deg[u]` counts u's unvisited neighbours and `low` holds the unvisited squares with at most
    one. The knight can still enter u from the current square, and in a closed tour it can
    leave u for the first square, so those count too. An open tour needs two ways through
    every square but its last, which needs one; a closed tour needs two everywhere.
    """
    if closed and deg[first] == 0:
        return False  # every square next to the start is taken: the tour cannot come back
    ends = 0
    near = adjacent[cur]
    for u in low:
        d = deg[u]
        ways = d + (u in near)
        if closed:
            ways += u in adjacent[first]
            if ways < 2 or (d == 0 and remaining > 1):
                # d == 0: u can only sit between the current and first squares, i.e. last.
                return False
        else:
            if ways == 0 or (d == 0 and remaining > 1):
                # d == 0 with ways == 1: u must come next and would then be a dead end.
                return False
            if ways == 1:
                ends += 1
                if ends > 1:
                    return False  # two dead ends, but a tour has only one last square
    return True


def _splits_nothing(nbrs: tuple[tuple[int, ...], ...], visited: bytearray, square: int) -> bool:
    """Whether the unvisited squares are still one connected group after visiting `square`
    (they were before): its unvisited neighbours must still reach each other."""
    targets = [t for t in nbrs[square] if not visited[t]]
    if len(targets) <= 1:
        return True
    wanted = set(targets[1:])
    seen = {targets[0]}
    frontier = [targets[0]]
    while frontier:
        nxt: list[int] = []
        for s in frontier:
            for t in nbrs[s]:
                if not visited[t] and t not in seen:
                    seen.add(t)
                    wanted.discard(t)
                    if not wanted:
                        return True
                    nxt.append(t)
        frontier = nxt
    return False


def _connected(nbrs: tuple[tuple[int, ...], ...], visited: bytearray, remaining: int) -> bool:
    """Whether the `remaining` unvisited squares form one group a knight can move within."""
    if remaining <= 1:
        return True
    start = visited.index(0)
    seen = {start}
    frontier = [start]
    while frontier:
        s = frontier.pop()
        for t in nbrs[s]:
            if not visited[t] and t not in seen:
                seen.add(t)
                frontier.append(t)
    return len(seen) == remaining


def plain_backtracking(
    rows: int, cols: int, start: int, *, closed: bool, budget: int = DEFAULT_BUDGET
) -> SearchResult:
    """Plain backtracking: moves tried in fixed clockwise order, no heuristic, no look-ahead."""
    return search(
        rows, cols, [start], closed=closed, budget=budget, order="fixed", forward_check=False
    )


def complete_search(
    rows: int, cols: int, path: Sequence[int], *, closed: bool, budget: int = DEFAULT_BUDGET
) -> SearchResult:
    """Exhaustive search guided by Warnsdorff's rule with forward checking: finds a completion
    of `path` when one exists within `budget`, and otherwise proves there is none."""
    return search(rows, cols, path, closed=closed, budget=budget)


def fast_search(
    rows: int, cols: int, path: Sequence[int], *, closed: bool, budget: int = DEFAULT_BUDGET
) -> SearchResult:
    """Warnsdorff's rule with the seed's fast backtracking to the last tie.

    An early wrong turn is found only much later, and going back tie by tie rarely reaches it,
    so each attempt is capped at `ATTEMPT_STEPS_PER_SQUARE` steps a square; then the search
    starts over with ties broken clockwise from the next clock position (two o'clock, ...).
    On every board from 10x10 to 40x40, from every start, open and closed, one of the first
    four clock positions succeeds. If all eight fail, an exhaustive search takes over with
    what is left of the budget."""
    total = rows * cols
    steps = backtracks = 0
    for clock in range(len(KNIGHT_STEPS)):
        cap = min(budget - steps, ATTEMPT_STEPS_PER_SQUARE * total + ATTEMPT_STEPS_EXTRA)
        try:
            found = search(
                rows, cols, path, closed=closed, budget=cap, fast_backtrack=True, clock=clock
            )
        except _FastBacktrackFailed as dry:
            steps, backtracks = steps + dry.steps, backtracks + dry.backtracks
            continue
        except BudgetExhausted as exhausted:
            steps += exhausted.steps - 1  # the step that broke the cap was never made
            if steps >= budget:
                raise BudgetExhausted(
                    f"The search used its budget of {budget:,} steps without finishing.", steps
                ) from None
            continue
        return SearchResult(found.tour, steps + found.steps, backtracks + found.backtracks)
    try:
        rest = search(rows, cols, path, closed=closed, budget=budget - steps)
    except BudgetExhausted as exhausted:
        raise BudgetExhausted(
            f"The search used its budget of {budget:,} steps without finishing.",
            steps + exhausted.steps,
        ) from None
    except NoCompletion as none:
        raise NoCompletion(none.message, steps + none.steps) from None
    return SearchResult(rest.tour, steps + rest.steps, backtracks + rest.backtracks)
