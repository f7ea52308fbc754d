"""Tic-tac-toe: rules, analysis and six computer players, in pure Python.

Where to start reading: `board.Board` (the position and its rules), then `strategy.Strategy`
(what a computer player is) and `registry.get_strategy` (players by name). The players are in
`players` (random, minimax, alpha-beta, fallible), `rules` (human-like) and `montecarlo`; the
searches in `search`; the human-like player's tactics in `tactics`; `analysis.analyse` values
every move; `positions.reachable_positions` lists every position of a real game.
"""

from .analysis import Analysis, MoveValue, analyse
from .board import Board, Mark
from .errors import (
    CellOccupied,
    CellOutOfRange,
    GameOver,
    InvalidBoard,
    TicTacToeError,
    UnknownStrategy,
)
from .positions import reachable_positions
from .registry import STRATEGY_NAMES, get_strategy
from .strategy import Choice, Strategy

__all__ = [
    "STRATEGY_NAMES",
    "Analysis",
    "Board",
    "CellOccupied",
    "CellOutOfRange",
    "Choice",
    "GameOver",
    "InvalidBoard",
    "Mark",
    "MoveValue",
    "Strategy",
    "TicTacToeError",
    "UnknownStrategy",
    "analyse",
    "get_strategy",
    "reachable_positions",
]
