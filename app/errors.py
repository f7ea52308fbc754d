"""The server's errors: each carries an HTTP status, a machine `code` and a sentence.

Engine errors (ValueError subclasses with a `code`) are turned into these by the game
adapters; app/main.py renders them all as {"detail": …, "code": …}.
"""

from __future__ import annotations


class ApiError(Exception):
    """A refused request. Nothing was changed when one of these is raised."""

    status = 400
    code = "bad_request"

    def __init__(self, detail: str, code: str | None = None, status: int | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


class GameNotFound(ApiError):
    status = 404
    code = "not_found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"There is no game with the id {game_id!r}.")


class StaleVersion(ApiError):
    status = 409
    code = "stale_version"

    def __init__(self, game_id: str) -> None:
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
