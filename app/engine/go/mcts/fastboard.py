"""The numba-compiled hot path: an array Go board, light and heavy playouts, and the tree walk.

Where to start reading: `play` (one move on the array board), then `playout` (a random game to
the end and its area score), then `simulate` (one batch of Monte-Carlo tree searches: walk the
tree with `select`, grow it with `expand`, finish with `playout`, learn with `backup`).
`tree.py` owns the node arrays this module writes into and `player.py` turns a `Game` into a
board here and a decision back; neither contains compiled code.

Why one file: numba's on-disk cache (`cache=True`) is invalidated only by changes to the file
that defines a function, never by changes to the jitted functions it calls in other files. So
every compiled function and every layout constant they share lives here, and tuning numbers
reach the search through the `params` array (see `tree.py`) instead of being compiled in.

The board is one int64 array `b` of shape (NROWS, (n+2)**2): an n x n board padded with a ring
of OFF points, so neighbours never need bounds checks. Row COLOR holds each point's colour;
the stones of a chain form a circular list through NEXT and all point at the same HEAD, which
keeps the chain's stone count (SIZE) and its *pseudo-liberties*: PLIB counts (stone, empty
neighbour) pairs, LSUM and LSUM2 add up those neighbours' indices and their squares. A chain
is in atari exactly when all its pseudo-liberties are one point, i.e. PLIB * LSUM2 == LSUM**2
(equality in Cauchy-Schwarz), and that point is LSUM / PLIB - exact atari tests in O(1)
without keeping liberty sets. EMPTIES lists the empty points (EPOS is the reverse map) and
row META holds the scalars (size, whose turn, simple-ko point, last moves, passes).

Inside the search only the simple ko is enforced; the player checks the move it returns
against the game's positional superko.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

try:
    import numba
except ImportError as error:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "app.engine.go.mcts needs numba (a dependency in pyproject.toml): the Monte-Carlo "
        "player is too slow without it, so there is no pure-Python fallback. Run "
        "`.venv/bin/pip install -e .`."
    ) from error

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Words = npt.NDArray[np.uint64]
Flags = npt.NDArray[np.uint8]
Int = int | np.int64  # kernels take np.int64 where a bare constant would be a literal (`kernel`)

F = TypeVar("F", bound=Callable[..., Any])


def kernel(function: F) -> F:
    """numba.njit with the on-disk cache and without the GIL, keeping the Python signature
    for mypy (numba itself is untyped).

    Compiled code calls kernels with `np.int64(CONSTANT)` rather than a bare constant: numba
    would compile (and cache) a separate copy of the callee for each literal value.
    """
    return cast(F, numba.njit(cache=True, nogil=True)(function))


# -- tuning of the playout policy (compiled in: a change here recompiles this file) --------------

PROB_CAPTURE = 0.9  # answer ataris next to the last moves most of the time, not always (variety)
PROB_TWO_LIBERTIES = 0.9  # likewise for the fights of two-liberty chains at the last move ...
TWO_LIBERTIES_MAX_SIZE = 9  # ... on boards up to this size: measured a gain on 9x9, a loss on 19x19
PROB_PATTERN = 0.95  # likewise for 3x3 shape replies next to the last moves
PROB_REJECT_SINGLE_SELF_ATARI = 0.5  # lone-stone self-ataris are half nonsense, half throw-ins
NAKADE_MAX = 6  # stones: no bigger eye space is killed by one vital point
MAX_MOVES_PER_POINT = 3  # a playout longer than 3 moves per point is cycling: stop and count
LADDER_BUDGET = 200  # positions one ladder reading may visit; past that it counts as an escape

# -- layout constants ----------------------------------------------------------------------------

EMPTY = 0
BLACK = 1
WHITE = 2
OFF = 3  # the padding ring; also the 2-bit "edge" code of the 3x3 patterns
PASS = 0  # padded point 0 is a corner of the ring, never a move: it stands for "pass"

# Rows of the board array.
COLOR = 0
HEAD = 1
NEXT = 2
PLIB = 3
LSUM = 4
LSUM2 = 5
SIZE = 6
EMPTIES = 7
EPOS = 8
META = 9
NROWS = 10

# Slots of row META (a 5x5 board has 49 points, room for all of them).
M_SIZE = 0
M_WIDTH = 1
M_TOMOVE = 2
M_KO = 3  # the point the player to move may not take (simple ko), or PASS for none
M_NEMPTY = 4
M_LAST = 5  # the last move (PASS after a pass or at the start)
M_LAST2 = 6  # the move before it
M_PASSES = 7  # consecutive passes
M_MOVES = 8  # moves played on this array since it was set up

# Rows of the int64 scratch array `work` (width WORK_WIDTH_PER_POINT * points).
W_AMAF = 0  # per point: the colour that played it first in this simulation
W_PATH = 1  # the nodes of the current tree walk
W_CAND = 2  # candidate moves of the playout policy
W_KIND = 3  # their kind: K_CAPTURE or K_ESCAPE
W_CAPT = 4  # per point: stones a move there would capture (priors)
W_ESC = 5  # per point: size of the own chain in atari a move there would save (priors)
W_DIST = 6  # per point: common-fate-graph distance to the last move (priors)
W_QUEUE = 7  # breadth-first queue for W_DIST
W_MASK = 8  # per point: 1 if the root may play there (the game's superko-legal moves)
W_OLD = 9  # re-rooting: old index of each copied node
W_REPLY = 10  # rows 10 (black) and 11 (white): per point, the last good reply to a move there
W_SEQ = 12  # the moves of the current playout, after the move that preceded it
W_OWNER = 13  # per point: the sum over the search's simulations of its final owner (+1 black)
W_LIBS = 14  # scratch: the liberties of the chain the playout policy looks at (`chain_liberties`)
WORK_ROWS = 15
WORK_WIDTH_PER_POINT = 4  # a tree walk can outgrow the board (captures refill points)

K_CAPTURE = 1  # a candidate that need only be legal
K_ESCAPE = 2  # one that must leave its chain two liberties (not a self-atari)
K_EXTEND = 3  # one that must leave its chain three (a two-liberty chain's real escape)

# Tree node arrays (see tree.py): int fields and float fields, one column per node.
T_MOVE = 0  # the padded point played to reach the node, or PASS
T_PARENT = 1
T_CHILD = 2  # the first of the node's contiguous children, -1 while it is a leaf
T_NCHILD = 3
T_COLOR = 4  # the colour that played T_MOVE
TREE_INT_FIELDS = 5

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

# Indices of the float64 `params` array (values: tree.py).
P_KOMI = 0
P_RAVE_EQUIV = 1
P_EXPAND_VISITS = 2
P_UCT_C = 3
P_PRIOR_EVEN = 4
P_PRIOR_SELF_ATARI = 5
P_PRIOR_CAPTURE_ONE = 6
P_PRIOR_CAPTURE_MANY = 7
P_PRIOR_PATTERN = 8
P_PRIOR_CFG1 = 9
P_PRIOR_CFG2 = 10
P_PRIOR_CFG3 = 11
P_PRIOR_EMPTY_AREA = 12
P_PRIOR_GAMMA = 13  # > 0: the trained move features add to the priors, with this weight
P_WIDEN_VISITS = 14  # > 0: progressive widening (`width`): a node's playouts per step ...
P_WIDEN_RATE = 15  # ... and the factor by which each further step needs more
NPARAMS = 16

# Move features, the trained knowledge of the priors (`move_features`, `features.py`). Every
# candidate move has exactly one value in each of four groups plus its 3x3 pattern; the values
# are indices into one gamma vector (row 2 of the `gammas` table), grouped from these offsets.
F_TACTIC = 0  # its tactical meaning, FT_* below
FT_NONE = 0
FT_CAPTURE_ONE = 1  # captures a single stone
FT_CAPTURE_MANY = 2  # captures two or more
FT_CAPTURE_SAVES = 3  # captures and so saves an own chain in atari
FT_ESCAPE_ONE = 4  # extends a single own stone in atari (not into a lost ladder)
FT_ESCAPE_MANY = 5  # extends an own chain of two or more in atari
FT_ESCAPE_LOST = 6  # extends into a ladder that catches it
FT_SELF_ATARI_ONE = 7  # leaves the new stone alone in atari (nonsense, or a throw-in)
FT_SELF_ATARI_MANY = 8  # leaves a chain of two or more in atari
FT_LADDER_ATARI = 9  # an atari that captures in a ladder
FT_ATARI = 10  # another atari
N_TACTICS = 11
F_DIST = 16  # distance to the last move: +0 none (a pass, the start), +1 far, +d for d 2..16
F_DIST2 = 33  # the same for the move before it
N_DIST = 17
FAR = 17  # distances from here on count as far (d = dx + dy + max(dx, dy): 2 is adjacent)
F_PLACE = 50  # where on the board: its two lines (`board_place`), +1 with no stone within 3
N_PLACE = 30
F_SPATIAL = 96  # the large spatial pattern (`spatial_feature`): +0 none of the table's, +1 ...
N_SPATIAL_MAX = 60_000  # ... up to this many patterns (row 2 of `gammas` holds 65,536 gammas)


# -- large spatial patterns (Stern, Herbrich & Graepel 2006; Coulom 2007; Pachi's "spatial") -----
# The stones around a move, out to a "gridcular" distance d = dx + dy + max(dx, dy) from it,
# as one 64-bit hash that is the same in all 8 rotations and reflections, with colours seen from
# the player to move (own, opponent, empty, off the board). The sizes are nested: d <= 4 adds
# the four points two lines away to the 3x3, d <= 5 the knight's moves, and so on; a move's
# feature is the largest of its patterns that the trained table knows (`spatial_feature`).
SPATIAL_SIZES = (4, 5, 6, 7, 8)


def _gridcular(dy: int, dx: int) -> int:
    """The pattern distance of an offset: dx + dy + max(dx, dy), absolute values."""
    return abs(dy) + abs(dx) + max(abs(dy), abs(dx))


def _symmetry(dy: int, dx: int, transpose: bool, sy: int, sx: int) -> tuple[int, int]:
    """The offset (dy, dx) transposed or not, then its coordinates' signs flipped by sy, sx."""
    if transpose:
        dy, dx = dx, dy
    return dy * sy, dx * sx


