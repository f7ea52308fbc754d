"""Checking a claimed tour: `verify(n, tour, closed)` returns None or raises `InvalidTour`.

Start with `verify`. It is vectorised with numpy (a 1000x1000 tour checks in a few hundredths
of a second) and names the first fault it finds in a sentence: a square off the board, a square
missing or repeated, a step that is not a knight's move, or a closed tour whose last square is
not a knight's move from its first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .errors import InvalidTour
from .squares import describe

Tour = Sequence[int] | npt.NDArray[np.integer]


def verify(n: int, tour: Tour, closed: bool) -> None:
    """Raise `InvalidTour` unless `tour` visits every square of the n x n board exactly once,
    each step a knight's move, returning to its start by a knight's move if `closed`."""
    squares = np.asarray(tour)
    if squares.ndim != 1 or (squares.size and not np.issubdtype(squares.dtype, np.integer)):
        raise InvalidTour("A tour must be a flat sequence of whole-number square indices.")
    total = n * n
    if squares.size != total:
        raise InvalidTour(
            f"A tour of the {n}x{n} board visits {total} squares; this one has {squares.size}."
        )
    squares = squares.astype(np.int64, copy=False)
    outside = np.flatnonzero((squares < 0) | (squares >= total))
    if outside.size:
        at = int(outside[0])
        raise InvalidTour(
            f"Move {at + 1} names square {int(squares[at])}, which is not on the {n}x{n} board."
        )
    counts = np.bincount(squares, minlength=total)
    if np.any(counts != 1):
        repeated = int(np.flatnonzero(counts > 1)[0])
        missing = int(np.flatnonzero(counts == 0)[0])
        raise InvalidTour(
            f"Square {describe(n, repeated)} is visited more than once and "
            f"{describe(n, missing)} never."
        )
    rows, cols = np.divmod(squares, n)
    if closed:
        rows = np.append(rows, rows[:1])
        cols = np.append(cols, cols[:1])
    product = np.abs(np.diff(rows) * np.diff(cols))
    bad = np.flatnonzero(product != 2)
    if bad.size:
        at = int(bad[0])
        a, b = int(squares[at]), int(squares[(at + 1) % total])
        if at == total - 1:
            raise InvalidTour(
                f"The tour is meant to be closed, but its last square {describe(n, a)} is not "
                f"a knight's move from its first square {describe(n, b)}."
            )
        raise InvalidTour(
            f"Move {at + 2} goes from {describe(n, a)} to {describe(n, b)}, which is not a "
            "knight's move."
        )
