"""Go's own API: SGF in and out (a game as a record with its variations; a record as a new
game to review), what the computer would play in any position, a new game branched from
a position of another, and the computer's review of a whole game once it is over."""

from __future__ import annotations

import datetime
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.engine.go.sgf import MAX_SGF_BYTES
from app.errors import ApiError
from app.games import go_record, go_review
from app.games.go import GoOptions
from app.games.go_analysis import Analyst
from app.games.go_record import MAX_MOVES, branch, sgf_text
from app.routes.deps import Asker, GoRecord, Service, StrictJsonRoute
from app.routes.models import BUSY, ERROR, INTEGRAL, NOT_FOUND, RATED, REFUSALS, GoGame

router = APIRouter(prefix="/api/games", tags=["go"], route_class=StrictJsonRoute)

SGF_MEDIA_TYPE = "application/x-go-sgf"
# What the body must be before it is read at all: some text holding a game's start, "(;"
# (maybe with spaces between), as the SGF reader looks for it; no more than MAX_SGF_BYTES.
SGF_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_SGF_BYTES,
              "pattern": r"\([ \t\n\r\f\v]*;",
              "description": "An SGF record: text with a game tree, \"(;…)\"."}


@router.get("/{game_id}/sgf", response_class=Response, responses={
    200: {"content": {SGF_MEDIA_TYPE: {"schema": {"type": "string"}}}},
    **NOT_FOUND})
