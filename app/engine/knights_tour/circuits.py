"""Hamiltonian circuits: a closed tour stored as a next-square table, the seed's fourth solver.

Start with `Circuit`. Once one closed tour of a board is known, every square's successor in it
is a table lookup, so a tour from any start is n*n - 1 lookups and no search at all; read the
table backwards and you get a second tour from every square. `stored_circuit(n)` keeps one
circuit per even board (found by `divide.divide_tour`, which on boards up to 16x16 is a single
block found by Warnsdorff's rule), so the first request for a size pays and the rest replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .divide import divide_tour
from .errors import NoClosedTour
from .verify import verify

STORED_CIRCUITS = 8  # boards whose circuits stay in memory; 1000x1000 takes 16 MB

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Circuit:
    """A closed knight's tour of the n x n board. `next_square[s]` is the square after s;
    `order` is the same circuit as a sequence, and `position[s]` is where s sits in it."""

    n: int
    order: IntArray
    next_square: IntArray
    position: IntArray

    @classmethod
    def from_tour(cls, n: int, tour: Sequence[int] | IntArray) -> Circuit:
        """The circuit of a closed tour (checked by `verify`)."""
        order = np.asarray(tour, dtype=np.int64)
        verify(n, order, closed=True)
        position = np.empty_like(order)
        position[order] = np.arange(order.size, dtype=np.int64)
        next_square = np.empty_like(order)
        next_square[order] = np.roll(order, -1)
        return cls(n, order, next_square, position)

    def tour_from(self, start: int, reverse: bool = False) -> IntArray:
        """The circuit as a tour beginning on `start`, run backwards if `reverse`."""
        order = self.order[::-1] if reverse else self.order
        at = int(self.position[start])
        if reverse:
            at = order.size - 1 - at
        return np.concatenate((order[at:], order[:at]))

    def walk(self, start: int, reverse: bool = False) -> list[int]:
        """The same tour by following the next-square table one lookup at a time, the way the
        seed's solver plays it (slow in Python for big boards: prefer `tour_from`)."""
        table = self.previous_square() if reverse else self.next_square
        squares = [start]
        for _ in range(self.order.size - 1):
            squares.append(int(table[squares[-1]]))
        return squares

    def previous_square(self) -> IntArray:
        """The table read backwards: `previous_square()[s]` is the square before s."""
        previous = np.empty_like(self.next_square)
        previous[self.next_square] = np.arange(self.next_square.size, dtype=np.int64)
        return previous


@lru_cache(maxsize=STORED_CIRCUITS)
def stored_circuit(n: int) -> Circuit:
    """The engine's stored circuit of the n x n board (n even, at least 6)."""
    if n % 2 or n < 6:
        raise NoClosedTour(f"A {n}x{n} board has no closed tour to store.")
    return Circuit.from_tour(n, divide_tour(n, 0, closed=True).tour)
