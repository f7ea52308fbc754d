"""Every job the server's worker pool runs (app/pool.py), in one module that imports only the
engines - never the web stack, the store or the games service - so a worker holds the
compiled search and little else. Start at warm_up(): the pool's zygote runs it before it forks
any worker (app/worker_process.py), so every worker shares these pages and its first job loads
nothing. The server imports this module too, to hand the jobs over: the search is imported
inside the jobs, so the server never loads it (tests/test_server_imports.py).

Each job is a module-level function of one picklable argument (the pool pickles it by name)
and returns plain data: an engine's refusal comes back as {"error": [...]}, since its
exceptions do not cross the process boundary. Who asks for each: `think` - the computer's
move (app/games/go.py, through the service's computer_reply); `analyse` - a position's
analysis (app/games/go_analysis.py); `read_sgf` - an SGF import (app/games/go_record.py);
`solve_tour` and `complete_tour` - the knight's-tour solvers (app/games/tours.py).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from app.engine.go import Game, GoError, read_record
from app.engine.knights_tour import (
    MAX_NAMED_SIZE,
    KnightsTourError,
    Puzzle,
    solve,
    solve_from,
)

if TYPE_CHECKING:  # the server imports this module too, to name the jobs: never numba
    from app.engine.go.mcts import MctsPlayer

REUSED_PLAYERS = 8  # searches kept per worker process, so a game's next move reuses its tree
# A worker's players by game id, oldest first: the next move of a game that this worker
# searched last reuses the part of its tree that the moves since left standing.
_players: dict[str, tuple[str, MctsPlayer]] = {}


def warm_up() -> None:
    """Loads what the jobs run: the Go search, compiled (or from numba's cache), and its
    move predictor. The rest came with this module."""
    from app.engine.go.mcts import warm_up as load_search

    load_search()


def think(job: dict[str, Any]) -> dict[str, Any]:
    """The computer's move for the stored game in `job` ({"id", "game", "level", "seed"})."""
    from app.engine.go.mcts import MctsPlayer

    level, player = _players.pop(job["id"], ("", None))
    if player is None or level != job["level"]:
        player = MctsPlayer.for_level(job["level"], seed=job["seed"])
    _players[job["id"]] = (job["level"], player)
    while len(_players) > REUSED_PLAYERS:
        _players.pop(next(iter(_players)))
    decision = player.genmove(Game.from_dict(job["game"]))
    return {"move": decision.move, "win_rate": decision.win_rate,
            "playouts": decision.playouts, "seconds": decision.seconds}


def analyse(job: dict[str, Any]) -> dict[str, Any]:
    """The search's verdict on one position ({"game", "seconds", "seed"})."""
    from app.engine.go.levels import NETWORK_WEIGHTS
    from app.engine.go.mcts import MctsPlayer
    from app.engine.go.mcts.network import load

    player = MctsPlayer(seconds=job["seconds"], playouts=None, seed=job["seed"],
                        resign_threshold=0.0, network=load(NETWORK_WEIGHTS))
    decision = player.analyse(Game.from_dict(job["game"]))
    return {"move": decision.move, "win_rate": round(decision.win_rate, 4),
            "lead": round(decision.score_lead, 1),
            "line": list(decision.principal_variation), "playouts": decision.playouts,
            "seconds": round(decision.seconds, 3), "ownership": list(decision.ownership)}


def read_sgf(text: bytes) -> dict[str, Any]:
    """An SGF record read: its game (the main line) and the record's parts, or the engine's
    refusal."""
    try:
        record = read_record(text)
    except GoError as error:
        return {"error": [error.code, error.message]}
    except (ValueError, LookupError, UnicodeError):
        # What a parser raises on input nobody foresaw: the record is refused in a sentence
        # of ours, not the job failed (503) in Python's words.
        return {"error": ["invalid_sgf", "invalid SGF: the record could not be read."]}
    return {"game": record.game.to_dict(), "info": record.info,
            "comments": {str(n): text for n, text in record.comments.items()},
            "tree": record.tree, "inserted_passes": record.inserted_passes,
            "variations": record.variations}


def solve_tour(request: dict[str, Any]) -> dict[str, Any]:
    """The tour the request asks for, as the API's JSON bytes, or the engine's refusal."""
    began = time.perf_counter()
    try:
        result = solve(request["size"], request["start"], closed=request["closed"],
                       method=request["method"])
    except KnightsTourError as error:
        return {"error": [error.code, error.message, error.conflict]}
    body: dict[str, Any] = {
        "size": request["size"], "closed": request["closed"], "method": result.method,
        "steps": result.steps, "backtracks": result.backtracks,
        "seconds": round(time.perf_counter() - began, 4), "tour": result.tour.tolist(),
    }
    if request["size"] <= MAX_NAMED_SIZE:
        body["squares"] = result.names()
    # json.dumps directly: a million-entry list is slow through any other encoder.
    return {"body": json.dumps(body, separators=(",", ":")).encode()}


def complete_tour(request: dict[str, Any]) -> dict[str, Any]:
    """A completion of a puzzle's path, or why there is none."""
    puzzle = Puzzle(request["size"], request["closed"], request["path"])
    try:
        result = solve_from(puzzle, node_budget=request["budget"])
    except KnightsTourError as error:
        return {"error": [error.code, error.message, error.conflict]}
    return {"squares": result.names(), "steps": result.steps}
