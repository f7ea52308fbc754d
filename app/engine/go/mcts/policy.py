"""The playouts: the heuristic move policy and a game played with it to the end.

Start with `playout` (a position played on to two passes and scored), then `heavy_move`, the
policy: answer the last two moves locally - capture or escape from atari, fight for the
two-liberty chains at the last move, keep an eye from being made false, take the vital point
of an eye space, the last good reply, a good 3x3 shape - and otherwise a random move that
fills no own eye (`random_move`). `playout_wins` is the playout engine of the player's pass
judgement; `run_playouts` serves the benchmarks and `balance_playouts` the fitting of the
policy's coins (`coin`) by simulation balancing.
"""

from __future__ import annotations

import numpy as np

from ..board import BLACK, EMPTY, WHITE
from ..coords import PASS
from ..playout import MAX_MOVES_PER_POINT
from .fastboard import (
    COLOR,
    EMPTIES,
    EPOS,
    HEAD,
    M_LAST,
    M_LAST2,
    M_MOVES,
    M_NEMPTY,
    M_PASSES,
    M_SIZE,
    M_TOMOVE,
    M_WIDTH,
    META,
    NEXT,
    OFF,
    add_owners,
    atari_liberty,
    black_wins,
    chain_liberties,
    eye_shaped,
    in_atari,
    is_eye,
    is_legal,
    liberties_after,
    pass_move,
    pattern_code,
    play,
)
from .jit import Flags, Floats, Int, Ints, Words, kernel, rand_below, rand_unit
from .scratch import W_AMAF, W_CAND, W_COINS, W_KIND, W_LIBS, W_OWNER, W_REPLY, W_SEQ
from .tactics import (
    lone_throw_in,
    miai_safe,
    nakade,
    note_head,
    three_liberties_after,
    vital_point,
)
from .tuning import (
    C_CAPTURE,
    C_EYE_FILL_INSTEAD,
    C_EYE_FIX,
    C_PATTERN,
    C_REJECT_SINGLE_SELF_ATARI,
    C_SHAPES,
    C_TWO_LIBERTIES,
    C_VITAL_POINT,
    P_COINS,
    P_KOMI,
    TWO_LIBERTIES_MAX_SIZE,
)

K_CAPTURE = 1  # a candidate that need only be legal
K_ESCAPE = 2  # one that must leave its chain two liberties (not a self-atari)
K_EXTEND = 3  # one that must leave its chain three (a two-liberty chain's real escape)
# A 3x3 shape (`patterns.pattern_table`'s class c > 0) is kind K_SHAPE + c - 1: it must leave
# two liberties, and its class's coin (tuning.PROB_SHAPES) must agree.
K_SHAPE = 4


