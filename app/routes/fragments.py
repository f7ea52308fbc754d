"""What every game's HTML fragment routes (app/routes/ui_<game>.py, app/routes/ui_chat.py)
share; no routes here.

Start at `act`: a form route runs its change through it and re-renders the game, with the
refusal's sentence shown if the change was refused. `table` says who sits at a game (for
templates/_table.html, which every game's widget includes), with the name form's and the
rematch's steps (`name_step`, `rematch_step`). A game the path names but that
does not exist (or is of another kind) is rendered by `missing_fragment` with status 404.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.errors import ApiError
from app.games import Caller, GameService, TwoSided
from app.games.kinds import BY_KIND
from app.routes.deps import NAME_COOKIE
from app.seats import NAME_LENGTH, Actor, clean_name, digest
from app.store import GameRecord
from app.templating import templates


def missing_fragment(request: Request, kind: str, game_id: str) -> HTMLResponse:
    """The not-found view of a game of `kind` (templates/_missing.html), status 404."""
    return templates.TemplateResponse(request, "_missing.html",
                                      {"kind": BY_KIND[kind], "game_id": game_id[:64]},
                                      status_code=404)


SEAT_NAMES = {"X": "X", "O": "O", "black": "Black", "white": "White", "player": "Player"}


def clock_text(seconds: float) -> str:
    """A clock's reading: 4:07, or 0:09.5 under ten seconds."""
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def clock_reading(clock: dict[str, Any] | None, seat: str, name: str) -> dict[str, Any]:
    """A seat's clock for templates/_table.html: its main time (None: no clock), the text —
    "4:07", "9:41 + 5×30s" then "0:27 (3×30s)" in byo-yomi, "9:41 + 25/5:00" (25 moves in 5
    minutes) then "4:12 / 12 moves" in Canadian time — its aria-label, and the data
    static/js/live.js ticks it from (the same readings, in clockFace)."""
    seconds = (clock or {}).get("remaining", {}).get(seat)
    if clock is None or seconds is None:
        return {"clock": None}
    system = clock.get("system", "fischer")
    overtime = (clock.get("overtime") or {}).get(seat, {})
    data = {"system": system}
    if system == "byoyomi":
        data.update(period=clock["period"], periods=overtime["periods"],
                    overtime=overtime["seconds"])
    elif system == "canadian":
        data.update(block=clock["block"], stones=clock["stones"],
                    stones_left=overtime["stones"], overtime=overtime["seconds"])
    text, spoken = clock_face(seconds, data)
    return {"clock": seconds, "clock_text": text, "clock_label": f"{name}'s clock: {spoken}",
            "clock_data": data}


def clock_face(main: float, data: dict[str, Any]) -> tuple[str, str]:
    """What a clock shows and says with `main` seconds of main time left (live.js's
    clockFace is the same)."""
    system = data["system"]
    if system == "byoyomi":
        periods, period = data["periods"], data["period"]
        if main > 0:
            return (f"{clock_text(main)} + {periods}×{period}s",
                    f"{clock_text(main)} of main time, then {periods} × {period} seconds")
        if periods <= 0:
            return clock_text(0), "out of time"
        return (f"{clock_text(data['overtime'])} ({periods}×{period}s)",
                f"byo-yomi, {clock_text(data['overtime'])} of this period, {periods} "
                f"period{'s' if periods != 1 else ''} of {period} seconds left")
    if system == "canadian":
        block, stones = clock_text(data["block"]), data["stones"]
        if main > 0:
            return (f"{clock_text(main)} + {stones}/{block}",
                    f"{clock_text(main)} of main time, then {stones} moves in every {block}")
        left = data["stones_left"]
        moves = f"{left} move{'s' if left != 1 else ''}"
        return (f"{clock_text(data['overtime'])} / {moves}",
                f"Canadian time, {clock_text(data['overtime'])} for {moves}")
    return clock_text(main), clock_text(main)


