"""The array Go board of the search: one int64 array, moves in O(1), exact atari tests.

Where to start reading: `play` (one move), then `is_legal`, `liberties_after` (what a move
would leave) and `black_wins` (the area count at a playout's end). The other rooms of the
search: `tactics` (ladders, nakade, two-liberty fights), `policy` (the playouts), `priors`
(what a new node's moves are worth before any playout), `walk` (the tree walk), `scratch` (the
scratch rows they share), `tuning` (every number that sets how the search plays), `jit` (the
compiler and its cache).

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

import numpy as np

from ..board import BLACK, EMPTY, WHITE
from ..coords import PASS, geometry, parse_vertex
from .jit import Int, Ints, kernel

# The engine's colours and its PASS (-1, never a point: a padded board's points are 0 and up);
# and the padding ring's colour, also the 2-bit "edge" code of the 3x3 patterns:
OFF = 3

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


def padded_point(move: str, size: int) -> int:
    """The padded point of a vertex ("D4"), or PASS for "pass"."""
    if move == "pass":
        return PASS
    point = parse_vertex(move, size)
    return (point // size + 1) * (size + 2) + point % size + 1


def point_name(point: int, size: int) -> str:
    """The vertex ("D4") of a padded point, or "pass" for PASS."""
    if point == PASS:
        return "pass"
    row, column = divmod(point, size + 2)
    return geometry(size).names[(row - 1) * size + column - 1]


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
def eye_shaped(b: Ints, p: int, color: int) -> bool:
    """Whether every neighbour of p is `color`'s stone or the edge (an eye, true or false)."""
    w = b[META, M_WIDTH]
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if c != color and c != OFF:
            return False
    return True


@kernel
def is_eye(b: Ints, p: int, color: int) -> bool:
    """Whether empty p is a true-looking eye of `color`: every neighbour is `color` (or the
    edge) and the diagonals do not make it false (none of the enemy's on the edge, at most
    one in the middle). Filling such a point can only hurt its owner."""
    if not eye_shaped(b, p, color):
        return False
    w = b[META, M_WIDTH]
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


@kernel
def add_owners(b: Ints, owners: Ints) -> None:
    """Add each point's owner at the end of a simulation to `owners`: +1 black, -1 white, 0
    for neither - stones, and empty points all of whose neighbours are one colour's, as
    `black_wins` counts them. Summed over a search, it is the search's own ownership map and
    score estimate (`analysis.score_lead`)."""
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
