"""The single-page shell: a full page load of any non-API path returns dist/index.html,
and the client router renders the view for that path.

The first view comes inside the shell (`first_view`): for the home page, the games list and
a game's own path, the shell's <main> already holds the fragment the client's view would
fetch, rendered in-process by the same route, and names it in data-fragment; the view sees
that and adopts it instead of fetching it (static/js/fragments.js). A page with a query (an
invitation, a move to review) is left to its view. A full page load of a bare /<kind> (a
browser's own navigation, not a prefetch or a robot) does what the client's resume view
does (static/js/games.js) here: this browser's current game of the kind (its
tabletop_current_<kind> cookie, which the view keeps), or a new game with the query's
options (`resume_or_start`), served in the shell as its own path would be; the resume view
then puts the game's own URL in the address bar, with no redirect and no fetch. What it
cannot do - options it refuses, a rate limit - is left to the client's view, which says
why. Back/forward and links inside the page stay the router's. The shell is then this
browser's own page: private, never kept by a shared cache.

Paths the client knows answer 200, others 404 (the shell then shows its not-found view).
Both come from the table of game kinds (app/games/kinds.py): the shell carries it to the
client router, in its <meta name="tabletop-kinds"> (static/js/main.js reads it), and this
module answers 200 for the same paths. The route's `page` path type never matches /api/…
or /ui/…: those never fall back to the shell (an unknown one is a JSON 404, and a wrong
method there a 405 that names only the methods that really work).
"""

from __future__ import annotations

import html
import json
import logging
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.types import Message

from app.errors import ApiError
from app.games import GameService
from app.games.kinds import BY_KIND, GAME_ID, front_end
from app.routes.deps import Asker, Service
from app.routes.models import NewGame

router = APIRouter(include_in_schema=False)
log = logging.getLogger(__name__)

KIND = "|".join(re.escape(kind) for kind in BY_KIND)
# The paths of the client's route table (static/js/main.js builds the same from the meta).
CLIENT_ROUTES = [re.compile(r"^/$"), re.compile(r"^/games/?$"),
                 re.compile(rf"^/(?:{KIND})/?$")]
GAME_ROUTE = re.compile(rf"^/(?P<kind>{KIND})/(?P<id>{GAME_ID})/?$")
BARE_KIND = re.compile(rf"^/(?P<kind>{KIND})/?$")
# The shell's placeholder for the table: static/index.html has it, the server fills it.
KINDS_META = '<meta name="tabletop-kinds" content="">'
# The shell's outlet, and what it holds until a view fills it.
OUTLET = re.compile(r'<main id="main" tabindex="-1">.*?</main>', re.S)
# The client's record of this browser's current game of each kind (static/js/games.js).
CURRENT_COOKIE = "tabletop_current_"
GAME_ID_ONLY = re.compile(GAME_ID)
MAX_QUERY_OPTIONS = 10  # a bare link's options (size, komi, opponent, ...): more is no game
NEW_GAME: TypeAdapter[Any] = TypeAdapter(NewGame)


class PagePath(Convertor[str]):
    """Any path but /api, /api/… and /ui/…."""

    regex = r"(?!api(?:/|$)|ui/).*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("page", PagePath())


def shell_page(index: Path, fragment: tuple[str, str] | None = None) -> str:
    """dist/index.html with the table of kinds in its meta (read afresh each time: `make
    dev` rebuilds it while the server runs, and it is a few kilobytes), and the first view's
    fragment (its URL, its HTML) in the outlet."""
    table = html.escape(json.dumps(front_end(), separators=(",", ":")), quote=True)
    page = index.read_text().replace(KINDS_META,
                                     f'<meta name="tabletop-kinds" content="{table}">')
    if fragment is not None:
        url, body = fragment
        outlet = (f'<main id="main" tabindex="-1" data-fragment="{html.escape(url)}">'
                  f"{body}</main>")
        page = OUTLET.sub(lambda _: outlet, page, count=1)
    return page


