"""The one error every engine raises, and how an error message repeats a caller's input.

Start with `EngineError`: a `ValueError` that names the broken rule. Each subclass carries a
machine word in `code` (the API's `"code"`) and says in `conflict` whether the request was
well-formed but came at the wrong time (game over, not your turn, nothing to undo: HTTP 409)
rather than malformed or against the rules (HTTP 422). Each instance carries a message for a
person (the API's `"detail"`). The engines' own bases (`GoError`, `TicTacToeError`,
`KnightsTourError`) subclass it; app/errors.py maps it to HTTP in one place.

`quoted` is how a message repeats what it refuses: never more than about `QUOTE_LIMIT`
characters of it, so a 100 KB move does not come back as a 100 KB error.
"""

from __future__ import annotations

import reprlib
from typing import ClassVar

QUOTE_LIMIT = 40  # characters of a refused input worth repeating: enough to recognise it


class EngineError(ValueError):
    """Base class of every error an engine raises: a rule or a format refused a request."""

    code: ClassVar[str] = "engine_error"
    conflict: ClassVar[bool] = False  # True: a right request at the wrong time

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_repr = reprlib.Repr()
_repr.maxstring = QUOTE_LIMIT
_repr.maxother = QUOTE_LIMIT
_repr.maxlong = QUOTE_LIMIT
_repr.maxlist = _repr.maxtuple = _repr.maxdict = _repr.maxset = 4
_repr.maxlevel = 2


def quoted(value: object) -> str:
    """`value` as Python would write it, cut to about QUOTE_LIMIT characters (`'aaa...aaa'`),
    with the full length named when a long string was cut."""
    text = _repr.repr(value)
    if isinstance(value, str) and len(value) > QUOTE_LIMIT:
        text += f" ({len(value):,} characters)"
    return text
