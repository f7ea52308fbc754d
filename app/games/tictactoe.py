"""Tic-tac-toe as a stored game: options, moves by the people seated and by the computer,
undo and take-backs, resignation and time.

Start at TicTacToeAdapter.play. The stored data is
    {"options": {"opponent": "local" | "remote" | <strategy>, "human": "X" | "O", "minutes",
                 "increment"},
     "moves": [{"cell": 4, "by": "human" | "computer", "strategy": <name> | null}, …],
     "slipped": bool, "rated": bool, "ended": {"loser": "X", "by": "time"} | null,
     "clock": app/games/clock.py's | null}
and the board is rebuilt from the moves (never more than nine). Against the computer, the
computer's reply is applied in the same change as the human's move, so a client never sees
a position where the computer still owes a move. `rated` turns false when the sides or the
kind of opponent change mid-game: such a game no longer counts in the tally. Who may move is
decided by the seats the request holds (app/seats.py): the side to move must be one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from app.engine.errors import quoted
from app.engine.tictactoe import STRATEGY_NAMES, Board, TicTacToeError, get_strategy
from app.errors import Conflict, IllegalMove, refusal
from app.games.adapter import GameView
from app.games.clock import TimeControl, keep_time_control, new_clock
from app.games.options import Choice, read
from app.seats import fixed_options

SIDES = ("X", "O")
OPPONENTS = ("local", "remote", *STRATEGY_NAMES)
ENDINGS = {"time": "on time", "resign": "by resignation"}


class TicTacToeOptions(TimeControl):
    """A tic-tac-toe game's options."""

    model_config = ConfigDict(extra="forbid")

    opponent: Annotated[str, Choice(OPPONENTS, "opponent", (
        "'local' for two people at one screen, 'remote' for a friend through a link, or the "
        "computer player: 'random', 'rules' (like a careful person), 'minimax', 'alphabeta', "
        "'montecarlo' or 'fallible' (perfect but for one slip in twenty games)."))] = "rules"
    human: Annotated[str, Choice(("X", "O", "random"), "side you play", (
        "The creator's mark against the computer or a friend ('random': either); X moves "
        "first."))] = "X"


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
    if options["opponent"] in ("local", "remote"):
        return None
    return other(options["human"])


def is_over(data: dict[str, Any]) -> bool:
    return bool(data.get("ended")) or board_of(data).is_over


