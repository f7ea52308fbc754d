"""The Monte Carlo player: judges each move by the average result of random games.

Start with `MonteCarloStrategy.choose`. For every free cell it plays `playouts` games to the end
with both sides moving at random, scores them +1 / 0 / -1 for itself, and keeps the cell with
the best total (an immediate win is taken without sampling). It is not perfect: random
opponents rarely punish a bad move, so it can miss a block that a person would see.
"""

from __future__ import annotations

import random

from .board import CELL_COUNT, FULL_MASK, HAS_LINE, Board
from .strategy import Choice, ensure_in_play

# Random games per candidate cell: the mean's standard error is at most 1/sqrt(400) = 0.05,
# enough for a stable ranking, while a reply from the empty board stays around 15 ms.
MONTECARLO_PLAYOUTS = 400


def playout(me: int, them: int, free: list[int], rng: random.Random) -> int:
    """Finish the game at random with `them` to move: +1 if `me` wins, -1 if `them`, 0 draw."""
    order = free[:]
    rng.shuffle(order)
    mover, other, sign = them, me, -1
    for bit in order:
        mover |= bit
        if HAS_LINE[mover]:
            return sign
        mover, other, sign = other, mover, -sign
    return 0


class MonteCarloStrategy:
    """Pure Monte Carlo: `playouts` random games per candidate cell, best total wins."""

    name = "montecarlo"
    label = "Monte Carlo"

    def __init__(self, playouts: int = MONTECARLO_PLAYOUTS) -> None:
        if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
            raise ValueError(f"Monte Carlo needs at least one playout per cell, not {playouts!r}.")
        self.playouts = playouts
        self.description = (
            f"Plays {playouts} random games after each possible move and picks the move "
            "that won most often."
        )

    def choose(self, board: Board, rng: random.Random, *, may_slip: bool = True) -> Choice:
        ensure_in_play(board)
        me, them = board.sides()
        empty = board.empty_cells()
        wins = [cell for cell in empty if HAS_LINE[me | (1 << cell)]]
        if wins:
            return Choice(rng.choice(wins))
        best_total = -self.playouts - 1
        best_cells: list[int] = []
        for cell in empty:
            mine = me | (1 << cell)
            total = 0
            if (mine | them) != FULL_MASK:
                rest = [1 << c for c in range(CELL_COUNT) if not (mine | them) >> c & 1]
                for _ in range(self.playouts):
                    total += playout(mine, them, rest, rng)
            if total > best_total:
                best_total, best_cells = total, [cell]
            elif total == best_total:
                best_cells.append(cell)
        return Choice(rng.choice(best_cells))
