"""HTTP routes, one module per resource. Each is thin: parse, call app.games, render.

- api_games: the JSON game API (/api/games…), the public contract.
- api_tictactoe: stateless tic-tac-toe engine endpoints (/api/tictactoe/…).
- ui, ui_tictactoe: HTML fragments (/ui/…) that the browser's views and htmx load.
- pages: the SPA shell for every other page path. docs: /docs (OpenAPI explorer).
"""

import json
from collections.abc import Callable

from fastapi import Request, Response

from app.errors import ApiError, GameNotFound
from app.games import GameService
from app.store import GameRecord


def service(request: Request) -> GameService:
    """The app's GameService (a FastAPI dependency)."""
    game_service: GameService = request.app.state.service
    return game_service


def browser_id(request: Request) -> str:
    """The id of the browser making the request (set by the cookie middleware)."""
    browser: str = request.state.browser
    return browser


def attempt(games: GameService, game_id: str,
            action: Callable[[], GameRecord]) -> tuple[GameRecord | None, str | None]:
    """Runs a UI action on a game: (the game after it, None) if it was applied, (the
    unchanged game, the reason) if it was refused, (None, None) if there is no such game.
    Fragment routes re-render the game either way, with the reason shown."""
    try:
        return action(), None
    except GameNotFound:
        return None, None
    except ApiError as refusal:
        return games.get(game_id), refusal.detail


def navigate_to(path: str) -> Response:
    """204 with an HX-Trigger asking the client router to open `path` (a new history
    entry, so Back returns to where the player was)."""
    trigger = {"tabletop:navigate": {"path": path}}
    return Response(status_code=204, headers={"HX-Trigger": json.dumps(trigger)})
