"""The JSON game API: create, read, move, undo and change options. See /docs.

Every route returns the whole Game ({"id", "game", "version", "status", "to_move",
"result", "options", "state"}); a refused request changes nothing and returns
{"detail": <sentence>, "code": <word>} with 404, 409 or 422.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field, StrictInt

from app.games import GameService
from app.routes import browser_id, service

router = APIRouter(prefix="/api/games", tags=["games"])

ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "No game with this id."},
    409: {"description": "Stale version, not your turn, or the game is over."},
    422: {"description": "Malformed or illegal move or options."},
}


class NewGame(BaseModel):
    game: str = Field(examples=["tictactoe"])
    options: dict[str, Any] = Field(default_factory=dict,
                                    examples=[{"opponent": "minimax", "human": "X"}])


class MoveRequest(BaseModel):
    move: Any = Field(examples=[4])
    version: StrictInt | None = Field(
        default=None, description="The version the move was chosen on; refused with 409 if stale."
    )


class VersionedRequest(BaseModel):
    version: StrictInt | None = None


class OptionsRequest(BaseModel):
    options: dict[str, Any] = Field(examples=[{"opponent": "random"}])
    version: StrictInt | None = None


Service = Annotated[GameService, Depends(service)]


@router.post("", status_code=201, responses=ERRORS)
async def create_game(body: NewGame, games: Service,
                      browser: Annotated[str, Depends(browser_id)]) -> dict[str, Any]:
    """Starts a game. If the computer moves first, its move is already played."""
    record = await run_in_threadpool(games.create, body.game, body.options, browser)
    return games.to_json(await games.computer_reply(record))


@router.get("/{game_id}", responses=ERRORS)
def get_game(game_id: str, games: Service) -> dict[str, Any]:
    return games.to_json(games.get(game_id))


@router.post("/{game_id}/moves", responses=ERRORS)
async def play_move(game_id: str, body: MoveRequest, games: Service) -> dict[str, Any]:
    """Plays a move; against the computer its reply is applied before this returns (the
    move itself is stored first: if the search fails, the move stands)."""
    record = await run_in_threadpool(games.play, game_id, body.move, body.version)
    return games.to_json(await games.computer_reply(record))


@router.post("/{game_id}/computer-move", responses=ERRORS)
async def computer_move(game_id: str, games: Service) -> dict[str, Any]:
    """Lets the computer move if it is its turn (e.g. a search cut short by a restart);
    otherwise returns the game unchanged."""
    record = await run_in_threadpool(games.get, game_id)
    return games.to_json(await games.computer_reply(record))


@router.post("/{game_id}/undo", responses=ERRORS)
def undo_move(game_id: str, games: Service,
              body: VersionedRequest | None = None) -> dict[str, Any]:
    """Takes back the last move (against the computer: yours and its reply)."""
    return games.to_json(games.undo(game_id, body.version if body else None))


@router.patch("/{game_id}", responses=ERRORS)
async def update_options(game_id: str, body: OptionsRequest, games: Service) -> dict[str, Any]:
    """Changes options mid-game, e.g. {"opponent": "random"} switches the computer's
    strategy from its next move on; if the change hands the computer the move, it plays."""
    record = await run_in_threadpool(games.update_options, game_id, body.options, body.version)
    return games.to_json(await games.computer_reply(record))
