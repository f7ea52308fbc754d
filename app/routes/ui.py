"""The HTML fragments of no one game: the home page, this browser's games (/games) and the
page-not-found view. What the game fragments share is in app/routes/fragments.py.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.games import Caller, GameService
from app.routes.deps import Asker, Service
from app.routes.games_list import kind_words, opponent_words, standing, when, your_side
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui", include_in_schema=False)


@router.get("/home", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "home.html")


def summary(games: GameService, record: GameRecord, caller: Caller) -> dict[str, Any]:
    """One row of the games list, in the viewer's words (app/routes/games_list.py): the
    game and its board, against whom (and the side the viewer plays), whose turn it is or
    how it ended, and when a person last played in it. A clock that has run out is settled
    first, as every read of a game does, so the list never says a lost game is on."""
    record = games.expire(record)
    view = games.view(record)
    you = set(games.actor(record, caller).seats)
    now = standing(record, view, you)
    return {"kind": kind_words(record), "link": f"/{record.kind}/{record.id}",
            "against": opponent_words(record), "side": your_side(record, you),
            "turn": now.words, "tone": now.tone, "over": view.status == "over",
            "when": when(record.played_at or record.updated_at, games.now())}


@router.get("/games", response_class=HTMLResponse)
def my_games(request: Request, games: Service, caller: Asker) -> HTMLResponse:
    """This browser's games that someone has moved in (GameService.games_of: at most 100,
    the most recently played first), in two parts: those still being played, the ones
    waiting for the viewer's move first, and those finished."""
    rows = [summary(games, record, caller) for record in games.games_of(caller)]
    playing = sorted((row for row in rows if not row["over"]),
                     key=lambda row: row["tone"] != "yours")  # stable: newest first
    finished = [row for row in rows if row["over"]]
    return templates.TemplateResponse(request, "games.html",
                                      {"playing": playing, "finished": finished})


@router.get("/not-found", response_class=HTMLResponse)
def not_found(request: Request, path: str = "") -> HTMLResponse:
    return templates.TemplateResponse(request, "not_found.html", {"path": path[:200]},
                                      status_code=404)