def _spatial_layout() -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    """The offsets (dy, dx) of the pattern points, nearest rings first, where each ring of the
    nested sizes ends, for each of the 8 symmetries the slot each slot's colour is read from,
    and the Zobrist numbers (per slot and colour) and per-size salts - from splitmix64 with a
    fixed seed, so the hashes in the weights file stay valid whatever numpy does."""
    limit = SPATIAL_SIZES[-1]
    reach = limit // 2
    offsets = sorted(
        ((dy, dx) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)
         if (dy, dx) != (0, 0) and _gridcular(dy, dx) <= limit),
        key=lambda o: (_gridcular(*o), o),
    )
    slot = {o: k for k, o in enumerate(offsets)}
    ends = [sum(1 for o in offsets if _gridcular(*o) <= d) for d in SPATIAL_SIZES]
    perm = [[slot[_symmetry(dy, dx, transpose, sy, sx)] for dy, dx in offsets]
            for transpose in (False, True) for sy in (1, -1) for sx in (1, -1)]
    state = 0x5EED_0F_5BA71A1
    words = []
    for _ in range(4 * len(offsets) + len(SPATIAL_SIZES)):
        state = (state + 0x9E3779B97F4A7C15) % (1 << 64)
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
        z ^= z >> 31
        words.append(z >> 2)  # 62 bits: positive as an int64, never mistaken for a sign
    zobrist = np.array(words[: 4 * len(offsets)], np.int64).reshape(len(offsets), 4)
    salts = np.array(words[4 * len(offsets) :], np.int64)
    dy = np.array([o[0] for o in offsets], np.int64)
    dx = np.array([o[1] for o in offsets], np.int64)
    return dy, dx, np.array(ends, np.int64), np.array(perm, np.int64), zobrist, salts


SP_DY, SP_DX, SP_ENDS, SP_PERM, SP_ZOBRIST, SP_SALTS = _spatial_layout()
SPATIAL_POINTS = int(SP_ENDS[-1])
N_SPATIAL_SIZES = len(SPATIAL_SIZES)
# A row of `position_features`: point, 3x3 code, the 4 `move_features`, the spatial feature,
# then the spatial hashes of every size.
FEATURE_SPATIAL = 6
FEATURE_HASHES = 7
FEATURE_COLUMNS = FEATURE_HASHES + N_SPATIAL_SIZES


# -- random numbers ------------------------------------------------------------------------------


