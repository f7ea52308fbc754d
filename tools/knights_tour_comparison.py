"""Writes app/data/knights_tour_comparison_8.json: the seed's comparison of the knight's-tour
solvers on 8×8 (the moves each makes from every start square), which the puzzle view shows.

It takes a quarter of a minute (plain backtracking spends its whole budget from every
square), too long to compute while a player waits, so the table ships with the app and
tests/engine/knights_tour/test_comparison_data.py checks it against a fresh run.
Run: .venv/bin/python -m tools.knights_tour_comparison
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from app.engine.knights_tour import compare_solvers

OUTPUT = Path(__file__).resolve().parent.parent / "app" / "data" / "knights_tour_comparison_8.json"


def main() -> None:
    began = time.perf_counter()
    table = compare_solvers(8)
    OUTPUT.write_text(json.dumps({"size": 8, "closed": False, "steps": table}, indent=1) + "\n")
    print(f"wrote {OUTPUT.relative_to(Path.cwd()) if OUTPUT.is_relative_to(Path.cwd()) else OUTPUT}"
          f" in {time.perf_counter() - began:.1f} s")
    for solver, steps in table.items():
        found = [s for s in steps if s is not None]
        summary = f"{min(found)}..{max(found)} moves" if found else "budget exhausted everywhere"
        print(f"  {solver:13} {len(found):2}/64 starts solved, {summary}")


if __name__ == "__main__":
    main()
