"""The single-page shell: a full page load of any non-API path returns dist/index.html,
and the client router renders the view for that path. Paths the client knows answer 200,
others 404 (the shell then shows its not-found view); /api/… never falls back to the shell.
"""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response

from app.errors import ApiError, GameNotFound

router = APIRouter(include_in_schema=False)

# Mirrors the route table in static/js/main.js.
CLIENT_ROUTES = [
    re.compile(r"^/$"),
    re.compile(r"^/tictactoe/?$"),
    re.compile(r"^/go/?$"),
    re.compile(r"^/knights-tour/?$"),
]
GAME_ROUTE = re.compile(r"^/(?P<kind>tictactoe|go|knights-tour)/(?P<id>[A-Za-z0-9_-]+)/?$")


@router.api_route("/{path:path}", methods=["GET", "HEAD"])
def shell(path: str, request: Request) -> Response:
    url_path = "/" + path
    if url_path == "/api" or url_path.startswith(("/api/", "/ui/")):
        raise ApiError(f"There is nothing at {url_path}.", code="not_found", status=404)
    index = request.app.state.root / "dist" / "index.html"
    if not index.exists():
        return PlainTextResponse("The front end is not built yet: run `make build`.", 503)
    status = 200 if any(route.match(url_path) for route in CLIENT_ROUTES) else 404
    game = GAME_ROUTE.match(url_path)
    if game:
        try:
            record = request.app.state.service.get(game["id"])
            status = 200 if record.kind == game["kind"] else 404
        except GameNotFound:
            status = 404
    return FileResponse(index, status_code=status, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})
