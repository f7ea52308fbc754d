"""GNU Go as an independent referee for the Go engine's scoring.

`generate` makes GNU Go play itself under Chinese (area) rules - a few random opening moves
first, so the games differ - until two passes, and records each game's moves with GNU Go's
`final_score` and dead stones, read by a separate GNU Go at REFEREE_LEVEL that replays the
game (on 9x9 the recorded games were scored by the playing GNU Go itself), in
tests/data/go/referee_games.json (9x9) or referee_games_<size>.json. `check` replays every
recorded game with the engine, lets the engine propose the dead stones and compares its area
score with GNU Go's, printing the agreement rate and each disagreement; `check --explain` also
asks GNU Go's own life-and-death reading about every disputed stone (`explain_miss`) and
tallies why the scores differ. `handicap` records
GNU Go's `fixed_handicap` placements for every size it supports
(tests/data/go/gnugo_fixed_handicap.json). `generate` and `handicap` record data rather than
measure, but it is the referee's own data - the games `check` replays, the placements the
handicap tests compare with - so they stay beside `check` (tools/ holds the rest).

Run:
    .venv/bin/python -m bench.go_referee generate --games 120            # 9x9, ~2 min
    .venv/bin/python -m bench.go_referee generate --size 19 --games 110  # ~1 h a worker
    .venv/bin/python -m bench.go_referee check --size 19 --explain
    .venv/bin/python -m bench.go_referee handicap
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from app.engine.go import Game, GoError
from bench.gtp_client import MIN_REPLY_TIMEOUT, GtpClient, GtpRefused, replay

ROOT = Path(__file__).resolve().parent.parent

GNUGO = "/usr/games/gnugo"
KOMI = 7.5
REFEREE_LEVEL = 10  # the scorer of the 13x13 and 19x19 games: GNU Go's strongest level
LEVELS = (1, 2, 3)  # low levels keep a game under a few seconds; the levels vary the play
MAX_OPENING = 8  # random opening moves before GNU Go takes over: variety in the positions
MAX_MOVES = 3  # times the board's points: more means something cycles; drop the game
DATA = ROOT / "tests" / "data" / "go"
HANDICAP_FILE = DATA / "gnugo_fixed_handicap.json"


def games_file(size: int) -> Path:
    return DATA / ("referee_games.json" if size == 9 else f"referee_games_{size}.json")


def gnugo(*args: str) -> GtpClient:
    """A GNU Go process spoken to over GTP (one command, one answer; `GtpError` - a
    RuntimeError - when it refuses, dies or goes silent)."""
    return GtpClient("GNU Go", [GNUGO, "--mode", "gtp", *args], MIN_REPLY_TIMEOUT)


def play_game(number: int, size: int) -> dict[str, Any] | None:
    """One GNU Go self-play game, or None if it was resigned, cycled or broke our rules."""
    rng = random.Random(number)
    level = LEVELS[number % len(LEVELS)]
    seed = 1000 + number
    gtp = gnugo("--chinese-rules", "--level", str(level), "--seed", str(seed))
    edge = {"A", "T" if size == 19 else "JKLMNOPQRST"[size - 9]}
    try:
        gtp.send(f"boardsize {size}")
        gtp.send("clear_board")
        gtp.send(f"komi {KOMI}")
        game = Game(size, KOMI)
        for _ in range(rng.randint(0, MAX_OPENING)):
            # Random opening moves away from the edge, so the game starts somewhere new.
            inner = [v for v in game.legal_moves()
                     if v[0] not in edge and v[1:] not in ("1", str(size))]
            move = rng.choice(inner)
            gtp.send(f"play {game.to_move} {move}")
            game.play(move)
        while game.status == "playing":
            if len(game.moves) >= MAX_MOVES * size * size:
                return None
            color = game.to_move
            move = gtp.send(f"genmove {color}").lower()
            if move == "resign":
                return None
            try:
                game.play(move)
            except GoError as error:
                print(f"game {number}: GNU Go's {move} refused by the engine: {error}")
                return None
        if size == 9:
            score = gtp.send("final_score")
            dead = sorted(gtp.send("final_status_list dead").split())
        else:
            score, dead = referee(game.moves, size)
    finally:
        gtp.close()
    return {
        "number": number,
        "level": level,
        "seed": seed,
        "size": size,
        "komi": KOMI,
        "moves": game.moves,
        "gnugo_score": score,
        "gnugo_dead": dead,
    }


def referee(moves: list[str], size: int) -> tuple[str, list[str]]:
    """GNU Go at REFEREE_LEVEL's score and dead stones for a finished game."""
    gtp = gnugo("--chinese-rules", "--level", str(REFEREE_LEVEL))
    try:
        replay(gtp.send, moves, size, KOMI)
        return gtp.send("final_score"), sorted(gtp.send("final_status_list dead").split())
    finally:
        gtp.close()


def generate(games: int, workers: int, start: int, size: int) -> None:
    records: list[dict[str, Any]] = []
    path = games_file(size)
    if path.exists():
        records = json.loads(path.read_text())["games"]
    done = {record["number"] for record in records}
    lock = threading.Lock()
    began = time.perf_counter()

    def one(number: int) -> None:
        record = play_game(number, size)
        with lock:
            if record is not None:
                records.append(record)
                records.sort(key=lambda r: r["number"])
                save(records, size)
            print(f"game {number}: {record['gnugo_score'] if record else 'dropped'} "
                  f"({len(records)} recorded, {time.perf_counter() - began:.0f} s)", flush=True)

    todo = [n for n in range(start, start + games) if n not in done]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, todo))


