"""The JSON game API: create, read, join, move, undo and take back, resign, change options,
and the live event stream. See /docs.

Every route returns the whole Game (app/routes/models.py) as the caller sees it; a refused
request changes nothing and returns {"detail": <sentence>, "code": <word>}. Reading a game
and its events needs nothing; every change needs a seat at the game (a token sent as
Authorization: Bearer, or the browser cookie that created or joined it): 403 otherwise. A
move against the Go computer first takes a place in the worker pool (503 with Retry-After
when there is none, before the move is played), then is stored, then the computer's reply is
searched for and applied.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Header
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse

from app.games import NotSeated
from app.pool import Busy, JobFailed, Ticket
from app.routes.deps import AnyRecord, Asker, Hub, Service, StrictJsonRoute
from app.routes.models import (
    BUSY,
    ERROR,
    NOT_FOUND,
    RATED,
    REFUSALS,
    ChatLog,
    ChatMessage,
    ChatRequest,
    Game,
    JoinRequest,
    MoveRequest,
    NameRequest,
    NewGame,
    OptionsRequest,
    TakeBackAnswer,
    VersionedRequest,
)
from app.seats import clean_name
from app.store import GameRecord

MAX_VERSION = 2**63  # versions are stored as 64-bit integers
RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"},
                               "description": "Seconds to wait before trying again."}}
STREAM_REFUSALS: dict[int | str, dict[str, Any]] = {
    429: {**ERROR, "headers": RETRY_AFTER,
          "description": "This client address follows as many streams as one may."},
    503: {**ERROR, "headers": RETRY_AFTER,
          "description": "The server follows as many streams as it can."}}
router = APIRouter(prefix="/api/games", tags=["games"], route_class=StrictJsonRoute)
log = logging.getLogger("tabletop")
# Every route answers with the whole Game; optional parts (Go's score, the invite, the
# token) appear only when there is something to show.
GAME: dict[str, Any] = {"response_model": Game, "response_model_exclude_unset": True}


async def answer(games: Service, record: GameRecord, caller: Asker,
                 ticket: Ticket | None = None, token: str | None = None) -> dict[str, Any]:
    """The game after the computer's reply, if it owes one. If the search cannot run or
    fails, the change this request stored stands: the game is returned as stored, with the
    computer to move, and POST …/computer-move asks it again."""
    try:
        record = await games.computer_reply(record, ticket)
    except (Busy, JobFailed) as failure:
        log.warning("the computer's reply in %s did not come: %s", record.id, failure.detail)
    return await run_in_threadpool(games.to_json, record, caller, token)


@router.post("", status_code=201, **GAME, responses={**REFUSALS, **RATED, **BUSY})
async def create_game(body: NewGame, games: Service, caller: Asker) -> dict[str, Any]:
    """Starts a game and seats its creator (the response's `token`). With
    {"opponent": "remote"} the other seat is a friend's: `invite` is the link to send them.
    If the computer moves first, its move is already played (and if the computer is too busy
    to think, the game is not created: 503)."""
    created = games.new_record(body.game, body.options.model_dump(), caller)
    ticket = games.admit_search(created.record) if games.owes_reply(created.record) else None
    try:
        await run_in_threadpool(games.insert, created)
    except BaseException:
        if ticket is not None:
            ticket.release()
        raise
    return await answer(games, created.record, caller, ticket, created.token)


@router.get("/{game_id}", **GAME, responses=NOT_FOUND)
def get_game(record: AnyRecord, games: Service, caller: Asker) -> dict[str, Any]:
    """The game as it stands; anyone with its id may read it."""
    return games.to_json(games.expire(record), caller)


@router.post("/{game_id}/join", **GAME, responses=REFUSALS)
def join_game(record: AnyRecord, body: JoinRequest, games: Service,
              caller: Asker) -> dict[str, Any]:
    """Takes the free seat with the invitation's code (spent by this: a second join is
    refused). The response carries the new player's `token`."""
    joined, token = games.join(record, body.invite, caller)
    return games.to_json(joined, caller, token)


@router.post("/{game_id}/moves", **GAME, responses={**REFUSALS, **BUSY})
async def play_move(record: AnyRecord, body: MoveRequest, games: Service,
                    caller: Asker) -> dict[str, Any]:
    """Plays a move for the caller's seat; against the computer its reply is applied before
    this returns (the move itself is stored first: if the search fails, the move stands)."""
    actor = games.actor(record, caller)
    if not actor.seated:
        raise NotSeated()
    ticket = games.admit_search(record, body.move)
    try:
        record = await run_in_threadpool(games.play, record, actor, body.move, body.version)
    except BaseException:
        if ticket is not None:
            ticket.release()
        raise
    return await answer(games, record, caller, ticket)


@router.post("/{game_id}/resign", **GAME, responses=REFUSALS)
def resign(record: AnyRecord, games: Service, caller: Asker,
           body: VersionedRequest | None = None) -> dict[str, Any]:
    """The caller's side resigns (at one screen: the side to move), in turn or not."""
    actor = games.actor(record, caller)
    return games.to_json(games.resign(record, actor, body.version if body else None), caller)


