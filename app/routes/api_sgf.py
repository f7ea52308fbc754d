"""SGF in and out for Go games: download a game as an SGF record, import one as a new game."""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from app.engine.go import to_sgf
from app.errors import ApiError
from app.games import GameService
from app.games.go import GoAdapter, load
from app.routes import browser_id, service

router = APIRouter(prefix="/api/games", tags=["go"])

MAX_SGF_BYTES = 1_000_000  # a long game with comments is ~100 KB; more is not a game record
SGF_MEDIA_TYPE = "application/x-go-sgf"

Service = Annotated[GameService, Depends(service)]


@router.get("/{game_id}/sgf", response_class=Response,
            responses={200: {"content": {SGF_MEDIA_TYPE: {}}}, 404: {}, 422: {}})
def download_sgf(game_id: str, games: Service) -> Response:
    """The Go game as an SGF FF[4] record, as a download."""
    record = games.get(game_id)
    if record.kind != "go":
        raise ApiError("Only Go games can be saved as SGF.", code="not_go", status=422)
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


@router.post("/import", status_code=201, responses={413: {}, 415: {}, 422: {}},
             openapi_extra={"requestBody": {"content": {SGF_MEDIA_TYPE: {}}, "required": True}})
async def import_sgf(request: Request, games: Service,
                     browser: Annotated[str, Depends(browser_id)]) -> dict[str, Any]:
    """A new local Go game at the final position of the record's main line (set-up stones
    included), ready to play on. Send the SGF text as the body with Content-Type
    application/x-go-sgf."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in (SGF_MEDIA_TYPE, "application/sgf", "text/plain"):
        raise ApiError("Send the SGF text as the body with Content-Type "
                       f"{SGF_MEDIA_TYPE}.", code="unsupported_media_type", status=415)
    body = await read_limited(request, MAX_SGF_BYTES)
    adapter = games.adapter("go")
    assert isinstance(adapter, GoAdapter)
    # Parsing and replaying a record is CPU work: keep it off the event loop.
    data = await run_in_threadpool(adapter.from_sgf, body)
    record = await run_in_threadpool(games.create_from_data, "go", data, browser)
    return games.to_json(record)
