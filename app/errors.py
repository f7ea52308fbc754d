"""The server's errors: each carries an HTTP status, a machine `code` and a sentence.

Engine errors (`app.engine.errors.EngineError`) become these in one place, `refusal`;
app/middleware.py renders them all as {"detail": …, "code": …}. Raising one means nothing
was changed.
"""

from __future__ import annotations

from app.engine.errors import EngineError, quoted


class ApiError(Exception):
    """A refused request. Nothing was changed when one of these is raised."""

    status = 400
    code = "bad_request"

    def __init__(self, detail: str, code: str | None = None, status: int | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


class GameNotFound(ApiError):
    status = 404
    code = "not_found"

    def __init__(self, game_id: str, kind_label: str = "game") -> None:
        super().__init__(f"There is no {kind_label} with the id {quoted(game_id)}.")
        self.game_id = game_id


class StaleVersion(ApiError):
    status = 409
    code = "stale_version"

    def __init__(self) -> None:
        super().__init__(
            "The game has changed since you last saw it; reload it and try again.",
        )


class Conflict(ApiError):
    """The move is well-formed but cannot be played now (not your turn, game over, …)."""

    status = 409


class IllegalMove(ApiError):
    """The move is malformed or breaks a rule (occupied, suicide, ko, …)."""

    status = 422


class BadOptions(ApiError):
    status = 422
    code = "bad_options"


def refusal(error: EngineError) -> ApiError:
    """The HTTP refusal for an engine error: 409 for a right request at the wrong time (game
    over, not your turn, nothing to undo), else 422."""
    if error.conflict:
        return Conflict(error.message, code=error.code)
    return IllegalMove(error.message, code=error.code)
