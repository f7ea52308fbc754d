"""The chat of a friend game as HTML fragments (templates/_chat_log.html): read by anyone
with the link, written by its two players (app/chat.py has the rules and bounds).

The game's widget draws the chat with it (templates/_chat.html); a message sent re-renders
only the log, and static/js/chat.js reads the log again when the event stream says a
message was added.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import HTMLResponse

from app.chat import MESSAGE_LENGTH
from app.errors import ApiError, GameNotFound
from app.games import Caller, GameService
from app.games.kinds import KINDS
from app.routes.deps import AnyRecord, Asker, Service
from app.routes.fragments import chat_lines
from app.store import GameRecord
from app.templating import templates

router = APIRouter(prefix="/ui", include_in_schema=False)
# The games between two people: only they have a chat.
Kind = Annotated[str, Path(pattern="^(?:" + "|".join(
    re.escape(kind.kind) for kind in KINDS if kind.two_sided) + ")$")]


# Set on the answer to a refused message: static/js/chat.js then keeps the line written in,
# to be mended. (The refusal's sentence is in the log itself, which the page may have
# redrawn meanwhile, so the script reads the answer, not the page.)
REFUSED_HEADER = "X-Chat-Refused"


def render_log(request: Request, games: GameService, record: GameRecord, caller: Caller,
               error: str | None = None) -> HTMLResponse:
    you = set(games.actor(record, caller).seats)
    response = templates.TemplateResponse(request, "_chat_log.html", {
        "chat": chat_lines(games, record, you), "error": error})
    if error:
        response.headers[REFUSED_HEADER] = "1"
    return response


def same_kind(record: GameRecord, kind: str) -> GameRecord:
    if record.kind != kind:
        raise GameNotFound(record.id)
    return record


@router.get("/{kind}/{game_id}/chat", response_class=HTMLResponse)
def chat_log(request: Request, kind: Kind, record: AnyRecord, games: Service,
             caller: Asker) -> HTMLResponse:
    return render_log(request, games, same_kind(record, kind), caller)


@router.post("/{kind}/{game_id}/chat", response_class=HTMLResponse)
def say(request: Request, kind: Kind, record: AnyRecord, games: Service, caller: Asker,
        text: Annotated[str, Form(max_length=MESSAGE_LENGTH * 4)]) -> HTMLResponse:
    """Sends a player's message; a refused one (too long, too fast, a watcher's) leaves the
    log as it was, with the refusal's sentence under it."""
    record = same_kind(record, kind)
    try:
        games.chat.say(record, games.actor(record, caller), text)
    except ApiError as refusal:
        return render_log(request, games, record, caller, refusal.detail)
    return render_log(request, games, record, caller)
