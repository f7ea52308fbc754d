"""The player's knight's tour: a board, the path played so far, and what can follow it.

Start with `Puzzle`, which changes by explicit push and pop (`play`, `undo`). Its `status` says
whether the game goes on; its `trouble` (and `warning`, the sentence alone) is forward
checking: it speaks up as soon as the path can no longer become a tour, for the reasons in
`_diagnose`, even while legal moves remain. `advise` (and `hint`, the square alone) is
Warnsdorff's rule, passing over every square after which that check would speak up.

Status values:

- "playing": moves remain (an empty path always is: any square may start).
- "stuck": squares remain unvisited but no knight's move leads to one.
- "solved": every square visited; for a closed puzzle the last square is also a knight's move
  from the first (the closing move is implied, not played).
- "open_only": a closed puzzle whose path covers the board but whose last square is not a
  knight's move from the first: a tour, but not the closed one asked for. The game is over.

Sizes run from 1 to `MAX_NAMED_SIZE` (26), the boards whose squares have names. Boards with no
tour at all (2 to 4), or no closed tour when one is asked, can still be played: the warning says
so from the first move on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .errors import AlreadyVisited, NotAKnightMove, NothingToUndo, PuzzleOver
from .squares import (
    MAX_NAMED_SIZE,
    Square,
    check_size,
    colour,
    neighbours,
    parse_square,
    square_name,
)
from .warnsdorff import warnsdorff_order

Status = Literal["playing", "stuck", "solved", "open_only"]


@dataclass(frozen=True)
class Trouble:
    """Why the path can no longer become a tour: `code` is a machine word ("no_tour",
    "no_closed_tour", "colour", "cut_off", "dead_end", "dead_ends", "no_return", "split"),
    `message` a sentence for the player and `squares` the squares it is about."""

    code: str
    message: str
    squares: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hint:
    """Warnsdorff's advice: `square` is the rule's choice among the squares within reach that
    the forward check does not condemn, or None when it condemns them all (or the game is
    over); `condemned` lists, in the rule's order, the squares it passed over because the
    tour could no longer be completed after them."""

    square: str | None
    condemned: tuple[str, ...] = ()


class Puzzle:
    """A knight's tour being played on a size x size board, closed if asked."""

    def __init__(self, size: int, closed: bool = False, path: Iterable[Square] = ()) -> None:
        self._n = check_size(size, MAX_NAMED_SIZE)
        self._closed = bool(closed)
        self._path: list[int] = []
        self._visited = bytearray(self._n * self._n)
        for square in path:
            self.play(square)

    # --- what the player sees ------------------------------------------------------------

    @property
    def size(self) -> int:
        return self._n

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def path(self) -> list[str]:
        """The squares visited, in order, by name."""
        return [square_name(self._n, s) for s in self._path]

    @property
    def indices(self) -> list[int]:
        """The squares visited, in order, as indices row * size + col (row 0 = rank 1)."""
        return list(self._path)

    @property
    def current(self) -> str | None:
        """The knight's square, or None before the first move."""
        return square_name(self._n, self._path[-1]) if self._path else None

    @property
    def count(self) -> int:
        """How many squares have been visited."""
        return len(self._path)

    @property
    def legal_next(self) -> list[str]:
        """Squares the knight may move to next, in board order (a1, b1, ..., a2, ...); every
        square before the first move."""
        return [square_name(self._n, s) for s in self._legal()]

    @property
    def status(self) -> Status:
        total = self._n * self._n
        if len(self._path) == total:
            if not self._closed or self._closes():
                return "solved"
            return "open_only"
        if self._path and not self._legal():
            return "stuck"
        return "playing"

    @property
    def message(self) -> str:
        """The status in a sentence for the player."""
        total, count = self._n * self._n, len(self._path)
        status = self.status
        if status == "solved":
            if self._closed:
                return (
                    f"Closed tour complete: all {total} squares visited, and {self.current} "
                    f"is a knight's move from {self.path[0]}."
                )
            return f"Tour complete: all {total} squares visited."
        if status == "open_only":
            return (
                f"All {total} squares visited, but {self.current} is not a knight's move from "
                f"{self.path[0]}, so the tour does not close."
            )
        if status == "stuck":
            return (
                f"Stuck on {self.current} after {count} of {total} squares: no knight's move "
                "leads to an unvisited square."
            )
        if not count:
            return "Choose any square to start."
        return f"{count} of {total} squares visited."

    @property
    def trouble(self) -> Trouble | None:
        """Why the tour can no longer be completed, while the game is still being played (once
        it is over, `status` and `message` say how it ended); None when no reason is known."""
        if self.status != "playing":
            return None
        return _diagnose(self._n, self._closed, self._path, self._visited)

    @property
    def warning(self) -> str | None:
        """The trouble's sentence, or None."""
        trouble = self.trouble
        return trouble.message if trouble else None

    def advise(self) -> Hint:
        """Warnsdorff's rule: of the squares within reach, the one with the fewest onward
        moves, ties going to the first clockwise from one o'clock; before the first move, the
        square with the fewest moves of all (a corner, a1). Squares after which the tour could
        no longer be completed (`trouble`, or a knight stuck) are passed over; once the path
        itself can no longer become a tour, every square is."""
        if self.status != "playing":
            return Hint(None)
        ranked = self._ranked()
        if self.trouble is not None:
            return Hint(None, _names(self._n, ranked))
        condemned: list[int] = []
        for square in ranked:
            if not self._condemns(square):
                return Hint(square_name(self._n, square), _names(self._n, condemned))
            condemned.append(square)
        return Hint(None, _names(self._n, condemned))

    def hint(self) -> str | None:
        """The square `advise` suggests, or None."""
        return self.advise().square

    # --- changing it ----------------------------------------------------------------------

    def play(self, square: Square) -> None:
        """Move the knight to `square` (a name like "c2", or an index): any square to start,
        then a knight's move to an unvisited square."""
        index = parse_square(self._n, square)
        status = self.status
        if status != "playing":
            raise PuzzleOver(f"The game is over: {self.message}")
        if self._visited[index]:
            raise AlreadyVisited(f"{square_name(self._n, index)} has already been visited.")
        if self._path and index not in neighbours(self._n)[self._path[-1]]:
            raise NotAKnightMove(
                f"{square_name(self._n, index)} is not a knight's move from {self.current}."
            )
        self._path.append(index)
        self._visited[index] = 1

    def undo(self) -> str:
        """Take back the last move; returns the square it was on."""
        if not self._path:
            raise NothingToUndo("There is no move to take back.")
        index = self._path.pop()
        self._visited[index] = 0
        return square_name(self._n, index)

    # --- helpers --------------------------------------------------------------------------

    def _legal(self) -> list[int]:
        if not self._path:
            return list(range(self._n * self._n))
        return sorted(t for t in neighbours(self._n)[self._path[-1]] if not self._visited[t])

    def _ranked(self) -> list[int]:
        """The legal squares in Warnsdorff's order: fewest onward moves first, ties clockwise
        from one o'clock (before the first move: fewest moves of all, ties in board order)."""
        if not self._path:
            table = neighbours(self._n)
            return sorted(range(self._n * self._n), key=lambda s: len(table[s]))
        return warnsdorff_order(self._n, self._visited, self._path[-1])

    def _condemns(self, square: int) -> bool:
        """Whether moving to `square` leaves a path that can no longer become the tour asked
        for: the forward check speaks up, or the knight is stuck or cannot close."""
        self._path.append(square)
        self._visited[square] = 1
        try:
            status = self.status
            return status in ("stuck", "open_only") or self.trouble is not None
        finally:
            self._path.pop()
            self._visited[square] = 0

    def _closes(self) -> bool:
        return self._path[0] in neighbours(self._n)[self._path[-1]]


