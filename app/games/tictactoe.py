"""Tic-tac-toe as a stored game: options, moves by the human and the computer, undo.

Start at TicTacToeAdapter.play. The stored data is
    {"options": {"opponent": "local" | <strategy>, "human": "X" | "O"},
     "moves": [{"cell": 4, "by": "human" | "computer", "strategy": <name> | null}, …],
     "slipped": bool, "rated": bool}
and the board is rebuilt from the moves (never more than nine). Against the computer, the
computer's reply is applied in the same change as the human's move, so a client never sees
a position where the computer still owes a move. `rated` turns false when the sides or the
kind of opponent change mid-game: such a game no longer counts in the tally.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from app.engine.errors import quoted
from app.engine.tictactoe import STRATEGY_NAMES, Board, TicTacToeError, get_strategy
from app.errors import Conflict, IllegalMove, refusal
from app.games import GameView
from app.games.options import Choice, read

OPPONENTS = ("local", *STRATEGY_NAMES)


class TicTacToeOptions(BaseModel):
    """A tic-tac-toe game's options."""

    model_config = ConfigDict(extra="forbid")

    opponent: Annotated[str, Choice(OPPONENTS, "opponent", (
        "'local' for two people at one screen, or the computer player: 'random', 'rules' "
        "(like a careful person), 'minimax', 'alphabeta', 'montecarlo' or 'fallible' "
        "(perfect but for one slip in twenty games)."))] = "rules"
    human: Annotated[str, Choice(("X", "O"), "side you play",
                                 "The human's mark against the computer; X moves first.")] = "X"


class TicTacToeState(BaseModel):
    """A tic-tac-toe position."""

    board: str = Field(pattern="^[XO.]{9}$", description="Nine cells, row-major from the "
                       "top-left: 'X', 'O' or '.' (empty).")
    winning_line: list[int] | None = Field(description="The three cells of the win, if any.")
    moves: list[Annotated[int, Field(ge=0, le=8)]] = Field(max_length=9)
    last_move: Annotated[int, Field(ge=0, le=8)] | None


def other(side: str) -> str:
    return "O" if side == "X" else "X"


def board_of(data: dict[str, Any]) -> Board:
    board = Board.empty()
    for move in data["moves"]:
        board = board.play(move["cell"])
    return board


def computer_side(options: dict[str, Any]) -> str | None:
    return None if options["opponent"] == "local" else other(options["human"])


class TicTacToeAdapter:
    kind = "tictactoe"
    label = "tic-tac-toe game"

    def new_game(self, options: Mapping[str, Any],
                 rng: random.Random) -> tuple[dict[str, Any], int]:
        data: dict[str, Any] = {
            "options": read(TicTacToeOptions, dict(options)).model_dump(),
            "moves": [],
            "slipped": False,
            "rated": True,
        }
        return data, self._computer_moves(data, rng)

    def _computer_moves(self, data: dict[str, Any], rng: random.Random) -> int:
        """Plays the computer's move if it is the computer's turn; returns 1 or 0."""
        board = board_of(data)
        side = computer_side(data["options"])
        if side is None or board.is_over or board.to_move != side:
            return 0
        strategy = get_strategy(data["options"]["opponent"])
        choice = strategy.choose(board, rng, may_slip=not data["slipped"])
        data["slipped"] = data["slipped"] or choice.slipped
        data["moves"].append({"cell": choice.cell, "by": "computer", "strategy": strategy.name})
        return 1

    def play(self, data: dict[str, Any], move: Any, rng: random.Random) -> int:
        board = board_of(data)
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMove("A tic-tac-toe move is a cell number from 0 to 8, not "
                              f"{quoted(move)}.", code="malformed_move")
        if board.is_over:
            raise Conflict("The game is over; start a new one.", code="game_over")
        if board.to_move == computer_side(data["options"]):
            raise Conflict("It is the computer's turn, not yours.", code="not_your_turn")
        try:
            board.play(move)
        except TicTacToeError as error:
            raise refusal(error) from None
        data["moves"].append({"cell": move, "by": "human", "strategy": None})
        return 1 + self._computer_moves(data, rng)

    def undo(self, data: dict[str, Any]) -> int:
        """Takes back the last move; against the computer, the human's last move and the
        computer's reply to it, so it is the human's turn again. A finished game against the
        computer stays finished: its result is in the tally."""
        moves = data["moves"]
        if data["options"]["opponent"] == "local":
            if not moves:
                raise Conflict("There is no move to take back.", code="nothing_to_undo")
            moves.pop()
            return 1
        if board_of(data).is_over:
            raise Conflict("The game is over and its result counted; start a new one.",
                           code="game_over")
        last_human = max((i for i, m in enumerate(moves) if m["by"] == "human"), default=None)
        if last_human is None:
            raise Conflict("There is no move of yours to take back.", code="nothing_to_undo")
        del moves[last_human:]
        return 1

    def set_options(self, data: dict[str, Any], options: Mapping[str, Any],
                    rng: random.Random) -> int:
        if board_of(data).is_over:
            raise Conflict("The game is over; start a new one to play with other options.",
                           code="game_over")
        before = data["options"]
        after = read(TicTacToeOptions, {**before, **options}).model_dump()
        if data["moves"] and (after["human"] != before["human"]
                              or (after["opponent"] == "local") != (before["opponent"] == "local")):
            data["rated"] = False  # a game that changed sides no longer counts in the tally
        data["options"] = after
        # Switching sides or handing the computer the move makes it play at once.
        return 1 + self._computer_moves(data, rng)

    def view(self, data: dict[str, Any]) -> GameView:
        board = board_of(data)
        result = None
        if board.is_over:
            winner = board.winner
            result = {"winner": winner, "text": f"{winner} wins" if winner else "Draw"}
        moves = data["moves"]
        return GameView(
            status="over" if board.is_over else "playing",
            to_move=None if board.is_over else board.to_move,
            result=result,
            options=dict(data["options"]),
            state={
                "board": board.to_string(),
                "winning_line": list(board.winning_line) if board.winning_line else None,
                "moves": [m["cell"] for m in moves],
                "last_move": moves[-1]["cell"] if moves else None,
            },
        )

    def outcome(self, data: dict[str, Any]) -> str | None:
        board = board_of(data)
        side = computer_side(data["options"])
        if side is None or not board.is_over or not data.get("rated", True):
            return None
        if board.winner is None:
            return "draw"
        return "win" if board.winner == data["options"]["human"] else "loss"
