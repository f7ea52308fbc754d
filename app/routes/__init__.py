"""HTTP routes, one module per resource. Each is thin: parse, call app.games, render.

- api_games: the JSON game API (/api/games…), the public contract.
- api_tictactoe: stateless tic-tac-toe engine endpoints (/api/tictactoe/…).
- ui, ui_tictactoe: HTML fragments (/ui/…) that the browser's views and htmx load.
- pages: the SPA shell for every other page path. docs: /docs (OpenAPI explorer).
"""

from fastapi import Request

from app.games import GameService


def service(request: Request) -> GameService:
    """The app's GameService (a FastAPI dependency)."""
    game_service: GameService = request.app.state.service
    return game_service


def browser_id(request: Request) -> str:
    """The id of the browser making the request (set by the cookie middleware)."""
    browser: str = request.state.browser
    return browser