def _names(n: int, squares: Iterable[int]) -> tuple[str, ...]:
    return tuple(square_name(n, s) for s in squares)


def _listed(names: tuple[str, ...]) -> str:
    """"a1", "a1 and b3", "a1, b3 and c5"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _diagnose(n: int, closed: bool, path: list[int], visited: bytearray) -> Trouble | None:
    """Forward checking for a game still being played. In order: the board has no tour (or no
    closed one) at all; the colours cannot work out; an unvisited square has no way in left;
    squares that would each have to be the last; a closed tour's start with no free neighbour
    to come back from; the unvisited squares split into groups a knight cannot cross between."""
    if 2 <= n <= 4:
        return Trouble("no_tour", f"No knight's tour exists on a {n}x{n} board.")
    if closed and n % 2:
        return Trouble(
            "no_closed_tour",
            f"No closed tour exists on a {n}x{n} board: a closed tour alternates colours, so "
            "it needs as many squares of each colour, and an odd board has one more of its "
            "corners' colour.",
        )
    if not path:
        return None
    table = neighbours(n)
    first, cur = path[0], path[-1]
    unvisited = [s for s in range(n * n) if not visited[s]]
    if n % 2 and colour(n, first):
        name = square_name(n, first)
        return Trouble(
            "colour",
            f"On a {n}x{n} board a tour must start and end on the corners' colour (like a1), "
            f"because that colour has one square more; a tour from {name} cannot be completed.",
            (name,),
        )

    remaining = len(unvisited)
    near_cur = set(table[cur])
    near_first = set(table[first]) if closed else set()
    cut_off: list[int] = []
    traps: list[int] = []
    ends: list[int] = []
    for u in unvisited:
        free = sum(1 for t in table[u] if not visited[t])
        ways = free + (u in near_cur) + (u in near_first)
        if free == 0 and u not in near_cur:
            cut_off.append(u)  # no way in (the first square of a closed tour is a way out)
        elif free == 0 and remaining > 1:
            # Its only way in is from the current square: the knight would have to go there
            # next and could go no further (a closed tour only back to the start), too soon.
            traps.append(u)
        elif ways == 1:
            ends.append(u)
    if cut_off:
        names = _names(n, cut_off)
        verb = "is" if len(names) == 1 else "are"
        return Trouble(
            "cut_off",
            f"{_listed(names)} {verb} cut off: every knight's move into "
            f"{'it' if len(names) == 1 else 'them'} comes from a visited square.",
            names,
        )
    if traps:
        names = _names(n, traps[:1])
        return Trouble(
            "dead_end",
            f"{names[0]} can only be reached from {square_name(n, cur)} now, and the knight "
            "would be stuck there with squares still unvisited.",
            names,
        )
    if closed and ends:
        names = _names(n, ends[:1])
        return Trouble(
            "dead_end",
            f"{names[0]} has only one way in or out left, but a closed tour passes through "
            "every square.",
            names,
        )
    if len(ends) > 1:
        names = _names(n, ends)
        return Trouble(
            "dead_ends",
            f"{_listed(names)} each have only one way in left, so each would have to be the "
            "last square of the tour, and a tour has only one.",
            names,
        )
    if closed and len(path) > 1 and remaining and not any(not visited[t] for t in table[first]):
        name = square_name(n, first)
        return Trouble(
            "no_return",
            f"Every square a knight's move from the start {name} has been visited, so the "
            "tour can no longer come back to close.",
            (name,),
        )
    groups = _groups(table, visited, unvisited)
    if len(groups) > 1:
        names = _names(n, (g[0] for g in groups))
        return Trouble(
            "split",
            f"The unvisited squares have split into {len(groups)} groups that a knight cannot "
            f"cross between (one holds {names[0]}, another {names[1]}), and one path cannot "
            "visit them all.",
            names,
        )
    return None


def _groups(
    table: tuple[tuple[int, ...], ...], visited: bytearray, unvisited: list[int]
) -> list[list[int]]:
    """The unvisited squares in groups connected by knight's moves, each sorted, largest first."""
    seen: set[int] = set()
    groups: list[list[int]] = []
    for s in unvisited:
        if s in seen:
            continue
        seen.add(s)
        group, stack = [s], [s]
        while stack:
            for t in table[stack.pop()]:
                if not visited[t] and t not in seen:
                    seen.add(t)
                    group.append(t)
                    stack.append(t)
        groups.append(sorted(group))
    groups.sort(key=lambda g: (-len(g), g[0]))
    return groups
