"""Knight's-tour engine: a verified closed 1000x1000 tour, every board from 5 to 300, and the
seed's comparison of solvers on 8x8.

Prints, each from several runs in this process:
- the median time to construct and verify a closed 1000x1000 tour (divide and conquer; the
  small blocks' own tours are searched on the first run and stored, so that run is shown apart);
- the median time to solve every n from 5 to 300, open from a1 and closed where n is even,
  through `solve` with method "auto" (as the API would);
- Warnsdorff's rule against divide and conquer on one 100x100 board, as a ratio;
- the 8x8 comparison: for each solver, the steps from each of the 64 start squares.
Run: .venv/bin/python -m bench.knights_tour
"""

from __future__ import annotations

import statistics
import time

from app.engine.knights_tour import compare_solvers, solve, verify

BIG = 1000
BIG_RUNS = 9
SWEEP = range(5, 301)
SWEEP_RUNS = 3
RATIO_N = 100
RATIO_RUNS = 3


def timed(action: object) -> float:
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - start


def big_closed() -> None:
    result = solve(BIG, 0, closed=True, method="divide")
    verify(BIG, result.tour, closed=True)


def sweep() -> None:
    for n in SWEEP:
        solve(n, 0)
        if n % 2 == 0:
            solve(n, 0, closed=True)


def main() -> None:
    first = timed(big_closed)
    runs = [timed(big_closed) for _ in range(BIG_RUNS)]
    print(f"closed {BIG}x{BIG}, construct + verify: median {statistics.median(runs):.3f} s "
          f"over {BIG_RUNS} runs (min {min(runs):.3f}, max {max(runs):.3f}; first run, "
          f"searching the blocks, {first:.3f} s)")

    sweeps = [timed(sweep) for _ in range(SWEEP_RUNS)]
    count = len(SWEEP) + sum(1 for n in SWEEP if n % 2 == 0)
    print(f"every n from {SWEEP.start} to {SWEEP.stop - 1}, open and closed ({count} tours, "
          f"each verified): median {statistics.median(sweeps):.2f} s over {SWEEP_RUNS} runs "
          f"(first run, searching new blocks, {sweeps[0]:.2f} s)")

    warnsdorff = statistics.median(
        timed(lambda: solve(RATIO_N, 0, method="warnsdorff", budget=10 * RATIO_N ** 2))
        for _ in range(RATIO_RUNS)
    )
    divide = statistics.median(
        timed(lambda: solve(RATIO_N, 0, method="divide")) for _ in range(RATIO_RUNS)
    )
    print(f"open {RATIO_N}x{RATIO_N} from a1: Warnsdorff {warnsdorff:.3f} s, divide and conquer "
          f"{divide:.3f} s, ratio {warnsdorff / divide:.0f}x")

    began = time.perf_counter()
    table = compare_solvers(8)
    print(f"\n8x8 open tours from each of the 64 squares ({time.perf_counter() - began:.1f} s); "
          "steps = knight's moves made, counting moves taken back:")
    print(f"  {'solver':13} {'solved':>6} {'min':>5} {'median':>6} {'max':>5}  over budget")
    for solver, steps in table.items():
        found = [s for s in steps if s is not None]
        if found:
            print(f"  {solver:13} {len(found):>4}/64 {min(found):>5} "
                  f"{statistics.median(found):>6.0f} {max(found):>5}  {64 - len(found)}")
        else:
            print(f"  {solver:13} {0:>4}/64 {'-':>5} {'-':>6} {'-':>5}  64")
    print("\n  Warnsdorff's steps by start square (rank 8 at the top):")
    for rank in range(7, -1, -1):
        row = table["warnsdorff"][rank * 8:rank * 8 + 8]
        print(f"  {rank + 1} " + " ".join(f"{s if s is not None else '-':>3}" for s in row))
    print("     " + "   ".join("abcdefgh"))


if __name__ == "__main__":
    main()