@kernel
def rand_u64(rng: Words) -> np.uint64:
    """xorshift64*: fast, good enough for playouts, and its state is one word we own."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(2685821657736338717)  # type: ignore[no-any-return]


@kernel
def rand_below(rng: Words, n: Int) -> int:
    """A uniform int in [0, n) for 1 <= n < 2**32 (multiply and shift: no division)."""
    return int(((rand_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel
def rand_unit(rng: Words) -> float:
    """A uniform float in [0, 1)."""
    return float(rand_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# -- the board -----------------------------------------------------------------------------------


@kernel
def new_board(size: int) -> Ints:
    """An empty size x size board, black to move."""
    width = size + 2
    b = np.zeros((NROWS, width * width), np.int64)
    b[COLOR, :] = OFF
    count = 0
    for row in range(1, size + 1):
        for column in range(1, size + 1):
            p = row * width + column
            b[COLOR, p] = EMPTY
            b[EMPTIES, count] = p
            b[EPOS, p] = count
            count += 1
    b[META, M_SIZE] = size
    b[META, M_WIDTH] = width
    b[META, M_TOMOVE] = BLACK
    b[META, M_KO] = PASS
    b[META, M_NEMPTY] = count
    b[META, M_LAST] = PASS
    b[META, M_LAST2] = PASS
    return b


@kernel
def setup_board(size: int, black: Ints, white: Ints, to_move: int, ko: int) -> Ints:
    """A board holding these stones (padded points), `to_move` to play, `ko` forbidden to it.

    Stones are added without captures: a legal position has no chain without liberties, but
    a partly built one may, and must not lose stones on the way.
    """
    b = new_board(size)
    for p in black:
        add_stone(b, p, np.int64(BLACK))
    for p in white:
        add_stone(b, p, np.int64(WHITE))
    b[META, M_TOMOVE] = to_move
    b[META, M_KO] = ko
    b[META, M_MOVES] = 0
    return b


@kernel
def remove_empty(b: Ints, p: int) -> None:
    slot = b[EPOS, p]
    last_slot = b[META, M_NEMPTY] - 1
    last = b[EMPTIES, last_slot]
    b[EMPTIES, slot] = last
    b[EPOS, last] = slot
    b[META, M_NEMPTY] = last_slot


@kernel
def add_empty(b: Ints, p: int) -> None:
    slot = b[META, M_NEMPTY]
    b[EMPTIES, slot] = p
    b[EPOS, p] = slot
    b[META, M_NEMPTY] = slot + 1


@kernel
def merge(b: Ints, a: int, c: int) -> int:
    """Join chains with heads a and c; the larger head survives (fewer stones relabelled)."""
    if b[SIZE, a] < b[SIZE, c]:
        a, c = c, a
    s = c
    while True:
        b[HEAD, s] = a
        s = b[NEXT, s]
        if s == c:
            break
    b[NEXT, a], b[NEXT, c] = b[NEXT, c], b[NEXT, a]
    b[SIZE, a] += b[SIZE, c]
    b[PLIB, a] += b[PLIB, c]
    b[LSUM, a] += b[LSUM, c]
    b[LSUM2, a] += b[LSUM2, c]
    return a


@kernel
def add_stone(b: Ints, p: int, color: Int) -> None:
    """Put a stone on empty p and update chains and pseudo-liberties; no captures, no ko."""
    w = b[META, M_WIDTH]
    b[COLOR, p] = color
    remove_empty(b, p)
    plib = 0
    lsum = 0
    lsum2 = 0
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if c == EMPTY:
            plib += 1
            lsum += q
            lsum2 += q * q
        elif EMPTY < c < OFF:
            h = b[HEAD, q]
            b[PLIB, h] -= 1
            b[LSUM, h] -= p
            b[LSUM2, h] -= p * p
    b[HEAD, p] = p
    b[NEXT, p] = p
    b[SIZE, p] = 1
    b[PLIB, p] = plib
    b[LSUM, p] = lsum
    b[LSUM2, p] = lsum2
    head = p
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == color:
            h = b[HEAD, q]
            if h != head:
                head = merge(b, head, h)


@kernel
def remove_chain(b: Ints, head: int) -> int:
    """Take a captured chain off the board; its points become liberties of its neighbours."""
    w = b[META, M_WIDTH]
    s = head
    while True:
        b[COLOR, s] = EMPTY
        add_empty(b, s)
        s = b[NEXT, s]
        if s == head:
            break
    count = 0
    while True:
        count += 1
        for q in (s - w, s - 1, s + 1, s + w):
            c = b[COLOR, q]
            if EMPTY < c < OFF:
                h = b[HEAD, q]
                b[PLIB, h] += 1
                b[LSUM, h] += s
                b[LSUM2, h] += s * s
        s = b[NEXT, s]
        if s == head:
            break
    return count


@kernel
def in_atari(b: Ints, head: int) -> bool:
    """Whether the chain with this head has exactly one liberty (see the module docstring)."""
    plib = b[PLIB, head]
    lsum = b[LSUM, head]
    return bool(plib > 0 and plib * b[LSUM2, head] == lsum * lsum)


@kernel
def atari_liberty(b: Ints, head: int) -> int:
    """The single liberty of a chain in atari."""
    return int(b[LSUM, head] // b[PLIB, head])


@kernel
def play(b: Ints, p: int, color: int) -> int:
    """Play a legal stone (see `is_legal`) for `color`; return the number of stones captured."""
    w = b[META, M_WIDTH]
    enemy = 3 - color
    add_stone(b, p, color)
    captured = 0
    taken = PASS
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == enemy:
            h = b[HEAD, q]
            if b[PLIB, h] == 0:
                captured += remove_chain(b, h)
                taken = q
    h = b[HEAD, p]
    # Simple ko: one stone captured by a lone stone that now has that point as its only
    # liberty - retaking at once would recreate the position.
    if captured == 1 and b[SIZE, h] == 1 and b[PLIB, h] == 1:
        b[META, M_KO] = taken
    else:
        b[META, M_KO] = PASS
    b[META, M_LAST2] = b[META, M_LAST]
    b[META, M_LAST] = p
    b[META, M_TOMOVE] = enemy
    b[META, M_PASSES] = 0
    b[META, M_MOVES] += 1
    return captured


@kernel
def pass_move(b: Ints) -> None:
    b[META, M_KO] = PASS
    b[META, M_LAST2] = b[META, M_LAST]
    b[META, M_LAST] = PASS
    b[META, M_TOMOVE] = 3 - b[META, M_TOMOVE]
    b[META, M_PASSES] += 1
    b[META, M_MOVES] += 1


@kernel
def is_legal(b: Ints, p: int, color: int) -> bool:
    """Empty, not the simple-ko point, and not suicide (the `ko` slot is for the side to move,
    which is the only side the search ever asks about)."""
    if b[COLOR, p] != EMPTY or p == b[META, M_KO]:
        return False
    w = b[META, M_WIDTH]
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == EMPTY:
            return True
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if EMPTY < c < OFF:
            atari = in_atari(b, b[HEAD, q])
            # Joining a chain that keeps another liberty, or taking an enemy's last one.
            if (c == color) != atari:
                return True
    return False


@kernel
def is_eye(b: Ints, p: int, color: int) -> bool:
    """Whether empty p is a true-looking eye of `color`: every neighbour is `color` (or the
    edge) and the diagonals do not make it false (none of the enemy's on the edge, at most
    one in the middle). Filling such a point can only hurt its owner."""
    w = b[META, M_WIDTH]
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if c != color and c != OFF:
            return False
    enemy = 3 - color
    bad = 0
    edge = False
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        c = b[COLOR, q]
        if c == OFF:
            edge = True
        elif c == enemy:
            bad += 1
    return bad == 0 if edge else bad <= 1


@kernel
def liberties_after(b: Ints, p: int, color: int) -> tuple[int, int]:
    """(liberties, stones) of the chain a legal move at p would make, liberties capped at 2.

    Stones are counted only when there are fewer than two liberties (the self-atari test
    needs them; otherwise it returns (2, 0) as soon as it knows). Capturing two or more
    stones counts as plenty of liberties.
    """
    w = b[META, M_WIDTH]
    enemy = 3 - color
    found = 0
    first = -1
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if c == EMPTY or (c == enemy and in_atari(b, b[HEAD, q])):
            if c == enemy and b[SIZE, b[HEAD, q]] > 1:
                return 2, 0
            if found == 0:
                first = q
                found = 1
            elif q != first:
                return 2, 0
    stones = 1
    h0 = -1
    h1 = -1
    h2 = -1
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] != color:
            continue
        h = b[HEAD, q]
        if h in (h0, h1, h2):
            continue
        if h0 < 0:
            h0 = h
        elif h1 < 0:
            h1 = h
        else:
            h2 = h
        stones += b[SIZE, h]
        s = h
        while True:
            for r in (s - w, s - 1, s + 1, s + w):
                if r != p and b[COLOR, r] == EMPTY:
                    if found == 0:
                        first = r
                        found = 1
                    elif r != first:
                        return 2, 0
            s = b[NEXT, s]
            if s == h:
                break
    return found, stones


@kernel
def nakade(b: Ints, p: int, color: int) -> bool:
    """Whether a self-atari at p by `color` is a nakade worth playing: the chain it makes
    (at most NAKADE_MAX stones, capturing nothing) sits in the enemy's eye space - its one
    liberty touches nothing but that chain, enemy stones and the edge, so the enemy can only
    take it there - and its stones form a dead eye shape (`dead_shape`): once they are
    captured the space they leave makes one eye, and the vital point kills it.

    Playouts that never throw stones in count a group with one big eye, or with two
    liberties shared with the stones inside it, as alive when it is dead; the playouts that
    judge a pass (`playout_wins`) throw in, so the player does not pass into a count that
    any reader of the position (GNU Go's `final_score`) reads the other way. The search's
    own playouts do not (`simulate`).
    """
    w = b[META, M_WIDTH]
    enemy = 3 - color
    stones = np.empty(NAKADE_MAX, np.int64)
    stones[0] = p
    n = 1
    liberty = -1
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if c == EMPTY:
            if liberty >= 0 and q != liberty:
                return False  # two liberties: not a self-atari
            liberty = q
        elif c == enemy:
            if in_atari(b, b[HEAD, q]):
                return False  # a capture: not a throw-in
        elif c == color:
            h = b[HEAD, q]
            seen = False
            for i in range(1, n):
                if b[HEAD, stones[i]] == h:
                    seen = True
            if seen:
                continue
            s = h
            while True:
                if n == NAKADE_MAX:
                    return False
                stones[n] = s
                n += 1
                s = b[NEXT, s]
                if s == h:
                    break
    for i in range(1, n):
        for r in (stones[i] - w, stones[i] - 1, stones[i] + 1, stones[i] + w):
            if r != p and b[COLOR, r] == EMPTY:
                if liberty >= 0 and r != liberty:
                    return False
                liberty = r
    if liberty < 0:
        return False
    for r in (liberty - w, liberty - 1, liberty + 1, liberty + w):
        if r == p:
            continue
        c = b[COLOR, r]
        if c == EMPTY:
            return False  # the chain could gain liberties there instead
        if c == color:
            inside = False
            for i in range(n):
                inside |= stones[i] == r
            if not inside:
                return False  # or connect to another chain
    return dead_shape(b, stones, n)


@kernel
def dead_shape(b: Ints, points: Ints, n: int) -> bool:
    """Whether n points of board b (padded, n <= 6) make an eye space that one vital point
    reduces to a single eye: up to three points in any shape, the square and the T of four,
    the bent four whose bend is the corner point (dead, or a ko, in every ruleset's
    reading), the bulky and the cross of five, the rabbity six - told apart by how many of
    the points have 1, 2, 3 or 4 neighbours inside the shape."""
    if n <= 3:
        return True
    w = b[META, M_WIDTH]
    degrees = np.zeros(5, np.int64)
    corner_bend = False
    for i in range(n):
        d = 0
        across = False
        along = False
        for j in range(n):
            gap = abs(points[i] - points[j])
            if gap == 1:
                d += 1
                across = True
            elif gap == w:
                d += 1
                along = True
        degrees[d] += 1
        if d == 2 and across and along:
            edges = 0
            for q in (points[i] - w, points[i] - 1, points[i] + 1, points[i] + w):
                edges += b[COLOR, q] == OFF
            corner_bend |= edges == 2
    if n == 4:
        return bool(degrees[2] == 4 or degrees[3] == 1 or (degrees[1] == 2 and corner_bend))
    if n == 5:
        return bool((degrees[3] == 1 and degrees[1] == 1) or degrees[4] == 1)  # bulky, cross
    if n == 6:
        return bool(degrees[4] == 1 and degrees[2] == 3)  # rabbity six
    return False


@kernel
def pattern_code(b: Ints, p: int) -> int:
    """The 3x3 neighbourhood of p as 8 two-bit colours in reading order (see patterns.py)."""
    w = b[META, M_WIDTH]
    return int(
        b[COLOR, p - w - 1]
        | (b[COLOR, p - w] << 2)
        | (b[COLOR, p - w + 1] << 4)
        | (b[COLOR, p - 1] << 6)
        | (b[COLOR, p + 1] << 8)
        | (b[COLOR, p + w - 1] << 10)
        | (b[COLOR, p + w] << 12)
        | (b[COLOR, p + w + 1] << 14)
    )


@kernel
def point_owner(b: Ints, p: int, w: int) -> int:
    """Who a point of a finished playout counts for: the colour of its stone, or of all the
    neighbours of an empty point; EMPTY for an empty point that touches both colours."""
    c = b[COLOR, p]
    if c != EMPTY:
        return int(c)
    seen = 0
    for q in (p - w, p - 1, p + 1, p + w):
        seen |= 1 << b[COLOR, q]
    seen &= (1 << BLACK) | (1 << WHITE)
    if seen == 1 << BLACK:
        return BLACK
    if seen == 1 << WHITE:
        return WHITE
    return EMPTY


@kernel
def black_wins(b: Ints, komi: float) -> float:
    """Area score of a finished playout: stones plus empty points whose neighbours are all of
    one colour (what is left empty after a playout is eyes and the odd seki liberty).
    1.0 if black wins, 0.0 if white does, 0.5 for a draw."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    score = 0
    for row in range(1, size + 1):
        for column in range(1, size + 1):
            owner = point_owner(b, row * w + column, w)
            if owner == BLACK:
                score += 1
            elif owner == WHITE:
                score -= 1
    margin = score - komi
    if margin > 0:
        return 1.0
    if margin < 0:
        return 0.0
    return 0.5


# -- the playout policy --------------------------------------------------------------------------


@kernel
def random_move(
    b: Ints, color: int, rng: Words, heavy: bool | np.bool_, throw_ins: bool | np.bool_
) -> int:
    """A uniformly random legal move that does not fill an own eye (heavy: nor puts a chain
    of two or more stones into atari - unless, with `throw_ins`, it is a `nakade` - and a
    lone stone only half the time), or PASS.

    Tries the empty points in random order without repetition: a refused point is swapped
    behind the ones still to try (EMPTIES is an unordered set, so that is harmless).
    """
    left = b[META, M_NEMPTY]
    while left > 0:
        slot = rand_below(rng, left)
        p = b[EMPTIES, slot]
        ok = is_legal(b, p, color) and not is_eye(b, p, color)
        if ok and heavy:
            liberties, stones = liberties_after(b, p, color)
            if liberties < 2:
                if stones > 1:
                    ok = bool(throw_ins) and nakade(b, p, color)
                else:
                    ok = rand_unit(rng) >= PROB_REJECT_SINGLE_SELF_ATARI
        if ok:
            return int(p)
        left -= 1
        other = b[EMPTIES, left]
        b[EMPTIES, slot] = other
        b[EMPTIES, left] = p
        b[EPOS, other] = slot
        b[EPOS, p] = left
    return PASS


@kernel
def add_candidate(work: Ints, count: Int, p: int, kind: Int) -> Int:
    for i in range(count):
        if work[W_CAND, i] == p:
            return count
    work[W_CAND, count] = p
    work[W_KIND, count] = kind
    return count + 1


@kernel
def atari_candidates(b: Ints, around: int, color: int, work: Ints, count: Int) -> Int:
    """Append the captures and atari escapes for chains on or next to `around` (its 3x3):
    the liberty of an enemy chain in atari; for an own chain in atari, its liberty (an escape,
    checked later) and the liberties of enemy chains in atari touching it (counter-captures)."""
    w = b[META, M_WIDTH]
    enemy = 3 - color
    capture = np.int64(K_CAPTURE)
    escape = np.int64(K_ESCAPE)
    for q in (
        around,
        around - w - 1,
        around - w,
        around - w + 1,
        around - 1,
        around + 1,
        around + w - 1,
        around + w,
        around + w + 1,
    ):
        c = b[COLOR, q]
        if not EMPTY < c < OFF:
            continue
        h = b[HEAD, q]
        if not in_atari(b, h):
            continue
        if c == enemy:
            count = add_candidate(work, count, atari_liberty(b, h), capture)
            continue
        count = add_candidate(work, count, atari_liberty(b, h), escape)
        s = h
        while True:
            for r in (s - w, s - 1, s + 1, s + w):
                if b[COLOR, r] == enemy:
                    hh = b[HEAD, r]
                    if in_atari(b, hh):
                        count = add_candidate(work, count, atari_liberty(b, hh), capture)
            s = b[NEXT, s]
            if s == h:
                break
    return count


@kernel
def note_head(h: Int, h0: Int, h1: Int) -> tuple[bool, Int, Int]:
    """Whether chain head `h` is new to the pair of heads seen so far (-1: none yet), and
    the pair with it noted; a third replaces the second, so a chain may be looked at twice
    (harmless: candidates are added once)."""
    if h in (h0, h1):
        return False, h0, h1
    if h0 < 0:
        return True, h, h1
    return True, h0, h


@kernel
def three_liberties_after(b: Ints, p: int, color: int) -> bool:
    """Whether the chain a legal move at p would make has three or more liberties (capturing
    two or more stones counts as plenty, as in `liberties_after`)."""
    w = b[META, M_WIDTH]
    enemy = 3 - color
    l0 = -1
    l1 = -1
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if c == enemy and in_atari(b, b[HEAD, q]):
            if b[SIZE, b[HEAD, q]] > 1:
                return True
            c = EMPTY  # the captured stone's point becomes a liberty
        if c == EMPTY and q != l0 and q != l1:
            if l0 < 0:
                l0 = q
            elif l1 < 0:
                l1 = q
            else:
                return True
    h0: Int = -1
    h1: Int = -1
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] != color:
            continue
        h = b[HEAD, q]
        new, h0, h1 = note_head(h, h0, h1)
        if not new:
            continue
        s = h
        while True:
            for r in (s - w, s - 1, s + 1, s + w):
                if r != p and b[COLOR, r] == EMPTY and r != l0 and r != l1:
                    if l0 < 0:
                        l0 = r
                    elif l1 < 0:
                        l1 = r
                    else:
                        return True
            s = b[NEXT, s]
            if s == h:
                break
    return False


