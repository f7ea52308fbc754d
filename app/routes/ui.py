"""HTML fragments shared by all games: the home page, the not-found views, and the steps
every game's fragment routes (app/routes/ui_<game>.py) take.

Start at `act`: a form route runs its change through it and re-renders the game, with the
refusal's sentence shown if the change was refused. A game the path names but that does not
exist (or is of another kind) is rendered by `missing_fragment` with status 404.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.errors import ApiError
from app.games import GameService
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui", include_in_schema=False)


@dataclass(frozen=True)
class Missing:
    """What the not-found view of one kind of game says."""

    root: str  # the id of the game's widget, so an htmx swap of the widget shows this view
    title: str
    label: str
    start: str
    action: str


MISSING = {
    "tictactoe": Missing("ttt-game", "Game not found", "tic-tac-toe game",
                         "/tictactoe?opponent=rules", "Start a new tic-tac-toe game"),
    "go": Missing("go-game", "Game not found", "Go game", "/go?size=9",
                  "Start a new Go game"),
    "knights-tour": Missing("kt-game", "Puzzle not found", "knight's-tour puzzle",
                            "/knights-tour?size=8", "Start a new knight's tour"),
}


def missing_fragment(request: Request, kind: str, game_id: str) -> HTMLResponse:
    return templates.TemplateResponse(request, "_missing.html",
                                      {"missing": MISSING[kind], "game_id": game_id[:64]},
                                      status_code=404)


def act(games: GameService, record: GameRecord,
        change: Callable[[], GameRecord]) -> tuple[GameRecord, str | None]:
    """Runs a change on a game: (the game after it, None) if it was applied, (the game as it
    now stands, the refusal's sentence) if it was refused."""
    try:
        return change(), None
    except ApiError as refusal:
        return games.load(record.id, record.kind), refusal.detail


def navigate_to(path: str) -> Response:
    """204 with an HX-Trigger asking the client router to open `path` (a new history
    entry, so Back returns to where the player was)."""
    trigger = {"tabletop:navigate": {"path": path}}
    return Response(status_code=204, headers={"HX-Trigger": json.dumps(trigger)})


@router.get("/home", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "home.html")


@router.get("/not-found", response_class=HTMLResponse)
def not_found(request: Request, path: str = "") -> HTMLResponse:
    return templates.TemplateResponse(request, "not_found.html", {"path": path[:200]},
                                      status_code=404)
