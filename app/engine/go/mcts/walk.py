"""The tree walk: one batch of Monte-Carlo tree searches in compiled code.

Start with `simulate`: walk the tree from the root choosing children with `select` (UCT with
RAVE, `urgency`, among the first `width` by progressive widening), grow it with `expand` (the
children and their priors, `priors.move_priors`), finish with a playout (`policy.playout`)
and count the result along the path with `backup`. `tree.py` owns the node arrays in Python;
`reroot` serves its tree reuse.
"""

from __future__ import annotations

import numpy as np

from ..board import BLACK
from ..coords import PASS
from .fastboard import (
    M_NEMPTY,
    M_PASSES,
    M_SIZE,
    M_TOMOVE,
    META,
    add_owners,
    black_wins,
    pass_move,
    play,
)
from .jit import Flags, Floats, Int, Ints, Words, kernel, rand_below
from .policy import playout
from .priors import move_priors
from .scratch import W_AMAF, W_OWNER, W_PATH
from .tuning import (
    P_EXPAND_VISITS,
    P_KOMI,
    P_PRIOR_EVEN,
    P_PRIOR_GAMMA,
    P_RAVE_EQUIV,
    P_UCT_C,
    P_WIDEN_RATE,
    P_WIDEN_VISITS,
    THROW_INS_EMPTY_SHARE,
)

# Tree node arrays (see tree.py): int fields and float fields, one column per node.
T_MOVE = 0  # the padded point played to reach the node, or PASS
T_PARENT = 1
T_CHILD = 2  # the first of the node's contiguous children, -1 while it is a leaf
T_NCHILD = 3
T_COLOR = 4  # the colour that played T_MOVE
T_PREFERRED = 5  # 1 once a move predictor has reweighed the node's children (`Tree.prefer`)
TREE_INT_FIELDS = 6

F_V = 0  # playouts through the node
F_W = 1  # wins among them, for T_COLOR
F_PV = 2  # prior visits (virtual experience from the heuristics)
F_PW = 3  # prior wins
F_AV = 4  # AMAF visits: playouts in which T_MOVE was played first by T_COLOR later on
F_AW = 5  # AMAF wins
TREE_FLOAT_FIELDS = 6

# Tree metadata slots.
TM_USED = 0  # columns in use
TM_FULL = 1  # set when a batch stopped because the arrays need to grow


@kernel
def simulate(
    root: Ints,
    b: Ints,
    ti: Ints,
    tf: Floats,
    tmeta: Ints,
    params: Floats,
    pat3: Flags,
    gammas: Floats,
    spatial: Ints,
    rng: Words,
    work: Ints,
    count: int,
) -> int:
    """Run up to `count` simulations from the position `root` into the tree whose root is node
    0; stop early (setting TM_FULL) when the node arrays could overflow. Returns the number
    of simulations run."""
    size = root[META, M_SIZE]
    area = size * size
    capacity = ti.shape[1]
    max_depth = work.shape[1] - 1
    expand_visits = params[P_EXPAND_VISITS]
    komi = params[P_KOMI]
    path = work[W_PATH]
    amaf = work[W_AMAF]
    for done in range(count):
        if tmeta[TM_USED] + area + 1 > capacity:
            tmeta[TM_FULL] = 1
            return done
        b[:, :] = root
        amaf[:] = 0
        node: Int = np.int64(0)  # (np.int64, not a literal 0: see `kernel`)
        path[0] = 0
        depth = 0
        while depth < max_depth:
            if ti[T_CHILD, node] < 0:
                if node != 0 and tf[F_V, node] < expand_visits:
                    break
                expand(b, node, ti, tf, tmeta, params, pat3, gammas, spatial, work, node == 0)
            node = select(ti, tf, node, params, rng)
            move = ti[T_MOVE, node]
            if move == PASS:
                pass_move(b)
            else:
                color = b[META, M_TOMOVE]
                play(b, move, color)
                if amaf[move] == 0:
                    amaf[move] = color
            depth += 1
            path[depth] = node
            if b[META, M_PASSES] >= 2:
                break
        if b[META, M_PASSES] >= 2:
            result = black_wins(b, komi)
        else:
            # Heavy playouts replaying the last good replies, throwing stones in (`nakade`)
            # only once the board is half full (tuning.THROW_INS_EMPTY_SHARE).
            size = b[META, M_SIZE]
            late = b[META, M_NEMPTY] <= THROW_INS_EMPTY_SHARE * size * size
            result = playout(b, True, rng, pat3, work, params, np.bool_(True), np.bool_(late))
        backup(ti, tf, work, depth, result)
        add_owners(b, work[W_OWNER])
    return count


