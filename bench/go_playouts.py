"""Speed of the Monte-Carlo Go player's compiled hot path (app.engine.go.mcts), single core.

Figures, each the median of ROUNDS rounds:
- light playouts/s: uniformly random legal moves that fill no own eye, empty board to two
  passes (`policy.run_playouts`, heavy=False), on 9x9, 13x13 and 19x19, with the pure-Python
  engine's playouts (`app.engine.go.playout`, the same policy plus its self-atari rule) on 9x9
  measured in the same run for the ratio;
- heavy playouts/s: the heuristic policy the search uses (captures and atari escapes next to
  the last moves, 3x3 shapes, no self-atari);
- MCTS playouts/s: simulations per second inside `MctsPlayer.genmove` from the empty board
  (tree walk, expansion with priors, heavy playout, backup - and the Python around them);
- cold compile: a fresh process with an empty numba cache (NUMBA_CACHE_DIR set to a new
  temporary folder) importing the package and running `warm_up()`; cached start-up: the same
  again once that cache is filled. Both are timed inside the child process, from before the
  import to after `warm_up()`.

Rates are per CPU second of this process (what one core does, even on a busy shared machine),
with the wall-clock rate beside them. Run: .venv/bin/python -m bench.go_playouts (about a
minute, a third of it the cold compile).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from app.engine.go import BLACK, Board, Game
from app.engine.go.mcts import MctsPlayer, policy, warm_up
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts.patterns import pattern_table
from app.engine.go.mcts.scratch import make_work
from app.engine.go.mcts.tuning import make_params
from app.engine.go.playout import playout

ROOT = Path(__file__).resolve().parent.parent

ROUNDS = 5  # medians of five damp the noise of a shared machine
SIZES = (9, 13, 19)
ROUND_SECONDS = 0.5  # each playout round runs about this long
GENMOVE_SECONDS = 1.0  # the time budget of each timed genmove
GENMOVE_ROUNDS = 3  # genmoves per size (each a fresh player: no tree reuse)
PYTHON_PLAYOUTS = 200  # pure-Python engine playouts per round, for the ratio

STARTUP = (
    "import time; began = time.perf_counter(); "
    "from app.engine.go.mcts import warm_up; warm_up(); "
    "print(time.perf_counter() - began)"
)


def startup_seconds(cache_dir: str) -> float:
    """Import and warm_up() in a fresh interpreter using `cache_dir` as numba's cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", STARTUP], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def playout_rate(size: int, heavy: bool, seed: int) -> tuple[float, float, float]:
    """(playouts per CPU second, playouts per wall second, moves per playout) over one round
    of about ROUND_SECONDS. CPU time is this process's alone: on a busy shared machine it is
    the fairer measure of what one core does."""
    root = fb.new_board(size)
    work = make_work(root)
    rng = np.array([seed], np.uint64)
    table = pattern_table()
    params = make_params(7.5, size)
    count = 20
    began = time.perf_counter()
    policy.run_playouts(root, count, heavy, rng, table, work, params)  # sizes the round
    count = max(20, int(count * ROUND_SECONDS / (time.perf_counter() - began)))
    began, cpu = time.perf_counter(), time.process_time()
    moves = policy.run_playouts(root, count, heavy, rng, table, work, params)
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    return count / cpu, count / wall, moves / count


def python_rate(seed: int) -> float:
    """Pure-Python engine playouts per CPU second on 9x9."""
    rng = random.Random(seed)
    cpu = time.process_time()
    for _ in range(PYTHON_PLAYOUTS):
        playout(Board(9), BLACK, rng)
    return PYTHON_PLAYOUTS / (time.process_time() - cpu)


def genmove_rate(size: int, seed: int) -> float:
    """Simulations per CPU second in one timed genmove from the empty board."""
    cpu = time.process_time()
    decision = MctsPlayer(seconds=GENMOVE_SECONDS, seed=seed).genmove(Game(size))
    return decision.playouts / (time.process_time() - cpu)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache_dir:
        cold = startup_seconds(cache_dir)
        cached = statistics.median(startup_seconds(cache_dir) for _ in range(3))
    warm_up()

    rows = []
    for size in SIZES:
        light = [playout_rate(size, False, seed) for seed in range(1, ROUNDS + 1)]
        heavy = [playout_rate(size, True, seed) for seed in range(1, ROUNDS + 1)]
        search = [genmove_rate(size, seed) for seed in range(GENMOVE_ROUNDS)]
        rows.append((
            size,
            statistics.median(r[0] for r in light),
            statistics.median(r[1] for r in light),
            statistics.median(r[2] for r in light),
            statistics.median(r[0] for r in heavy),
            statistics.median(r[1] for r in heavy),
            statistics.median(r[2] for r in heavy),
            statistics.median(search),
        ))
    python = statistics.median(python_rate(seed) for seed in range(ROUNDS))

    print(f"numba {numba.__version__}, numpy {np.__version__}, Python "
          f"{sys.version.split()[0]}, one thread; playouts per CPU second (per wall second in "
          f"brackets), medians of {ROUNDS} rounds; load average {os.getloadavg()[0]:.1f}\n")
    print("| size | light playouts/s | moves/playout | heavy playouts/s | moves/playout "
          f"| MCTS playouts/s in genmove ({GENMOVE_SECONDS:g} s) |")
    print("|---|---|---|---|---|---|")
    for size, light, light_wall, light_moves, heavy, heavy_wall, heavy_moves, search in rows:
        print(f"| {size}×{size} | {light:,.0f} ({light_wall:,.0f}) | {light_moves:.0f} | "
              f"{heavy:,.0f} ({heavy_wall:,.0f}) | {heavy_moves:.0f} | {search:,.0f} |")
    print()
    print(f"pure-Python engine playouts on 9×9: {python:,.0f}/s — compiled light playouts are "
          f"**{rows[0][1] / python:.0f}×** faster")
    print(f"cold compile (empty cache, import + warm_up): {cold:.1f} s")
    print(f"cached start-up (import + warm_up): {cached:.2f} s")


if __name__ == "__main__":
    main()