def save(records: list[dict[str, Any]], size: int) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    scorer = "the playing GNU Go" if size == 9 else f"GNU Go level {REFEREE_LEVEL}"
    payload = {
        "generator": "bench/go_referee.py generate: GNU Go 3.8 self-play, "
        f"--chinese-rules, levels {list(LEVELS)}, {size}x{size}, komi {KOMI}; "
        f"scored by {scorer}",
        "games": records,
    }
    games_file(size).write_text(json.dumps(payload, indent=1) + "\n")


def check(size: int, explain: bool = False) -> float:
    """Print every disagreement and the agreement rates; return the score agreement. With
    `explain`, also ask GNU Go why each score differs (`explain_miss`) and tally the answers."""
    records = json.loads(games_file(size).read_text())["games"]
    agree = same_dead = with_dead = 0
    reasons: dict[str, int] = {}
    began = time.perf_counter()
    for record in records:
        game = Game.from_moves(record["moves"], size=record["size"], komi=record["komi"])
        ours = game.score().text
        dead = sorted(game.dead_stones)
        with_dead += bool(record["gnugo_dead"])
        same_dead += dead == record["gnugo_dead"]
        if ours == record["gnugo_score"]:
            agree += 1
        if ours != record["gnugo_score"] or dead != record["gnugo_dead"]:
            print(f"game {record['number']}: engine {ours}, GNU Go {record['gnugo_score']}; "
                  f"engine dead {dead}, GNU Go dead {record['gnugo_dead']}")
            print("   " + "\n   ".join(game.board_rows()))
            if explain and ours != record["gnugo_score"]:
                reason = explain_miss(record, game)
                reasons[reason] = reasons.get(reason, 0) + 1
                print(f"   why: {reason}")
    count = len(records)
    rate = agree / count
    print(f"score agreement {agree}/{count} = {rate:.1%}; same dead stones {same_dead}/{count} "
          f"({with_dead} games have dead stones); {time.perf_counter() - began:.1f} s")
    for reason, times in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f"{times} of the {count - agree} misses: {reason}")
    return rate


SEKI_COUNT = "same dead stones: the count differs (GNU Go gives no one the eyes of a seki)"
OWN_READING = ("GNU Go's final_status contradicts its own dragon_status, which agrees with "
               "the engine")
CRITICAL = "GNU Go reads the disputed group as critical (the side to move decides)"
ENGINE = "the engine's proposal differs from GNU Go's reading"


def explain_miss(record: dict[str, Any], game: Game) -> str:
    """Why the engine's score differs from GNU Go's `final_score`: the referee's own life and
    death reading (`dragon_status`, GNU Go's owl search) of every stone whose status the two
    dispute, asked of a GNU Go at REFEREE_LEVEL that replays the game. `final_score` and
    `final_status_list` come from GNU Go's aftermath play-out instead, which can differ."""
    ours = set(game.dead_stones)
    theirs = set(record["gnugo_dead"])
    if ours == theirs:
        return SEKI_COUNT
    gtp = gnugo("--chinese-rules", "--level", str(REFEREE_LEVEL))
    try:
        replay(gtp.send, record["moves"], record["size"], record["komi"])
        statuses = {stone: gtp.send(f"dragon_status {stone}").split()[0]
                    for stone in sorted(ours ^ theirs)}
    finally:
        gtp.close()
    if "critical" in statuses.values():
        return CRITICAL
    agrees = all((status == "dead") == (stone in ours) for stone, status in statuses.items())
    return OWN_READING if agrees else ENGINE


def handicap() -> None:
    placements: dict[str, dict[str, list[str] | None]] = {}
    gtp = gnugo()
    try:
        for size in range(7, 20):
            gtp.send(f"boardsize {size}")
            placements[str(size)] = {}
            for stones in range(2, 10):
                gtp.send("clear_board")
                try:
                    answer = gtp.send(f"fixed_handicap {stones}")
                    placements[str(size)][str(stones)] = sorted(answer.split())
                except GtpRefused:
                    placements[str(size)][str(stones)] = None
    finally:
        gtp.close()
    HANDICAP_FILE.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "generator": "bench/go_referee.py handicap: GNU Go 3.8 GTP fixed_handicap "
        "(null = refused)",
        "placements": placements,
    }
    HANDICAP_FILE.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {HANDICAP_FILE}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="record GNU Go self-play games")
    make.add_argument("--games", type=int, default=120)
    make.add_argument("--workers", type=int, default=2)
    make.add_argument("--start", type=int, default=0, help="number of the first game")
    make.add_argument("--size", type=int, default=9, choices=(9, 13, 19))
    compare = commands.add_parser("check", help="compare the engine's scores with GNU Go's")
    compare.add_argument("--size", type=int, default=9, choices=(9, 13, 19))
    compare.add_argument("--explain", action="store_true",
                         help="ask GNU Go's own reading why each score differs")
    commands.add_parser("handicap", help="record GNU Go's fixed handicap placements")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.games, args.workers, args.start, args.size)
    elif args.command == "check":
        check(args.size, args.explain)
    else:
        handicap()


if __name__ == "__main__":
    main()