@kernel
def select(ti: Ints, tf: Floats, node: Int, params: Floats, rng: Words) -> int:
    """The child of `node` with the highest urgency plus a UCB exploration bonus, among the
    first `width` children (`expand` orders them likeliest first); ties are broken by
    starting the scan at a random child."""
    first = ti[T_CHILD, node]
    count = min(ti[T_NCHILD, node], width(tf[F_V, node], params))
    rave_equiv = params[P_RAVE_EQUIV]
    uct_c = params[P_UCT_C]
    log_n = np.log(tf[F_V, node] + 1.0)
    start = rand_below(rng, count)
    best = first
    best_value = -1.0
    for k in range(count):
        child = first + (start + k) % count
        value = urgency(tf, child, rave_equiv)
        if uct_c > 0:
            value += uct_c * np.sqrt(log_n / (tf[F_V, child] + 1.0))
        if value > best_value:
            best_value = value
            best = child
    return int(best)


@kernel
def urgency(tf: Floats, node: int, rave_equiv: float) -> float:
    """How much the player choosing among siblings wants to try `node`: its win rate with the
    priors mixed in, blended with its AMAF win rate - trusted while the node has few playouts
    of its own and fading as they grow (beta goes from 1 to 0; RAVE_EQUIV sets the pace)."""
    v = tf[F_V, node] + tf[F_PV, node]
    value = (tf[F_W, node] + tf[F_PW, node]) / v if v > 0 else 0.5
    av = tf[F_AV, node]
    if av == 0:
        return float(value)
    beta = av / (av + v + v * av / rave_equiv)
    return float(beta * tf[F_AW, node] / av + (1.0 - beta) * value)


@kernel
def width(visits: float, params: Floats) -> int:
    """How many of a node's children (likeliest first, see `expand`) the search may choose
    from after `visits` playouts through it - progressive widening (Coulom 2007, Chaslot et
    al. 2008): two at first, one more each time the playouts grow by P_WIDEN_RATE times, in
    steps of P_WIDEN_VISITS; every child when P_WIDEN_VISITS is 0. On a large board a few
    thousand playouts spread over 300 moves tell none of them apart, so the priors choose
    which moves the playouts compare."""
    step = params[P_WIDEN_VISITS]
    if step <= 0.0:
        return 1 << 30
    return 2 + int(np.log(1.0 + visits / step) / np.log(params[P_WIDEN_RATE]))


@kernel
def expand(
    b: Ints,
    node: Int,
    ti: Ints,
    tf: Floats,
    tmeta: Ints,
    params: Floats,
    pat3: Flags,
    gammas: Floats,
    spatial: Ints,
    work: Ints,
    use_mask: bool,
) -> None:
    """Give `node` (whose position is b) one child per candidate move - or a single pass
    child when there is none - each with its prior experience (`priors.move_priors`), stored
    likeliest first (by the trained features' probability, or by prior win rate without
    them; ties keep board order), the order `width` widens in. With `use_mask`, only W_MASK
    points are considered (the root)."""
    area = b[META, M_SIZE] * b[META, M_SIZE]
    points = np.empty(area, np.int64)
    visits = np.empty(area, np.float64)
    wins = np.empty(area, np.float64)
    strength = np.empty(area, np.float64)
    count = move_priors(b, params, pat3, gammas, spatial, work, use_mask, points, visits, wins,
                        strength)
    if params[P_PRIOR_GAMMA] > 0.0:
        order = np.argsort(-strength[:count], kind="mergesort")
    else:
        order = np.argsort(-(wins[:count] / visits[:count]), kind="mergesort")
    color = b[META, M_TOMOVE]
    first = tmeta[TM_USED]
    for k in range(count):
        j = order[k]
        init_node(ti, tf, first + k, points[j], node, color, visits[j], wins[j])
    attach_children(ti, tf, tmeta, node, first, count, color, params[P_PRIOR_EVEN])