class TicTacToeAdapter:
    kind = "tictactoe"
    label = "tic-tac-toe game"
    sides = SIDES

    def new_game(self, options: Mapping[str, Any],
                 rng: random.Random) -> tuple[dict[str, Any], int]:
        chosen = read(TicTacToeOptions, dict(options)).model_dump()
        if chosen["human"] == "random":
            chosen["human"] = rng.choice(SIDES)
        data: dict[str, Any] = {
            "options": chosen, "moves": [], "slipped": False, "rated": True, "ended": None,
            "clock": new_clock(SIDES, chosen["minutes"], chosen["increment"]),
        }
        return data, self._computer_moves(data, rng)

    def _computer_moves(self, data: dict[str, Any], rng: random.Random) -> int:
        """Plays the computer's move if it is the computer's turn; returns 1 or 0."""
        board = board_of(data)
        side = computer_side(data["options"])
        if side is None or board.is_over or data.get("ended") or board.to_move != side:
            return 0
        strategy = get_strategy(data["options"]["opponent"])
        choice = strategy.choose(board, rng, may_slip=not data["slipped"])
        data["slipped"] = data["slipped"] or choice.slipped
        data["moves"].append({"cell": choice.cell, "by": "computer", "strategy": strategy.name})
        return 1

    def play(self, data: dict[str, Any], move: Any, rng: random.Random,
             seats: frozenset[str]) -> int:
        board = board_of(data)
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMove("A tic-tac-toe move is a cell number from 0 to 8, not "
                              f"{quoted(move)}.", code="malformed_move")
        if is_over(data):
            raise Conflict("The game is over; start a new one.", code="game_over")
        if board.to_move == computer_side(data["options"]):
            raise Conflict("It is the computer's turn, not yours.", code="not_your_turn")
        if board.to_move not in seats:
            raise Conflict(f"It is {board.to_move}'s turn, and you play "
                           f"{' and '.join(sorted(seats))}.", code="not_your_turn")
        try:
            board.play(move)
        except TicTacToeError as error:
            raise refusal(error) from None
        data["moves"].append({"cell": move, "by": "human", "strategy": None})
        return 1 + self._computer_moves(data, rng)

    def undo(self, data: dict[str, Any]) -> int:
        """Takes back the last move at one screen; against the computer, the human's last
        move and the computer's reply to it, so it is the human's turn again. A finished game
        against the computer stays finished: its result is in the tally."""
        moves = data["moves"]
        if data["options"]["opponent"] == "local":
            if data.get("ended"):
                data["ended"] = None
                return 1
            if not moves:
                raise Conflict("There is no move to take back.", code="nothing_to_undo")
            moves.pop()
            return 1
        if is_over(data):
            raise Conflict("The game is over and its result counted; start a new one.",
                           code="game_over")
        last_human = max((i for i, m in enumerate(moves) if m["by"] == "human"), default=None)
        if last_human is None:
            raise Conflict("There is no move of yours to take back.", code="nothing_to_undo")
        del moves[last_human:]
        return 1

    def last_move_of(self, data: dict[str, Any], seat: str) -> int | None:
        """How many moves were played before `seat`'s last one (None if it has none)."""
        moves = data["moves"]
        return max((i for i in range(len(moves)) if SIDES[i % 2] == seat), default=None)

    def take_back(self, data: dict[str, Any], seat: str) -> int:
        """Takes back `seat`'s last move and everything after it (a friend agreed)."""
        last = self.last_move_of(data, seat)
        if last is None:
            raise Conflict("There is no move of yours to take back.", code="nothing_to_undo")
        del data["moves"][last:]
        return 1

    def lose(self, data: dict[str, Any], seat: str, reason: str) -> int:
        """`seat` loses now: "time" (its clock ran out) or "resign"."""
        if is_over(data):
            raise Conflict("The game is over already.", code="game_over")
        data["ended"] = {"loser": seat, "by": reason}
        return 1

    def set_options(self, data: dict[str, Any], options: Mapping[str, Any],
                    rng: random.Random) -> int:
        if is_over(data):
            raise Conflict("The game is over; start a new one to play with other options.",
                           code="game_over")
        before = data["options"]
        after = read(TicTacToeOptions, {**before, **options}).model_dump()
        fixed_options(before, after)
        keep_time_control(before, after)
        if data["moves"] and (after["human"] != before["human"]
                              or (after["opponent"] == "local") != (before["opponent"] == "local")):
            data["rated"] = False  # a game that changed sides no longer counts in the tally
        data["options"] = after
        # Switching sides or handing the computer the move makes it play at once.
        return 1 + self._computer_moves(data, rng)

    def view(self, data: dict[str, Any]) -> GameView:
        board = board_of(data)
        result: dict[str, Any] | None = None
        ended = data.get("ended")
        if ended:
            winner = other(ended["loser"])
            result = {"winner": winner, "text": f"{winner} wins {ENDINGS[ended['by']]}"}
        elif board.is_over:
            result = {"winner": board.winner,
                      "text": f"{board.winner} wins" if board.winner else "Draw"}
        moves = data["moves"]
        over = result is not None
        return GameView(
            status="over" if over else "playing",
            to_move=None if over else board.to_move,
            result=result,
            options=dict(data["options"]),
            state={
                "board": board.to_string(),
                "winning_line": list(board.winning_line) if board.winning_line else None,
                "moves": [m["cell"] for m in moves],
                "last_move": moves[-1]["cell"] if moves else None,
            },
        )

    def outcome(self, data: dict[str, Any], view: GameView) -> str | None:
        side = computer_side(data["options"])
        if side is None or view.result is None or not data.get("rated", True):
            return None
        winner = view.result["winner"]
        if winner is None:
            return "draw"
        return "win" if winner == data["options"]["human"] else "loss"

