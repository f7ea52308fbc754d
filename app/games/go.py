"""Go as a stored game: options, moves ("D4", "pass", "resign"), scoring, undo, SGF.

Start at GoAdapter.play. The stored data is {"options": {…}, "game": Game.to_dict()}: the
engine's own record (size, komi, handicap, set-up stones, moves, dead marks), from which the
position is replayed on every request. Moves in the scoring phase are "toggle D4" (mark or
unmark the group at D4 dead) and "done" (accept the score: the game is over).
"""

from __future__ import annotations

import random
from typing import Any

from app.engine.go import (
    MAX_SIZE,
    MIN_SIZE,
    Game,
    GameOver,
    GoError,
    NothingToUndo,
    NotScoring,
    NotYourTurn,
    from_sgf,
)
from app.errors import BadOptions, Conflict, IllegalMove
from app.games import GameView

DEFAULT_OPTIONS: dict[str, Any] = {"size": 9, "komi": None, "handicap": 0,
                                   "opponent": "local", "human": "black"}
UI_SIZES = (9, 13, 19)
OPPONENTS = ("local",)  # the computer player arrives with its own adapter support
CONFLICTS = (GameOver, NotYourTurn, NothingToUndo, NotScoring)  # 409: right move, wrong time


def number(value: Any, name: str, kind: type) -> Any:
    """An int or float option, also from query-string text such as "13" or "6.5"."""
    if isinstance(value, str):
        try:
            value = kind(value)
        except ValueError:
            raise BadOptions(f"The {name} must be a number, not {value!r}.") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadOptions(f"The {name} must be a number, not {value!r}.")
    if kind is int and value != int(value):
        raise BadOptions(f"The {name} must be a whole number, not {value!r}.")
    return kind(value)


def normalize_options(raw: Any, base: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise BadOptions("Options must be a JSON object, e.g. {\"size\": 13}.")
    options = dict(base)
    for key, value in raw.items():
        if key == "size":
            size = number(value, "board size", int)
            if not MIN_SIZE <= size <= MAX_SIZE:
                raise BadOptions(f"The board size must be from {MIN_SIZE} to {MAX_SIZE}, "
                                 f"not {size}.")
            options["size"] = size
        elif key == "komi":
            options["komi"] = None if value in (None, "") else number(value, "komi", float)
        elif key == "handicap":
            options["handicap"] = number(value, "handicap", int)
        elif key == "opponent":
            if value not in OPPONENTS:
                raise BadOptions(f"Go can be played against {', '.join(OPPONENTS)}, "
                                 f"not {value!r}.")
            options["opponent"] = value
        elif key == "human":
            if value not in ("black", "white"):
                raise BadOptions(f"The human plays 'black' or 'white', not {value!r}.")
            options["human"] = value
        else:
            raise BadOptions(f"Go has no option {key!r}; it has size, komi, handicap, "
                             "opponent and human.")
    return options


def refusal(error: GoError) -> Exception:
    """The HTTP refusal for an engine error: 409 for a move at the wrong time, else 422."""
    if isinstance(error, CONFLICTS):
        return Conflict(error.message, code=error.code)
    return IllegalMove(error.message, code=error.code)


def load(data: dict[str, Any]) -> Game:
    return Game.from_dict(data["game"])


class GoAdapter:
    kind = "go"
    title = "Go"

    def new_game(self, options: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int]:
        options = normalize_options(options, DEFAULT_OPTIONS)
        try:
            game = Game(options["size"], options["komi"], options["handicap"])
        except GoError as error:
            raise BadOptions(error.message, code=error.code) from None
        options["komi"] = game.komi
        return {"options": options, "game": game.to_dict()}, 0

    def from_sgf(self, text: bytes) -> dict[str, Any]:
        """A new local game at the final position of an SGF record's main line."""
        try:
            game = from_sgf(text)
        except GoError as error:
            raise IllegalMove(error.message, code=error.code) from None
        options = {**DEFAULT_OPTIONS, "size": game.size, "komi": game.komi,
                   "handicap": game.handicap}
        return {"options": options, "game": game.to_dict()}

    def play(self, data: dict[str, Any], move: Any, rng: random.Random) -> int:
        if not isinstance(move, str):
            raise IllegalMove(f"A Go move is a vertex such as \"D4\", \"pass\", \"resign\", "
                              f"\"toggle D4\" or \"done\", not {move!r}.", code="malformed_move")
        game = load(data)
        words = move.strip().split()
        try:
            if len(words) == 2 and words[0].lower() == "toggle":
                game.toggle_dead(words[1].upper())
            elif move.strip().lower() == "done":
                game.accept_score()
            else:
                game.play(move.strip())
        except GoError as error:
            raise refusal(error) from None
        data["game"] = game.to_dict()
        return 1

    def undo(self, data: dict[str, Any]) -> int:
        game = load(data)
        try:
            game.undo()
        except GoError as error:
            raise refusal(error) from None
        data["game"] = game.to_dict()
        return 1

    def set_options(self, data: dict[str, Any], options: dict[str, Any],
                    rng: random.Random) -> int:
        fixed = {"size", "komi", "handicap"} & set(options)
        if fixed:
            raise BadOptions(f"The {', '.join(sorted(fixed))} of a game cannot change once it "
                             "has started; start a new game instead.")
        data["options"] = normalize_options(options, data["options"])
        return 1

    def view(self, data: dict[str, Any]) -> GameView:
        game = load(data)
        return self.view_of(game, data["options"])

    def view_of(self, game: Game, options: dict[str, Any]) -> GameView:
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
        return GameView(status=game.status, to_move=game.to_move, result=game.result,
                        options=dict(options), state=state)

    def outcome(self, data: dict[str, Any]) -> str | None:
        return None  # no computer opponent yet, so no tally
