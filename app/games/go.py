"""Go as a stored game: options, moves ("D4", "pass", "resign"), scoring, undo, SGF, and
the Monte-Carlo computer opponent.

Start at GoAdapter.play. The stored data is
    {"options": {…}, "game": Game.to_dict(), "analysis": [{"move": n, "win_rate": w}, …],
     "rated": bool, "review": {…} (once over: app/games/go_review.py)}:
the engine's own record (size, komi, handicap, set-up stones, moves, dead marks), from which
the position is replayed on every request, and the computer's win-rate estimates; `rated`
turns false when sides or opponent change mid-game (the game leaves the tally). Moves in
the scoring phase are "toggle D4" (mark or unmark the group at D4 dead) and "done" (accept
the score: the game is over). The computer's move is not played inside play(): it thinks
in a worker process (computer_job → app/jobs.py think → apply_computer; see app/pool.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app import jobs
from app.engine.errors import quoted
from app.engine.go import (
    MAX_SIZE,
    MIN_SIZE,
    Game,
    GoError,
    NothingToUndo,
)
from app.engine.go.game import MAX_KOMI
from app.engine.go.handicap import MAX_HANDICAP, MIN_HANDICAP, max_handicap
from app.engine.go.levels import LEVELS as SEARCH_LEVELS
from app.errors import BadOptions, Conflict, IllegalMove, refusal
from app.games.adapter import ComputerJob, GameView
from app.games.clock import TimeControl, keep_time_control, new_clock
from app.games.options import Choice, HalfNumber, WholeNumber, read
from app.seats import fixed_options

UI_SIZES = (9, 13, 19)
OPPONENTS = ("local", "remote", "computer")
SIDES = ("black", "white")
SGF_COLOURS = {"B": "black", "W": "white"}  # the sides as SGF writes them
# The computer's levels, as the player defines them (seconds and playouts a move), by label.
LEVELS = {name: name.capitalize() for name in SEARCH_LEVELS}
# Set when a game starts, never changed after (fixed_options checks the rest).
FIXED_OPTIONS = ("size", "komi", "handicap", "minutes", "increment")


def handicap_rules() -> dict[str, Any]:
    """The handicaps each board size takes (the engine's `max_handicap`) as JSON Schema, for
    GoOptions' schema: a size that takes fewer than MAX_HANDICAP stones limits `handicap`.
    Without `size` the default 9×9 takes any."""
    sizes: dict[int, list[int]] = {}
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        sizes.setdefault(max_handicap(size), []).append(size)
    return {"allOf": [
        {"if": {"properties": {"size": {"enum": listed}}, "required": ["size"]},
         "then": {"properties": {"handicap": {"maximum": limit}}}}
        for limit, listed in sorted(sizes.items()) if limit < MAX_HANDICAP]}


class GoOptions(TimeControl):
    """A Go game's options. The handicap a board takes depends on its size: the schema
    states it (`allOf`), and any other is refused with 422."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=handicap_rules())

    size: Annotated[int, WholeNumber(MIN_SIZE, MAX_SIZE, "board size")] = 9
    komi: Annotated[float, HalfNumber(-MAX_KOMI, MAX_KOMI, "komi", (
        "Points added to white's score; null for the usual 7.5 (0.5 with handicap)."))] \
        | None = None
    handicap: Annotated[int, WholeNumber(0, MAX_HANDICAP, "handicap", (
        f"Black's handicap stones on the star points: 0, or {MIN_HANDICAP} to "
        f"{MAX_HANDICAP} as the board allows — none on boards under 7×7, at most 4 on 7×7 "
        "and on even sizes.")), Field(json_schema_extra={"not": {"const": 1}})] = 0
    opponent: Annotated[str, Choice(OPPONENTS, "opponent", (
        "'computer' (the Monte-Carlo player), 'local' (two people at one screen) or "
        "'remote' (a friend through a link)."))] = "computer"
    level: Annotated[str, Choice(tuple(LEVELS), "level", (
        "The computer's thinking time a move: easy 0.3 s, medium 1 s, strong 2 s, "
        "strongest 5 s."))] = "medium"
    human: Annotated[str, Choice(("black", "white", "random"), "colour you play", (
        "The creator's colour against the computer or a friend ('random': either)."))] \
        = "black"

    @field_validator("komi", mode="before")
    @classmethod
    def empty_komi_is_default(cls, value: Any) -> Any:
        return None if value == "" else value  # an empty form field or ?komi=


class AtariGroup(BaseModel):
    color: Literal["black", "white"]
    stones: list[str]
    liberty: str


class WinRate(BaseModel):
    move: int = Field(ge=0, description="The move (0-based) the computer chose with it.")
    win_rate: float = Field(ge=0, le=1)
    playouts: int = Field(ge=0)


class GoScore(BaseModel):
    black: float
    white: float
    black_stones: int
    black_territory: int
    white_stones: int
    white_territory: int
    dame: int
    komi: float
    text: str


class GoState(BaseModel):
    """A Go position with its history. Vertices are GTP's ("D4": columns A–T without I, row 1
    at the bottom)."""

    size: int = Field(ge=MIN_SIZE, le=MAX_SIZE)
    komi: float
    handicap: int = Field(ge=0, le=MAX_HANDICAP)
    board: list[str] = Field(description="Rows from the top: '.' empty, 'X' black, 'O' white.")
    captures: dict[Literal["black", "white"], int]
    ko: str | None
    last_move: str | None
    moves: list[str]
    atari: list[AtariGroup]
    analysis: list[WinRate] = Field(description="The computer's win-rate estimates.")
    dead: list[str] | None = Field(default=None, description="While scoring and after.")
    territory: dict[Literal["black", "white", "neutral"], list[str]] | None = None
    score: GoScore | None = None


def computer_colour(options: dict[str, Any]) -> str | None:
    if options.get("opponent") != "computer":
        return None
    return "white" if options["human"] == "black" else "black"


def colour_of_move(game: Game, index: int) -> str:
    """Who played move `index` (0-based): colours alternate from the first to move."""
    first = game.first_to_move
    other = "white" if first == "black" else "black"
    return first if index % 2 == 0 else other


def record_result(data: dict[str, Any]) -> dict[str, Any] | None:
    """The result an imported record (app/games/go_record.py) states in its RE, as the Game
    JSON's result: "B+R" is black's win; a text that names no winner, nobody's."""
    text = (data.get("record") or {}).get("info", {}).get("result", "")
    if not text:
        return None
    colour = SGF_COLOURS.get(text[:1].upper())
    return {"winner": colour if text[1:2] == "+" else None, "text": text}


def load(data: dict[str, Any]) -> Game:
    return Game.from_dict(data["game"])


def refuse_review(data: dict[str, Any]) -> None:
    """An imported record is for review: play goes on in a game branched from it."""
    if data.get("review_only"):
        raise Conflict("This is an imported record, for review: continue from any of its "
                       "positions to play on (against the computer, a friend or at one "
                       "screen).", code="review_only")


NO_SEARCH_AFTER = ("resign", "toggle", "done")  # moves after which the computer never moves


class GoAdapter:
    kind = "go"
    label = "Go game"
    sides = SIDES

    def new_game(self, options: Mapping[str, Any],
                 rng: random.Random) -> tuple[dict[str, Any], int]:
        chosen = read(GoOptions, dict(options)).model_dump()
        if chosen["human"] == "random":
            chosen["human"] = rng.choice(SIDES)
        try:
            game = Game(chosen["size"], chosen["komi"], chosen["handicap"])
        except GoError as error:
            raise BadOptions(error.message, code=error.code) from None
        chosen["komi"] = game.komi
        return {"options": chosen, "game": game.to_dict(), "analysis": [], "rated": True,
                "accepted": [], "clock": new_clock(SIDES, chosen["minutes"],
                                                   chosen["increment"])}, 0

    def play(self, data: dict[str, Any], move: Any, rng: random.Random,
             seats: frozenset[str]) -> int:
        """A move by the holder of `seats`: a stone or a pass for the side to move; "resign"
        for their own colour, in turn or not; while scoring, "toggle D4" by either player and
        "done" — which ends the game once every person seated has accepted the score."""
        if not isinstance(move, str):
            raise IllegalMove(f"A Go move is a vertex such as \"D4\", \"pass\", \"resign\", "
                              f"\"toggle D4\" or \"done\", not {quoted(move)}.",
                              code="malformed_move")
        refuse_review(data)
        game = load(data)
        words = move.strip().split()
        command = words[0].lower() if words else ""
        try:
            if len(words) == 2 and command == "toggle":
                game.toggle_dead(words[1].upper())
                data["accepted"] = []  # the marks changed: each must accept them again
            elif command == "done" and len(words) == 1:
                self._accept(data, game, seats)
            elif command == "resign" and len(words) == 1 and game.to_move not in seats \
                    and game.status != "over":
                game.end(sorted(seats)[0], "resign")  # out of turn, or while scoring
            else:
                if game.status == "playing" and game.to_move == computer_colour(data["options"]):
                    raise Conflict("It is the computer's turn; wait for its move.",
                                   code="not_your_turn")
                if game.status == "playing" and game.to_move not in seats:
                    raise Conflict(f"It is {game.to_move}'s turn, and you play "
                                   f"{' and '.join(sorted(seats))}.", code="not_your_turn")
                game.play(move.strip())
        except GoError as error:
            raise refusal(error) from None
        data["game"] = game.to_dict()
        data.pop("review", None)  # a review is of the game as it ended (app/games/go_review.py)
        return 1

    def _accept(self, data: dict[str, Any], game: Game, seats: frozenset[str]) -> None:
        """Accepts the score for `seats`; between two people through a link both must. A seat
        that has accepted already is refused (409), so a repeated "done" stores nothing."""
        if game.status != "scoring":
            game.accept_score()  # raises NotScoring (or GameOver), naming the state
        before = set(data.get("accepted", []))
        if seats <= before:  # a second "done" (a retry, a double click) would change nothing
            waiting = " and ".join(sorted(set(SIDES) - before))
            raise Conflict(f"You have accepted the score already; {waiting} has yet to accept "
                           "it (or to mark stones, which asks you again).",
                           code="already_accepted")
        accepted = before | seats
        people = set(SIDES) if data["options"]["opponent"] == "remote" else set(seats)
        data["accepted"] = sorted(accepted)
        if people <= accepted:
            game.accept_score()

    def undo(self, data: dict[str, Any]) -> int:
        """Takes back the last move; against the computer, the human's last move and the
        computer's reply to it, so it is the human's turn again. A finished game against the
        computer stays finished: its result is in the tally."""
        refuse_review(data)
        game = load(data)
        computer = computer_colour(data["options"])
        if computer is not None and game.status == "over":
            raise Conflict("The game is over and its result counted; start a new one.",
                           code="game_over")
        data["accepted"] = []
        try:
            if computer is not None:
                humans = [i for i in range(len(game.moves)) if colour_of_move(game, i) != computer]
                if not humans:
                    raise NothingToUndo("nothing to undo: you have not moved yet.")
                while len(game.moves) > humans[-1]:
                    game.undo()
            else:
                game.undo()
        except GoError as error:
            raise refusal(error) from None
        data["game"] = game.to_dict()
        moves = len(game.moves)
        data["analysis"] = [a for a in data.get("analysis", []) if a["move"] < moves]
        data.pop("review", None)
        return 1

    def last_move_of(self, data: dict[str, Any], seat: str) -> int | None:
        """How many moves were played before `seat`'s last one (None if it has none)."""
        game = load(data)
        return max((i for i in range(len(game.moves)) if colour_of_move(game, i) == seat),
                   default=None)

    def take_back(self, data: dict[str, Any], seat: str) -> int:
        """Takes back `seat`'s last move and everything after it (a friend agreed)."""
        game = load(data)
        last = self.last_move_of(data, seat)
        if last is None:
            raise Conflict("There is no move of yours to take back.", code="nothing_to_undo")
        while len(game.moves) > last:
            game.undo()
        data["game"] = game.to_dict()
        data["accepted"] = []
        data["analysis"] = [a for a in data.get("analysis", []) if a["move"] < last]
        data.pop("review", None)
        return 1

    def lose(self, data: dict[str, Any], seat: str, reason: str) -> int:
        """`seat` loses now: "time" (its clock ran out) or "resign"."""
        game = load(data)
        try:
            game.end(seat, reason)
        except GoError as error:
            raise refusal(error) from None
        data["game"] = game.to_dict()
        return 1

    def may_hand_over(self, move: Any) -> bool:
        """Whether `move` can give the computer its turn: a stone or a pass can; a
        resignation, or marking and accepting the score, never does."""
        words = move.strip().lower().split() if isinstance(move, str) else []
        return not words or words[0] not in NO_SEARCH_AFTER

    def search_seconds(self, data: dict[str, Any]) -> float | None:
        if computer_colour(data["options"]) is None:
            return None
        return float(SEARCH_LEVELS[data["options"]["level"]].seconds or 1.0)

    def owes_reply(self, data: dict[str, Any], view: GameView) -> bool:
        computer = computer_colour(data["options"])
        return computer is not None and view.status == "playing" and view.to_move == computer

    def computer_job(self, game_id: str, data: dict[str, Any],
                     rng: random.Random) -> ComputerJob | None:
        seconds = self.search_seconds(data)
        if seconds is None:
            return None
        computer = computer_colour(data["options"])
        assert computer is not None
        return ComputerJob(jobs.think, {"id": game_id, "game": data["game"],
                                   "level": data["options"]["level"],
                                   "seed": rng.randrange(2**31)}, seconds, computer)

    def apply_computer(self, data: dict[str, Any], result: dict[str, Any]) -> int:
        game = load(data)
        computer = computer_colour(data["options"])
        if computer is None or game.status != "playing" or game.to_move != computer:
            return 0  # the game moved on while the computer thought
        try:
            game.play(result["move"], computer)
        except GoError as error:  # a search must never return an illegal move
            raise Conflict(f"The computer's move was refused: {error.message}",
                           code="computer_error") from None
        data.setdefault("analysis", []).append(
            {"move": len(game.moves) - 1, "win_rate": round(float(result["win_rate"]), 4),
             "playouts": int(result["playouts"])})
        data["game"] = game.to_dict()
        return 1

    def set_options(self, data: dict[str, Any], options: Mapping[str, Any],
                    rng: random.Random) -> int:
        """Switches opponent, level or the human's colour mid-game; if that hands the
        computer the move, it thinks next (GameService.computer_reply)."""
        refuse_review(data)
        before = data["options"]
        fixed = sorted(key for key in FIXED_OPTIONS if key in options
                       and options[key] != before[key])
        if fixed:
            raise BadOptions(f"The {', '.join(fixed)} of a game cannot change once it has "
                             "started; start a new game instead.")
        game = load(data)
        if game.status == "over":
            raise Conflict("The game is over; start a new one to play with other options.",
                           code="game_over")
        after = read(GoOptions, {**before, **options}).model_dump()
        fixed_options(before, after)
        keep_time_control(before, after)
        if game.moves and (after["human"] != before["human"]
                           or after["opponent"] != before["opponent"]):
            data["rated"] = False  # a game that changed sides no longer counts in the tally
        data["options"] = after
        return 1

    def view(self, data: dict[str, Any]) -> GameView:
        game = load(data)
        view = self.view_of(game, data["options"], data.get("analysis"))
        if data.get("review_only"):  # a record: over as far as play goes, with its result
            return GameView(status="over", to_move=None, result=record_result(data),
                            options=view.options, state=view.state)
        return view

    def view_of(self, game: Game, options: dict[str, Any],
                analysis: list[dict[str, Any]] | None = None) -> GameView:
        state: dict[str, Any] = {
            "size": game.size,
            "komi": game.komi,
            "handicap": game.handicap,
            "board": game.board_rows(),
            "captures": game.captures,
            "ko": game.ko,
            "last_move": game.last_move,
            "moves": game.moves,
            "atari": [{"color": group.color, "stones": list(group.stones),
                       "liberty": group.liberty} for group in game.atari],
        }
        if game.status != "playing" and game.territory is not None:
            score = game.score()
            state["dead"] = sorted(game.dead_stones)
            state["territory"] = game.territory
            state["score"] = {
                "black": score.black_area, "white": score.white_area + score.komi,
                "black_stones": score.black_stones, "black_territory": score.black_territory,
                "white_stones": score.white_stones, "white_territory": score.white_territory,
                "dame": score.dame, "komi": score.komi, "text": score.text,
            }
        state["analysis"] = analysis or []
        return GameView(status=game.status, to_move=game.to_move, result=game.result,
                        options=dict(options), state=state)

    def outcome(self, data: dict[str, Any], view: GameView) -> str | None:
        computer = computer_colour(data["options"])
        # An imported record's view states the record's result, but it has no computer.
        if computer is None or view.result is None or not data.get("rated", True):
            return None
        winner = view.result["winner"]
        if winner is None:
            return "draw"
        return "loss" if winner == computer else "win"
