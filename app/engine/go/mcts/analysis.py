"""What a search thinks of its position while it runs: the `Reading` of a tree.

`MctsPlayer.ponder` and `MctsPlayer.genmove(..., report=...)` (player.py) hand one to their
caller every interval; the GTP analysis commands (`app.gtp.analysis`) write it out in the
formats of Leela Zero, KataGo and GoGui. `read_tree` builds it from the tree's root (`tree.py`)
and the ownership counts the simulations left in the work arrays (`scratch.W_OWNER`).

Every win rate is the side to move's and comes from playouts only: the priors' virtual
experience is left out, as `ChildStats.win_rate` leaves it out. A move's `prior` is its
share of the prior wins the root's children were born with (`priors.move_priors`: the
hand-made heuristics plus the trained move features) - a rank of how likely the search
thought the move before it played, not a probability from a policy network.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..board import BLACK
from ..coords import PASS
from . import scratch, walk
from .fastboard import point_name
from .jit import Ints
from .tree import Tree

LCB_Z = 1.96  # the lower confidence bound is this many standard errors below the win rate


@dataclass(frozen=True, slots=True)
class MoveReading:
    """One candidate at the root: its vertex (or "pass"), its playouts, its win rate for the
    side to move (before any playout, its prior's: the virtual experience the search starts
    it with), its prior (see the module docstring), the lower bound of the win rate's
    95 % interval (0 before any playout), and the line the search expects, this move first."""

    move: str
    visits: int
    win_rate: float
    prior: float
    lcb: float
    principal_variation: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reading:
    """The search's view of one position, for `to_move` ("black" or "white"): the playouts
    through the root's candidates, the win rate over all of them, the expected area margin
    (komi included; positive: `to_move` leads), every candidate the game allows - those with
    playouts first, most visited first, then the rest by prior - and the ownership map: per
    point in the board's order (rows from the top), the share of the simulations that ended
    with it black's minus the share that ended with it white's (-1..1; empty until a
    simulation has run)."""

    to_move: str
    visits: int
    win_rate: float
    score_lead: float
    moves: tuple[MoveReading, ...]
    ownership: tuple[float, ...]


def lower_bound(win_rate: float, visits: int) -> float:
    """The lower end of the normal approximation's 95 % interval for a win rate, clamped at 0."""
    if visits <= 0:
        return 0.0
    spread = LCB_Z * math.sqrt(win_rate * (1.0 - win_rate) / visits)
    return max(0.0, win_rate - spread)


def read_tree(tree: Tree, work: Ints, simulations: int, size: int, komi: float, color: int,
              legal: set[int]) -> Reading:
    """The reading of `tree`, searched for `color` to move on a board of `size` lines with
    `komi`, after `simulations` simulations that counted their ownership in `work`. Only the
    moves in `legal` (padded points; a pass is always allowed) are reported."""
    ti, tf = tree.ti, tree.tf
    first = int(ti[walk.T_CHILD, 0])
    count = int(ti[walk.T_NCHILD, 0]) if first >= 0 else 0
    columns = np.arange(first, first + count) if count else np.zeros(0, np.int64)
    visits = tf[walk.F_V, columns]
    wins = tf[walk.F_W, columns]
    prior_wins = tf[walk.F_PW, columns]
    points = ti[walk.T_MOVE, columns]
    prior_visits = tf[walk.F_PV, columns]
    allowed = np.array([int(p) == PASS or int(p) in legal for p in points], bool)
    prior_total = float(prior_wins[allowed].sum()) if count else 0.0
    visited = sorted((k for k in range(count) if allowed[k] and visits[k] > 0),
                     key=lambda k: (-visits[k], -wins[k] / visits[k]))
    unvisited = sorted((k for k in range(count) if allowed[k] and visits[k] == 0),
                       key=lambda k: -prior_wins[k])
    moves = []
    for k in visited + unvisited:
        n = int(visits[k])
        # (a move without playouts gets its prior's win rate: the search's guess before any)
        rate = float(wins[k]) / n if n else float(prior_wins[k]) / max(prior_visits[k], 1e-9)
        line = [int(points[k]), *(tree.principal_line(int(columns[k])) if n else [])]
        moves.append(MoveReading(
            move=point_name(int(points[k]), size),
            visits=n,
            win_rate=rate,
            prior=float(prior_wins[k]) / prior_total if prior_total > 0 else 0.0,
            lcb=lower_bound(rate, n),
            principal_variation=tuple(point_name(p, size) for p in line),
        ))
    total = int(visits[allowed].sum()) if count else 0
    win_rate = float(wins[allowed].sum()) / total if total else 0.5
    return Reading(
        to_move="black" if color == BLACK else "white",
        visits=total,
        win_rate=win_rate,
        score_lead=score_lead(work, simulations, komi, color) if simulations else 0.0,
        moves=tuple(moves),
        ownership=ownership_map(work, simulations, size) if simulations else (),
    )


def score_lead(work: Ints, simulations: int, komi: float, color: int) -> float:
    """The search's score estimate for `color`: the mean area margin (komi included) at the end
    of its `simulations`, from the ownership they left in `work` (`fastboard.add_owners`)."""
    black = float(work[scratch.W_OWNER].sum()) / max(simulations, 1) - komi
    return black if color == BLACK else -black


def ownership_map(work: Ints, simulations: int, size: int) -> tuple[float, ...]:
    """Per point in the board's order (rows from the top), black's share of the ends of the
    `simulations` that counted their ownership in `work` minus white's (-1..1)."""
    points = np.arange(size * size)
    padded = (points // size + 1) * (size + 2) + points % size + 1
    owners = work[scratch.W_OWNER, padded] / max(simulations, 1)
    return tuple(round(float(v), 3) for v in owners)