@kernel
def attach_children(
    ti: Ints, tf: Floats, tmeta: Ints, node: Int, first: int, count: int, color: int,
    even: float,
) -> None:
    """Finish expanding `node`, whose `count` new children start at column `first`: a lone
    pass child (even prior) when there was no candidate, then the node's child range and the
    columns in use."""
    if count == 0:
        init_node(ti, tf, first, np.int64(PASS), node, color, even, even / 2)
        count = 1
    ti[T_CHILD, node] = first
    ti[T_NCHILD, node] = count
    tmeta[TM_USED] = first + count


@kernel
def init_node(
    ti: Ints, tf: Floats, node: int, move: Int, parent: Int, color: int, pv: float, pw: float
) -> None:
    ti[T_MOVE, node] = move
    ti[T_PARENT, node] = parent
    ti[T_CHILD, node] = -1
    ti[T_NCHILD, node] = 0
    ti[T_COLOR, node] = color
    ti[T_PREFERRED, node] = 0
    tf[F_V, node] = 0.0
    tf[F_W, node] = 0.0
    tf[F_PV, node] = pv
    tf[F_PW, node] = pw
    tf[F_AV, node] = 0.0
    tf[F_AW, node] = 0.0


@kernel
def backup(ti: Ints, tf: Floats, work: Ints, depth: int, black_result: float) -> None:
    """Count the playout for every node on the path, and as AMAF experience for every child of
    a path node whose move its player made first later in the simulation (tree or playout)."""
    path = work[W_PATH]
    amaf = work[W_AMAF]
    for k in range(depth, -1, -1):
        node = path[k]
        color = ti[T_COLOR, node]
        won = black_result if color == BLACK else 1.0 - black_result
        tf[F_V, node] += 1.0
        tf[F_W, node] += won
        first = ti[T_CHILD, node]
        if first < 0:
            continue
        mover = 3 - color
        for child in range(first, first + ti[T_NCHILD, node]):
            move = ti[T_MOVE, child]
            if move != PASS and amaf[move] == mover:
                tf[F_AV, child] += 1.0
                tf[F_AW, child] += 1.0 - won


@kernel
def reroot(ti: Ints, tf: Floats, new_root: int, ti2: Ints, tf2: Floats, old: Ints) -> int:
    """Copy the subtree under `new_root` into ti2/tf2 with the new root at column 0, siblings
    kept contiguous (breadth first); `old` is scratch of at least the subtree's size.
    Returns the number of columns used."""
    for field in range(TREE_INT_FIELDS):
        ti2[field, 0] = ti[field, new_root]
    for field in range(TREE_FLOAT_FIELDS):
        tf2[field, 0] = tf[field, new_root]
    ti2[T_PARENT, 0] = -1
    old[0] = new_root
    used = 1
    i = 0
    while i < used:
        source = old[i]
        first = ti[T_CHILD, source]
        if first < 0:
            ti2[T_CHILD, i] = -1
        else:
            count = ti[T_NCHILD, source]
            ti2[T_CHILD, i] = used
            for k in range(count):
                for field in range(TREE_INT_FIELDS):
                    ti2[field, used + k] = ti[field, first + k]
                for field in range(TREE_FLOAT_FIELDS):
                    tf2[field, used + k] = tf[field, first + k]
                ti2[T_PARENT, used + k] = i
                old[used + k] = first + k
            used += count
        i += 1
    return used
