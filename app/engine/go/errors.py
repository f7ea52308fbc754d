"""Errors raised by the Go engine.

Start with `GoError`: every error the engine raises is one of its subclasses, a `ValueError`
that names the broken rule. Each class carries a machine word in `code` (the API's `"code"`
field) and each instance a message written for a person (the API's `"detail"`), which the
user interface shows verbatim - so messages start with the rule and say what to do instead.
"""

from __future__ import annotations

from typing import ClassVar

from ..errors import EngineError


class GoError(EngineError):
    """Base class: a request the rules of Go (or the engine's formats) refuse."""

    code: ClassVar[str] = "go_error"


# -- moves and vertices ------------------------------------------------------------------------


class MalformedMove(GoError):
    """A move that is not a vertex such as "D4", nor "pass", nor "resign"."""

    code: ClassVar[str] = "malformed_move"


class OffBoard(GoError):
    """A well-formed vertex that lies outside this board (e.g. "T19" on 9x9)."""

    code: ClassVar[str] = "off_board"


class Occupied(GoError):
    """A stone played on a point that already holds one."""

    code: ClassVar[str] = "occupied"


class Suicide(GoError):
    """A stone that would leave its own chain without liberties while capturing nothing."""

    code: ClassVar[str] = "suicide"


class Ko(GoError):
    """A move that would recreate an earlier whole-board position (positional superko).

    The simple ko - retaking a single stone at once - is the common case of this rule.
    """

    code: ClassVar[str] = "ko"


class NotYourTurn(GoError):
    """A move sent for the colour that is not to move."""

    code: ClassVar[str] = "not_your_turn"
    conflict: ClassVar[bool] = True


class GameOver(GoError):
    """A move on a game whose play has ended (by two passes or a resignation)."""

    code: ClassVar[str] = "game_over"
    conflict: ClassVar[bool] = True


class NothingToUndo(GoError):
    """An undo before any move has been played."""

    code: ClassVar[str] = "nothing_to_undo"
    conflict: ClassVar[bool] = True


# -- scoring -----------------------------------------------------------------------------------


class NotScoring(GoError):
    """Dead-stone marking or score acceptance while the game is not in its scoring phase."""

    code: ClassVar[str] = "not_scoring"
    conflict: ClassVar[bool] = True


class NoStone(GoError):
    """Marking a vertex dead or alive when no stone stands there."""

    code: ClassVar[str] = "no_stone"


class AliveGroup(GoError):
    """Marking dead a group with two eyes, which can never be captured."""

    code: ClassVar[str] = "alive_group"


# -- set-up and formats ------------------------------------------------------------------------


class InvalidSize(GoError):
    """A board size outside the supported range."""

    code: ClassVar[str] = "invalid_size"


class InvalidHandicap(GoError):
    """A handicap the fixed placement cannot give on this board size."""

    code: ClassVar[str] = "invalid_handicap"


class InvalidKomi(GoError):
    """A komi that is not a finite multiple of one half."""

    code: ClassVar[str] = "invalid_komi"


class InvalidSetup(GoError):
    """Set-up stones that overlap or leave a chain without liberties."""

    code: ClassVar[str] = "invalid_setup"


class InvalidState(GoError):
    """A stored game (`Game.from_dict`) that is malformed or does not replay."""

    code: ClassVar[str] = "invalid_state"


class SgfError(GoError):
    """An SGF record that cannot be read: malformed, too large, or not a playable game."""

    code: ClassVar[str] = "invalid_sgf"
