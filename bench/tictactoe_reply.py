"""Benchmark: how long a tic-tac-toe computer reply takes, over every reachable position.

Run as `.venv/bin/python -m bench.tictactoe_reply`. Start reading at `main`.

For every strategy except montecarlo it times `choose` in-process on all 4,520 reachable
positions that are not over, after one warm-up sweep (the searches memoize per position, so the
warm-up is what a long-running server sees after its first games). Each position is timed
REPEATS times and its median kept; the table gives the median, p99 and max of those per-position
medians, whether p99 meets the 1 ms budget, and each median as a ratio to the random player's.
The cold cost - the first reply with every memo cleared, which fills the table - is reported as
the median of REPEATS cold starts. Montecarlo is slow by design (random playouts on every
reply), so only its median over an even sample of positions is printed.
"""

from __future__ import annotations

import gc
import math
import random
import statistics
import time
from collections.abc import Callable

from app.engine.tictactoe import (
    STRATEGY_NAMES,
    Board,
    get_strategy,
    reachable_positions,
    search,
    tactics,
)
from app.engine.tictactoe.montecarlo import MonteCarloStrategy

# Timings per position: the median of 5 damps scheduler noise without making the run long.
REPEATS = 5
# The reply budget the engine promises the server, in milliseconds.
BUDGET_MS = 1.0
# Positions sampled for montecarlo: enough for a stable median, about ten seconds of playouts.
MONTECARLO_SAMPLE = 200


def clear_memos() -> None:
    """Forget every memoized search, as in a freshly started process."""
    search.minimax_score.cache_clear()
    search.alphabeta_score.cache_clear()
    tactics.forcing_win.cache_clear()


def time_reply(choose: Callable[[Board, random.Random], object], board: Board,
               rng: random.Random) -> float:
    """Milliseconds for one reply."""
    start = time.perf_counter_ns()
    choose(board, rng)
    return (time.perf_counter_ns() - start) / 1e6


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def _has_immediate_win(board: Board) -> bool:
    """Montecarlo takes such a win without playouts, so these replies cost almost nothing."""
    me, them = board.sides()
    return bool(tactics.winning_cells(me, them))


def main() -> None:
    positions = [board for board in reachable_positions() if not board.is_over]
    rng = random.Random(0)
    print(f"Tic-tac-toe computer reply, {len(positions):,} positions, "
          f"median of {REPEATS} timings per position (ms)\n")
    header = (f"{'strategy':<11} {'median':>8} {'p99':>8} {'max':>8} "
              f"{'p99<=1ms':>9} {'x random':>9} {'cold':>8}")
    print(header)
    print("-" * len(header))

    random_median = None
    for name in STRATEGY_NAMES:
        if name == "montecarlo":
            continue
        strategy = get_strategy(name)

        colds = []
        for _ in range(REPEATS):
            clear_memos()
            colds.append(time_reply(strategy.choose, Board.empty(), rng))
        cold = statistics.median(colds)

        for board in positions:  # warm-up sweep
            strategy.choose(board, rng)
        gc.collect()
        per_position = sorted(
            statistics.median(time_reply(strategy.choose, board, rng) for _ in range(REPEATS))
            for board in positions
        )
        median = statistics.median(per_position)
        p99 = percentile(per_position, 0.99)
        if random_median is None:
            random_median = median
        ok = "yes" if p99 <= BUDGET_MS else "NO"
        print(f"{name:<11} {median:8.4f} {p99:8.4f} {per_position[-1]:8.4f} {ok:>9} "
              f"{median / random_median:9.1f} {cold:8.3f}")

    montecarlo = MonteCarloStrategy()
    step = max(1, len(positions) // MONTECARLO_SAMPLE)
    sample = positions[::step]
    sampling = [board for board in sample if not _has_immediate_win(board)]
    mc_all = statistics.median(time_reply(montecarlo.choose, board, rng) for board in sample)
    mc_sampling = statistics.median(time_reply(montecarlo.choose, board, rng) for board in sampling)
    empty = statistics.median(
        time_reply(montecarlo.choose, Board.empty(), rng) for _ in range(REPEATS)
    )
    assert random_median is not None
    print(f"\nmontecarlo ({montecarlo.playouts} playouts per cell), median per reply over "
          f"{len(sample)} positions (one in {step}):")
    print(f"  all sampled positions      {mc_all:8.3f} ms  {mc_all / random_median:8,.0f}x random")
    print(f"  no immediate win to take   {mc_sampling:8.3f} ms  "
          f"{mc_sampling / random_median:8,.0f}x random  ({len(sampling)} positions)")
    print(f"  empty board                {empty:8.3f} ms  {empty / random_median:8,.0f}x random")
    print("cold = first reply from the empty board with every memo cleared "
          f"(median of {REPEATS}); all other columns are after one warm-up sweep.")


if __name__ == "__main__":
    main()