@router.api_route("/{path:page}", methods=["GET", "HEAD"])
async def shell(path: str, request: Request, games: Service, caller: Asker) -> Response:
    url_path = "/" + path
    index = request.app.state.root / "dist" / "index.html"
    if not index.exists():
        return PlainTextResponse("The front end is not built yet: run `make build`.", 503)
    status = 200 if any(route.match(url_path) for route in CLIENT_ROUTES) else 404
    view_path = None if request.url.query else url_path  # a query changes the view
    bare = BARE_KIND.match(url_path)
    game = GAME_ROUTE.match(url_path)
    if bare and navigating(request):
        game_id = await resume_or_start(games, caller, bare["kind"], request)
        view_path = f"/{bare['kind']}/{game_id}" if game_id is not None else None
    elif game:
        record = await run_in_threadpool(games.store.find, game["id"])
        status = 200 if record is not None and record.kind == game["kind"] else 404
    fragment = await first_view(request, view_path) if status == 200 and view_path else None
    return HTMLResponse(shell_page(index, fragment), status_code=status,
                        headers={"Cache-Control": "private, no-cache"})


def navigating(request: Request) -> bool:
    """Whether this is a browser loading a page for its user: a GET navigation to a
    document that is no prefetch. Only then may a page load start a game - a robot or a
    link preview that fetches /go starts none."""
    headers = request.headers
    return (request.method == "GET" and headers.get("sec-fetch-mode") == "navigate"
            and headers.get("sec-fetch-dest") == "document"
            and "prefetch" not in headers.get("sec-purpose", "")
            and "prefetch" not in headers.get("purpose", ""))


async def resume_or_start(games: GameService, caller: Asker, kind: str,
                          request: Request) -> str | None:
    """The game a bare /<kind> opens on a full page load, as the client's resume view
    chooses it: without a query, this browser's current game of the kind, if it still
    exists; else (or with a query) a new game with the query's options. A computer that
    moves first thinks once the game's view loads, as after the new-game form. None when
    the client's view should handle it: the options are wrong or starting is refused (a
    rate limit); the view says why."""
    query = dict(request.query_params)
    current = request.cookies.get(CURRENT_COOKIE + kind, "")
    if not query and GAME_ID_ONLY.fullmatch(current):
        record = await run_in_threadpool(games.store.find, current)
        if record is not None and record.kind == kind:
            return record.id
    if len(query) > MAX_QUERY_OPTIONS:
        return None
    try:
        body: Any = NEW_GAME.validate_python({"game": kind, "options": query})
        created = games.new_record(kind, body.options.model_dump(), caller)
    except (ValidationError, ApiError):
        return None
    await run_in_threadpool(games.insert, created)
    return created.record.id


def fragment_url(url_path: str) -> str | None:
    """The fragment the client's view for `url_path` fetches first, when the server can
    render it as the view would ask for it (a game's view with preferences of its own asks
    with a query, and then fetches its own)."""
    if url_path == "/":
        return "/ui/home"
    if url_path.rstrip("/") == "/games":
        return "/ui/games"
    game = GAME_ROUTE.match(url_path)
    if game:
        return f"/ui/{game['kind']}/{game['id']}"
    return None


async def first_view(request: Request, view_path: str) -> tuple[str, str] | None:
    """The fragment of the view at `view_path` (its URL and HTML) for a full page load,
    rendered by the app's own route for it with the page request's cookies - or None when
    there is none to render or its route does not answer 200."""
    url = fragment_url(view_path)
    if url is None:
        return None
    scope = {key: value for key, value in request.scope.items()
             if key not in ("endpoint", "route", "path_params", "router")}
    headers = [(name, value) for name, value in request.scope["headers"]
               if name in (b"cookie", b"user-agent", b"accept-language", b"host")]
    scope.update(method="GET", path=url, raw_path=url.encode(), query_string=b"",
                 headers=[*headers, (b"hx-request", b"true")],
                 state=dict(request.scope.get("state", {})))
    started: list[Message] = []
    body: list[bytes] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            started.append(message)
        elif message["type"] == "http.response.body":
            body.append(message.get("body", b""))

    try:
        await request.app.router(scope, receive, send)
    except ApiError:
        return None
    except Exception:  # the view fetches the fragment itself, and shows what went wrong
        log.exception("the first view of %s could not be rendered in the shell", view_path)
        return None
    if not started or started[0]["status"] != 200:
        return None
    return url, b"".join(body).decode()
