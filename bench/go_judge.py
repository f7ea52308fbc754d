"""Where a game was lost: a stronger engine judges every move of one side of recorded games.

Start with `judge_game`: for each position of an SGF record (as `bench/gtp_match.py` saves
them) it puts the moves so far on the judge's board (`clear_board` and `play`, never `undo`:
Pachi's undo after a genmove left its board different from the game's in a trial here),
asks the judge for a move for the side to move, and reads the judge's win rate for that side
from the judge's stderr (`WIN_RATE`, the line Pachi prints after each genmove: "*** WINNER
is D5 with score 46.2% ..."). A move's *drop* is what it cost the side that made it in the
judge's eyes: its win rate before the move minus one minus the opponent's win rate after it.
`summarize` averages, over the games, the studied side's win rate and its drops by its own
move number (in bins of `BIN` moves), counts the drops over `BLUNDER`, and lists the
largest with the move the judge preferred - so one can see whether games are lost in the
opening, in one blunder, or a little at every move, and open the worst positions.

The side studied is Tabletop's (the player whose name in PB/PW starts with "Tabletop"), or
`--side black|white`. The judge is slow on purpose (10,000 playouts a position: about 1 s on
9x9): 40 games of 55 moves take 20 minutes two at a time. Its opinion is its own - a move it
would not play costs a little by its reading even when it is as good - so the figures tell
where to look, not what the truth is.

Run from the repository root (PACHI: the path of a Pachi binary, not part of Tabletop - see
tools/go_corpus.py):
    .venv/bin/python -m bench.go_judge --judge "$PACHI -t =10000 threads=1" --parallel 2 \\
        bench/results/sgf/2026-12-02-pachi/*.sgf
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from app.engine.go.sgf import read_record
from bench.gtp_client import GtpClient, GtpError, replay

# Pachi's report after a genmove; the percentage is the side to move's win rate.
WIN_RATE = re.compile(r"\*\*\* WINNER is \S+ with score\s+([0-9.]+)%")
BIN = 5  # the studied side's moves per row of the summary
BLUNDER = 0.1  # a drop of more than this is counted as a blunder
WORST = 10  # largest drops listed
MAX_FILES = 1_000  # records judged in one run: a match is 40; more is a mistaken glob
MAX_PARALLEL = 8  # judges at once; each is a process as heavy as a match's engine
REPLY_TIMEOUT = 600.0  # seconds for one genmove: generous for a judge given 100,000 playouts


@dataclass
class Position:
    """The judge's view of one position: whose move, what was played, what it would play."""

    number: int  # moves before this one
    color: str  # "black" or "white", to move
    played: str  # the game's move here
    preferred: str  # the judge's genmove answer ("resign" when it sees no hope)
    win_rate: float | None  # the judge's win rate for `color`, None if it printed none
    studied: bool  # whether `color` is the side being studied
    drop: float | None = None  # (studied moves) what `played` cost, by the judge


@dataclass
class JudgedGame:
    path: str
    side: str  # the studied colour
    result: str
    positions: list[Position] = field(default_factory=list)


def studied_side(info: dict[str, str], side: str | None) -> str:
    """The colour to study: `side` if given, else the one whose player is Tabletop."""
    if side is not None:
        return side
    for color in ("black", "white"):
        if info.get(color, "").lower().startswith("tabletop"):
            return color
    raise ValueError("neither player's name starts with Tabletop: give --side black or white.")


def win_rate_in(text: str) -> float | None:
    """The last win rate `WIN_RATE` finds in a judge's stderr text, as a fraction."""
    found = WIN_RATE.findall(text)
    return float(found[-1]) / 100.0 if found else None


def judge_game(path: Path, judge: Sequence[str], side: str | None = None) -> JudgedGame:
    """Every position of the record at `path`, judged (see the module docstring)."""
    record = read_record(path.read_bytes())
    game = record.game
    if game.setup is not None or game.handicap:
        raise ValueError(f"{path}: set-up stones and handicaps are not supported.")
    color = studied_side(record.info, side)
    judged = JudgedGame(str(path), color, record.info.get("result", "?"))
    moves = list(game.moves)
    client = GtpClient("judge", judge, REPLY_TIMEOUT)
    try:
        for number, played in enumerate(moves):
            to_move = "black" if number % 2 == 0 else "white"
            replay(client.send, moves[:number], game.size, game.komi)
            seen = client.stderr_size()
            preferred = client.send(f"genmove {to_move}")
            rate = win_rate_in(client.stderr_since(seen))
            judged.positions.append(
                Position(number, to_move, played, preferred, rate, to_move == color)
            )
    finally:
        client.close()
    for before, after in zip(judged.positions, judged.positions[1:], strict=False):
        if before.studied and before.win_rate is not None and after.win_rate is not None:
            before.drop = before.win_rate - (1.0 - after.win_rate)
    return judged


