"""The single-page shell: a full page load of any non-API path returns dist/index.html,
and the client router renders the view for that path. Paths the client knows answer 200,
others 404 (the shell then shows its not-found view). Both come from the table of game
kinds (app/games/kinds.py): the shell carries it to the client router, in its
<meta name="tabletop-kinds"> (static/js/main.js reads it), and this module answers 200 for
the same paths. The route's `page` path type never matches /api/… or /ui/…: those never fall
back to the shell (an unknown one is a JSON 404, and a wrong method there a 405 that names
only the methods that really work).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from starlette.convertors import Convertor, register_url_convertor

from app.games.kinds import BY_KIND, GAME_ID, front_end
from app.routes.deps import Service

router = APIRouter(include_in_schema=False)

KIND = "|".join(re.escape(kind) for kind in BY_KIND)
# The paths of the client's route table (static/js/main.js builds the same from the meta).
CLIENT_ROUTES = [re.compile(r"^/$"), re.compile(r"^/games/?$"),
                 re.compile(rf"^/(?:{KIND})/?$")]
GAME_ROUTE = re.compile(rf"^/(?P<kind>{KIND})/(?P<id>{GAME_ID})/?$")
# The shell's placeholder for the table: static/index.html has it, the server fills it.
KINDS_META = '<meta name="tabletop-kinds" content="">'


class PagePath(Convertor[str]):
    """Any path but /api, /api/… and /ui/…."""

    regex = r"(?!api(?:/|$)|ui/).*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("page", PagePath())


def shell_page(index: Path) -> str:
    """dist/index.html with the table of kinds in its meta (read afresh each time: `make
    dev` rebuilds it while the server runs, and it is a few kilobytes)."""
    table = html.escape(json.dumps(front_end(), separators=(",", ":")), quote=True)
    return index.read_text().replace(KINDS_META,
                                     f'<meta name="tabletop-kinds" content="{table}">')


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
    return HTMLResponse(shell_page(index), status_code=status,
                        headers={"Cache-Control": "no-cache"})