def table(request: Request, games: GameService, record: GameRecord,
          caller: Caller) -> dict[str, Any]:
    """Who sits at the game as the viewer sees it — "You: black · Friend: white · 2
    watching" — with the clocks, the invitation link (for its creator, while the seat is
    free) and a take-back waiting for an answer. templates/_table.html draws it."""
    game = games.to_json(record, caller)
    you = set(game["you"])
    running = (game["clock"] or {}).get("running")
    chosen = game["names"]
    seats = []
    for seat, holder in game["seats"].items():
        who = {"computer": "the computer", "free": "waiting for a friend"}.get(holder)
        if who is None and seat in you:
            who = f"{chosen[seat]} (you)" if seat in chosen else "you"
        elif who is None:
            who = chosen.get(seat) or ("friend" if you else "player")
        name = SEAT_NAMES.get(seat, seat)
        seats.append({"seat": seat, "name": name, "who": who,
                      "you": seat in you, "running": seat == running,
                      **clock_reading(game["clock"], seat, name)})
    takeback = game["takeback"]
    invite = game.get("invite")
    two_people = record.data["options"].get("opponent") == "remote"
    return {
        "id": record.id, "kind": record.kind, "seats": seats, "watching": game["watching"],
        "seated": bool(you), "you": you, "two_people": two_people,
        # A friend game or a timed one names its seats and clocks above the board too,
        # where a narrow screen puts the panel below it (templates/_seats_strip.html).
        "above_board": two_people or game["clock"] is not None,
        "invited": SEAT_NAMES.get(record.invited or "", ""),
        "invite": str(request.base_url).rstrip("/") + invite if invite else None,
        "takeback": takeback, "asked": bool(takeback and takeback["by"] in you),
        "version": record.version,
        # A seated player of a friend game may name themselves (the name form), shown with
        # the name they chose for this game, else the one their browser remembers.
        "naming": bool(you) and two_people,
        "my_name": next((chosen[seat] for seat in sorted(you) if seat in chosen),
                        caller.name or ""),
        "name_length": NAME_LENGTH,
        "rematch": rematch_offer(games, record, game, you),
        # A friend game's chat (templates/_chat.html); None in other games.
        "chat": chat_lines(games, record, you) if two_people else None,
    }


def chat_lines(games: GameService, record: GameRecord, you: set[str]) -> list[dict[str, Any]]:
    """A friend game's chat as the viewer reads it (templates/_chat_log.html): each
    message with who said it — "You", the name the seat had, else the seat ("Black")."""
    return [{**message, "mine": message["seat"] in you,
             "who": "You" if message["seat"] in you
             else message["name"] or SEAT_NAMES.get(message["seat"], message["seat"])}
            for message in games.chat.messages(record)]


def rematch_offer(games: GameService, record: GameRecord, game: dict[str, Any],
                  you: set[str]) -> dict[str, Any] | None:
    """What a finished game says of its rematch to this viewer (templates/_rematch.html):
    "offer" (a button; between friends the first ask is an offer), "offered" (waiting for
    the friend), "asked" (the friend offered: accept?), "started" (a link to it); with the
    side the viewer would play. None where there is none to have (a game going on, an
    imported record, a puzzle) or nothing to say (a watcher, before it starts)."""
    adapter = games.adapter(record.kind)
    if game["status"] != "over" or record.data.get("review_only") \
            or not isinstance(adapter, TwoSided):
        return None
    asked = game["rematch"] or {}
    if asked.get("game"):
        return {"state": "started", "link": f"/{record.kind}/{asked['game']}"}
    if not you:
        return None
    first, second = adapter.sides
    side = SEAT_NAMES[second if first in you else first] if len(you) == 1 else None
    if record.data["options"].get("opponent") != "remote" or not asked:
        return {"state": "offer", "side": side}
    return {"state": "offered" if you <= set(asked["by"]) else "asked", "side": side}


def rematch_step(games: GameService, record: GameRecord,
                 caller: Caller) -> tuple[GameRecord, str | None, str | None]:
    """Asks for a rematch of a finished game as the caller: (the game as it now stands, the
    path of the rematch to open if it started, the refusal's sentence if refused)."""
    try:
        after, new = games.rematch(record, games.actor(record, caller), caller)
    except ApiError as refusal:
        return games.load(record.id, record.kind), None, refusal.detail
    return after, f"/{new.kind}/{new.id}" if new else None, None


NAME_KEPT_SECONDS = 400 * 24 * 3600  # the longest a browser keeps a cookie


