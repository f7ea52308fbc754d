"""What the server's workers run, loaded once: warm_up() is what the pool's zygote does
before it forks any worker (app/pool.py WARM_UP, app/worker_process.py), so every worker
shares these pages and its first job loads nothing.

The jobs themselves live beside the code that asks for them, each a module-level function
the pool pickles by name: a Go reply (`think`, app/games/go.py), an analysis (`analyse_job`,
app/games/go_analysis.py), an SGF import (`read_sgf`, app/games/go_record.py) and a
knight's-tour solve (`solve_job`, `completion_job`, app/games/tours.py).
"""

from __future__ import annotations

import importlib

JOB_MODULES = ("app.games.go", "app.games.go_analysis", "app.games.go_record",
               "app.games.tours")


def warm_up() -> None:
    """Compiles (or loads from numba's cache) the Go search and imports the jobs' modules."""
    from app.engine.go.mcts import warm_up as load_search

    load_search()
    for module in JOB_MODULES:
        importlib.import_module(module)