def download_sgf(record: GoRecord) -> Response:
    """The Go game as an SGF FF[4] record, as a download (404 for games of other kinds). A
    game from an imported record keeps the record's variations, names and comments."""
    date = datetime.date.fromtimestamp(record.created_at)
    text = sgf_text(record.data, date)
    size = record.data["options"]["size"]
    filename = f"tabletop-go-{size}x{size}-{date.isoformat()}-{record.id}.sgf"
    return Response(text, media_type=SGF_MEDIA_TYPE,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def read_limited(request: Request, limit: int) -> bytes:
    """The request body, refusing (413) as soon as it passes `limit` bytes."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(f"The SGF file is larger than {limit:,} bytes; that is not a game "
                           "record this site can read.", code="too_large", status=413)
        chunks.append(chunk)
    return b"".join(chunks)


@router.post("/import", status_code=201, response_model=GoGame,
             response_model_exclude_unset=True, responses={
    413: {**ERROR, "description": f"The record is larger than {MAX_SGF_BYTES:,} bytes."},
    415: {**ERROR, "description": "The body is not sent as SGF."}, **RATED,
    422: {**ERROR, "description": "The record cannot be read or replayed."}, **BUSY},
             openapi_extra={"requestBody": {"required": True, "content": {
                 media_type: {"schema": SGF_SCHEMA}
                 for media_type in (SGF_MEDIA_TYPE, "text/plain")}}})
async def import_sgf(request: Request, games: Service, caller: Asker) -> dict[str, Any]:
    """A new Go game for review: the record's main line (set-up stones included), its names,
    comments and variations. Nobody plays on it directly: branch a game from any of its
    positions (…/branch). Send the SGF text as the body with Content-Type
    application/x-go-sgf."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in (SGF_MEDIA_TYPE, "application/sgf", "text/plain"):
        raise ApiError("Send the SGF text as the body with Content-Type "
                       f"{SGF_MEDIA_TYPE}.", code="unsupported_media_type", status=415)
    body = await read_limited(request, MAX_SGF_BYTES)
    data = await go_record.import_sgf(games.pool, body)
    created = await run_in_threadpool(games.create_from_data, "go", data, caller)
    return games.to_json(created.record, caller, created.token)


class BranchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: Annotated[StrictInt, Field(ge=0, le=MAX_MOVES, description=(
        "The position: after this many moves (at most the game's own number of moves).")),
        INTEGRAL]
    options: GoOptions = Field(default_factory=GoOptions, description=(
        "The new game's options (opponent, level, human, minutes, increment); the board's "
        "size, komi and handicap are the original's, whatever these say."))


class Analysis(BaseModel):
    """The computer's view of a position."""

    after: int = Field(description="The position analysed: after this many moves.")
    to_move: Literal["black", "white"]
    move: str = Field(description="Its choice: a vertex, \"pass\" or \"resign\".")
    win_rate: float = Field(ge=0, le=1, description="For the side to move.")
    lead: float = Field(description="The area margin it expects for the side to move, komi "
                        "included (negative: behind).")
    line: list[str] = Field(description="The continuation it expects.")
    playouts: int
    seconds: float
    ownership: list[float] = Field(description=(
        "Who the search expects to own each point, in the board's order (rows from the top, "
        "A19 first on 19x19): -1 white's in every simulation, 1 black's; its score estimate."))


@router.get("/{game_id}/analysis", response_model=Analysis,
            responses={**NOT_FOUND, 409: {**ERROR, "description": "Play had stopped there."},
                       422: {**ERROR, "description": "No such move."}, **RATED, **BUSY})
async def analysis(record: GoRecord, request: Request, caller: Asker,
                   move: Annotated[int | None, Query(ge=0, le=MAX_MOVES)] = None
                   ) -> dict[str, Any]:
    """What the computer would play after the game's first `move` moves (default: now):
    its choice, win rate, expected lead and line, and who it expects to own each point (a
    score estimate), from a search of about a second. Anyone
    may ask: a position not analysed before counts against the client's rate (429), and the
    search yields to players' moves (503 when the analyses' share is taken)."""
    total = len(record.data["game"]["moves"])
    analyst: Analyst = request.app.state.analyst
    return await analyst.analyse(record.data, total if move is None else min(move, total),
                                 caller.address)


@router.post("/{game_id}/branch", status_code=201, response_model=GoGame,
             response_model_exclude_unset=True, responses={**REFUSALS, **RATED})
def branch_game(record: GoRecord, body: BranchRequest, games: Service,
                caller: Asker) -> dict[str, Any]:
    """A new game from the position after `move` moves of this one (anyone may branch:
    the new game is theirs), against the computer, a friend or at one screen. It keeps an
    imported record, so its SGF keeps the record's variations."""
    data = branch(record.data, body.move, body.options.model_dump(exclude_unset=True),
                  games.rng())
    created = games.create_from_data("go", data, caller)
    return games.to_json(created.record, caller, created.token)


class Drop(BaseModel):
    """A move the review marks: one that cost its side much of its winning chances."""

    number: int = Field(description="The move's number (1 is the first move).")
    colour: Literal["black", "white"]
    move: str
    drop: float = Field(ge=0, le=1, description="Its side's win rate before it minus after.")
    before: float = Field(ge=0, le=1, description="Its side's win rate before it.")
    after: float = Field(ge=0, le=1, description="Its side's win rate after it.")
    preferred: str = Field(description="What the computer would have played instead.")


class Review(BaseModel):
    """The computer's review of a finished game: a short search of every position."""

    state: Literal["none", "running", "stale", "stopped", "done"] = Field(description=(
        "\"stale\": not advanced for a minute (its server stopped) and \"stopped\": failed; "
        "either may be asked for again and goes on where it stood."))
    reviewed: int = Field(description="Positions searched so far.")
    positions: int = Field(description="Positions to search (the start is position 0).")
    win_rates: list[float] = Field(description="Black's winning chances by position.")
    preferred: list[str] = Field(description="The computer's move by position.")
    stopped: str | None = Field(description="Why the review stopped, if it failed.")
    drops: list[Drop] = Field(description=(
        "The moves that cost their side at least 15 points of its chances (not the "
        "computer's own choice), the three largest of each side."))


@router.get("/{game_id}/review", response_model=Review, responses=NOT_FOUND)
def read_review(record: GoRecord) -> dict[str, Any]:
    """The computer's review of the game, as far as it has come (anyone may read it)."""
    return go_review.summary(record.data, time.time())


@router.post("/{game_id}/review", status_code=202, response_model=Review,
             responses={**REFUSALS, **RATED, **BUSY})
async def ask_review(record: GoRecord, request: Request, caller: Asker) -> dict[str, Any]:
    """Has the computer review the finished game in the background (a seat of the game
    only): about half a second a position, in the worker pool's share for anyone's
    analyses, so players' moves go first. Asked again, a review that stopped goes on where
    it stood; one running or done is left as it is. Read its progress with GET."""
    reviewer: go_review.Reviewer = request.app.state.reviewer
    record = await reviewer.ask(record, caller)
    return go_review.summary(record.data, time.time())
