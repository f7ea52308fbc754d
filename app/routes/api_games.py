"""The JSON game API: create, read, move, undo and change options. See /docs.

Every route returns the whole Game (app/routes/models.py); a refused request changes nothing
and returns {"detail": <sentence>, "code": <word>}. A move against the Go computer first takes
a place in the worker pool (503 with Retry-After when there is none, before the move is
played), then is stored, then the computer's reply is searched for and applied.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from app.pool import Busy, JobFailed, Ticket
from app.routes.deps import AnyRecord, Browser, Service, StrictJsonRoute
from app.routes.models import (
    BUSY,
    NOT_FOUND,
    REFUSALS,
    Game,
    MoveRequest,
    NewGame,
    OptionsRequest,
    VersionedRequest,
)
from app.store import GameRecord

router = APIRouter(prefix="/api/games", tags=["games"], route_class=StrictJsonRoute)
# Every route answers with the whole Game; optional state fields (Go's score…) appear only
# when the game has them.
GAME: dict[str, Any] = {"response_model": Game, "response_model_exclude_unset": True}
log = logging.getLogger("tabletop")


async def answer(games: Service, record: GameRecord, ticket: Ticket | None = None
                 ) -> dict[str, Any]:
    """The game after the computer's reply, if it owes one. If the search cannot run or
    fails, the change this request stored stands: the game is returned as stored, with the
    computer to move, and POST …/computer-move asks it again."""
    try:
        record = await games.computer_reply(record, ticket)
    except (Busy, JobFailed) as failure:
        log.warning("the computer's reply in %s did not come: %s", record.id, failure.detail)
    return games.to_json(record)


@router.post("", status_code=201, **GAME, responses={**REFUSALS, **BUSY})
async def create_game(body: NewGame, games: Service, browser: Browser) -> dict[str, Any]:
    """Starts a game. If the computer moves first, its move is already played (and if the
    computer is too busy to think, the game is not created: 503)."""
    record = games.new_record(body.game, body.options.model_dump(), browser)
    ticket = games.admit_search(record) if games.owes_reply(record) else None
    try:
        await run_in_threadpool(games.insert, record)
    except BaseException:
        if ticket is not None:
            ticket.release()
        raise
    return await answer(games, record, ticket)


@router.get("/{game_id}", **GAME, responses=NOT_FOUND)
def get_game(record: AnyRecord, games: Service) -> dict[str, Any]:
    return games.to_json(record)


@router.post("/{game_id}/moves", **GAME, responses={**REFUSALS, **BUSY})
async def play_move(record: AnyRecord, body: MoveRequest, games: Service) -> dict[str, Any]:
    """Plays a move; against the computer its reply is applied before this returns (the
    move itself is stored first: if the search fails, the move stands)."""
    ticket = games.admit_search(record)
    try:
        record = await run_in_threadpool(games.play, record, body.move, body.version)
    except BaseException:
        if ticket is not None:
            ticket.release()
        raise
    return await answer(games, record, ticket)


@router.post("/{game_id}/computer-move", **GAME, responses={**REFUSALS, **BUSY})
async def computer_move(record: AnyRecord, games: Service) -> dict[str, Any]:
    """Lets the computer move if it is its turn (e.g. a search cut short by a restart);
    otherwise returns the game unchanged."""
    return games.to_json(await games.computer_reply(record))


@router.post("/{game_id}/undo", **GAME, responses=REFUSALS)
def undo_move(record: AnyRecord, games: Service,
              body: VersionedRequest | None = None) -> dict[str, Any]:
    """Takes back the last move (against the computer: yours and its reply). A finished
    game against the computer cannot be taken back: its result is in the tally."""
    return games.to_json(games.undo(record, body.version if body else None))


@router.patch("/{game_id}", **GAME, responses={**REFUSALS, **BUSY})
async def update_options(record: AnyRecord, body: OptionsRequest,
                         games: Service) -> dict[str, Any]:
    """Changes options mid-game, e.g. {"opponent": "random"} switches the computer's
    strategy from its next move on; if the change hands the computer the move, it plays."""
    record = await run_in_threadpool(games.update_options, record, body.options, body.version)
    return await answer(games, record)
