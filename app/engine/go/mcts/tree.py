"""The UCT-RAVE search tree: node arrays, their tuning, growth, reuse and read-out.

Start with `Tree.search`, which hands batches of simulations to the compiled
`fastboard.simulate` (the walk itself - `select`, `expand`, `backup` - lives there, see its
docstring for why), then `Tree.advance` (tree reuse) and `Tree.children` (the statistics a
decision is made from).

A node is one column of two arrays: `ti` (ints: move, parent, first child, child count, the
colour that moved) and `tf` (floats: visits and wins, prior visits and wins, AMAF visits and
wins). The root is column 0; a node's children are contiguous columns, so expanding a node
appends one block and a walk over siblings is a walk along memory. Node values are win rates
for the player who made the node's move, so every player maximises over its children.

How a child is chosen (`fastboard.urgency`): its own win rate with *prior experience* mixed in
(`PRIOR_EVEN` virtual playouts at even odds, plus the wins and losses of the hand-made
heuristics (`PRIOR_SELF_ATARI` ... `PRIOR_EMPTY_AREA`), plus virtual wins for the
moves a strong player would choose (`PRIOR_GAMMA`: the trained move features of
`features.py`)), blended with its AMAF (all-moves-as-first) win rate, which counts every
simulation in which that move was played later by the same player. AMAF learns fast but is
biased, so its weight beta = av / (av + v + v*av/RAVE_EQUIV) fades as the node's own playouts v
grow (Gelly and Silver's RAVE). A small UCB term keeps long-neglected moves from being starved.

Which children may be chosen (`fastboard.width`, on 19x19): only the likeliest few by the
trained features at first, one more each time the node's playouts grow by a factor -
progressive widening. A 19x19 search of two seconds runs about 10,000 simulations; spread
over 360 moves, their AMAF values cannot tell a 4-4 point from a second-line crawl, and the
priors, outweighed by thousands of AMAF samples, could not either.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import fastboard as fb
from .fastboard import Flags, Floats, Ints, Words

# -- tuning (passed to the compiled code in `params`, so changing them needs no recompile) -------

RAVE_EQUIV = 3500.0  # own playouts at which AMAF and own statistics weigh about the same
EXPAND_VISITS = 8  # a leaf gets children after this many playouts: saves memory, few lost
UCT_C = 0.05  # small: priors and RAVE do most of the exploring; this only unsticks starved moves
PRIOR_EVEN = 10.0  # every move starts as if 10 playouts had gone 50:50
# The hand-made priors (`fastboard.hand_prior`), with PRIOR_HAND.
PRIOR_SELF_ATARI = 10.0  # 10 virtual losses for putting oneself in atari
PRIOR_CAPTURE_ONE = 15.0  # virtual wins for capturing (or saving) a single stone
PRIOR_CAPTURE_MANY = 30.0  # and for capturing (or saving) two or more stones
PRIOR_PATTERN = 10.0  # virtual wins for a 3x3 shape match
PRIOR_CFG = (24.0, 22.0, 8.0)  # wins at distance 1, 2, 3 from the last move: fights are local
PRIOR_EMPTY_AREA = 10.0  # losses on lines 1-2 and wins on line 3 where no stone is near
# The trained priors: PRIOR_GAMMA * sqrt(p) virtual wins, p a move's probability by the move
# features. On their own they won 4 of 10 13x13 games against GNU Go level 10 where the
# hand-made priors won 7; added to them with 100, 9 of 10 (docs/go-experiments.md, "Priors
# trained on GNU Go's games").
PRIOR_GAMMA = 100.0

# Progressive widening (`fastboard.width`): a node's children are tried likeliest first,
# two at first and one more each time its playouts grow WIDEN_RATE times past WIDEN_VISITS
# (0 turns it off: every child from the start) - on boards of WIDEN_MIN_SIZE and more only:
# on smaller ones the playouts tell the moves apart, and the model's low opinion of
# self-atari would keep the search from a throw-in it needs (test_mcts_nakade) - and of
# captures (GNU Go's games leave dead stones on the board) from taking eight stones in
# atari at 300 playouts (test_mcts_player). Tried on 9x9 with throw-ins stored first: 5 / 20
# against Pachi, no gain (docs/go-experiments.md, "Against Pachi again").
WIDEN_VISITS = 40.0
WIDEN_RATE = 1.4
WIDEN_MIN_SIZE = 19

INITIAL_CAPACITY = 1 << 15  # node columns to start with; doubled whenever a batch runs short


@dataclass(frozen=True, slots=True)
class ChildStats:
    """One move at the root: its padded point (fastboard.PASS for a pass) and its playouts."""

    point: int
    visits: int
    wins: float
    amaf_visits: int
    amaf_wins: float

    @property
    def win_rate(self) -> float:
        """The win rate of its own playouts (priors excluded), 0.5 before the first one."""
        return self.wins / self.visits if self.visits else 0.5


def make_params(komi: float, size: int = 9) -> Floats:
    """The float64 parameter array `fastboard.simulate` reads its tuning from, for a board
    of `size` lines."""
    params = np.zeros(fb.NPARAMS, np.float64)
    params[fb.P_KOMI] = komi
    params[fb.P_RAVE_EQUIV] = RAVE_EQUIV
    params[fb.P_EXPAND_VISITS] = EXPAND_VISITS
    params[fb.P_UCT_C] = UCT_C
    params[fb.P_PRIOR_EVEN] = PRIOR_EVEN
    params[fb.P_PRIOR_SELF_ATARI] = PRIOR_SELF_ATARI
    params[fb.P_PRIOR_CAPTURE_ONE] = PRIOR_CAPTURE_ONE
    params[fb.P_PRIOR_CAPTURE_MANY] = PRIOR_CAPTURE_MANY
    params[fb.P_PRIOR_PATTERN] = PRIOR_PATTERN
    params[fb.P_PRIOR_CFG1] = PRIOR_CFG[0]
    params[fb.P_PRIOR_CFG2] = PRIOR_CFG[1]
    params[fb.P_PRIOR_CFG3] = PRIOR_CFG[2]
    params[fb.P_PRIOR_EMPTY_AREA] = PRIOR_EMPTY_AREA
    params[fb.P_PRIOR_GAMMA] = PRIOR_GAMMA
    params[fb.P_WIDEN_VISITS] = WIDEN_VISITS if size >= WIDEN_MIN_SIZE else 0.0
    params[fb.P_WIDEN_RATE] = WIDEN_RATE
    return params


def make_work(board: Ints) -> Ints:
    """Scratch rows for the compiled code, sized for this board."""
    return np.zeros((fb.WORK_ROWS, fb.WORK_WIDTH_PER_POINT * board.shape[1]), np.int64)


class Tree:
    """The search tree for one position (the root), reusable for the positions that follow.

    Not thread-safe: one tree (one player) per game at a time.
    """

    def __init__(self, root_color: int, capacity: int = INITIAL_CAPACITY) -> None:
        """An unexpanded root; `root_color` is the colour that made the root's move (the
        opponent of the side to move)."""
        self.ti: Ints = np.zeros((fb.TREE_INT_FIELDS, capacity), np.int64)
        self.tf: Floats = np.zeros((fb.TREE_FLOAT_FIELDS, capacity), np.float64)
        self.meta: Ints = np.zeros(2, np.int64)
        fb.init_node(self.ti, self.tf, 0, fb.PASS, -1, root_color, 0.0, 0.0)
        self.meta[fb.TM_USED] = 1

    @property
    def size(self) -> int:
        """Nodes in use."""
        return int(self.meta[fb.TM_USED])

    @property
    def root_visits(self) -> int:
        return int(self.tf[fb.F_V, 0])

    def search(
        self,
        root: Ints,
        scratch: Ints,
        params: Floats,
        pat3: Flags,
        gammas: Floats,
        spatial: Ints,
        rng: Words,
        work: Ints,
        count: int,
    ) -> int:
        """Run `count` simulations from the position `root` (growing the arrays as needed);
        `scratch` is a board-shaped array the walk may overwrite. Returns `count`."""
        done = 0
        while done < count:
            done += fb.simulate(
                root, scratch, self.ti, self.tf, self.meta, params, pat3, gammas, spatial, rng,
                work, count - done,
            )
            if self.meta[fb.TM_FULL]:
                self._grow()
        return done

    def _grow(self) -> None:
        capacity = self.ti.shape[1] * 2
        ti = np.zeros((fb.TREE_INT_FIELDS, capacity), np.int64)
        tf = np.zeros((fb.TREE_FLOAT_FIELDS, capacity), np.float64)
        used = self.size
        ti[:, :used] = self.ti[:, :used]
        tf[:, :used] = self.tf[:, :used]
        self.ti, self.tf = ti, tf
        self.meta[fb.TM_FULL] = 0

    def child(self, node: int, point: int) -> int | None:
        """The child of `node` reached by playing `point`, if the tree has it."""
        first = int(self.ti[fb.T_CHILD, node])
        if first < 0:
            return None
        count = int(self.ti[fb.T_NCHILD, node])
        moves = self.ti[fb.T_MOVE, first : first + count]
        found = np.flatnonzero(moves == point)
        return first + int(found[0]) if found.size else None

    def advance(self, points: list[int]) -> bool:
        """Make the node reached by `points` (padded points, PASS for a pass) the new root,
        keeping its subtree and dropping the rest. False (tree unchanged) if the tree does
        not hold that line."""
        node: int | None = 0
        for point in points:
            node = self.child(node, point) if node is not None else None
        if node is None:
            return False
        if node == 0:
            return True
        ti = np.zeros_like(self.ti)
        tf = np.zeros_like(self.tf)
        old = np.zeros(self.size, np.int64)
        used = fb.reroot(self.ti, self.tf, node, ti, tf, old)
        # Shrink to twice what the subtree needs: a long game must not keep its peak memory.
        capacity = max(INITIAL_CAPACITY, 1 << (2 * used - 1).bit_length())
        if capacity < ti.shape[1]:
            ti, tf = ti[:, :capacity].copy(), tf[:, :capacity].copy()
        self.ti, self.tf = ti, tf
        self.meta[fb.TM_USED] = used
        self.meta[fb.TM_FULL] = 0
        return True

    def children(self, node: int = 0) -> list[ChildStats]:
        """The statistics of `node`'s children (empty for a leaf)."""
        first = int(self.ti[fb.T_CHILD, node])
        if first < 0:
            return []
        count = int(self.ti[fb.T_NCHILD, node])
        ti, tf = self.ti, self.tf
        return [
            ChildStats(
                point=int(ti[fb.T_MOVE, c]),
                visits=int(tf[fb.F_V, c]),
                wins=float(tf[fb.F_W, c]),
                amaf_visits=int(tf[fb.F_AV, c]),
                amaf_wins=float(tf[fb.F_AW, c]),
            )
            for c in range(first, first + count)
        ]

    def forbid(self, points: set[int]) -> None:
        """Make the root's children at these points unselectable (moves the game refuses,
        such as positional-superko violations the tree, knowing only simple ko, allowed)."""
        first = int(self.ti[fb.T_CHILD, 0])
        if first < 0:
            return
        for c in range(first, first + int(self.ti[fb.T_NCHILD, 0])):
            if int(self.ti[fb.T_MOVE, c]) in points:
                # A mountain of virtual losses: urgency ~0 whatever its AMAF says.
                self.tf[fb.F_PV, c] = 1e12
                self.tf[fb.F_PW, c] = 0.0
