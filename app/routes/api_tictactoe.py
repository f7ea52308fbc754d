"""Stateless tic-tac-toe engine endpoints: the best move and the analysis of any board."""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.engine.tictactoe import (
    STRATEGY_NAMES,
    Board,
    TicTacToeError,
    analyse,
    get_strategy,
)
from app.errors import Conflict, refusal
from app.games.options import Choice, with_sentence
from app.routes.deps import StrictJsonRoute
from app.routes.models import ERROR

router = APIRouter(prefix="/api/tictactoe", tags=["tictactoe"], route_class=StrictJsonRoute)
REFUSALS: dict[int | str, dict[str, Any]] = {
    409: {**ERROR, "description": "The game on this board is already over."},
    413: {**ERROR, "description": "The body is larger than 64 KB."},
    422: {**ERROR, "description": "A malformed or impossible board, or an unknown strategy."},
}


class BoardRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    board: Annotated[str, Field(pattern="^[XO.]{9}$", examples=["X...O...."], description=(
        "Nine characters, row-major from the top-left: X, O or '.'.")), with_sentence(
        "A board is nine characters, each 'X', 'O' or '.', not {value}.", "invalid_board")]


class BestMoveRequest(BoardRequest):
    strategy: Annotated[str, Choice(STRATEGY_NAMES, "strategy",
                                    code="unknown_strategy")] = "minimax"


class BestMove(BaseModel):
    cell: int = Field(ge=0, le=8)
    to_move: Literal["X", "O"]
    strategy: str


class CellValue(BaseModel):
    outcome: Literal["win", "draw", "loss"]
    plies: int


class Analysis(BaseModel):
    to_move: Literal["X", "O"]
    values: dict[str, CellValue] = Field(description="Each empty cell's value for the side "
                                                     "to move, by cell number.")
    best: list[int]
    nodes: dict[str, int] = Field(description="Positions minimax and alpha-beta visited.")


def parse_board(text: str) -> Board:
    try:
        board = Board.from_string(text)
    except TicTacToeError as error:
        raise refusal(error) from None
    if board.is_over:
        raise Conflict("The game on this board is already over.", code="game_over")
    return board


@router.post("/best-move", response_model=BestMove, responses=REFUSALS)
def best_move(body: BestMoveRequest) -> dict[str, Any]:
    """The move the named strategy would play for the side to move (X when counts are equal)."""
    board = parse_board(body.board)
    strategy = get_strategy(body.strategy)
    choice = strategy.choose(board, random.Random(), may_slip=True)
    return {"cell": choice.cell, "to_move": board.to_move, "strategy": strategy.name}


@router.post("/analysis", response_model=Analysis, responses=REFUSALS)
def analysis(body: BoardRequest) -> dict[str, Any]:
    """Each empty cell's value for the side to move, and how many positions minimax and
    alpha-beta visit to find them."""
    return analyse(parse_board(body.board)).to_json()
