"""The UCT-RAVE search tree in Python: its node arrays, their growth, reuse and read-out.

Start with `Tree.search`, which hands batches of simulations to the compiled
`walk.simulate` (the walk itself - `select`, `expand`, `backup`), then `Tree.advance` (tree
reuse) and `Tree.children` (the statistics a decision is made from). The numbers that tune
the search are in `tuning.py`.

A node is one column of two arrays: `ti` (ints: move, parent, first child, child count, the
colour that moved) and `tf` (floats: visits and wins, prior visits and wins, AMAF visits and
wins). The root is column 0; a node's children are contiguous columns, so expanding a node
appends one block and a walk over siblings is a walk along memory. Node values are win rates
for the player who made the node's move, so every player maximises over its children.

How a child is chosen (`walk.urgency`): its own win rate with *prior experience* mixed in
(`PRIOR_EVEN` virtual playouts at even odds, plus the wins and losses of the hand-made
heuristics (`PRIOR_SELF_ATARI` ... `PRIOR_EMPTY_AREA`), plus virtual wins for the
moves a strong player would choose (`PRIOR_GAMMA`: the trained move features of
`features.py`)), blended with its AMAF (all-moves-as-first) win rate, which counts every
simulation in which that move was played later by the same player. AMAF learns fast but is
biased, so its weight beta = av / (av + v + v*av/RAVE_EQUIV) fades as the node's own playouts v
grow (Gelly and Silver's RAVE). A small UCB term keeps long-neglected moves from being starved.

Which children may be chosen (`walk.width`, on 19x19): only the likeliest few by the
trained features at first, one more each time the node's playouts grow by a factor -
progressive widening. A 19x19 search of two seconds runs about 10,000 simulations; spread
over 360 moves, their AMAF values cannot tell a 4-4 point from a second-line crawl, and the
priors, outweighed by thousands of AMAF samples, could not either.

A learned move predictor (`network.py`), when the player has one, replaces the trained
features' view at the root - the prior wins and the widening order - through `Tree.prefer`,
and, if the player asks, at the nodes whose playouts pass a threshold (`busy_unpreferred`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..coords import PASS
from . import walk
from .fastboard import M_SIZE, META
from .jit import Flags, Floats, Ints, Words

INITIAL_CAPACITY = 1 << 15  # node columns to start with; doubled whenever a batch runs short
PV_LENGTH = 10  # moves of principal variation reported, the first move included
PV_MIN_VISITS = 5  # a continuation seen fewer times than this is noise, not a variation


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


class Tree:
    """The search tree for one position (the root), reusable for the positions that follow.

    Not thread-safe: one tree (one player) per game at a time.
    """

    def __init__(self, root_color: int, capacity: int = INITIAL_CAPACITY) -> None:
        """An unexpanded root; `root_color` is the colour that made the root's move (the
        opponent of the side to move)."""
        self.ti: Ints = np.zeros((walk.TREE_INT_FIELDS, capacity), np.int64)
        self.tf: Floats = np.zeros((walk.TREE_FLOAT_FIELDS, capacity), np.float64)
        self.meta: Ints = np.zeros(2, np.int64)
        walk.init_node(self.ti, self.tf, 0, PASS, -1, root_color, 0.0, 0.0)
        self.meta[walk.TM_USED] = 1

    @property
    def size(self) -> int:
        """Nodes in use."""
        return int(self.meta[walk.TM_USED])

    @property
    def root_visits(self) -> int:
        return int(self.tf[walk.F_V, 0])

    def search(
        self,
        root: Ints,
        walk_board: Ints,
        params: Floats,
        pat3: Flags,
        gammas: Floats,
        spatial: Ints,
        rng: Words,
        work: Ints,
        count: int,
    ) -> int:
        """Run `count` simulations from the position `root` (growing the arrays as needed);
        `walk_board` is a board-shaped array the walk may overwrite. Returns `count`."""
        done = 0
        while done < count:
            done += walk.simulate(
                root, walk_board, self.ti, self.tf, self.meta, params, pat3, gammas, spatial, rng,
                work, count - done,
            )
            if self.meta[walk.TM_FULL]:
                self._grow()
        return done

    def _grow(self) -> None:
        capacity = self.ti.shape[1] * 2
        ti = np.zeros((walk.TREE_INT_FIELDS, capacity), np.int64)
        tf = np.zeros((walk.TREE_FLOAT_FIELDS, capacity), np.float64)
        used = self.size
        ti[:, :used] = self.ti[:, :used]
        tf[:, :used] = self.tf[:, :used]
        self.ti, self.tf = ti, tf
        self.meta[walk.TM_FULL] = 0

    def child(self, node: int, point: int) -> int | None:
        """The child of `node` reached by playing `point`, if the tree has it."""
        first = int(self.ti[walk.T_CHILD, node])
        if first < 0:
            return None
        count = int(self.ti[walk.T_NCHILD, node])
        moves = self.ti[walk.T_MOVE, first : first + count]
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
        used = walk.reroot(self.ti, self.tf, node, ti, tf, old)
        # Shrink to twice what the subtree needs: a long game must not keep its peak memory.
        capacity = max(INITIAL_CAPACITY, 1 << (2 * used - 1).bit_length())
        if capacity < ti.shape[1]:
            ti, tf = ti[:, :capacity].copy(), tf[:, :capacity].copy()
        self.ti, self.tf = ti, tf
        self.meta[walk.TM_USED] = used
        self.meta[walk.TM_FULL] = 0
        return True

    def children(self, node: int = 0) -> list[ChildStats]:
        """The statistics of `node`'s children (empty for a leaf)."""
        first = int(self.ti[walk.T_CHILD, node])
        if first < 0:
            return []
        count = int(self.ti[walk.T_NCHILD, node])
        ti, tf = self.ti, self.tf
        return [
            ChildStats(
                point=int(ti[walk.T_MOVE, c]),
                visits=int(tf[walk.F_V, c]),
                wins=float(tf[walk.F_W, c]),
                amaf_visits=int(tf[walk.F_AV, c]),
                amaf_wins=float(tf[walk.F_AW, c]),
            )
            for c in range(first, first + count)
        ]

    def principal_line(self, node: int) -> list[int]:
        """The moves expected after `node`'s (padded points): the most-visited child, its
        most-visited child and so on, while they have PV_MIN_VISITS playouts - at most
        PV_LENGTH - 1 moves, so that with `node`'s own move the line is PV_LENGTH long."""
        line: list[int] = []
        visits = self.tf[walk.F_V]
        while len(line) < PV_LENGTH - 1:
            first = int(self.ti[walk.T_CHILD, node])
            if first < 0:
                break
            count = int(self.ti[walk.T_NCHILD, node])
            best = first + int(np.argmax(visits[first : first + count]))
            if visits[best] < PV_MIN_VISITS:
                break
            line.append(int(self.ti[walk.T_MOVE, best]))
            node = best
        return line

    def expand_root(self, root: Ints, params: Floats, pat3: Flags, gammas: Floats,
                    spatial: Ints, work: Ints) -> None:
        """Give the root its children now, as the first simulation would (`walk.expand`,
        the W_MASK points of `work` only), unless it has them."""
        if self.ti[walk.T_CHILD, 0] >= 0:
            return
        area = int(root[META, M_SIZE]) ** 2
        while self.size + area + 1 > self.ti.shape[1]:
            self._grow()
        walk.expand(root.copy(), np.int64(0), self.ti, self.tf, self.meta, params, pat3,
                    gammas, spatial, work, True)

    def preferred(self, node: int) -> bool:
        """Whether `node`'s children already carry a move predictor's view (`prefer`)."""
        return bool(self.ti[walk.T_PREFERRED, node])

    def busy_unpreferred(self, visits: int) -> list[int]:
        """The nodes with children and at least `visits` playouts that no move predictor has
        reweighed yet, the busiest first."""
        used = self.size
        found = np.flatnonzero((self.tf[walk.F_V, :used] >= visits)
                               & (self.ti[walk.T_CHILD, :used] >= 0)
                               & (self.ti[walk.T_PREFERRED, :used] == 0))
        return [int(n) for n in found[np.argsort(-self.tf[walk.F_V, found], kind="stable")]]

    def line(self, node: int) -> list[int]:
        """The moves (padded points, PASS for a pass) that lead from the root to `node`."""
        moves: list[int] = []
        while node > 0:
            moves.append(int(self.ti[walk.T_MOVE, node]))
            node = int(self.ti[walk.T_PARENT, node])
        return moves[::-1]

    def prefer(self, node: int, policy: dict[int, float], replaced: dict[int, float],
               weight: float) -> None:
        """Put a better move predictor's view in place of the trained features' at `node`'s
        children: each child's prior bonus, `weight` * sqrt(p) virtual wins
        (`priors.move_priors`), is recomputed from its probability in `policy` (padded point
        -> p) rather than `replaced`, and the children are reordered likeliest first by
        `policy` (ties keep their order), the order progressive widening follows. Their
        subtrees move with them. Once per node: it is marked (`preferred`), and the mark
        stays with it when the tree is reused (`advance`)."""
        first = int(self.ti[walk.T_CHILD, node])
        if first < 0 or self.preferred(node):
            return
        self.ti[walk.T_PREFERRED, node] = 1
        count = int(self.ti[walk.T_NCHILD, node])
        columns = np.arange(first, first + count)
        moves = [int(m) for m in self.ti[walk.T_MOVE, columns]]
        for column, move in zip(columns, moves, strict=True):
            bonus = weight * (np.sqrt(policy.get(move, 0.0)) - np.sqrt(replaced.get(move, 0.0)))
            self.tf[walk.F_PV, column] += bonus
            self.tf[walk.F_PW, column] += bonus
        order = sorted(range(count), key=lambda k: -policy.get(moves[k], 0.0))
        self.ti[:, columns] = self.ti[:, first + np.array(order)]
        self.tf[:, columns] = self.tf[:, first + np.array(order)]
        for column in columns:  # the grandchildren's parent is where their parent moved
            below = int(self.ti[walk.T_CHILD, column])
            if below >= 0:
                self.ti[walk.T_PARENT, below : below + int(self.ti[walk.T_NCHILD, column])] = (
                    column)

    def forbid(self, points: set[int]) -> None:
        """Make the root's children at these points unselectable (moves the game refuses,
        such as positional-superko violations the tree, knowing only simple ko, allowed)."""
        first = int(self.ti[walk.T_CHILD, 0])
        if first < 0:
            return
        for c in range(first, first + int(self.ti[walk.T_NCHILD, 0])):
            if int(self.ti[walk.T_MOVE, c]) in points:
                # A mountain of virtual losses: urgency ~0 whatever its AMAF says.
                self.tf[walk.F_PV, c] = 1e12
                self.tf[walk.F_PW, c] = 0.0
