"""The knight's tour puzzle as a stored game: a path of squares the player builds by clicks.

Start at KnightsTourAdapter.play. The stored data is
    {"options": {"size": 8, "closed": false}, "path": ["a1", "b3", …]}
and the puzzle is rebuilt from the path on every request. There is no opponent: `to_move` is
always null, and the game is over when the tour is complete or the knight is stuck.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.engine.errors import quoted
from app.engine.knights_tour import KnightsTourError, Puzzle
from app.errors import BadOptions, IllegalMove, refusal
from app.games.adapter import GameView
from app.games.options import Flag, WholeNumber, read

MIN_SIZE, MAX_SIZE = 5, 16  # a playable puzzle: smaller boards have no tour, larger ones
                            # no longer fit a screen (the solvers go to 1000: /api/knights-tour)


class KnightsTourOptions(BaseModel):
    """A knight's-tour puzzle's options."""

    model_config = ConfigDict(extra="forbid")

    size: Annotated[int, WholeNumber(MIN_SIZE, MAX_SIZE, "board size",
                                     f"Squares on a side, {MIN_SIZE} to {MAX_SIZE}.")] = 8
    closed: Annotated[bool, Flag("closed", "Whether the tour must end a knight's move from "
                                           "its start.")] = False


class TourWarning(BaseModel):
    code: str
    message: str
    squares: list[str]


class KnightsTourState(BaseModel):
    """A knight's path; squares are named "c2" (file letter, rank 1 at the bottom)."""

    size: int = Field(ge=MIN_SIZE, le=MAX_SIZE)
    closed: bool
    path: list[str]
    legal_next: list[str]
    current: str | None
    tour_status: Literal["playing", "stuck", "solved", "open_only"]
    message: str | None
    warning: TourWarning | None


def load(data: dict[str, Any]) -> Puzzle:
    return Puzzle(data["options"]["size"], data["options"]["closed"], data["path"])


class KnightsTourAdapter:
    kind = "knights-tour"
    label = "knight's-tour puzzle"
    sides = ("player",)

    def new_game(self, options: Mapping[str, Any],
                 rng: random.Random) -> tuple[dict[str, Any], int]:
        return {"options": read(KnightsTourOptions, dict(options)).model_dump(), "path": []}, 0

    def play(self, data: dict[str, Any], move: Any, rng: random.Random,
             seats: frozenset[str]) -> int:
        puzzle = load(data)
        if not isinstance(move, str):
            raise IllegalMove("A knight's-tour move is a square such as \"c2\", not "
                              f"{quoted(move)}.", code="invalid_square")
        try:
            puzzle.play(move)
        except KnightsTourError as error:
            raise refusal(error) from None
        data["path"] = puzzle.path
        return 1

    def undo(self, data: dict[str, Any]) -> int:
        puzzle = load(data)
        try:
            puzzle.undo()
        except KnightsTourError as error:
            raise refusal(error) from None
        data["path"] = puzzle.path
        return 1

    def set_options(self, data: dict[str, Any], options: Mapping[str, Any],
                    rng: random.Random) -> int:
        after = read(KnightsTourOptions, {**data["options"], **options}).model_dump()
        if after["size"] != data["options"]["size"]:
            raise BadOptions("The board size cannot change once a tour has begun; start a new "
                             "game instead.")
        data["options"] = after
        return 1

    def view(self, data: dict[str, Any]) -> GameView:
        puzzle = load(data)
        status = puzzle.status
        over = status != "playing"
        trouble = puzzle.trouble
        return GameView(
            status="over" if over else "playing",
            to_move=None,
            result={"winner": None, "text": puzzle.message} if over else None,
            options=dict(data["options"]),
            state={
                "size": puzzle.size,
                "closed": puzzle.closed,
                "path": puzzle.path,
                "legal_next": [] if over else puzzle.legal_next,
                "current": puzzle.current,
                "tour_status": status,  # "playing" | "stuck" | "solved" | "open_only"
                "message": puzzle.message,
                "warning": None if trouble is None else {
                    "code": trouble.code, "message": trouble.message,
                    "squares": list(trouble.squares)},
            },
        )

    def outcome(self, data: dict[str, Any], view: GameView) -> str | None:
        return None  # a puzzle, not a match against the computer