@kernel
def connects_out(b: Ints, p: int, owner: int, head: int) -> bool:
    """Whether empty p touches a chain of `owner` other than `head`'s that has two or more
    liberties (playing p would join it)."""
    w = b[META, M_WIDTH]
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == owner and b[HEAD, q] != head and not in_atari(b, b[HEAD, q]):
            return True
    return False


@kernel
def miai_safe(b: Ints, head: int, libs: Ints) -> bool:
    """Whether a two-liberty chain (liberties libs[0], libs[1]) cannot be harmed by an atari:
    one liberty joins a safe own chain and the other does too, or has an empty neighbour
    besides the first to run to (after Pachi's `miai_2lib`)."""
    w = b[META, M_WIDTH]
    owner = b[COLOR, head]
    for i in range(2):
        here = libs[i]
        there = libs[1 - i]
        if not connects_out(b, here, owner, head):
            continue
        if connects_out(b, there, owner, head):
            return True
        for q in (there - w, there - 1, there + 1, there + w):
            if q != here and b[COLOR, q] == EMPTY:
                return True
    return False


@kernel
def atari_moves(b: Ints, head: int, libs: Ints, color: int, work: Ints, count: Int) -> Int:
    """Append the two liberties of the chain `head` as `color`'s moves on them: ataris if the
    chain is the enemy's (they must not be self-ataris), extensions if it is `color`'s own
    (they must reach three liberties)."""
    kind = np.int64(K_EXTEND) if b[COLOR, head] == color else np.int64(K_ESCAPE)
    count = add_candidate(work, count, libs[0], kind)
    return add_candidate(work, count, libs[1], kind)