@kernel
def playout(
    b: Ints, heavy: bool, rng: Words, pat3: Flags, work: Ints, params: Floats,
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
            p = heavy_move(b, color, rng, pat3, work, params, replies, throw_ins)
        else:
            p = random_move(b, color, rng, heavy, throw_ins, work, params)
        if p == PASS:
            pass_move(b)
        else:
            play(b, p, color)
            if work[W_AMAF, p] == 0:
                work[W_AMAF, p] = color
        moves += 1
        seq[moves] = p
    result = black_wins(b, params[P_KOMI])
    if replies:
        learn_replies(work, moves, first, result)
    return result


@kernel
def heavy_move(
    b: Ints, color: int, rng: Words, pat3: Flags, work: Ints, params: Floats,
    replies: bool | np.bool_, throw_ins: bool | np.bool_,
) -> int:
    """The heuristic playout policy: answer the last two moves locally - capture or escape
    from atari; else (on small boards) fight for the two-liberty chains at the last move
    (`two_liberty_candidates`); else keep an eye the last move threatens to make false
    (`eye_fix_candidates`); else take the vital point of an eye space the last move borders
    (`vital_point_candidates`); else, with `replies`, the last good reply to the last move
    (`learn_replies`) if it is legal and keeps two liberties; else a good 3x3 shape next to
    them - and otherwise a random move. With `throw_ins`, an atari or escape that is a
    `nakade` throw-in is played too (`pick_candidate`)."""
    # Each rule's coin is tossed only once the rule has candidates: a toss that cannot change
    # the move would only add noise to simulation balancing (tools/balance_playouts.py).
    w = b[META, M_WIDTH]
    last = b[META, M_LAST]
    last2 = b[META, M_LAST2]
    if last != PASS or last2 != PASS:
        count: Int = np.int64(0)
        if last != PASS:
            count = atari_candidates(b, last, color, work, count)
        if last2 != PASS:
            count = atari_candidates(b, last2, color, work, count)
        if count > 0 and coin(rng, params, work, C_CAPTURE):
            p = pick_candidate(b, color, rng, work, params, throw_ins, count)
            if p != PASS:
                return p
        if last != PASS and b[META, M_SIZE] <= TWO_LIBERTIES_MAX_SIZE:
            count = two_liberty_candidates(b, last, color, work, np.int64(0))
            if count > 0 and coin(rng, params, work, C_TWO_LIBERTIES):
                p = pick_candidate(b, color, rng, work, params, throw_ins, count)
                if p != PASS:
                    return p
        if last != PASS:
            count = eye_fix_candidates(b, last, color, work, np.int64(0))
            if count > 0 and coin(rng, params, work, C_EYE_FIX):
                p = pick_candidate(b, color, rng, work, params, throw_ins, count)
                if p != PASS:
                    return p
            count = vital_point_candidates(b, last, color, work, np.int64(0))
            if count > 0 and coin(rng, params, work, C_VITAL_POINT):
                p = pick_candidate(b, color, rng, work, params, throw_ins, count)
                if p != PASS:
                    return p
        if replies and last != PASS:
            reply = work[W_REPLY + color - 1, last]
            if reply != PASS and b[COLOR, reply] == EMPTY and playable(b, reply, color):
                return int(reply)
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
                if b[COLOR, q] == EMPTY:
                    shape = pat3[pattern_code(b, q)]
                    if shape > 0:
                        count = add_candidate(work, count, q, np.int64(K_SHAPE + shape - 1))
        if count > 0 and coin(rng, params, work, C_PATTERN):
            p = pick_candidate(b, color, rng, work, params, throw_ins, count)
            if p != PASS:
                return p
    return random_move(b, color, rng, np.bool_(True), throw_ins, work, params)


@kernel
def random_move(
    b: Ints, color: int, rng: Words, heavy: bool | np.bool_, throw_ins: bool | np.bool_,
    work: Ints, params: Floats,
) -> int:
    """A uniformly random legal move that does not fill an own eye (heavy: nor puts a chain
    of two or more stones into atari - unless, with `throw_ins`, it is a `nakade` - and a
    lone stone only half the time, unless it gains by it: `lone_throw_in`), or PASS. Heavy
    playouts turn a refused self-atari into the move it was reaching for
    (`self_atari_instead`), and most fills of an own false eye into the capture or atari of
    the enemy stone that makes it false (`eye_fill_instead`).

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
                    ok = (lone_throw_in(b, p, color)
                          or not coin(rng, params, work, C_REJECT_SINGLE_SELF_ATARI))
                if not ok:
                    other = self_atari_instead(b, p, color, rng)
                    if other != PASS:
                        return other
            else:
                # (the coin is tossed only where there is a redirect: the tosses that cannot
                # change the move would only add noise to simulation balancing's estimates)
                other = eye_fill_instead(b, p, color)
                if other != PASS and coin(rng, params, work, C_EYE_FILL_INSTEAD):
                    return other
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
def coin(rng: Words, params: Floats, work: Ints, which: int) -> bool:
    """A toss of the playout policy's coin `which` (tuning.C_...): True with the probability
    params[P_COINS + which]. Counts the outcome in work[W_COINS] (column 2 * which if True,
    the next if not), which simulation balancing reads (`balance_playouts`). A coin at 0 or 1
    draws no random number: a certain outcome leaves the random stream as it was."""
    probability = params[P_COINS + which]
    heads: bool = probability >= 1.0 or (probability > 0.0 and rand_unit(rng) < probability)
    work[W_COINS, 2 * which + (0 if heads else 1)] += 1
    return heads


@kernel
def playable(b: Ints, p: int, color: int) -> bool:
    """Whether `color` may play at p in a heavy playout: legal, no own eye filled, and the
    chain it makes keeps two liberties."""
    if not is_legal(b, p, color) or is_eye(b, p, color):
        return False
    liberties, _ = liberties_after(b, p, color)
    return liberties >= 2


@kernel
def self_atari_instead(b: Ints, p: int, color: int, rng: Words) -> int:
    """A refused self-atari at p, played where it meant to be: the other liberty of an enemy
    two-liberty chain beside p (the same atari, from the side where our stone is not caught),
    else the other liberty of an own two-liberty chain beside p (the extension p would have
    made a dead end), if it is `playable`; one of them at random; PASS if none is. After
    Pachi's "self-atari cousin" (its playout policy's redirect of a bad self-atari)."""
    w = b[META, M_WIDTH]
    libs = np.empty(3, np.int64)
    found = np.empty(4, np.int64)
    for owner in (3 - color, color):
        n = 0
        for q in (p - w, p - 1, p + 1, p + w):
            if b[COLOR, q] != owner or chain_liberties(b, b[HEAD, q], libs) != 2:
                continue
            other = libs[0] if libs[1] == p else libs[1]  # (p is the other one)
            if playable(b, other, color):
                found[n] = other
                n += 1
        if n > 0:
            return int(found[rand_below(rng, n)])
    return PASS


@kernel
def eye_fill_instead(b: Ints, p: int, color: int) -> int:
    """For a move of `color` at p, which every neighbour of is `color`'s or the edge (and
    which `is_eye` let through, so a diagonal makes it false) and which saves no own chain in
    atari: the capture of a diagonal enemy chain in atari, else an atari on a diagonal enemy
    chain with two liberties - taking away the stone that makes the eye false rather than
    filling it; PASS if p is no such fill or no such move is `playable` (a capture need only
    be legal). After Pachi's playouts, which do this for 60 % of such fills."""
    w = b[META, M_WIDTH]
    for q in (p - w, p - 1, p + 1, p + w):
        c = b[COLOR, q]
        if c == OFF:
            continue
        if c != color or in_atari(b, b[HEAD, q]):
            return PASS
    enemy = 3 - color
    libs = np.empty(3, np.int64)
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        if b[COLOR, q] != enemy:
            continue
        n = chain_liberties(b, b[HEAD, q], libs)
        if n == 1 and is_legal(b, libs[0], color):
            return int(libs[0])
        if n == 2:
            for k in range(2):
                if playable(b, libs[k], color):
                    return int(libs[k])
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
def eye_fix_candidates(b: Ints, last: int, color: int, work: Ints, count: Int) -> Int:
    """Append `color`'s answers to an enemy move at `last` that threatens to make an eye of
    `color`'s false: `last` props up an enemy stone next to it that is wedged between two
    of `color`'s stones (or the edge) on `last`'s diagonals; an empty neighbour of that
    stone, taken by the enemy, would make an eye-shaped point of `color` diagonal to it
    false (its second enemy diagonal, or on the edge its first) - so `color` fills that
    neighbour first (it must leave two liberties), or captures an enemy chain in atari on
    the eye's diagonals. After Pachi's playouts' eye fix."""
    w = b[META, M_WIDTH]
    enemy = 3 - color
    for side in range(4):
        if side == 0:
            wedge, flank0, flank1 = last - w, last - w - 1, last - w + 1
        elif side == 1:
            wedge, flank0, flank1 = last + 1, last - w + 1, last + w + 1
        elif side == 2:
            wedge, flank0, flank1 = last + w, last + w - 1, last + w + 1
        else:
            wedge, flank0, flank1 = last - 1, last - w - 1, last + w - 1
        if b[COLOR, wedge] != enemy:
            continue
        if b[COLOR, flank0] != color and b[COLOR, flank0] != OFF:
            continue
        if b[COLOR, flank1] != color and b[COLOR, flank1] != OFF:
            continue
        for f in (wedge - w, wedge - 1, wedge + 1, wedge + w):
            if b[COLOR, f] != EMPTY:
                continue
            for e in (f - w - 1, f - w + 1, f + w - 1, f + w + 1):
                if b[COLOR, e] != EMPTY or not eye_shaped(b, e, color):
                    continue
                enemies = 0
                edge = False
                for q in (e - w - 1, e - w + 1, e + w - 1, e + w + 1):
                    c = b[COLOR, q]
                    if c == OFF:
                        edge = True
                    elif c == enemy:
                        h = b[HEAD, q]
                        if in_atari(b, h):
                            count = add_candidate(work, count, atari_liberty(b, h),
                                                  np.int64(K_CAPTURE))
                        else:
                            enemies += 1
                if enemies == (0 if edge else 1):
                    count = add_candidate(work, count, f, np.int64(K_ESCAPE))
    return count


