"""Whose win rates are nearer the truth at equal playouts, Tabletop's or Pachi's? (issue 32's
diagnostic: whether playouts or priors come first on 9x9.)

Positions are drawn (seeded) from recorded games - the SGFs a `bench.gtp_match` against Pachi
saves - each after at least `--skip` moves and before the end. The label of a position is
Pachi's win rate for the side to move after a deep search (`--label-playouts`, its WINNER
report of a genmove). Then both engines read it at `--playouts` each: Tabletop's
`MctsPlayer.analyse` win rate, and Pachi's at `-t =playouts`. The script prints, for each
engine, the mean absolute distance from the label, its median, how often the engine takes
the label's side (both above or both below one half), and the slope of its readings on the
labels (below 1: pulled towards one half) - overall and by phase of the game. The engine much
further from the label at equal playouts is the one whose playouts (or priors) judge positions
worse; the per-phase rows say where. `--tabletop-playouts N` lets Tabletop read at N playouts
instead (does a bigger search come nearer the label?).

Labelling is the slow part (Pachi's deep search: about 2.5 s a position on 9x9). With
`--labels FILE` the positions, labels and Pachi's short reads are written to FILE the first
time and read from it afterwards, so a change to Tabletop's playouts is measured against the
same labels in a minute or two, with no Pachi at all. tests/data/go/diagnostic_9.json holds
the 500 positions of the 2026-12-04 run.

Run ($PACHI: a Pachi binary; the SGFs of a match against it):
    .venv/bin/python -m bench.go_diagnostic --sgf-dir tests/data/go/pachi_match \\
        --positions 500 --label-playouts 50000 --playouts 1000 \\
        --labels tests/data/go/diagnostic_9.json
and, once the file exists, Tabletop alone against its labels:
    .venv/bin/python -m bench.go_diagnostic --labels tests/data/go/diagnostic_9.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.engine.go import Game
from app.engine.go.mcts import MctsPlayer, warm_up
from app.engine.go.sgf import from_sgf
from bench.gtp_client import GtpClient, replay

WINNER = re.compile(r"\*\*\* WINNER is \S+ with score ([0-9.]+)%")
TIMEOUT = 600.0  # seconds for one deep genmove, however busy the machine


@dataclass(frozen=True)
class Position:
    """A position of a recorded game: its moves from the empty board, size and komi."""

    source: str
    moves: tuple[str, ...]
    size: int
    komi: float


@dataclass(frozen=True)
class Labelled:
    """A position with Pachi's deep win rate (the label) and its short one, both for the side
    to move."""

    position: Position
    label: float
    pachi: float


def save_labels(path: Path, label_playouts: int, playouts: int,
                rows: Sequence[Labelled]) -> None:
    data = {"label_playouts": label_playouts, "playouts": playouts, "positions": [
        {"source": r.position.source, "moves": list(r.position.moves), "size": r.position.size,
         "komi": r.position.komi, "label": r.label, "pachi": r.pachi} for r in rows]}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")


def load_labels(path: Path) -> tuple[int, int, list[Labelled]]:
    """(label playouts, Pachi's short playouts, the labelled positions) from `save_labels`."""
    data = json.loads(path.read_text())
    rows = [Labelled(Position(d["source"], tuple(d["moves"]), d["size"], d["komi"]),
                     d["label"], d["pachi"]) for d in data["positions"]]
    return data["label_playouts"], data["playouts"], rows


def positions(directory: Path, count: int, skip: int, seed: int) -> list[Position]:
    """`count` positions drawn with `seed` from the games in `directory` (no handicap, no
    set-up), at move `skip` or later, never at the end (a side must still be to move)."""
    pool: list[Position] = []
    for path in sorted(directory.glob("*.sgf")):
        record = from_sgf(path.read_text())
        if record.handicap or record.setup:
            continue
        moves = list(record.moves)
        for cut in range(skip, len(moves) - 1):
            if "pass" not in moves[cut - 1 : cut + 1]:
                pool.append(Position(path.name, tuple(moves[:cut]), record.size, record.komi))
    random.Random(seed).shuffle(pool)
    return pool[:count]


def pachi_win_rate(engine: GtpClient, position: Position) -> float | None:
    """Pachi's win rate (0..1) for the side to move, from its report on a genmove."""
    replay(engine.send, position.moves, position.size, position.komi)
    color = "b" if len(position.moves) % 2 == 0 else "w"
    mark = engine.stderr_size()
    engine.send(f"genmove {color}")
    found = WINNER.findall(engine.stderr_since(mark))
    return float(found[-1]) / 100 if found else None


def tabletop_win_rate(position: Position, playouts: int, seed: int) -> float:
    game = Game.from_moves(list(position.moves), position.size, position.komi)
    return MctsPlayer(seconds=None, playouts=playouts, seed=seed).analyse(game).win_rate


def slope(label: Sequence[float], guess: Sequence[float]) -> float | None:
    """The least-squares slope of an engine's readings on the labels: 1 when they spread as
    widely as the labels, below 1 when they are pulled towards one half (as noisy playouts
    pull them), None when every label is the same."""
    if len(label) < 2 or statistics.variance(label) == 0:
        return None
    return statistics.covariance(label, guess) / statistics.variance(label)


def summary(label: Sequence[float], guess: Sequence[float]) -> str:
    gaps = [abs(a - b) for a, b in zip(label, guess, strict=True)]
    sides = sum((a > 0.5) == (b > 0.5) for a, b in zip(label, guess, strict=True))
    tilt = slope(label, guess)
    return (f"mean |gap| {statistics.mean(gaps):.3f}, median {statistics.median(gaps):.3f}, "
            f"same side {sides / len(gaps):.0%}, slope "
            + ("-" if tilt is None else f"{tilt:.2f}"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgf-dir", type=Path, help="recorded games (SGF), to label anew")
    parser.add_argument("--labels", type=Path,
                        help="labelled positions: read if the file exists, else written")
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--label-playouts", type=int, default=50_000)
    parser.add_argument("--playouts", type=int, default=1000)
    parser.add_argument("--tabletop-playouts", type=int, metavar="N",
                        help="Tabletop reads each position at N playouts (default: the "
                             "--playouts Pachi's short reads had)")
    parser.add_argument("--skip", type=int, default=6, help="moves before a position is drawn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pachi", default=os.environ.get("PACHI"),
                        help="the Pachi binary (default: $PACHI)")
    args = parser.parse_args(argv)
    if not 1 <= args.positions <= 5000 or not 500 <= args.playouts <= args.label_playouts:
        parser.error("--positions must be 1-5000 and 500 <= --playouts <= --label-playouts "
                     "(Pachi refuses fewer than 500)")
    if args.tabletop_playouts is not None and not 100 <= args.tabletop_playouts <= 100_000:
        parser.error("--tabletop-playouts must be 100-100,000")
    if args.labels is not None and args.labels.exists():
        args.label_playouts, args.playouts, labelled = load_labels(args.labels)
        labelled = labelled[: args.positions]
    else:
        if args.sgf_dir is None:
            parser.error("say where the positions come from: --sgf-dir DIR, or --labels FILE "
                         "of an earlier run")
        if not args.pachi:
            parser.error("say which Pachi binary reads the positions: --pachi PATH or "
                         "PACHI=PATH")
        chosen = positions(args.sgf_dir, args.positions, args.skip, args.seed)
        if not chosen:
            parser.error(f"no positions in {args.sgf_dir}")
        labelled = label(chosen, args.pachi, args.label_playouts, args.playouts, args.seed)
        if args.labels is not None:
            save_labels(args.labels, args.label_playouts, args.playouts, labelled)
    ours_playouts = args.tabletop_playouts or args.playouts
    warm_up()
    rows: list[tuple[int, float, float, float]] = []  # (moves, label, tabletop, pachi)
    for number, row in enumerate(labelled):
        position = row.position
        ours = tabletop_win_rate(position, ours_playouts, args.seed + number)
        rows.append((len(position.moves), row.label, ours, row.pachi))
        print(f"{number:4d} {position.source} move {len(position.moves):3d}: label "
              f"{row.label:.3f}, tabletop {ours:.3f}, pachi {row.pachi:.3f}", flush=True)
    engines = (f"both engines at {args.playouts:,}" if ours_playouts == args.playouts else
               f"Tabletop at {ours_playouts:,}, Pachi at {args.playouts:,}")
    print(f"\n{len(rows)} positions, label: Pachi at {args.label_playouts:,} playouts; "
          f"{engines}")
    phases = (("all", 0, 10**6), ("moves 0-19", 0, 20), ("moves 20-39", 20, 40),
              ("moves 40+", 40, 10**6))
    for name, low, high in phases:
        part = [row for row in rows if low <= row[0] < high]
        if not part:
            continue
        truth = [row[1] for row in part]
        print(f"{name:12s} ({len(part):3d}): tabletop {summary(truth, [r[2] for r in part])}; "
              f"pachi {summary(truth, [r[3] for r in part])}")
    return 0


def label(chosen: Sequence[Position], pachi_binary: str, label_playouts: int, playouts: int,
          seed: int) -> list[Labelled]:
    """Each position with Pachi's deep and short win rates (a position on which Pachi reports
    none, as when it passes at once, is left out)."""

    def pachi(count: int) -> GtpClient:
        return GtpClient("pachi", [pachi_binary, "-d", "2", "-s", str(seed), "-t",
                                   f"={count}", "threads=1"], TIMEOUT)

    deep, quick = pachi(label_playouts), pachi(playouts)
    labelled = []
    try:
        for position in chosen:
            truth = pachi_win_rate(deep, position)
            short = pachi_win_rate(quick, position)
            if truth is not None and short is not None:
                labelled.append(Labelled(position, truth, short))
    finally:
        deep.close()
        quick.close()
    return labelled


if __name__ == "__main__":
    sys.exit(main())