@kernel
def two_liberty_candidates(b: Ints, around: int, color: int, work: Ints, count: Int) -> Int:
    """Append `color`'s moves in the fights of two-liberty chains at `around` (the last move):
    its own chain and the chains next to it that have exactly two liberties and are not
    `miai_safe` - an enemy's is put in atari, an own one extends; and for an own chain, the
    enemy chains touching it are captured (in atari) or put in atari (two liberties) first.
    After Pachi's moggy playouts (`local_2lib_check`)."""
    w = b[META, M_WIDTH]
    enemy = 3 - color
    libs = work[W_LIBS]
    seen0: Int = -1
    seen1: Int = -1
    for q in (around, around - w, around - 1, around + 1, around + w):
        if not EMPTY < b[COLOR, q] < OFF:
            continue
        h = b[HEAD, q]
        new, seen0, seen1 = note_head(h, seen0, seen1)
        if not new:
            continue
        if chain_liberties(b, h, libs) != 2 or miai_safe(b, h, libs):
            continue
        count = atari_moves(b, h, libs, color, work, count)
        if b[COLOR, h] == enemy:
            continue
        s = h
        while True:
            for r in (s - w, s - 1, s + 1, s + w):
                if b[COLOR, r] != enemy:
                    continue
                hh = b[HEAD, r]
                if in_atari(b, hh):
                    count = add_candidate(work, count, atari_liberty(b, hh), np.int64(K_CAPTURE))
                elif chain_liberties(b, hh, libs) == 2:
                    count = atari_moves(b, hh, libs, color, work, count)
            s = b[NEXT, s]
            if s == h:
                break
    return count


@kernel
def pick_candidate(b: Ints, color: int, rng: Words, work: Ints, count: Int) -> int:
    """A random acceptable candidate of W_CAND[:count], or PASS if none is: captures need only
    be legal; escapes, ataris and shape moves must leave two liberties, extensions three."""
    while count > 0:
        i = rand_below(rng, count)
        p = work[W_CAND, i]
        kind = work[W_KIND, i]
        if is_legal(b, p, color) and not is_eye(b, p, color):
            if kind == K_CAPTURE:
                return int(p)
            if kind == K_EXTEND:
                if three_liberties_after(b, p, color):
                    return int(p)
            else:
                liberties, _ = liberties_after(b, p, color)
                if liberties >= 2:
                    return int(p)
        count -= 1
        work[W_CAND, i] = work[W_CAND, count]
        work[W_KIND, i] = work[W_KIND, count]
    return PASS


@kernel
def heavy_move(
    b: Ints, color: int, rng: Words, pat3: Flags, work: Ints, replies: bool | np.bool_,
    throw_ins: bool | np.bool_,
) -> int:
    """The heuristic playout policy: answer the last two moves locally - capture or escape
    from atari; else (on small boards) fight for the two-liberty chains at the last move
    (`two_liberty_candidates`); else, with `replies`, the last good reply to the last move
    (`learn_replies`) if it is legal and keeps two liberties; else a good 3x3 shape next to
    them - and otherwise a random move."""
    w = b[META, M_WIDTH]
    last = b[META, M_LAST]
    last2 = b[META, M_LAST2]
    if last != PASS or last2 != PASS:
        if rand_unit(rng) < PROB_CAPTURE:
            count: Int = np.int64(0)
            if last != PASS:
                count = atari_candidates(b, last, color, work, count)
            if last2 != PASS:
                count = atari_candidates(b, last2, color, work, count)
            if count > 0:
                p = pick_candidate(b, color, rng, work, count)
                if p != PASS:
                    return p
        if (last != PASS and b[META, M_SIZE] <= TWO_LIBERTIES_MAX_SIZE
                and rand_unit(rng) < PROB_TWO_LIBERTIES):
            count = two_liberty_candidates(b, last, color, work, np.int64(0))
            if count > 0:
                p = pick_candidate(b, color, rng, work, count)
                if p != PASS:
                    return p
        if replies and last != PASS:
            reply = work[W_REPLY + color - 1, last]
            if (reply != PASS and b[COLOR, reply] == EMPTY and is_legal(b, reply, color)
                    and not is_eye(b, reply, color)):
                liberties, _ = liberties_after(b, reply, color)
                if liberties >= 2:
                    return int(reply)
        if rand_unit(rng) < PROB_PATTERN:
            count = np.int64(0)
            for around in (last, last2):
                if around == PASS:
                    continue
                for q in (
                    around - w - 1,
                    around - w,
                    around - w + 1,
                    around - 1,
                    around + 1,
                    around + w - 1,
                    around + w,
                    around + w + 1,
                ):
                    if b[COLOR, q] == EMPTY and pat3[pattern_code(b, q)]:
                        count = add_candidate(work, count, q, np.int64(K_ESCAPE))
            if count > 0:
                p = pick_candidate(b, color, rng, work, count)
                if p != PASS:
                    return p
    return random_move(b, color, rng, np.bool_(True), throw_ins)


