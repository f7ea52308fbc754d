"""The knight's tour puzzle as a stored game: a path of squares the player builds by clicks.

Start at KnightsTourAdapter.play. The stored data is
    {"options": {"size": 8, "closed": false}, "path": ["a1", "b3", …]}
and the puzzle is rebuilt from the path on every request. There is no opponent: `to_move` is
always null, and the game is over when the tour is complete or the knight is stuck.
"""

from __future__ import annotations

import random
from typing import Any

from app.engine.knights_tour import (
    KnightsTourError,
    NothingToUndo,
    Puzzle,
    PuzzleOver,
)
from app.errors import BadOptions, Conflict, IllegalMove
from app.games import GameView

DEFAULT_OPTIONS: dict[str, Any] = {"size": 8, "closed": False}
MIN_SIZE, MAX_SIZE = 5, 16  # a playable puzzle: smaller boards have no tour, larger ones
                            # no longer fit a screen (the solvers go to 1000: /api/knights-tour)


def parse_bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "1", "on", "yes", "false", "0",
                                                     "off", "no", ""):
        return value.lower() in ("true", "1", "on", "yes")
    raise BadOptions(f"The option {name} is true or false, not {value!r}.")


def normalize_options(raw: Any, base: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise BadOptions("Options must be a JSON object, e.g. {\"size\": 8, \"closed\": true}.")
    options = dict(base)
    for key, value in raw.items():
        if key == "size":
            size = value
            if isinstance(size, str) and size.strip().isdigit():
                size = int(size)
            if isinstance(size, bool) or not isinstance(size, int) \
                    or not MIN_SIZE <= size <= MAX_SIZE:
                raise BadOptions(f"The puzzle's board is {MIN_SIZE} to {MAX_SIZE} squares "
                                 f"wide, not {value!r}.")
            options["size"] = size
        elif key == "closed":
            options["closed"] = parse_bool(value, "closed")
        else:
            raise BadOptions(f"The knight's tour has no option {key!r}; it has size and closed.")
    return options


def load(data: dict[str, Any]) -> Puzzle:
    return Puzzle(data["options"]["size"], data["options"]["closed"], data["path"])


class KnightsTourAdapter:
    kind = "knights-tour"

    def new_game(self, options: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int]:
        return {"options": normalize_options(options, DEFAULT_OPTIONS), "path": []}, 0

    def play(self, data: dict[str, Any], move: Any, rng: random.Random) -> int:
        puzzle = load(data)
        if not isinstance(move, str):
            raise IllegalMove(f"A knight's-tour move is a square such as \"c2\", not {move!r}.",
                              code="invalid_square")
        try:
            puzzle.play(move)
        except PuzzleOver as error:
            raise Conflict(str(error), code=error.code) from None
        except KnightsTourError as error:
            raise IllegalMove(str(error), code=error.code) from None
        data["path"] = puzzle.path
        return 1

    def undo(self, data: dict[str, Any]) -> int:
        puzzle = load(data)
        try:
            puzzle.undo()
        except NothingToUndo as error:
            raise Conflict(str(error), code=error.code) from None
        data["path"] = puzzle.path
        return 1

    def set_options(self, data: dict[str, Any], options: dict[str, Any],
                    rng: random.Random) -> int:
        if "size" in options and options["size"] != data["options"]["size"]:
            raise BadOptions("The board size cannot change once a tour has begun; start a new "
                             "game instead.")
        data["options"] = normalize_options(options, data["options"])
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

    def outcome(self, data: dict[str, Any]) -> str | None:
        return None  # a puzzle, not a match against the computer