@router.post("/{game_id}/computer-move", **GAME, responses={**REFUSALS, **BUSY})
async def computer_move(record: AnyRecord, games: Service, caller: Asker) -> dict[str, Any]:
    """Lets the computer move if it is its turn (e.g. a search cut short by a restart);
    otherwise returns the game unchanged."""
    if not games.actor(record, caller).seated:
        raise NotSeated()
    record = await games.computer_reply(record)
    return await run_in_threadpool(games.to_json, record, caller)


@router.post("/{game_id}/undo", **GAME, responses=REFUSALS)
def undo_move(record: AnyRecord, games: Service, caller: Asker,
              body: VersionedRequest | None = None) -> dict[str, Any]:
    """Takes back the last move (against the computer: yours and its reply). Between two
    people through a link it asks the other to agree (see …/takeback). A finished game
    against the computer cannot be taken back: its result is in the tally."""
    actor = games.actor(record, caller)
    return games.to_json(games.undo(record, actor, body.version if body else None), caller)


@router.post("/{game_id}/name", **GAME, responses=REFUSALS)
def name_seats(record: AnyRecord, body: NameRequest, games: Service,
               caller: Asker) -> dict[str, Any]:
    """Shows a name on the caller's seats, to the other player and watchers ("names");
    an empty one removes it. Letters, digits, spaces and punctuation, 24 at most."""
    actor = games.actor(record, caller)
    return games.to_json(games.rename(record, actor, clean_name(body.name)), caller)


@router.post("/{game_id}/rematch", **GAME, responses=REFUSALS)
def rematch(record: AnyRecord, games: Service, caller: Asker) -> dict[str, Any]:
    """After the game, a new one with the colours swapped and the same seats' holders:
    against the computer or at one screen it starts at once; between two people through a
    link the first ask offers it and the other's ask starts it. Returns this game, whose
    `rematch.game` is the new game's id once it has started."""
    actor = games.actor(record, caller)
    after, _ = games.rematch(record, actor, caller)
    return games.to_json(after, caller)


@router.get("/{game_id}/chat", response_model=ChatLog, responses=NOT_FOUND)
def read_chat(record: AnyRecord, games: Service) -> dict[str, Any]:
    """A friend game's chat: anyone with the link reads it (empty in other games). Each new
    message is announced on the event stream as a `chat` event."""
    return {"messages": games.chat.messages(record)}


@router.post("/{game_id}/chat", status_code=201, response_model=ChatMessage,
             responses={**REFUSALS, **RATED})
def say(record: AnyRecord, body: ChatRequest, games: Service, caller: Asker) -> dict[str, Any]:
    """Adds a message to a friend game's chat; only its two players write (403 otherwise),
    at most a few messages at once then 30 a minute (429), 500 in a game (409)."""
    return games.chat.say(record, games.actor(record, caller), body.text)


@router.post("/{game_id}/takeback", **GAME, responses=REFUSALS)
def answer_takeback(record: AnyRecord, body: TakeBackAnswer, games: Service,
                    caller: Asker) -> dict[str, Any]:
    """The other player's answer to a take-back request: {"accept": true} takes the asker's
    last move (and what followed it) back, false declines."""
    actor = games.actor(record, caller)
    return games.to_json(games.answer_takeback(record, actor, body.accept, body.version),
                         caller)


@router.patch("/{game_id}", **GAME, responses={**REFUSALS, **BUSY})
async def update_options(record: AnyRecord, body: OptionsRequest, games: Service,
                         caller: Asker) -> dict[str, Any]:
    """Changes options mid-game, e.g. {"opponent": "random"} switches the computer's
    strategy from its next move on; if the change hands the computer the move, it plays.
    A game between two people through a link keeps its options."""
    actor = games.actor(record, caller)
    record = await run_in_threadpool(games.update_options, record, actor, body.options,
                                     body.version)
    return await answer(games, record, caller)


@router.get("/{game_id}/events", response_class=StreamingResponse, responses={
    200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
          "description": "Server-Sent Events: `game` (id: the version; data: the Game as a "
                         "watcher sees it), `computer` (its search starts or ends), "
                         "`presence` (how many watch)."},
    **NOT_FOUND, **STREAM_REFUSALS})
def game_events(record: AnyRecord, games: Service, hub: Hub, caller: Asker,
                last_event_id: Annotated[str | None, Header(max_length=20)] = None
                ) -> Response:
    """The game's live events. A client that reconnects with Last-Event-ID (browsers do it
    by themselves) first gets every version it missed, in order; an id that is no version
    (not ASCII digits, or past any version) counts as none: the game as it stands comes
    first. A client may follow a bounded number of streams at once (429; 503 when the
    server follows all it can)."""
    seen = last_event_id_of(last_event_id)
    seated = games.actor(record, caller).seated
    return hub.response(record.id, seen, seated, lambda: games.public(games.load(record.id)),
                        caller.address)


def last_event_id_of(header: str | None) -> int | None:
    """The version a Last-Event-ID names, or None: browsers send back the ids we gave, which
    are ASCII digits below 2**63 (what the store keeps); anything else is no version."""
    if header is None or not (header.isascii() and header.isdigit()):
        return None
    version = int(header)
    return version if version < MAX_VERSION else None