@kernel
def playout(
    b: Ints, heavy: bool, rng: Words, pat3: Flags, work: Ints, komi: float,
    replies: bool | np.bool_, throw_ins: bool | np.bool_,
) -> float:
    """Play on from b (changed in place) to two passes or the move cap and score it; record in
    W_AMAF who played each point first and, with `replies` (heavy playouts only), learn from
    the result which replies won (`learn_replies`); with `throw_ins` (heavy only), play
    nakade self-ataris (`nakade`). Returns 1.0 if black wins, 0.5 draw, 0.0 white."""
    size = b[META, M_SIZE]
    limit = MAX_MOVES_PER_POINT * size * size
    moves = 0
    replies = replies and heavy
    seq = work[W_SEQ]
    seq[0] = b[META, M_LAST]
    first = b[META, M_TOMOVE]
    while b[META, M_PASSES] < 2 and moves < limit:
        color = b[META, M_TOMOVE]
        if heavy:
            p = heavy_move(b, color, rng, pat3, work, replies, throw_ins)
        else:
            p = random_move(b, color, rng, heavy, throw_ins)
        if p == PASS:
            pass_move(b)
        else:
            play(b, p, color)
            if work[W_AMAF, p] == 0:
                work[W_AMAF, p] = color
        moves += 1
        seq[moves] = p
    result = black_wins(b, komi)
    if replies:
        learn_replies(work, moves, first, result)
    return result


@kernel
def learn_replies(work: Ints, moves: int, first: int, result: float) -> None:
    """Last good reply with forgetting (Baier & Drake, 2010), for the playout just played
    (W_SEQ[1..moves], `first` to move first, W_SEQ[0] the move before): each move of the
    winner becomes its colour's reply to the move before it; a loser's move that was the
    stored reply is forgotten. The table lives for one search (one `work` array)."""
    if result == 0.5:
        return
    winner = BLACK if result > 0.5 else WHITE
    seq = work[W_SEQ]
    color = first
    for i in range(1, moves + 1):
        previous = seq[i - 1]
        move = seq[i]
        if previous != PASS and move != PASS:
            row = W_REPLY + color - 1
            if color == winner:
                work[row, previous] = move
            elif work[row, previous] == move:
                work[row, previous] = PASS
        color = 3 - color


@kernel
def run_playouts(
    root: Ints, count: int, heavy: bool, rng: Words, pat3: Flags, work: Ints, komi: float
) -> int:
    """`count` playouts from `root` (left unchanged); returns the moves played (benchmarks)."""
    b = root.copy()
    moves = 0
    for _ in range(count):
        b[:, :] = root
        playout(b, heavy, rng, pat3, work, komi, heavy, np.bool_(False))
        moves += b[META, M_MOVES] - root[META, M_MOVES]
    return moves


@kernel
def playout_wins(
    root: Ints, count: int, rng: Words, pat3: Flags, work: Ints, komi: float
) -> float:
    """Black's wins (a draw counts half) in `count` heavy playouts with nakade throw-ins from
    `root` (unchanged); each playout's final owners are added to work[W_OWNER]
    (`add_owners`). The player's judgement of a pass (`player.MctsPlayer.judge_pass`)."""
    b = root.copy()
    wins = 0.0
    for _ in range(count):
        b[:, :] = root
        wins += playout(b, True, rng, pat3, work, komi, np.bool_(False), np.bool_(True))
        add_owners(b, work[W_OWNER])
    return wins


