"""The single-page shell: a full page load of any non-API path returns dist/index.html,
and the client router renders the view for that path. Paths the client knows answer 200,
others 404 (the shell then shows its not-found view). The route's `page` path type never
matches /api/… or /ui/…: those never fall back to the shell (an unknown one is a JSON 404,
and a wrong method there a 405 that names only the methods that really work).
"""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response
from starlette.convertors import Convertor, register_url_convertor

from app.routes.deps import Service

router = APIRouter(include_in_schema=False)

# Mirrors the route table in static/js/main.js.
CLIENT_ROUTES = [
    re.compile(r"^/$"),
    re.compile(r"^/games/?$"),
    re.compile(r"^/tictactoe/?$"),
    re.compile(r"^/go/?$"),
    re.compile(r"^/knights-tour/?$"),
]
GAME_ROUTE = re.compile(r"^/(?P<kind>tictactoe|go|knights-tour)/(?P<id>[A-Za-z0-9_-]+)/?$")


class PagePath(Convertor[str]):
    """Any path but /api, /api/… and /ui/…."""

    regex = r"(?!api(?:/|$)|ui/).*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("page", PagePath())


@router.api_route("/{path:page}", methods=["GET", "HEAD"])
def shell(path: str, request: Request, games: Service) -> Response:
    url_path = "/" + path
    index = request.app.state.root / "dist" / "index.html"
    if not index.exists():
        return PlainTextResponse("The front end is not built yet: run `make build`.", 503)
    status = 200 if any(route.match(url_path) for route in CLIENT_ROUTES) else 404
    game = GAME_ROUTE.match(url_path)
    if game:
        record = games.store.find(game["id"])
        status = 200 if record is not None and record.kind == game["kind"] else 404
    return FileResponse(index, status_code=status, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})
