"""Tic-tac-toe as a stored game: options, moves by the human and the computer, undo.

Start at TicTacToeAdapter.play. The stored data is
    {"options": {"opponent": "local" | <strategy>, "human": "X" | "O"},
     "moves": [{"cell": 4, "by": "human" | "computer", "strategy": <name> | null}, …],
     "slipped": bool}
and the board is rebuilt from the moves (never more than nine). Against the computer, the
computer's reply is applied in the same change as the human's move, so a client never sees
a position where the computer still owes a move.
"""

from __future__ import annotations

import random
from typing import Any

from app.engine.tictactoe import (
    STRATEGY_NAMES,
    Board,
    GameOver,
    TicTacToeError,
    get_strategy,
)
from app.errors import BadOptions, Conflict, IllegalMove
from app.games import GameView

DEFAULT_OPTIONS = {"opponent": "rules", "human": "X"}
OPPONENTS = ("local", *STRATEGY_NAMES)


def other(side: str) -> str:
    return "O" if side == "X" else "X"


def normalize_options(raw: Any, base: dict[str, Any]) -> dict[str, Any]:
    """`base` updated with the valid entries of `raw`; anything else is BadOptions."""
    if not isinstance(raw, dict):
        raise BadOptions("Options must be a JSON object, e.g. {\"opponent\": \"minimax\"}.")
    options = dict(base)
    for key, value in raw.items():
        if key == "opponent":
            if value not in OPPONENTS:
                raise BadOptions(
                    f"Unknown opponent {value!r}; choose one of: {', '.join(OPPONENTS)}."
                )
        elif key == "human":
            if value not in ("X", "O"):
                raise BadOptions(f"The human plays 'X' or 'O', not {value!r}.")
        else:
            raise BadOptions(f"Tic-tac-toe has no option {key!r}; it has opponent and human.")
        options[key] = value
    return options


def board_of(data: dict[str, Any]) -> Board:
    board = Board.empty()
    for move in data["moves"]:
        board = board.play(move["cell"])
    return board


def computer_side(options: dict[str, Any]) -> str | None:
    return None if options["opponent"] == "local" else other(options["human"])


class TicTacToeAdapter:
    kind = "tictactoe"

    def new_game(self, options: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int]:
        data: dict[str, Any] = {
            "options": normalize_options(options, DEFAULT_OPTIONS),
            "moves": [],
            "slipped": False,
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
            raise IllegalMove(f"A tic-tac-toe move is a cell number from 0 to 8, not {move!r}.",
                              code="malformed_move")
        if board.is_over:
            raise Conflict("The game is over; start a new one.", code="game_over")
        if board.to_move == computer_side(data["options"]):
            raise Conflict("It is the computer's turn, not yours.", code="not_your_turn")
        try:
            board.play(move)
        except GameOver as error:
            raise Conflict(str(error), code=error.code) from None
        except TicTacToeError as error:
            raise IllegalMove(str(error), code=error.code) from None
        data["moves"].append({"cell": move, "by": "human", "strategy": None})
        return 1 + self._computer_moves(data, rng)

    def undo(self, data: dict[str, Any]) -> int:
        """Takes back the last move; against the computer, the human's last move and the
        computer's reply to it, so it is the human's turn again."""
        moves = data["moves"]
        if data["options"]["opponent"] == "local":
            if not moves:
                raise Conflict("There is no move to take back.", code="nothing_to_undo")
            moves.pop()
            return 1
        last_human = max((i for i, m in enumerate(moves) if m["by"] == "human"), default=None)
        if last_human is None:
            raise Conflict("There is no move of yours to take back.", code="nothing_to_undo")
        del moves[last_human:]
        return 1

    def set_options(self, data: dict[str, Any], options: dict[str, Any],
                    rng: random.Random) -> int:
        data["options"] = normalize_options(options, data["options"])
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
        if side is None or not board.is_over:
            return None
        if board.winner is None:
            return "draw"
        return "win" if board.winner == data["options"]["human"] else "loss"