def summarize(games: Sequence[JudgedGame]) -> dict[str, Any]:
    """By the studied side's move number (bins of `BIN`): its mean win rate before the move,
    its mean drop, the blunders (drops over `BLUNDER`); and the `WORST` drops overall."""
    rows: dict[int, dict[str, list[float]]] = {}
    worst: list[dict[str, Any]] = []
    for game in games:
        own = [p for p in game.positions if p.studied]
        for index, position in enumerate(own):
            row = rows.setdefault(index // BIN, {"win_rate": [], "drop": []})
            if position.win_rate is not None:
                row["win_rate"].append(position.win_rate)
            if position.drop is not None:
                row["drop"].append(position.drop)
                worst.append({
                    "game": game.path, "move": position.number + 1, "played": position.played,
                    "judge": position.preferred, "win_rate": position.win_rate,
                    "drop": position.drop,
                })  # fmt: skip
    table = []
    for key in sorted(rows):
        row = rows[key]
        table.append({
            "moves": f"{key * BIN + 1}-{key * BIN + BIN}",
            "positions": len(row["drop"]),
            "win_rate": _mean(row["win_rate"]),
            "drop": _mean(row["drop"]),
            "blunders": sum(1 for d in row["drop"] if d > BLUNDER),
        })  # fmt: skip
    worst.sort(key=lambda entry: -entry["drop"])
    return {"games": len(games), "by_move": table, "worst": worst[:WORST]}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="SGF files to judge")
    parser.add_argument("--judge", required=True,
                        help="the judging GTP engine's command line (Pachi: see the docstring)")
    parser.add_argument("--side", choices=("black", "white"),
                        help="the colour to study (default: Tabletop's, from PB/PW)")
    parser.add_argument("--parallel", type=int, default=1,
                        help=f"games judged at once, 1 to {MAX_PARALLEL}")
    parser.add_argument("--out", type=Path, help="write every judged position as JSON here")
    return parser


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None) -> dict[str, Any]:
    out = stdout or sys.stdout
    args = build_parser().parse_args(argv)
    if not 1 <= args.parallel <= MAX_PARALLEL:
        raise SystemExit(f"--parallel must be 1 to {MAX_PARALLEL}, not {args.parallel}.")
    if len(args.records) > MAX_FILES:
        raise SystemExit(f"at most {MAX_FILES} records a run, not {len(args.records)}.")
    judge = shlex.split(args.judge)
    with ThreadPoolExecutor(max_workers=args.parallel) as pool:
        futures = [pool.submit(judge_game, path, judge, args.side) for path in args.records]
        games = []
        for path, future in zip(args.records, futures, strict=True):
            try:
                game = future.result()
            except (GtpError, ValueError, OSError) as error:
                print(f"{path}: not judged: {error}", file=out)
                continue
            own = [p for p in game.positions if p.studied]
            trail = " ".join(_fmt(p.win_rate) for p in own[:20])
            print(f"{path.name}: {game.side} {game.result}; win rate: {trail}", file=out)
            games.append(game)
    report = summarize(games)
    print(f"\n{report['games']} games; the studied side's moves, by the judge:", file=out)
    print("moves   positions  win rate  mean drop  drops > "
          f"{BLUNDER:g}", file=out)
    for row in report["by_move"]:
        print(f"{row['moves']:>7} {row['positions']:>10} {_fmt(row['win_rate']):>9} "
              f"{_fmt(row['drop'], 3):>10} {row['blunders']:>9}", file=out)
    print("largest drops (game, move number, played, judge's move, win rate before, drop):",
          file=out)
    for entry in report["worst"]:
        print(f"  {Path(entry['game']).name} {entry['move']:>3} {entry['played']:>5} "
              f"{entry['judge']:>6} {_fmt(entry['win_rate'])} {_fmt(entry['drop'])}", file=out)
    if args.out is not None:
        args.out.write_text(json.dumps(
            {"summary": report, "games": [asdict(g) for g in games]}, indent=1))
    return report


if __name__ == "__main__":
    main()