# -- the tree ------------------------------------------------------------------------------------


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
def empty_area(b: Ints, p: int, radius: int) -> bool:
    """Whether no stone lies within Manhattan distance `radius` of p."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    row = p // w
    column = p % w
    for dr in range(-radius, radius + 1):
        r = row + dr
        if r < 1 or r > size:
            continue
        span = radius - abs(dr)
        for dc in range(-span, span + 1):
            c = column + dc
            if 1 <= c <= size and b[COLOR, r * w + c] != EMPTY:
                return False
    return True


@kernel
def cfg_distances(b: Ints, work: Ints, limit: int) -> None:
    """W_DIST: distance from the last move in the common fate graph (a chain is one node, so
    a point next to any stone of the last move's chain is at distance 1), up to `limit`;
    farther points (and all points when the last move was a pass) get limit + 1."""
    w = b[META, M_WIDTH]
    dist = work[W_DIST]
    queue = work[W_QUEUE]
    far = limit + 1
    dist[: b.shape[1]] = far
    last = b[META, M_LAST]
    if last == PASS or b[COLOR, last] == EMPTY:
        return
    tail = 0
    s = last
    while True:  # the whole chain of the last move is at distance 0
        dist[s] = 0
        queue[tail] = s
        tail += 1
        s = b[NEXT, s]
        if s == last:
            break
    head = 0
    while head < tail:
        x = queue[head]
        head += 1
        d = dist[x] + 1
        if d > limit:
            continue
        for q in (x - w, x - 1, x + 1, x + w):
            c = b[COLOR, q]
            if c == OFF or dist[q] <= d:
                continue
            if c == EMPTY:
                dist[q] = d
                queue[tail] = q
                tail += 1
            else:
                h = b[HEAD, q]
                s = h
                while True:
                    dist[s] = d
                    queue[tail] = s
                    tail += 1
                    s = b[NEXT, s]
                    if s == h:
                        break


@kernel
def chain_liberties(b: Ints, h: int, out: Ints) -> int:
    """The liberties of the chain with head `h`, up to three, written to out[0..2]; returns
    how many were found (3 means three or more)."""
    w = b[META, M_WIDTH]
    n = 0
    s = h
    while True:
        for r in (s - w, s - 1, s + 1, s + w):
            if b[COLOR, r] != EMPTY or (n > 0 and out[0] == r) or (n > 1 and out[1] == r):
                continue
            out[n] = r
            n += 1
            if n == 3:
                return 3
        s = b[NEXT, s]
        if s == h:
            return n


@kernel
def escapes(b: Ints, stone: int, budget: Ints) -> bool:
    """Whether the chain at `stone`, in atari with its owner to move, gets out of a ladder.

    The owner escapes by capturing an attacking chain in atari next to it, or by extending
    to its liberty and reaching three liberties; with two, the attacker tries an atari at
    each (a stone that is itself left in atari does not count) and the owner reads on.
    Conservative where it cannot read: past `budget[0]` positions it says the chain escapes.
    """
    budget[0] -= 1
    if budget[0] < 0:
        return True
    w = b[META, M_WIDTH]
    h = b[HEAD, stone]
    owner = b[COLOR, stone]
    attacker = 3 - owner
    s = h
    while True:
        for r in (s - w, s - 1, s + 1, s + w):
            if b[COLOR, r] == attacker and in_atari(b, b[HEAD, r]):
                return True
        s = b[NEXT, s]
        if s == h:
            break
    liberty = atari_liberty(b, h)
    if not is_legal(b, liberty, owner):
        return False
    c = b.copy()
    play(c, liberty, owner)
    libs = np.zeros(3, np.int64)
    n = chain_liberties(c, c[HEAD, stone], libs)
    if n >= 3:
        return True
    if n <= 1:
        return False
    for i in range(2):
        a = libs[i]
        if not is_legal(c, a, attacker):
            continue
        d = c.copy()
        play(d, a, attacker)
        if in_atari(d, d[HEAD, a]) or not in_atari(d, d[HEAD, stone]):
            continue
        if not escapes(d, stone, budget):
            return False
    return True


@kernel
def ladder_capture(b: Ints, p: int, color: int) -> int:
    """Stones that a legal move at p by `color` puts in atari and captures in a ladder
    (`escapes` says they cannot get out), or 0."""
    w = b[META, M_WIDTH]
    enemy = 3 - color
    libs = np.zeros(3, np.int64)
    budget = np.zeros(1, np.int64)
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] != enemy or chain_liberties(b, b[HEAD, q], libs) != 2:
            continue
        c = b.copy()
        play(c, p, color)
        if c[COLOR, q] != enemy or in_atari(c, c[HEAD, p]) or not in_atari(c, c[HEAD, q]):
            continue
        budget[0] = LADDER_BUDGET
        if not escapes(c, q, budget):
            return int(c[SIZE, c[HEAD, q]])
    return 0


@kernel
def lost_escape(b: Ints, p: int, color: int) -> bool:
    """Whether p is the liberty of an own chain in atari that extending there cannot save:
    the ladder catches it (`escapes`)."""
    w = b[META, M_WIDTH]
    budget = np.zeros(1, np.int64)
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == color and in_atari(b, b[HEAD, q]):
            budget[0] = LADDER_BUDGET
            if not escapes(b, q, budget):
                return True
    return False


@kernel
def atari_features(b: Ints, color: int, work: Ints) -> None:
    """W_CAPT[p]: stones a move at p captures; W_ESC[p]: size of the largest own chain in
    atari that a move at p saves by extending or by capturing a neighbour."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    enemy = 3 - color
    capt = work[W_CAPT]
    esc = work[W_ESC]
    capt[: b.shape[1]] = 0
    esc[: b.shape[1]] = 0
    for row in range(1, size + 1):
        for column in range(1, size + 1):
            h = row * w + column
            c = b[COLOR, h]
            if not EMPTY < c < OFF or b[HEAD, h] != h or not in_atari(b, h):
                continue
            liberty = atari_liberty(b, h)
            if c == enemy:
                capt[liberty] += b[SIZE, h]
                continue
            esc[liberty] = max(esc[liberty], b[SIZE, h])
            s = h
            while True:
                for r in (s - w, s - 1, s + 1, s + w):
                    if b[COLOR, r] == enemy and in_atari(b, b[HEAD, r]):
                        other = atari_liberty(b, b[HEAD, r])
                        esc[other] = max(esc[other], b[SIZE, h])
                s = b[NEXT, s]
                if s == h:
                    break


@kernel
def move_distance(a: int, p: int, w: int) -> int:
    """Coulom's distance between two padded points: dx + dy + max(dx, dy) (adjacent is 2,
    diagonal 3, a one-point jump 4, a knight's move 5)."""
    dx = abs(a % w - p % w)
    dy = abs(a // w - p // w)
    return dx + dy + max(dx, dy)


@kernel
def move_features(b: Ints, p: int, color: int, work: Ints, out: Ints) -> None:
    """The feature values of a legal move at p by `color` (the player to move), as indices
    into the gamma vector: out[0] tactic (F_TACTIC + FT_*), out[1] distance to the last move,
    out[2] to the move before, out[3] place on the board and empty area. Needs
    `atari_features(b, color, work)` first. The 3x3 pattern is `pattern_code(b, p)`, looked
    up separately."""
    w = b[META, M_WIDTH]
    size = b[META, M_SIZE]
    enemy = 3 - color
    capt = work[W_CAPT, p]
    esc = work[W_ESC, p]
    tactic = FT_NONE
    liberties, stones = liberties_after(b, p, color)
    if capt > 0:
        tactic = FT_CAPTURE_SAVES if esc > 0 else FT_CAPTURE_ONE if capt == 1 else FT_CAPTURE_MANY
    elif liberties < 2:
        tactic = FT_SELF_ATARI_ONE if stones == 1 else FT_SELF_ATARI_MANY
    elif esc > 0:
        if lost_escape(b, p, color):
            tactic = FT_ESCAPE_LOST
        else:
            tactic = FT_ESCAPE_ONE if esc == 1 else FT_ESCAPE_MANY
    elif ladder_capture(b, p, color) > 0:
        tactic = FT_LADDER_ATARI
    else:
        libs = np.zeros(3, np.int64)
        for q in (p - w, p - 1, p + 1, p + w):
            if b[COLOR, q] == enemy and chain_liberties(b, b[HEAD, q], libs) == 2:
                tactic = FT_ATARI
                break
    out[0] = F_TACTIC + tactic
    for k in range(2):
        last = b[META, M_LAST + k]
        offset = F_DIST if k == 0 else F_DIST2
        if last == PASS:
            out[1 + k] = offset
        else:
            d = move_distance(last, p, w)
            out[1 + k] = offset + (1 if d >= FAR else d)
    out[3] = F_PLACE + 2 * board_place(p, size, w) + (1 if empty_area(b, p, 3) else 0)


@kernel
def spatial_hashes(b: Ints, p: int, color: int, colors: Ints, out: Ints) -> None:
    """out[i]: the hash of the spatial pattern of size SPATIAL_SIZES[i] around p, for `color`
    to move - the smallest of its 8 symmetric variants' Zobrist hashes, salted by the size, so
    a shape has one hash in every orientation. `colors` is scratch of SPATIAL_POINTS."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    row = p // w
    column = p % w
    enemy = 3 - color
    for k in range(SPATIAL_POINTS):
        r = row + SP_DY[k]
        c = column + SP_DX[k]
        if r < 1 or r > size or c < 1 or c > size:
            colors[k] = OFF
        else:
            stone = b[COLOR, r * w + c]
            colors[k] = 1 if stone == color else 2 if stone == enemy else EMPTY
    h0 = h1 = h2 = h3 = h4 = h5 = h6 = h7 = np.int64(0)
    k = 0
    for i in range(N_SPATIAL_SIZES):
        while k < SP_ENDS[i]:
            h0 ^= SP_ZOBRIST[k, colors[SP_PERM[0, k]]]
            h1 ^= SP_ZOBRIST[k, colors[SP_PERM[1, k]]]
            h2 ^= SP_ZOBRIST[k, colors[SP_PERM[2, k]]]
            h3 ^= SP_ZOBRIST[k, colors[SP_PERM[3, k]]]
            h4 ^= SP_ZOBRIST[k, colors[SP_PERM[4, k]]]
            h5 ^= SP_ZOBRIST[k, colors[SP_PERM[5, k]]]
            h6 ^= SP_ZOBRIST[k, colors[SP_PERM[6, k]]]
            h7 ^= SP_ZOBRIST[k, colors[SP_PERM[7, k]]]
            k += 1
        low = min(min(min(h0, h1), min(h2, h3)), min(min(h4, h5), min(h6, h7)))
        out[i] = (low ^ SP_SALTS[i]) | 1  # odd: never 0, the empty slot of a table


@kernel
def spatial_feature(hashes: Ints, table: Ints) -> int:
    """The gamma index (F_SPATIAL + ...) of the largest pattern among `hashes` (as
    `spatial_hashes` gives them) that the open-addressing `table` holds - row 0 the hashes,
    0 for an empty slot, row 1 the gamma indices, a power of two wide - or F_SPATIAL."""
    mask = table.shape[1] - 1
    for i in range(hashes.shape[0] - 1, -1, -1):
        key = hashes[i]
        slot = key & mask
        while True:
            found = table[0, slot]
            if found == 0:
                break
            if found == key:
                return int(table[1, slot])
            slot = (slot + 1) & mask
    return F_SPATIAL


@kernel
def board_place(p: Int, size: Int, w: Int) -> int:
    """Where p lies as its lines from the nearer edges across and along, the smaller first,
    each counted up to 5 (the centre): 0 for the corner point 1-1, ... 14 for 5-5 and beyond -
    so the 3-4 point, the 4-4 point and the third line each have a value of their own."""
    row = p // w
    column = p % w
    a = min(row, size + 1 - row, 5)
    c = min(column, size + 1 - column, 5)
    low = min(a, c)
    high = max(a, c)
    # pairs (low, high) with 1 <= low <= high <= 5, numbered row by row
    return int((low - 1) * (12 - low) // 2 + (high - low))


@kernel
def candidate(b: Ints, p: int, color: int, mask: Ints, use_mask: bool) -> bool:
    """Whether the search considers a move at p: empty, allowed by the mask (at the root),
    legal, and not filling an own eye - the candidates of `expand` and of the training."""
    if b[COLOR, p] != EMPTY or (use_mask and mask[p] == 0):
        return False
    return is_legal(b, p, color) and not is_eye(b, p, color)


@kernel
def position_features(b: Ints, work: Ints, spatial: Ints, out: Ints) -> int:
    """Every candidate move of the player to move as a row of `out`: (point, 3x3 pattern code,
    the four `move_features`, its `spatial_feature` in the table `spatial`, then its
    N_SPATIAL_SIZES `spatial_hashes`). Returns the number of rows. The training reads
    positions through this (bench/train_patterns.py), so it sees exactly what `expand` sees."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    color = b[META, M_TOMOVE]
    atari_features(b, color, work)
    ids = np.zeros(4, np.int64)
    colors = np.empty(SPATIAL_POINTS, np.int64)
    hashes = np.empty(N_SPATIAL_SIZES, np.int64)
    count = 0
    for row in range(1, size + 1):
        for column in range(1, size + 1):
            p = row * w + column
            if not candidate(b, p, color, work[W_MASK], False):
                continue
            move_features(b, p, color, work, ids)
            spatial_hashes(b, p, color, colors, hashes)
            out[count, 0] = p
            out[count, 1] = pattern_code(b, p)
            out[count, 2:6] = ids
            out[count, FEATURE_SPATIAL] = spatial_feature(hashes, spatial)
            out[count, FEATURE_HASHES:FEATURE_COLUMNS] = hashes
            count += 1
    return count


@kernel
def hand_prior(
    b: Ints, p: int, row: int, column: int, color: int, params: Floats, pat3: Flags,
    work: Ints,
) -> tuple[float, float]:
    """The hand-made heuristics' prior (visits, wins) for a candidate move at p: losses for
    self-atari, empty first/second-line moves and running in a lost ladder,
    wins for captures, atari escapes, ataris that capture in a ladder, 3x3 shapes, nearness
    to the last move and the third line in an empty area. Needs `atari_features` and
    `cfg_distances` first."""
    size = b[META, M_SIZE]
    capt = work[W_CAPT]
    esc = work[W_ESC]
    pv = 0.0
    pw = 0.0
    liberties, _ = liberties_after(b, p, color)
    if capt[p] > 0:
        bonus = params[P_PRIOR_CAPTURE_ONE if capt[p] == 1 else P_PRIOR_CAPTURE_MANY]
        pv += bonus
        pw += bonus
    elif liberties < 2:
        pv += params[P_PRIOR_SELF_ATARI]
    elif esc[p] > 0:
        if lost_escape(b, p, color):
            pv += params[P_PRIOR_SELF_ATARI]  # running in a lost ladder
        else:
            bonus = params[P_PRIOR_CAPTURE_ONE if esc[p] == 1 else P_PRIOR_CAPTURE_MANY]
            pv += bonus
            pw += bonus
    else:
        caught = ladder_capture(b, p, color)
        if caught > 0:
            bonus = params[P_PRIOR_CAPTURE_ONE if caught == 1 else P_PRIOR_CAPTURE_MANY]
            pv += bonus
            pw += bonus
    if pat3[pattern_code(b, p)]:
        pv += params[P_PRIOR_PATTERN]
        pw += params[P_PRIOR_PATTERN]
    d = work[W_DIST, p]
    if 1 <= d <= 3:
        bonus = params[P_PRIOR_CFG1 + d - 1]
        pv += bonus
        pw += bonus
    line = min(row, column, size + 1 - row, size + 1 - column)  # 1 = the edge
    if line <= 3 and empty_area(b, p, 3):
        pv += params[P_PRIOR_EMPTY_AREA]
        if line == 3:
            pw += params[P_PRIOR_EMPTY_AREA]
    return pv, pw


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
    """Give `node` (whose position is b) one child per `candidate` move - or a single pass
    child when there is none - each with prior experience: PRIOR_EVEN playouts at even odds,
    plus the hand-made heuristics (`hand_prior`), plus with P_PRIOR_GAMMA the trained move
    features: a move's strength gamma is the product of its features'
    gammas (its 3x3 pattern from row color-1 of `gammas`, the rest from row 2, its large
    spatial pattern looked up in the hash table `spatial`, skipped when that is empty), its
    probability p = gamma / (sum over the candidates), and it gets P_PRIOR_GAMMA * sqrt(p)
    virtual wins - the square root keeps second choices alive, as the features predict the
    expert's move only a third of the time. The children are stored likeliest first (by p,
    or by prior win rate without the trained features), the order `width` widens in. With
    `use_mask`, only W_MASK points are considered (the root)."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    color = b[META, M_TOMOVE]
    atari_features(b, color, work)
    cfg_distances(b, work, 3)
    mask = work[W_MASK]
    even = params[P_PRIOR_EVEN]
    weight = params[P_PRIOR_GAMMA]
    points = np.empty(size * size, np.int64)
    visits = np.empty(size * size, np.float64)
    wins = np.empty(size * size, np.float64)
    strength = np.empty(size * size, np.float64)
    ids = np.zeros(4, np.int64)
    large = spatial.shape[1] > 1  # (an empty table: skip the hashing)
    colors = np.empty(SPATIAL_POINTS, np.int64)
    hashes = np.empty(N_SPATIAL_SIZES, np.int64)
    count = 0
    total = 0.0
    for row in range(1, size + 1):
        for column in range(1, size + 1):
            p = row * w + column
            if not candidate(b, p, color, mask, use_mask):
                continue
            dv, dw = hand_prior(b, p, row, column, color, params, pat3, work)
            pv = even + dv
            pw = even / 2 + dw
            if weight > 0.0:
                move_features(b, p, color, work, ids)
                gamma = gammas[color - 1, pattern_code(b, p)]
                for k in range(4):
                    gamma *= gammas[2, ids[k]]
                if large:
                    spatial_hashes(b, p, color, colors, hashes)
                    gamma *= gammas[2, spatial_feature(hashes, spatial)]
                strength[count] = gamma
                total += gamma
            points[count] = p
            visits[count] = pv
            wins[count] = pw
            count += 1
    for k in range(count):
        bonus = weight * np.sqrt(strength[k] / total) if weight > 0.0 else 0.0
        visits[k] += bonus
        wins[k] += bonus
    # Best first, for progressive widening (`width`): by the trained model's probability
    # when it is on, else by prior value; ties keep board order.
    if weight > 0.0:
        order = np.argsort(-strength[:count], kind="mergesort")
    else:
        order = np.argsort(-(wins[:count] / visits[:count]), kind="mergesort")
    first = tmeta[TM_USED]
    for k in range(count):
        j = order[k]
        init_node(ti, tf, first + k, points[j], node, color, visits[j], wins[j])
    attach_children(ti, tf, tmeta, node, first, count, color, even)


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
            # Heavy playouts replaying the last good replies, without throw-ins (`nakade`):
            # with them 13x13 fell from 17 / 20 to 14 / 20 against GNU Go level 10 on the
            # same seeds (docs/go-experiments.md); the playouts judging a pass throw in.
            result = playout(b, True, rng, pat3, work, komi, np.bool_(True), np.bool_(False))
        backup(ti, tf, work, depth, result)
        add_owners(b, work[W_OWNER])
    return count


@kernel
def add_owners(b: Ints, owners: Ints) -> None:
    """Add each point's owner at the end of a simulation to `owners`: +1 black, -1 white, 0
    for neither - stones, and empty points all of whose neighbours are one colour's, as
    `black_wins` counts them. Summed over a search, it is the search's own ownership map and
    score estimate (`player._score_lead`)."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    for row in range(1, size + 1):
        for column in range(1, size + 1):
            p = row * w + column
            owner = point_owner(b, p, w)
            if owner == BLACK:
                owners[p] += 1
            elif owner == WHITE:
                owners[p] -= 1


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
