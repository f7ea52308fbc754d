"""What every computer player looks like: the `Strategy` protocol and its answer, `Choice`.

Start with `Strategy`. The players themselves live in `players` (random, minimax, alpha-beta,
fallible), `rules` (the human-like player) and `montecarlo`; `registry` maps names to them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from .board import Board
from .errors import GameOver


@dataclass(frozen=True, slots=True)
class Choice:
    """A computer player's move; `slipped` marks a deliberate mistake (see `FallibleStrategy`)."""

    cell: int
    slipped: bool = False


class Strategy(Protocol):
    """A computer player. Randomness comes only from the `rng` passed to `choose`."""

    @property
    def name(self) -> str:
        """Machine name, one of `STRATEGY_NAMES`."""
        ...

    @property
    def label(self) -> str:
        """Short human label, e.g. "Alpha-beta"."""
        ...

    @property
    def description(self) -> str:
        """One sentence for the UI."""
        ...

    def choose(self, board: Board, rng: random.Random, *, may_slip: bool = True) -> Choice:
        """The move for the side to move; raises `GameOver` on a finished board.

        `may_slip` only matters to players that make deliberate mistakes: the game passes
        False once such a player has slipped.
        """
        ...


def ensure_in_play(board: Board) -> None:
    """Raise `GameOver` if there is no move to choose."""
    if board.is_over:
        raise GameOver(board.over_message())
