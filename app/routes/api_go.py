"""SGF in and out for Go games: download a game as an SGF record, import one as a new game."""

from __future__ import annotations

import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from app.engine.go import to_sgf
from app.errors import ApiError
from app.games.go import GoAdapter, load
from app.routes.deps import Asker, GoRecord, Service
from app.routes.models import BUSY, ERROR, NOT_FOUND, GoGame

router = APIRouter(prefix="/api/games", tags=["go"])

MAX_SGF_BYTES = 1_000_000  # a long game with comments is ~100 KB; more is not a game record
SGF_MEDIA_TYPE = "application/x-go-sgf"


@router.get("/{game_id}/sgf", response_class=Response, responses={
    200: {"content": {SGF_MEDIA_TYPE: {"schema": {"type": "string"}}}},
    **NOT_FOUND})
def download_sgf(record: GoRecord) -> Response:
    """The Go game as an SGF FF[4] record, as a download (404 for games of other kinds)."""
    game = load(record.data)
    date = datetime.date.fromtimestamp(record.created_at)
    text = to_sgf(game, black_name="Black", white_name="White", date=date)
    filename = f"tabletop-go-{game.size}x{game.size}-{date.isoformat()}-{record.id}.sgf"
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
    415: {**ERROR, "description": "The body is not sent as SGF."},
    422: {**ERROR, "description": "The record cannot be read or replayed."}, **BUSY},
             openapi_extra={"requestBody": {"required": True, "content": {
                 media_type: {"schema": {"type": "string", "maxLength": MAX_SGF_BYTES}}
                 for media_type in (SGF_MEDIA_TYPE, "text/plain")}}})
async def import_sgf(request: Request, games: Service, caller: Asker) -> dict[str, Any]:
    """A new local Go game at the final position of the record's main line (set-up stones
    included), ready to play on. Send the SGF text as the body with Content-Type
    application/x-go-sgf."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in (SGF_MEDIA_TYPE, "application/sgf", "text/plain"):
        raise ApiError("Send the SGF text as the body with Content-Type "
                       f"{SGF_MEDIA_TYPE}.", code="unsupported_media_type", status=415)
    body = await read_limited(request, MAX_SGF_BYTES)
    data = await GoAdapter().from_sgf(games.pool, body)
    created = await run_in_threadpool(games.create_from_data, "go", data, caller)
    return games.to_json(created.record, caller, created.token)
