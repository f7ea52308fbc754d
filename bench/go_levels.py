"""What each named level of the Go player means: its win rate against GNU Go 3.8 levels.

For every pair of a Tabletop level (`tabletop-gtp --level`: easy, medium, strong, strongest;
their budgets are `app.engine.go.mcts.player.LEVELS`) and a GNU Go `--level`, `main` plays a
match with `bench/gtp_match.py` (colours alternating, GNU Go scoring under Chinese rules,
every game kept as SGF under bench/results/sgf/) and prints one markdown table row per pair:
wins, games, the win rate and its 95% Wilson interval. The pairs skip the foregone ones (the
strongest levels against GNU Go's weakest); strong against level 10 plays 20 games, the
match a change to the player must not lose ground in. On 13x13 and 19x19, where Easy loses
to GNU Go's weakest level, the default pairs are fewer (`default_pairs`). About an hour and a
half on 9x9 one game at a time; `--parallel 2` plays two at once (one per core: the tables in
docs/benchmarks.md were measured so).

Run:
    .venv/bin/python -m bench.go_levels --games 10 --out bench/results/go_levels.json
    .venv/bin/python -m bench.go_levels --games 4 --pairs easy:1,medium:10
    .venv/bin/python -m bench.go_levels --size 13 --parallel 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from app.engine.go.mcts.player import LEVELS
from bench import gtp_match

DEFAULT_PAIRS = "easy:1,easy:5,easy:10,medium:5,medium:10,strong:10:20,strongest:10"
# Easy won none of 10 games against GNU Go level 1 on 13x13 and on 19x19 (docs/benchmarks.md):
# its games against stronger levels would only repeat that.
LARGE_BOARD_PAIRS = "easy:1,medium:10,strong:10:20,strongest:10"


def default_pairs(size: int) -> str:
    """The pairs to play on a board of `size` lines when `--pairs` does not say."""
    return DEFAULT_PAIRS if size <= 9 else LARGE_BOARD_PAIRS


def parse_pairs(text: str, games: int) -> list[tuple[str, int, int]]:
    """"easy:1,medium:10:20" -> [("easy", 1, games), ("medium", 10, 20)]: a Tabletop level,
    GNU Go's level and, if given, the number of games for that pair."""
    pairs = []
    for item in text.split(","):
        parts = item.strip().split(":")
        if (len(parts) not in (2, 3) or not parts[0]
                or not all(part.isdigit() for part in parts[1:]) or int(parts[1]) > 10):
            raise SystemExit("a pair is LEVEL:GNUGO_LEVEL[:GAMES] with GNU Go's level 0-10, "
                             f"not {item!r}")
        if parts[0] not in LEVELS:
            raise SystemExit(f"unknown Tabletop level {parts[0]!r} in {item!r}; choose one of "
                             f"{', '.join(LEVELS)}")
        pairs.append((parts[0], int(parts[1]), int(parts[2]) if len(parts) == 3 else games))
    return pairs


def row(level: str, gnugo_level: int, summary: dict[str, Any]) -> str:
    line = summary["all"]
    low, high = line["wilson_95"]
    return (f"| {level} | {gnugo_level} | {line['wins']}/{line['games']} | "
            f"{line['win_rate']:.0%} | {low:.0%}–{high:.0%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10,
                        help="games per pair that does not say (default 10)")
    parser.add_argument("--size", type=int, default=9, help="board size (default 9)")
    parser.add_argument("--pairs",
                        help=f"LEVEL:GNUGO_LEVEL[:GAMES],... (default on 9x9 {DEFAULT_PAIRS}; "
                             f"on larger boards {LARGE_BOARD_PAIRS})")
    parser.add_argument("--parallel", type=int, default=1,
                        help="games at a time, each on its own core (default 1)")
    parser.add_argument("--out", type=Path, help="write every match's report there as JSON")
    args = parser.parse_args()
    reports = []
    rows = ["| Tabletop level | GNU Go level | wins | win rate | 95% interval |",
            "|---|---|---|---|---|"]
    pairs = args.pairs if args.pairs is not None else default_pairs(args.size)
    for level, gnugo_level, games in parse_pairs(pairs, args.games):
        report = gtp_match.main([
            "--games", str(games), "--size", str(args.size), "--level", level,
            "--gnugo-level", str(gnugo_level), "--parallel", str(args.parallel),
        ])
        reports.append({"level": level, "gnugo_level": gnugo_level, **report})
        rows.append(row(level, gnugo_level, report["summary"]))
        print("\n".join(rows), flush=True)
        if args.out is not None:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(reports, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
