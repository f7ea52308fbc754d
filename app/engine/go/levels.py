"""The computer's levels at Go: a budget per move for the Monte-Carlo player
(app/engine/go/mcts). Kept apart from the player so that what only names a level - the
server's options, its views, the time a search is allowed - loads none of the compiled search
(numba): the server hands searches to its workers and never runs one itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class UnknownLevel(ValueError):
    """A level name that is not one of `LEVELS`."""

    code = "unknown_level"


@dataclass(frozen=True, slots=True)
class Level:
    """A budget per move: seconds of search and/or a cap on playouts (the first reached)."""

    seconds: float | None
    playouts: int | None


LEVELS: dict[str, Level] = {
    "easy": Level(seconds=0.3, playouts=500),
    "medium": Level(seconds=1.0, playouts=None),
    "strong": Level(seconds=2.0, playouts=None),
    "strongest": Level(seconds=5.0, playouts=None),
}

# The move predictor every level plays with (app/engine/go/mcts/network.py): trained by
# tools/train_policy.py on the games tools/go_corpus.py recorded here; docs/benchmarks.md
# gives its figures and the commands that made it.
NETWORK_WEIGHTS = Path(__file__).parent / "mcts" / "policy.npz"
