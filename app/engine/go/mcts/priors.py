"""What a new node's moves are worth before any playout: the hand-made heuristics
(`hand_prior`) and the trained move features (`move_features`, `spatial_hashes`), combined by
`move_priors` for the tree walk's `expand`; `position_features` gives the training
(tools/train_patterns.py) exactly what the search sees.
"""

from __future__ import annotations

import numpy as np

from ..board import EMPTY
from ..coords import PASS
from .fastboard import (
    COLOR,
    HEAD,
    M_LAST,
    M_SIZE,
    M_TOMOVE,
    M_WIDTH,
    META,
    NEXT,
    OFF,
    SIZE,
    atari_liberty,
    chain_liberties,
    in_atari,
    is_eye,
    is_legal,
    liberties_after,
    pattern_code,
)
from .jit import Flags, Floats, Int, Ints, kernel
from .scratch import W_CAPT, W_DIST, W_ESC, W_MASK, W_QUEUE
from .tactics import ladder_capture, lost_escape
from .tuning import (
    P_PRIOR_CAPTURE_MANY,
    P_PRIOR_CAPTURE_ONE,
    P_PRIOR_CFG1,
    P_PRIOR_EMPTY_AREA,
    P_PRIOR_EVEN,
    P_PRIOR_GAMMA,
    P_PRIOR_PATTERN,
    P_PRIOR_SELF_ATARI,
)

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


@kernel
def move_priors(
    b: Ints,
    params: Floats,
    pat3: Flags,
    gammas: Floats,
    spatial: Ints,
    work: Ints,
    use_mask: bool,
    points: Ints,
    visits: Floats,
    wins: Floats,
    strength: Floats,
) -> int:
    """The prior experience of every `candidate` move of the player to move (with `use_mask`,
    only W_MASK points): points[k], visits[k] and wins[k] for the k-th, and strength[k], its
    gamma by the trained features. Returns the number of candidates.

    Each starts with PRIOR_EVEN playouts at even odds, plus the hand-made heuristics
    (`hand_prior`), plus with P_PRIOR_GAMMA the trained move features: a move's strength gamma
    is the product of its features' gammas (its 3x3 pattern from row color-1 of `gammas`, the
    rest from row 2, its large spatial pattern looked up in the hash table `spatial`, skipped
    when that is empty), its probability p = gamma / (sum over the candidates), and it gets
    P_PRIOR_GAMMA * sqrt(p) virtual wins - the square root keeps second choices alive, as the
    features predict the expert's move only a third of the time."""
    size = b[META, M_SIZE]
    w = b[META, M_WIDTH]
    color = b[META, M_TOMOVE]
    atari_features(b, color, work)
    cfg_distances(b, work, 3)
    mask = work[W_MASK]
    even = params[P_PRIOR_EVEN]
    weight = params[P_PRIOR_GAMMA]
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
def move_distance(a: int, p: int, w: int) -> int:
    """Coulom's distance between two padded points: dx + dy + max(dx, dy) (adjacent is 2,
    diagonal 3, a one-point jump 4, a knight's move 5)."""
    dx = abs(a % w - p % w)
    dy = abs(a // w - p // w)
    return dx + dy + max(dx, dy)


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
    positions through this (tools/train_patterns.py), so it sees exactly what `expand` sees."""
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
