"""Tactical reading for the playouts and the priors: ladders (`escapes`, `ladder_capture`,
`lost_escape`), nakade throw-ins (`nakade`, `dead_shape`), the vital point of an eye space
(`vital_point`), a lone stone's self-atari worth playing (`lone_throw_in`), two-liberty
fights (`miai_safe`, `three_liberties_after`). Start with `escapes`, the ladder reader."""

from __future__ import annotations

import numpy as np

from ..board import EMPTY
from ..coords import PASS
from .fastboard import (
    COLOR,
    HEAD,
    M_WIDTH,
    META,
    NEXT,
    OFF,
    SIZE,
    atari_liberty,
    chain_liberties,
    in_atari,
    is_legal,
    play,
)
from .jit import Int, Ints, kernel
from .tuning import LADDER_BUDGET, NAKADE_MAX


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
    own playouts throw in once the board is half full (`walk.simulate`,
    tuning.THROW_INS_EMPTY_SHARE): as random moves, and as the ataris and escapes of their
    local rules (`policy.pick_candidate`), which win races against a group whose last
    liberties are inside its eye.
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
def vital_point(b: Ints, around: int, owner: int, area: Ints) -> int:
    """The point that kills the eye space at `around`, or PASS: the empty area reached from
    empty `around` through empty points must touch no stone but `owner`'s (and the edge),
    hold three to NAKADE_MAX points, and be a shape one stone at its vital point leaves one
    eye - the middle of three, the centre of the T of four, of the bulky and the cross of
    five and of the rabbity six (the point with the most neighbours inside it). `area` is
    scratch for at least NAKADE_MAX points (the playouts call this often: no allocation).
    After Pachi's playouts' nakade check (its `nakade_point`)."""
    w = b[META, M_WIDTH]
    area[0] = around
    n = 1
    i = 0
    while i < n:
        for q in (area[i] - w, area[i] - 1, area[i] + 1, area[i] + w):
            c = b[COLOR, q]
            if c == 3 - owner:
                return PASS
            if c != EMPTY:
                continue
            seen = False
            for j in range(n):
                seen |= area[j] == q
            if seen:
                continue
            if n == NAKADE_MAX:
                return PASS  # too big for one vital point
            area[n] = q
            n += 1
        i += 1
    if n < 3:
        return PASS
    ones = twos = threes = fours = 0  # how many points have 1, 2, 3, 4 neighbours inside
    best = PASS
    most = -1
    for i in range(n):
        d = 0
        for j in range(n):
            gap = abs(area[i] - area[j])
            if gap == 1 or gap == w:
                d += 1
        if d == 1:
            ones += 1
        elif d == 2:
            twos += 1
        elif d == 3:
            threes += 1
        elif d == 4:
            fours += 1
        if d > most:
            most = d
            best = area[i]
    if n == 3:
        return best
    if n == 4:
        return best if threes == 1 else PASS  # the T; the square and the lines have none
    if n == 5:
        return best if (threes == 1 and ones == 1) or fours == 1 else PASS  # bulky, cross
    return best if fours == 1 and twos == 3 else PASS  # rabbity six


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
def lone_throw_in(b: Ints, p: int, color: int) -> bool:
    """Whether a lone stone `color` plays at p (no own stone beside it) that is left with one
    liberty (`liberties_after`) is a self-atari worth playing:

    - it captures (a ko, or a stone whose capture still leaves ours in atari);
    - it puts an enemy chain in atari whose last liberty is the stone's own one, `liberty`
      (no chain beside p keeps a liberty elsewhere), so the enemy can only take the stone
      there, and then
      - `liberty` touches nothing but p, the enemy and the edge: taking fills one point of a
        two-point eye, or
      - it is a snapback: every enemy chain beside `liberty` has no liberty but `liberty` and
        p, none of ours beside it is in atari and it has no other empty neighbour, so the
        chain that takes is left with the one liberty p, and we take the lot back.

    The rest - a lone stone walking into atari - is most often a blunder. (After the cases of
    Pachi's `is_bad_selfatari`, in our own reading.)"""
    w = b[META, M_WIDTH]
    enemy = 3 - color
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == enemy and in_atari(b, b[HEAD, q]):
            return True
    liberty = -1
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == EMPTY:
            liberty = q
    libs = np.empty(3, np.int64)
    atari = False
    for q in (p - w, p - 1, p + 1, p + w):
        if b[COLOR, q] == enemy:
            if chain_liberties(b, b[HEAD, q], libs) != 2:
                continue
            other = libs[0] if libs[1] == p else libs[1]
            if other != liberty:
                return False  # that chain, put in atari, runs out at its other liberty
            atari = True
    if not atari:
        return False
    closed = True
    snapback = True
    for r in (liberty - w, liberty - 1, liberty + 1, liberty + w):
        c = b[COLOR, r]
        if r == p or c == OFF:
            continue
        if c == EMPTY:
            return False  # the enemy need not take: it can run, or we could
        if c == color:
            closed = False
            if in_atari(b, b[HEAD, r]):
                snapback = False  # taking at `liberty` would capture it too
        else:
            n = chain_liberties(b, b[HEAD, r], libs)
            for i in range(n):
                if n == 3 or (libs[i] != liberty and libs[i] != p):
                    snapback = False
    return closed or snapback