def name_step(games: GameService, record: GameRecord, caller: Caller,
              text: str) -> tuple[GameRecord, str | None, str | None]:
    """Names the caller's seats (app/seats.py clean_name): (the game as it now stands, the
    name to remember — "" to forget it — or None if refused, the refusal's sentence)."""
    try:
        name = clean_name(text)
        return games.rename(record, games.actor(record, caller), name), name or "", None
    except ApiError as refusal:
        return games.load(record.id, record.kind), None, refusal.detail


def remember_name(response: Response, name: str | None) -> Response:
    """Has the browser remember `name` for its next games (its cookie; "" forgets it,
    None leaves it as it was). The cookie is percent-encoded UTF-8 and not for scripts."""
    if name:
        response.set_cookie(NAME_COOKIE, quote(name, safe=""), max_age=NAME_KEPT_SECONDS,
                            path="/", httponly=True, samesite="lax")
    elif name is not None:
        response.delete_cookie(NAME_COOKIE, path="/", httponly=True, samesite="lax")
    return response


# The time controls the new-game forms offer, by system — OGS's usual ones — as (value,
# label): "minutes+increment" (Fischer), "minutes b periods x seconds" (byo-yomi), "minutes c
# moves / seconds" (Canadian). "" is no clock; "custom" takes the form's clock_* fields.
CLOCKS = (
    ("Fischer", (("1+0", "1 minute"), ("3+2", "3 min + 2 s a move"),
                 ("5+3", "5 min + 3 s a move"), ("10+5", "10 min + 5 s a move"),
                 ("30+10", "30 min + 10 s a move"))),
    ("Byo-yomi", (("0.5b5x10", "30 s + 5 × 10 s"), ("10b5x30", "10 min + 5 × 30 s"),
                  ("20b5x30", "20 min + 5 × 30 s"), ("30b5x60", "30 min + 5 × 60 s"))),
    ("Canadian", (("5c10/120", "5 min + 10 moves / 2 min"),
                  ("10c25/300", "10 min + 25 moves / 5 min"),
                  ("20c20/600", "20 min + 20 moves / 10 min"))),
)
CLOCK_CHOICE = re.compile(r"(?P<minutes>[0-9.]{1,6})(?:\+(?P<increment>[0-9]{1,3})"
                          r"|b(?P<periods>[0-9]{1,3})x(?P<period>[0-9]{1,4})"
                          r"|c(?P<stones>[0-9]{1,3})/(?P<block>[0-9]{1,4}))")
CUSTOM_FIELDS = {"fischer": ("increment",), "byoyomi": ("periods", "period"),
                 "canadian": ("stones", "block")}


def clock_options(choice: str, custom: dict[str, str] | None = None) -> dict[str, str]:
    """A form's clock choice (see CLOCKS) as options, validated by the game's model; for
    "custom", the fields of the system `custom` names."""
    if choice == "custom":
        custom = custom or {}
        system = custom.get("system", "")
        fields = ("minutes", *CUSTOM_FIELDS.get(system, ()))
        return {"system": system, **{field: custom.get(field, "") for field in fields}}
    found = CLOCK_CHOICE.fullmatch(choice)
    if not choice or found is None:
        return {"minutes": choice} if choice else {}  # the model refuses it with a sentence
    chosen = {field: value for field, value in found.groupdict().items() if value is not None}
    named = "byoyomi" if "periods" in chosen else "canadian" if "stones" in chosen else None
    return {**chosen, "system": named} if named else {"increment": "0", **chosen}


FormText = Annotated[str, Form(max_length=12)]


def clock_form(clock: FormText = "", clock_system: FormText = "",
               clock_minutes: FormText = "", clock_increment: FormText = "",
               clock_periods: FormText = "", clock_period: FormText = "",
               clock_stones: FormText = "", clock_block: FormText = "") -> dict[str, str]:
    """A new-game form's clock (templates/_clock_choice.html) as options: a preset or the
    custom fields."""
    return clock_options(clock, {
        "system": clock_system, "minutes": clock_minutes, "increment": clock_increment,
        "periods": clock_periods, "period": clock_period, "stones": clock_stones,
        "block": clock_block})


# A route's parameter: the clock options its new-game form chose.
ClockForm = Annotated[dict[str, str], Depends(clock_form)]


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
