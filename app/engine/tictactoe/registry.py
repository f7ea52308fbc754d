"""Computer players by name: `STRATEGY_NAMES` and `get_strategy`.

Start with `get_strategy`. The order of `STRATEGY_NAMES` is the order a UI should list them in.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import quoted
from .errors import UnknownStrategy
from .montecarlo import MonteCarloStrategy
from .players import AlphaBetaStrategy, FallibleStrategy, MinimaxStrategy, RandomStrategy
from .rules import RulesStrategy
from .strategy import Strategy

STRATEGY_NAMES: tuple[str, ...] = (
    "random", "rules", "minimax", "alphabeta", "montecarlo", "fallible",
)

_FACTORIES: dict[str, Callable[[], Strategy]] = {
    "random": RandomStrategy,
    "rules": RulesStrategy,
    "minimax": MinimaxStrategy,
    "alphabeta": AlphaBetaStrategy,
    "montecarlo": MonteCarloStrategy,
    "fallible": FallibleStrategy,
}


def get_strategy(name: str) -> Strategy:
    """A new player with default settings; raises `UnknownStrategy` for any other name."""
    factory = _FACTORIES.get(name) if isinstance(name, str) else None
    if factory is None:
        raise UnknownStrategy(
            f"There is no computer player called {quoted(name)}; choose one of "
            f"{', '.join(STRATEGY_NAMES)}."
        )
    return factory()
