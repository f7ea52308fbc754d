"""The simple and the perfect computer players: random, minimax, alpha-beta and fallible.

Start with `MinimaxStrategy`; `AlphaBetaStrategy` is the same player searching with pruning,
`FallibleStrategy` is minimax that sometimes slips, `RandomStrategy` is the baseline. The
searches are in `search`; every perfect player takes the fastest win and the slowest loss,
at random among equally good cells.
"""

from __future__ import annotations

import random

from .board import Board
from .search import best_cells_alphabeta, best_cells_minimax
from .strategy import Choice, ensure_in_play

# The published 5% of the seed article: rare enough that most games stay perfect, common
# enough that a player who keeps trying will see one mistake in a few games.
SLIP_PROBABILITY = 0.05


class RandomStrategy:
    """Marks a uniformly random empty cell."""

    name = "random"
    label = "Random"
    description = "Plays any free cell at random."

    def choose(self, board: Board, rng: random.Random, *, may_slip: bool = True) -> Choice:
        ensure_in_play(board)
        return Choice(rng.choice(board.empty_cells()))


class MinimaxStrategy:
    """Full minimax search (memoized per position)."""

    name = "minimax"
    label = "Minimax"
    description = "Searches every possible game to the end and never loses."

    def choose(self, board: Board, rng: random.Random, *, may_slip: bool = True) -> Choice:
        ensure_in_play(board)
        return Choice(rng.choice(best_cells_minimax(*board.sides())))


class AlphaBetaStrategy:
    """Minimax with alpha-beta pruning (memoized per position and window)."""

    name = "alphabeta"
    label = "Alpha-beta"
    description = "Searches like minimax but skips lines that cannot change its choice."

    def choose(self, board: Board, rng: random.Random, *, may_slip: bool = True) -> Choice:
        ensure_in_play(board)
        return Choice(rng.choice(best_cells_alphabeta(*board.sides())))


class FallibleStrategy:
    """Perfect play, except that with `probability` it marks a random empty cell instead.

    A slip happens only when `may_slip` is True; the game passes False after the first one,
    so a game sees at most one. A slip is a random cell, so it may by luck be a good move; it
    is reported as `Choice(cell, slipped=True)` either way.
    """

    name = "fallible"

    def __init__(self, probability: float = SLIP_PROBABILITY) -> None:
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"A slip probability must lie between 0 and 1, not {probability}.")
        self.probability = probability
        self.label = f"Perfect but fallible ({round(probability * 100, 2):g}%)"
        self.description = (
            f"Plays perfectly, but {round(probability * 100, 2):g}% of the time makes one "
            "random move, at most once per game."
        )

    def choose(self, board: Board, rng: random.Random, *, may_slip: bool = True) -> Choice:
        ensure_in_play(board)
        if may_slip and rng.random() < self.probability:
            return Choice(rng.choice(board.empty_cells()), slipped=True)
        return Choice(rng.choice(best_cells_minimax(*board.sides())))
