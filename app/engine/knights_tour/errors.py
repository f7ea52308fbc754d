"""Errors raised by the knight's-tour engine.

Start with `KnightsTourError`: every error the engine raises is one of its subclasses, a
`ValueError` that names the broken rule or the impossible request. Each class carries a machine
word in `code` (the API's `"code"` field) and each instance a message written for a person (the
API's `"detail"`).
"""

from __future__ import annotations

from typing import ClassVar

from ..errors import EngineError


class KnightsTourError(EngineError):
    """Base class: a request the rules of the knight's tour refuse."""

    code: ClassVar[str] = "knights_tour_error"


# --- the player's moves ---------------------------------------------------------------------


class InvalidSquare(KnightsTourError):
    """A square that is not written like "c2" (a file letter, then a rank number)."""

    code: ClassVar[str] = "invalid_square"


class OffBoard(KnightsTourError):
    """A well-formed square (or index) that lies outside this board."""

    code: ClassVar[str] = "off_board"


class NotAKnightMove(KnightsTourError):
    """A move to a square that is not a knight's move from the current square."""

    code: ClassVar[str] = "not_a_knight_move"


class AlreadyVisited(KnightsTourError):
    """A move to a square the knight has already visited."""

    code: ClassVar[str] = "visited"


class PuzzleOver(KnightsTourError):
    """A move in a puzzle that is solved or stuck: there is nothing left to play."""

    code: ClassVar[str] = "over"
    conflict: ClassVar[bool] = True


class NothingToUndo(KnightsTourError):
    """An undo in a puzzle whose path is empty."""

    code: ClassVar[str] = "nothing_to_undo"
    conflict: ClassVar[bool] = True


# --- requests for a tour --------------------------------------------------------------------


class InvalidSize(KnightsTourError):
    """A board size that is not a whole number of at least 1."""

    code: ClassVar[str] = "invalid_size"


class TooLarge(KnightsTourError):
    """A board larger than the engine accepts (see `MAX_SIZE` and `MAX_NAMED_SIZE`)."""

    code: ClassVar[str] = "too_large"


class NoTour(KnightsTourError):
    """A board on which no knight's tour exists at all (2x2, 3x3 and 4x4)."""

    code: ClassVar[str] = "no_tour"


class NoClosedTour(KnightsTourError):
    """A closed tour asked of a board that has none (odd boards, and boards under 6x6)."""

    code: ClassVar[str] = "no_closed_tour"


class ImpossibleStart(KnightsTourError):
    """An open tour asked to start on a square from which no tour of the board starts."""

    code: ClassVar[str] = "impossible_start"


class UnknownMethod(KnightsTourError):
    """A solver's name that is not one of `METHODS`."""

    code: ClassVar[str] = "unknown_method"


class BudgetExhausted(KnightsTourError):
    """A search that used up its node budget before it found a tour or proved there is none."""

    code: ClassVar[str] = "budget"

    def __init__(self, message: str, steps: int = 0) -> None:
        super().__init__(message)
        self.steps = steps


class NoCompletion(KnightsTourError):
    """A partial tour that provably cannot be completed (the search tried every continuation)."""

    code: ClassVar[str] = "no_completion"

    def __init__(self, message: str, steps: int = 0) -> None:
        super().__init__(message)
        self.steps = steps


class InvalidTour(KnightsTourError):
    """A sequence of squares that `verify` refuses: the sentence names the first fault."""

    code: ClassVar[str] = "invalid_tour"