@kernel
def vital_point_candidates(b: Ints, last: int, color: int, work: Ints, count: Int) -> Int:
    """Append the vital points (`tactics.vital_point`) of the enemy's eye spaces that the
    enemy's move at `last` borders: the move that leaves them one eye. After Pachi's
    playouts' nakade check."""
    # Only a move with one or two empty neighbours, diagonal to each other, can border a
    # small eye space from outside it: the test keeps the flood off most moves of a playout.
    w = b[META, M_WIDTH]
    first: Int = -1
    second: Int = -1
    for q in (last - w, last - 1, last + 1, last + w):
        if b[COLOR, q] == EMPTY:
            if first < 0:
                first = q
            elif second < 0:
                second = q
            else:
                return count
    if first < 0 or (second >= 0 and (second - first == 2 * w or second - first == 2)):
        return count
    for q in (first, second):
        if q >= 0:
            p = vital_point(b, int(q), 3 - color, work[W_LIBS])
            if p != PASS:
                count = add_candidate(work, count, p, np.int64(K_ESCAPE))
    return count


@kernel
def pick_candidate(
    b: Ints, color: int, rng: Words, work: Ints, params: Floats,
    throw_ins: bool | np.bool_, count: Int,
) -> int:
    """A random acceptable candidate of W_CAND[:count], or PASS if none is: captures need only
    be legal; escapes, ataris and shape moves must leave two liberties, extensions three; and
    a shape's class coin must agree (so shapes are picked in proportion to their coins). With
    `throw_ins`, an escape or atari that leaves one liberty is played if it is a `nakade`:
    in a race against a group whose liberties are inside its eye, the throw-in that takes
    one of them is the move, and the enemy can only take it into a dead shape."""
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
                if kind < K_SHAPE:
                    if liberties >= 2 or (throw_ins and liberties == 1 and nakade(b, p, color)):
                        return int(p)
                elif liberties >= 2 and coin(rng, params, work, C_SHAPES + kind - K_SHAPE):
                    return int(p)
        count -= 1
        work[W_CAND, i] = work[W_CAND, count]
        work[W_KIND, i] = work[W_KIND, count]
    return PASS


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
    root: Ints, count: int, heavy: bool, rng: Words, pat3: Flags, work: Ints, params: Floats
) -> int:
    """`count` playouts from `root` (left unchanged); returns the moves played (benchmarks)."""
    b = root.copy()
    moves = 0
    for _ in range(count):
        b[:, :] = root
        playout(b, heavy, rng, pat3, work, params, heavy, np.bool_(False))
        moves += b[META, M_MOVES] - root[META, M_MOVES]
    return moves


