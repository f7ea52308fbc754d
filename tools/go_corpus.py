"""Pachi self-play games: the training corpus of the Go player's move features.

`tools/train_patterns.py` fits the gammas of the priors' move features to the moves strong
players chose. The GNU Go games that `bench.go_referee generate` records are played at
levels 1-3 (fast, but weak: they teach shape, not urgency). This script makes a stronger
corpus: Pachi (the strongest classical Monte-Carlo engine, no neural network; its binary
given as --pachi or in PACHI, never part of Tabletop) playing itself, one process for both
colours, with a fixed number of playouts a move - so a game's quality does not depend on how
busy the machine is - and a seed of its own per game (`-s`), so games differ. A game ends at
two passes or a resignation; Pachi's own `final_score` is recorded for the others. Pachi is a
sparring partner only: what lands in the repository is the moves it chose, as data.

With `--learning` (the learned player's corpus) each game also holds `winrates` (for each move,
the win rate Pachi's search gave the side that played it, in percent, from its `WINNER` report;
null where it made none) and `ownership` (a character per point in the engine's order, row 0 at
the top: "X" black's area, "O" white's, "." nobody's). After two passes, Pachi's
`final_status_list dead` takes the dead stones off and an area count gives each point's owner;
after a resignation the board is unsettled, so a point belongs to a colour when Pachi's
`gogui-influence` (2,000 playouts from the final position) gives it to that colour at least
0.7 of the time. (Forbidding resignation was tried: the loser then plays on into hopeless
positions until the whole board dies, 0% and 100% reports for dozens of moves.)

The file (`tests/data/go/pachi_games_<size>.json`) is rewritten after every finished game, so a
run can be stopped at any time and resumed: game numbers already in the file are skipped.

Run from the repository root (PACHI: the path of a Pachi binary - pasky/pachi at commit
b69e3539 made the files here, built from its source without the neural network, `make DCNN=0
GENERIC=1`):
    export PACHI=/path/to/pachi
    .venv/bin/python -m tools.go_corpus --size 19 --games 100 --playouts 1500 --parallel 2
    .venv/bin/python -m tools.go_corpus --size 9 --games 400 --playouts 6000 --parallel 2
(the two files in the repository: 5,853 s and 1,659 s, two games at a time)
The learned player's corpus, begun 2026-12-04 (one process each at nice 19 beside other work:
268 games and 12,308 positions on 9x9; 19x19 then two at a time for 36 minutes more, and one
at a time beside the 2026-12-06 session, two for 15 minutes on 2026-12-07 and two at nice 19
beside that day's later work: 227 games and 41,128 positions; run on with the same commands,
which skip the games the files hold):
    .venv/bin/python -m tools.go_corpus --size 9 --games 4000 --playouts 6000 --learning \
        --seed 100001 --out tests/data/go/learning_9.json
    .venv/bin/python -m tools.go_corpus --size 19 --games 1000 --playouts 1500 --learning \
        --seed 200001 --out tests/data/go/learning_19.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from app.engine.go.board import BLACK, WHITE, Board
from app.engine.go.coords import parse_vertex
from app.engine.go.scoring import territory_owners
from bench.gtp_client import GtpClient, GtpError

ROOT = Path(__file__).resolve().parent.parent

DATA = ROOT / "tests" / "data" / "go"
KOMI = 7.5
MAX_MOVES_PER_POINT = 3  # a longer game is cycling: it is dropped
REPLY_TIMEOUT = 600.0  # seconds for one genmove, however busy the machine


def corpus_file(size: int) -> Path:
    return DATA / f"pachi_games_{size}.json"


# Pachi's report at debug level 2 when a search ends: "*** WINNER is F6 with score 52.1% ...".
WINNER = re.compile(r"\*\*\* WINNER is \S+ with score ([0-9.]+)%")


def pachi_command(binary: str, playouts: int, seed: int, learning: bool = False) -> list[str]:
    # Debug level 2 only adds the reports read for `winrates`.
    return [binary, "-d", "2" if learning else "0", "-s", str(seed), "-t", f"={playouts}",
            "threads=1"]


class Game:
    """A finished self-play game: moves (GTP vertices, "pass"), result ("B+R", "W+3.5"), the
    mover's win rate of each move and the final ownership."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.result = ""
        self.winrates: list[float | None] = []
        self.ownership: str | None = None


def play_game(command: Sequence[str], size: int, komi: float) -> Game:
    """One self-play game, one engine playing both colours."""
    engine = GtpClient("pachi", command, REPLY_TIMEOUT)
    game = Game()
    try:
        engine.send(f"boardsize {size}")
        engine.send("clear_board")
        engine.send(f"komi {komi:g}")
        color = "b"
        passes = 0
        while len(game.moves) < MAX_MOVES_PER_POINT * size * size:
            mark = engine.stderr_size()
            move = engine.send(f"genmove {color}").lower()
            if move == "resign":
                game.result = ("W" if color == "b" else "B") + "+R"
                game.ownership = influence_ownership(size, engine.send("gogui-influence"))
                return game
            reports = WINNER.findall(engine.stderr_since(mark))
            game.winrates.append(float(reports[-1]) if reports else None)
            game.moves.append("pass" if move == "pass" else move.upper())
            passes = passes + 1 if move == "pass" else 0
            if passes == 2:
                game.result = engine.send("final_score")
                dead = engine.send("final_status_list dead").split()
                game.ownership = final_ownership(size, game.moves, dead)
                return game
            color = "w" if color == "b" else "b"
        raise GtpError(f"no end after {len(game.moves)} moves: dropped")
    finally:
        engine.close()


