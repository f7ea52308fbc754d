"""Errors raised by the tic-tac-toe engine.

Start with `TicTacToeError`: every error the engine raises is one of its subclasses, a
`ValueError` that names the broken rule. Each class carries a machine word in `code` (the API's
`"code"` field) and each instance a message written for a person (the API's `"detail"`).
"""

from __future__ import annotations

from typing import ClassVar

from ..errors import EngineError


class TicTacToeError(EngineError):
    """Base class: a request the rules of tic-tac-toe refuse."""

    code: ClassVar[str] = "tictactoe_error"


class InvalidBoard(TicTacToeError):
    """A board string that is malformed or could not arise in a real game."""

    code: ClassVar[str] = "invalid_board"


class CellOutOfRange(TicTacToeError):
    """A move that does not name one of the cells 0 to 8."""

    code: ClassVar[str] = "off_board"


class CellOccupied(TicTacToeError):
    """A move onto a cell that already holds a mark."""

    code: ClassVar[str] = "occupied"


class GameOver(TicTacToeError):
    """A move (or a request for one) on a game that has already ended."""

    code: ClassVar[str] = "game_over"
    conflict: ClassVar[bool] = True


class UnknownStrategy(TicTacToeError):
    """A computer player's name that is not one of `STRATEGY_NAMES`."""

    code: ClassVar[str] = "unknown_strategy"
