"""A Go game's record: SGF in (in a worker) and out, the moves as a list to step through, the
position after any move, and a new game branched from one.

Start at `read_sgf`. An imported record becomes a game for review — its data carries
{"record": {"info", "comments", "tree", "inserted_passes"}, "review_only": true} — which
nobody plays on directly (the adapter refuses moves: app/games/go.py); a player steps
through it and continues from any position with `branch`, a new game against the computer,
a friend or at one screen. The record travels with the branch, so `sgf_text` writes the
original tree back with every variation, the new moves added as a variation where they
left it. The moves themselves are the engine's (app/engine/go): `position_at` replays the
first N of them, `move_list` numbers them with their captures.
"""

from __future__ import annotations

import copy
import datetime
import random
from collections.abc import Mapping
from typing import Any

from app.engine.go import Game, GoError
from app.errors import Conflict, IllegalMove, refusal
from app.games.options import read
from app.pool import WorkerPool

MAX_MOVES = 2_000  # the engine's bound on a record's main line (app/engine/go/sgf.py)
SGF_SECONDS = 0.3  # reading the largest record accepted (1 MB) takes about a quarter second
SGF_DEADLINE = 10.0
WORDS = {"B": "black", "W": "white"}


def read_sgf(text: bytes) -> dict[str, Any]:
    """Runs in a worker: an SGF record as a new review game's data, or the engine's refusal
    as data (engine exceptions do not cross the process boundary)."""
    from app.engine.go import read_record
    from app.games.go import GoOptions  # the adapter module imports this one

    try:
        record = read_record(text)
    except GoError as error:
        return {"error": [error.code, error.message]}
    except (ValueError, LookupError, UnicodeError):
        # What a parser raises on input nobody foresaw: the record is refused in a sentence
        # of ours, not the job failed (503) in Python's words.
        return {"error": ["invalid_sgf", "invalid SGF: the record could not be read."]}
    game = record.game
    options = GoOptions(opponent="local", size=game.size, komi=game.komi,
                        handicap=game.handicap).model_dump()
    return {"options": options, "game": game.to_dict(), "analysis": [], "rated": False,
            "accepted": [], "clock": None, "review_only": True,
            "record": {"info": record.info,
                       "comments": {str(n): text for n, text in record.comments.items()},
                       "tree": record.tree, "inserted_passes": record.inserted_passes}}


async def import_sgf(pool: WorkerPool, text: bytes) -> dict[str, Any]:
    """The data of a new review game from an SGF record, read in the worker pool."""
    ticket = pool.admit(SGF_SECONDS, "The server is busy; the record was not opened. "
                                     "Try again in a few seconds.")
    data: dict[str, Any] = await pool.run(ticket, read_sgf, text, SGF_DEADLINE)
    if "error" in data:
        code, message = data["error"]
        raise IllegalMove(message, code=code)
    return data


def position_at(data: dict[str, Any], moves: int) -> Game:
    """The game as it stood after its first `moves` moves (0: the start)."""
    stored = {key: value for key, value in data["game"].items()
              if key not in ("dead", "accepted", "ended")}
    stored["moves"] = list(data["game"]["moves"][:moves])
    return Game.from_dict(stored)


def move_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every move: its number (1-based), colour, vertex ("pass", "resign") and how many
    stones it captured."""
    start = dict(data["game"], moves=[])
    start.pop("dead", None)
    start.pop("accepted", None)
    start.pop("ended", None)
    game = Game.from_dict(start)
    listed = []
    for number, move in enumerate(data["game"]["moves"], start=1):
        colour = game.to_move or "black"
        captured = game.play(move)
        listed.append({"number": number, "colour": colour, "move": move,
                       "captures": len(captured)})
        if game.status != "playing":
            break
    return listed


def record_result(data: dict[str, Any]) -> dict[str, Any] | None:
    """The result an imported record states (RE), as the Game JSON's result."""
    text = (data.get("record") or {}).get("info", {}).get("result", "")
    if not text:
        return None
    winner = WORDS.get(text[:1].upper()) if len(text) > 1 and text[1:2] == "+" else None
    return {"winner": winner, "text": text}


def branch(data: dict[str, Any], moves: int, options: Mapping[str, Any],
           rng: random.Random) -> dict[str, Any]:
    """A new game's data: the position after `moves` moves of this game, the record kept
    (so its SGF keeps every variation), to be played with `options` (opponent, level,
    human, clock)."""
    from app.games.clock import new_clock
    from app.games.go import SIDES, GoOptions

    total = len(data["game"]["moves"])
    if not 0 <= moves <= total:
        raise IllegalMove(f"A position is a move number from 0 to {total}, not {moves}.",
                          code="no_such_move")
    fixed = {key: data["options"][key] for key in ("size", "komi", "handicap")}
    chosen = read(GoOptions, {**options, **fixed}).model_dump()  # the board stays the board
    if chosen["human"] == "random":
        chosen["human"] = rng.choice(SIDES)
    try:
        game = position_at(data, moves)
    except GoError as error:
        raise refusal(error) from None
    if game.status != "playing":
        raise Conflict("Play had stopped at that move; pick an earlier one to continue.",
                       code="game_over")
    record = copy.deepcopy(data.get("record") or {})
    record["branch"] = moves
    return {"options": chosen, "game": game.to_dict(), "rated": False, "accepted": [],
            "analysis": [a for a in data.get("analysis", []) if a["move"] < moves],
            "clock": new_clock(SIDES, chosen["minutes"], chosen["increment"]),
            "record": record}


def sgf_text(data: dict[str, Any], date: datetime.date) -> str:
    """The game as an SGF record: with an imported record, its whole tree — variations,
    names, comments — with this game's moves added where they leave it."""
    game = Game.from_dict(data["game"])
    record = data.get("record") or {}
    info = dict(record.get("info") or {})
    info.setdefault("black", "Black")
    info.setdefault("white", "White")
    if not data.get("review_only") and game.result is not None:
        info["result"] = game.result["text"]
    from app.engine.go import write_record

    comments = {int(number): text for number, text in (record.get("comments") or {}).items()}
    text: str = write_record(game, tree=record.get("tree"), info=info, comments=comments,
                        date=info.get("date") or date.isoformat())
    return text
