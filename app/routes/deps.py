"""What routes share: the service, the caller (token, browser), the game a path names,
strict JSON.

Start at `game_of`. Every route that names a game in its path takes the game through one of
the annotated types below (`AnyRecord`, `GoRecord`, …): the record is loaded once, and a game of
another kind than the route's is "not found" — so a knight's-tour form posted with a Go game's
id cannot touch the Go game. A missing game raises GameNotFound, which app/main.py renders as
JSON for /api and as the game's not-found fragment for /ui.

`StrictJsonRoute` parses JSON bodies as JSON is written — NaN, Infinity, numbers beyond a
float's range and integers of more than MAX_INT_DIGITS digits are refused with 422 — so no
non-finite number reaches the games.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import Depends, Path, Request, Response
from fastapi.routing import APIRoute

from app.errors import ApiError
from app.games import Caller, GameService
from app.games.kinds import GO, KNIGHTS_TOUR, TICTACTOE
from app.live import LiveHub
from app.seats import clean_name
from app.store import GameRecord

MAX_TOKEN = 200  # tokens are 43 characters; a longer one is no token of ours
MAX_INT_DIGITS = 30  # far more than any version, cell or size; Python refuses past 4,300
GAME_ID_LENGTH = 64  # ids are 12 characters; a path segment is bounded anyway
NAME_COOKIE = "tabletop_name"  # the name a browser chose (app/routes/fragments.py remember_name)


def service(request: Request) -> GameService:
    """The app's GameService."""
    game_service: GameService = request.app.state.service
    return game_service


def browser_id(request: Request) -> str:
    """The id of the browser making the request (set by app.middleware.BrowserCookie)."""
    browser: str = request.state.browser
    return browser


def caller(request: Request) -> Caller:
    """Who asks: their bearer token (Authorization: Bearer …) and their browser id."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    bearer = token.strip() if scheme.lower() == "bearer" and len(token) <= MAX_TOKEN else None
    address = request.client.host if request.client else None
    return Caller(token=bearer or None, browser=browser_id(request), address=address,
                  name=chosen_name(request))


def chosen_name(request: Request) -> str | None:
    """The name this browser chose (its cookie, percent-encoded UTF-8), if it is still a
    valid one."""
    raw = request.cookies.get(NAME_COOKIE, "")
    if not raw or len(raw) > 400:
        return None
    try:
        return clean_name(unquote(raw, errors="strict"))
    except (ApiError, UnicodeDecodeError):
        return None


def live_hub(request: Request) -> LiveHub:
    """The app's LiveHub (the open event streams)."""
    hub: LiveHub = request.app.state.hub
    return hub


Service = Annotated[GameService, Depends(service)]
Hub = Annotated[LiveHub, Depends(live_hub)]
Browser = Annotated[str, Depends(browser_id)]
Asker = Annotated[Caller, Depends(caller)]
GameId = Annotated[str, Path(max_length=GAME_ID_LENGTH, description="The game's id.")]


def game_of(kind: str | None) -> Callable[[str, GameService], GameRecord]:
    """A dependency that loads the path's game, which must be of `kind` (any, if None)."""

    def load(game_id: GameId, games: Service) -> GameRecord:
        return games.load(game_id, kind)

    return load


AnyRecord = Annotated[GameRecord, Depends(game_of(None))]
TicTacToeRecord = Annotated[GameRecord, Depends(game_of(TICTACTOE.kind))]
GoRecord = Annotated[GameRecord, Depends(game_of(GO.kind))]
KnightsTourRecord = Annotated[GameRecord, Depends(game_of(KNIGHTS_TOUR.kind))]


def _refuse_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise json.JSONDecodeError(f"the number {text[:20]} is out of range", text, 0)
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise json.JSONDecodeError(f"a number of {len(text):,} digits is too long", text, 0)
    return int(text)


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                text = body.decode()
            except UnicodeDecodeError as error:
                raise json.JSONDecodeError("it is not UTF-8 text", "", error.start) from None
            self._json = json.loads(text, parse_constant=_refuse_constant,
                                    parse_float=_finite_float, parse_int=_bounded_int)
        return self._json


class StrictJsonRoute(APIRoute):
    """An APIRoute whose JSON bodies are parsed by StrictJsonRequest."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict_handler
