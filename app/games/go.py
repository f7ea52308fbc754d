"""Go as a stored game: options, moves ("D4", "pass", "resign"), scoring, undo, SGF, and
the Monte-Carlo computer opponent.

Start at GoAdapter.play. The stored data is
    {"options": {…}, "game": Game.to_dict(), "analysis": [{"move": n, "win_rate": w}, …]}:
the engine's own record (size, komi, handicap, set-up stones, moves, dead marks), from which
the position is replayed on every request, and the computer's win-rate estimates. Moves in
the scoring phase are "toggle D4" (mark or unmark the group at D4 dead) and "done" (accept
the score: the game is over). The computer's move is not played inside play(): it thinks
in a worker process (computer_job → think → apply_computer; see app/games/thinking.py).
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
from app.engine.go.mcts import LEVELS as SEARCH_LEVELS
from app.errors import BadOptions, Conflict, IllegalMove
from app.games import ComputerJob, GameView

DEFAULT_OPTIONS: dict[str, Any] = {"size": 9, "komi": None, "handicap": 0,
                                   "opponent": "computer", "level": "medium", "human": "black"}
UI_SIZES = (9, 13, 19)
OPPONENTS = ("local", "computer")
# The computer's levels, as the player defines them (seconds and playouts a move), by label.
LEVELS = {name: name.capitalize() for name in SEARCH_LEVELS}
CONFLICTS = (GameOver, NotYourTurn, NothingToUndo, NotScoring)  # 409: right move, wrong time
REUSED_PLAYERS = 8  # searches kept per worker process, so a game's next move reuses its tree


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
        elif key == "level":
            if value not in LEVELS:
                raise BadOptions(f"The computer's level is one of {', '.join(LEVELS)}, "
                                 f"not {value!r}.")
            options["level"] = value
        else:
            raise BadOptions(f"Go has no option {key!r}; it has size, komi, handicap, "
                             "opponent, level and human.")
    return options


def computer_colour(options: dict[str, Any]) -> str | None:
    if options.get("opponent") != "computer":
        return None
    return "white" if options["human"] == "black" else "black"


def colour_of_move(game: Game, index: int) -> str:
    """Who played move `index` (0-based): colours alternate from the first to move."""
    first = game.first_to_move
    other = "white" if first == "black" else "black"
    return first if index % 2 == 0 else other


# Per worker process: game id → (level, its MctsPlayer), so a game's next search can reuse
# the tree of its last one (when the same worker gets it).
_players: dict[str, tuple[str | None, Any]] = {}


def think(job: dict[str, Any]) -> dict[str, Any]:
    """Runs in a worker process: the computer's move for the stored game in `job`."""
    from app.engine.go.mcts import MctsPlayer

    level, player = _players.pop(job["id"], (None, None))
    if player is None or level != job["level"]:
        player = MctsPlayer.for_level(job["level"], seed=job["seed"])
    _players[job["id"]] = (job["level"], player)
    while len(_players) > REUSED_PLAYERS:
        _players.pop(next(iter(_players)))
    decision = player.genmove(Game.from_dict(job["game"]))
    return {"move": decision.move, "win_rate": decision.win_rate,
            "playouts": decision.playouts, "seconds": decision.seconds}


def refusal(error: GoError) -> Exception:
    """The HTTP refusal for an engine error: 409 for a move at the wrong time, else 422."""
    if isinstance(error, CONFLICTS):
        return Conflict(error.message, code=error.code)
    return IllegalMove(error.message, code=error.code)


def load(data: dict[str, Any]) -> Game:
    return Game.from_dict(data["game"])


class GoAdapter:
    kind = "go"

    def new_game(self, options: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int]:
        options = normalize_options(options, DEFAULT_OPTIONS)
        try:
            game = Game(options["size"], options["komi"], options["handicap"])
        except GoError as error:
            raise BadOptions(error.message, code=error.code) from None
        options["komi"] = game.komi
        return {"options": options, "game": game.to_dict(), "analysis": []}, 0

    def from_sgf(self, text: bytes) -> dict[str, Any]:
        """A new local game at the final position of an SGF record's main line."""
        try:
            game = from_sgf(text)
        except GoError as error:
            raise IllegalMove(error.message, code=error.code) from None
        options = {**DEFAULT_OPTIONS, "opponent": "local", "size": game.size,
                   "komi": game.komi, "handicap": game.handicap}
        return {"options": options, "game": game.to_dict(), "analysis": []}

    def play(self, data: dict[str, Any], move: Any, rng: random.Random) -> int:
        if not isinstance(move, str):
            raise IllegalMove(f"A Go move is a vertex such as \"D4\", \"pass\", \"resign\", "
                              f"\"toggle D4\" or \"done\", not {move!r}.", code="malformed_move")
        game = load(data)
        if game.status == "playing" and game.to_move == computer_colour(data["options"]):
            raise Conflict("It is the computer's turn; wait for its move.",
                           code="not_your_turn")
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
        """Takes back the last move; against the computer, the human's last move and the
        computer's reply to it, so it is the human's turn again."""
        game = load(data)
        computer = computer_colour(data["options"])
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
        return 1

    def computer_job(self, game_id: str, data: dict[str, Any],
                     rng: random.Random) -> ComputerJob | None:
        game = load(data)
        computer = computer_colour(data["options"])
        if computer is None or game.status != "playing" or game.to_move != computer:
            return None
        return ComputerJob(think, {"id": game_id, "game": data["game"],
                                   "level": data["options"]["level"],
                                   "seed": rng.randrange(2**31)})

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

    def set_options(self, data: dict[str, Any], options: dict[str, Any],
                    rng: random.Random) -> int:
        """Switches opponent, level or the human's colour mid-game; if that hands the
        computer the move, it thinks next (GameService.computer_reply)."""
        fixed = {"size", "komi", "handicap"} & set(options)
        if fixed:
            raise BadOptions(f"The {', '.join(sorted(fixed))} of a game cannot change once it "
                             "has started; start a new game instead.")
        data["options"] = normalize_options(options, data["options"])
        return 1

    def view(self, data: dict[str, Any]) -> GameView:
        game = load(data)
        return self.view_of(game, data["options"], data.get("analysis"))

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

    def outcome(self, data: dict[str, Any]) -> str | None:
        game = load(data)
        computer = computer_colour(data["options"])
        if computer is None or game.result is None:
            return None
        winner = game.result["winner"]
        if winner is None:
            return "draw"
        return "loss" if winner == computer else "win"