@kernel
def playout_wins(
    root: Ints, count: int, rng: Words, pat3: Flags, work: Ints, params: Floats
) -> float:
    """Black's wins (a draw counts half) in `count` heavy playouts with nakade throw-ins from
    `root` (unchanged); each playout's final owners are added to work[W_OWNER]
    (`add_owners`). The player's judgement of a pass (`player.MctsPlayer.judge_pass`)."""
    b = root.copy()
    wins = 0.0
    for _ in range(count):
        b[:, :] = root
        wins += playout(b, True, rng, pat3, work, params, np.bool_(False), np.bool_(True))
        add_owners(b, work[W_OWNER])
    return wins


@kernel
def balance_playouts(
    root: Ints, rng: Words, pat3: Flags, work: Ints, params: Floats,
    replies: bool | np.bool_, throw_ins: bool | np.bool_, results: Floats, coins: Ints,
) -> None:
    """Heavy playouts from `root` (unchanged) for simulation balancing (tools/balance_playouts),
    one per entry of `results`: results[i] is playout i's result for black (1, 0.5 or 0) and
    coins[i] its tosses of each coin (`coin`: heads, tails, in coin order). With `replies`
    the playouts learn last good replies from each other, as a search's do."""
    b = root.copy()
    for i in range(results.shape[0]):
        b[:, :] = root
        work[W_COINS, :] = 0
        results[i] = playout(b, True, rng, pat3, work, params, replies, throw_ins)
        coins[i, :] = work[W_COINS, : coins.shape[1]]
