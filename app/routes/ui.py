"""HTML fragments shared by all games: the home page, the not-found views, and the steps
every game's fragment routes (app/routes/ui_<game>.py) take.

Start at `act`: a form route runs its change through it and re-renders the game, with the
refusal's sentence shown if the change was refused. `table` says who sits at a game (for
templates/_table.html, which every game's widget includes). A game the path names but that
does not exist (or is of another kind) is rendered by `missing_fragment` with status 404.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.errors import ApiError
from app.games import Caller, GameService
from app.routes.deps import Asker, Service
from app.seats import Actor, digest
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


SEAT_NAMES = {"X": "X", "O": "O", "black": "Black", "white": "White", "player": "Player"}


def clock_text(seconds: float) -> str:
    """A clock's reading: 4:07, or 0:09.5 under ten seconds."""
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def table(request: Request, games: GameService, record: GameRecord,
          caller: Caller) -> dict[str, Any]:
    """Who sits at the game as the viewer sees it — "You: black · Friend: white · 2
    watching" — with the clocks, the invitation link (for its creator, while the seat is
    free) and a take-back waiting for an answer. templates/_table.html draws it."""
    game = games.to_json(record, caller)
    you = set(game["you"])
    running = (game["clock"] or {}).get("running")
    remaining = (game["clock"] or {}).get("remaining", {})
    seats = []
    for seat, holder in game["seats"].items():
        who = {"computer": "the computer", "free": "waiting for a friend"}.get(holder)
        if who is None:
            who = "you" if seat in you else ("friend" if you else "player")
        seconds = remaining.get(seat)
        seats.append({"seat": seat, "name": SEAT_NAMES.get(seat, seat), "who": who,
                      "you": seat in you, "running": seat == running,
                      "clock": seconds, "clock_text": clock_text(seconds)
                      if seconds is not None else ""})
    takeback = game["takeback"]
    invite = game.get("invite")
    return {
        "id": record.id, "kind": record.kind, "seats": seats, "watching": game["watching"],
        "seated": bool(you), "you": you, "two_people": record.data["options"].get(
            "opponent") == "remote", "invited": SEAT_NAMES.get(record.invited or "", ""),
        "invite": str(request.base_url).rstrip("/") + invite if invite else None,
        "takeback": takeback, "asked": bool(takeback and takeback["by"] in you),
        "version": record.version,
    }


# The time controls the new-game forms offer: (value, label); "" is no clock.
CLOCKS = (("", "No clock"), ("1+0", "1 minute"), ("3+2", "3 minutes + 2 s a move"),
          ("5+3", "5 minutes + 3 s a move"), ("10+5", "10 minutes + 5 s a move"),
          ("30+10", "30 minutes + 10 s a move"))


def clock_options(choice: str) -> dict[str, str]:
    """A form's "minutes+increment" choice as options (validated by the game's model)."""
    minutes, _, increment = choice.partition("+")
    return {"minutes": minutes, "increment": increment or "0"} if minutes else {}


def tally(games: GameService, browser: str, kind: str) -> dict[str, int]:
    """This browser's wins, draws and losses against the computer at `kind`."""
    return games.store.tally(digest(browser), kind)


def act(games: GameService, record: GameRecord, caller: Caller,
        change: Callable[[Actor], GameRecord]) -> tuple[GameRecord, str | None]:
    """Runs a change on a game as the caller (their seats: `change(actor)`): (the game after
    it, None) if it was applied, (the game as it now stands, the refusal's sentence) if it
    was refused."""
    try:
        return change(games.actor(record, caller)), None
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


KIND_NAMES = {"tictactoe": "Tic-tac-toe", "go": "Go", "knights-tour": "Knight's tour"}


def ago(seconds: float) -> str:
    """A short "how long ago" for a list."""
    if seconds < 60:
        return "just now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


def summary(games: GameService, record: GameRecord, caller: Caller) -> dict[str, Any]:
    """One line of the games list: what, against whom, whose turn, when."""
    view = games.view(record)
    you = games.actor(record, caller).seats
    options = record.data.get("options", {})
    opponent = options.get("opponent")
    against = {"local": "two players, one screen", "remote": "a friend",
               None: "a puzzle"}.get(opponent, "the computer")
    if record.kind == "go" and opponent == "computer":
        against = f"the computer ({options.get('level', '').capitalize()})"
    if view.result is not None:
        winner = view.result.get("winner")
        turn = ("You won" if winner in you and len(you) == 1 else view.result["text"]) \
            if winner else view.result["text"]
    elif view.to_move is None:
        turn = "Scoring" if view.status == "scoring" else "Your move"
    elif view.to_move in you:
        turn = "Your move" if len(you) < 2 else f"{view.to_move.capitalize()} to move"
    else:
        turn = "The computer's move" if against.startswith("the computer") \
            else "Your friend's move"
    return {"kind": KIND_NAMES[record.kind], "link": f"/{record.kind}/{record.id}",
            "against": against, "turn": turn, "over": view.status == "over",
            "when": ago(games.now() - record.updated_at)}


@router.get("/games", response_class=HTMLResponse)
def my_games(request: Request, games: Service, caller: Asker) -> HTMLResponse:
    """This browser's games, ongoing first, each with its deep link."""
    rows = [summary(games, record, caller) for record in games.games_of(caller)]
    rows.sort(key=lambda row: row["over"])  # stable: newest first within each part
    return templates.TemplateResponse(request, "games.html", {"rows": rows})


@router.get("/not-found", response_class=HTMLResponse)
def not_found(request: Request, path: str = "") -> HTMLResponse:
    return templates.TemplateResponse(request, "not_found.html", {"path": path[:200]},
                                      status_code=404)