# gogui-influence's answer: "INFLUENCE A1 0.0 B1 -0.7 ...", a point's ownership in 7 steps
# from -1 (white's in every playout) to 1 (black's).
INFLUENCE = re.compile(r"\b([A-HJ-Z][0-9]{1,2}) (-?[0-9.]+)")
SURE = 0.7  # of its steps, the least that counts as owned


def influence_ownership(size: int, reply: str) -> str:
    """Each point's owner by Pachi's playouts (`gogui-influence`): "X", "O" or "."."""
    marks = ["."] * size * size
    for vertex, value in INFLUENCE.findall(reply):
        share = float(value)
        if abs(share) >= SURE:
            marks[parse_vertex(vertex, size)] = "X" if share > 0 else "O"
    return "".join(marks)


def final_ownership(size: int, moves: Sequence[str], dead: Sequence[str]) -> str:
    """Each point's owner once `dead` (GTP vertices) are taken off the board `moves` reach:
    "X" black (a living black stone or black's territory), "O" white, "." nobody."""
    board = Board(size)
    color = BLACK
    for move in moves:
        if move != "pass":
            board.play(parse_vertex(move, size), color)
        color = WHITE if color == BLACK else BLACK
    dead_points = {parse_vertex(vertex.upper(), size) for vertex in dead}
    owners = territory_owners(board, dead_points)
    marks = []
    for point, stone in enumerate(board.colors):
        owner = owners[point] if stone == 0 or point in dead_points else stone
        marks.append({BLACK: "X", WHITE: "O"}.get(owner, "."))
    return "".join(marks)


def load(path: Path) -> dict[str, Any]:
    if path.exists():
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    return {"generator": "", "games": []}


def save(path: Path, data: dict[str, Any]) -> None:
    data["games"].sort(key=lambda game: game["number"])
    text = json.dumps(data, separators=(",", ":"))
    # One game a line: the file diffs and reads well and stays compact.
    text = text.replace('},{"number"', '},\n{"number"')
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text + "\n")
    os.replace(temporary, path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=19, choices=(9, 13, 19))
    parser.add_argument("--games", type=int, default=100, help="games the file should hold")
    parser.add_argument("--playouts", type=int, default=1500, help="Pachi's playouts a move")
    parser.add_argument("--parallel", type=int, default=1, help="games at a time (a core each)")
    parser.add_argument("--seed", type=int, default=1, help="game n gets Pachi seed seed + n")
    parser.add_argument("--out", type=Path, help="default: tests/data/go/pachi_games_<size>.json")
    parser.add_argument("--learning", action="store_true",
                        help="record each move's win rate and the final ownership too")
    parser.add_argument("--pachi", default=os.environ.get("PACHI"),
                        help="the Pachi binary (default: $PACHI)")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 10_000 or not 100 <= args.playouts <= 1_000_000:
        parser.error("--games must be 1-10000 and --playouts 100-1000000")
    if not 1 <= args.parallel <= (os.cpu_count() or 1):
        parser.error("--parallel must be between 1 and the number of cores")
    path = args.out or corpus_file(args.size)
    if not args.pachi:
        parser.error("say which Pachi binary plays: --pachi PATH or PACHI=PATH (Pachi is "
                     "built from its source, outside this repository)")
    binary = args.pachi
    data = load(path)
    shown = " ".join(pachi_command("pachi", args.playouts, 0, args.learning)).replace(
        "-s 0", "-s <seed>")
    data["generator"] = f"tools/go_corpus.py: Pachi b69e3539 self-play, {shown}, komi {KOMI:g}"
    done = {game["number"] for game in data["games"]}
    todo = [n for n in range(args.games) if n not in done]
    lock = threading.Lock()
    began = time.perf_counter()

    def run(number: int) -> None:
        seed = args.seed + number
        started = time.perf_counter()
        try:
            game = play_game(pachi_command(binary, args.playouts, seed, args.learning),
                             args.size, KOMI)
        except GtpError as error:
            print(f"game {number}: failed ({error})", flush=True)
            return
        record: dict[str, Any] = {
            "number": number, "size": args.size, "komi": KOMI, "seed": seed,
            "playouts": args.playouts, "result": game.result, "moves": game.moves}
        if args.learning:
            record["winrates"] = game.winrates
            record["ownership"] = game.ownership
        with lock:
            data["games"].append(record)
            save(path, data)
            print(f"game {number}: {game.result} in {len(game.moves)} moves, "
                  f"{time.perf_counter() - started:.0f} s ({len(data['games'])} in the file, "
                  f"{time.perf_counter() - began:.0f} s so far)", flush=True)

    with ThreadPoolExecutor(args.parallel) as pool:
        list(pool.map(run, todo))
    return 0


if __name__ == "__main__":
    sys.exit(main())
