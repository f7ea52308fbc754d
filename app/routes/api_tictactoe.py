"""Stateless tic-tac-toe engine endpoints: the best move and the analysis of any board."""

from __future__ import annotations

import random
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.engine.tictactoe import (
    STRATEGY_NAMES,
    Board,
    TicTacToeError,
    analyse,
    get_strategy,
)
from app.errors import Conflict, IllegalMove

router = APIRouter(prefix="/api/tictactoe", tags=["tictactoe"])


class BoardRequest(BaseModel):
    board: str = Field(description="Nine characters, row-major from the top-left: X, O or '.'.",
                       examples=["X...O...."])


class BestMoveRequest(BoardRequest):
    strategy: str = Field(default="minimax", examples=list(STRATEGY_NAMES))


def parse_board(text: str) -> Board:
    try:
        board = Board.from_string(text)
    except TicTacToeError as error:
        raise IllegalMove(str(error), code=error.code) from None
    if board.is_over:
        raise Conflict("The game on this board is already over.", code="game_over")
    return board


@router.post("/best-move", responses={409: {}, 422: {}})
def best_move(body: BestMoveRequest) -> dict[str, Any]:
    """The move the named strategy would play for the side to move (X when counts are equal)."""
    board = parse_board(body.board)
    try:
        strategy = get_strategy(body.strategy)
    except TicTacToeError as error:
        raise IllegalMove(str(error), code=error.code) from None
    choice = strategy.choose(board, random.Random(), may_slip=True)
    return {"cell": choice.cell, "to_move": board.to_move, "strategy": strategy.name}


@router.post("/analysis", responses={409: {}, 422: {}})
def analysis(body: BoardRequest) -> dict[str, Any]:
    """Each empty cell's value for the side to move, and how many positions minimax and
    alpha-beta visit to find them."""
    return analyse(parse_board(body.board)).to_json()
