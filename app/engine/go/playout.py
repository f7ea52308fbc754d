"""Random playouts: the fast path for Monte-Carlo ownership (dead stones) and computer players.

Start with `playout(board, to_move, rng)`. Both sides play uniformly random legal moves, except
that nobody fills their own eye (which would be suicide for a living group) and nobody puts a
chain of `SELF_ATARI_LIMIT` or more stones into atari (which keeps seki alive and stops random
play from throwing strong groups away). A side with no such move passes; two passes in a row
end the playout. `ownership` then says who owns each point.

With `replies=True` each move first answers the one before it (`reply_move`): it captures a
chain that move left in atari, or saves a chain of its own that move put in atari (extending
it to two liberties or capturing a neighbour), before it falls back to a random move. Fights
then end as they would between players who see an atari, which is what the dead-stone
proposal needs: uniformly random play lets a weak group live by chance as often as not.

Playouts use the simple ko only (the board's own rule): superko cycles are rare enough in random
play that `MAX_MOVES_PER_POINT` is the whole defence against them.
"""

from __future__ import annotations

import random

from .board import BLACK, EMPTY, NO_POINT, WHITE, Board
from .coords import PASS

SELF_ATARI_LIMIT = 2  # one stone may be thrown in (it kills eyes); two or more may not
MAX_MOVES_PER_POINT = 3  # a playout longer than 3 moves per point is cycling: stop it


def is_eye(board: Board, point: int, color: int) -> bool:
    """Whether empty `point` is an eye of `color`: every neighbour is a `color` stone and the
    diagonals do not make it false (no enemy diagonal on the edge, at most one in the middle)."""
    colors = board.colors
    for n in board.geometry.neighbours[point]:
        if colors[n] != color:
            return False
    diagonals = board.geometry.diagonals[point]
    enemy = 3 - color
    bad = 0
    for d in diagonals:
        if colors[d] == enemy:
            bad += 1
    return bad == 0 if len(diagonals) < 4 else bad <= 1


def _acceptable(board: Board, point: int, color: int) -> bool:
    """Whether the playout policy lets `color` play `point` (empty, as chosen from `empties`)."""
    if point == board.ko_point and color == board.ko_color:
        return False
    colors, chain_id, chains = board.colors, board.chain_id, board.chains
    neighbours = board.geometry.neighbours[point]
    free = 0
    friends = 0
    for n in neighbours:
        c = colors[n]
        if c == EMPTY:
            free += 1
        elif c == color:
            friends += 1
        elif len(chains[chain_id[n]].liberties) == 1:
            return True  # a capture is always legal and always worth trying
    if free >= 2:
        return True
    if friends == len(neighbours) and is_eye(board, point, color):
        return False
    # Slow path: count the merged chain's liberties exactly.
    liberties: set[int] = set()
    stones = 1
    seen: list[int] = []
    for n in neighbours:
        c = colors[n]
        if c == EMPTY:
            liberties.add(n)
        elif c == color:
            key = chain_id[n]
            if key not in seen:
                seen.append(key)
                chain = chains[key]
                liberties |= chain.liberties
                stones += len(chain.stones)
    liberties.discard(point)
    if not liberties:
        return False  # suicide
    return len(liberties) > 1 or stones < SELF_ATARI_LIMIT


def random_move(board: Board, color: int, rng: random.Random) -> int:
    """A uniformly random move the playout policy allows, or `PASS` when there is none.

    Tries empty points in random order without repetition: a point found unacceptable is
    swapped behind the ones still to try (reordering `board.empties` is harmless).
    """
    empties, index = board.empties, board.empty_index
    left = len(empties)
    rand = rng.random
    while left:
        slot = int(rand() * left)
        point = empties[slot]
        if _acceptable(board, point, color):
            return point
        left -= 1
        other = empties[left]
        empties[slot], empties[left] = other, point
        index[other], index[point] = slot, left
    return PASS


def reply_move(board: Board, color: int, last: int, rng: random.Random) -> int:
    """A move for `color` answering the stone just played at `last`, or `PASS` when it calls
    for none: the liberty of an enemy chain in atari there (`last`'s own chain or one next to
    it), or for a chain of `color`'s next to it in atari, a capture of an enemy chain touching
    it or its liberty if the chain then has two liberties. One of them at random."""
    colors, chain_id, chains = board.colors, board.chain_id, board.chains
    neighbours = board.geometry.neighbours
    captures: list[int] = []
    escapes: list[int] = []
    seen: set[int] = set()
    for q in (last, *neighbours[last]):
        key = chain_id[q]
        if colors[q] == EMPTY or key in seen:
            continue
        seen.add(key)
        chain = chains[key]
        if len(chain.liberties) != 1:
            continue
        (liberty,) = chain.liberties
        if chain.color != color:
            captures.append(liberty)
            continue
        escapes.append(liberty)
        for stone in chain.stones:
            for n in neighbours[stone]:
                if colors[n] == 3 - color and len(chains[chain_id[n]].liberties) == 1:
                    captures.extend(chains[chain_id[n]].liberties)
    ko = board.ko_point if board.ko_color == color else NO_POINT
    captures = [p for p in captures if p != ko]
    if captures:
        return captures[int(rng.random() * len(captures))]
    rng.shuffle(escapes)
    for point in escapes:
        if point != ko and _liberties_after(board, point, color) >= 2:
            return point
    return PASS


def _liberties_after(board: Board, point: int, color: int) -> int:
    """How many liberties the chain of `color` playing at empty `point` would have, counting
    only once each point an enemy chain in atari next to it would free."""
    colors, chain_id, chains = board.colors, board.chain_id, board.chains
    liberties: set[int] = set()
    for n in board.geometry.neighbours[point]:
        c = colors[n]
        if c == EMPTY:
            liberties.add(n)
        elif c == color:
            liberties |= chains[chain_id[n]].liberties
        elif len(chains[chain_id[n]].liberties) == 1:
            liberties.add(n)  # capturing frees at least this point
    liberties.discard(point)
    return len(liberties)


def playout(board: Board, to_move: int, rng: random.Random, *, replies: bool = False) -> int:
    """Play random moves on `board` (changed in place: pass a copy) until two passes in a row
    or the move cap; return the number of moves played, passes included. With `replies`, each
    move answers the one before it when `reply_move` finds an answer."""
    color = to_move
    passes = 0
    moves = 0
    limit = MAX_MOVES_PER_POINT * board.geometry.area
    play = board.play
    last = PASS
    while passes < 2 and moves < limit:
        point = PASS
        if replies and last != PASS:
            point = reply_move(board, color, last, rng)
        if point == PASS:
            point = random_move(board, color, rng)
        if point == PASS:
            passes += 1
            board.pass_turn()
        else:
            passes = 0
            play(point, color)
        last = point
        moves += 1
        color = 3 - color
    return moves


def ownership(board: Board) -> list[int]:
    """Per point: +1 black owns it, -1 white, 0 nobody - a stone belongs to its colour, an
    empty point to the colour of all its neighbours when they agree (after a playout the empty
    points left are eyes and the odd shared liberty)."""
    colors = board.colors
    neighbours = board.geometry.neighbours
    owner = [0] * len(colors)
    for point, c in enumerate(colors):
        if c == BLACK:
            owner[point] = 1
        elif c == WHITE:
            owner[point] = -1
        else:
            around = {colors[n] for n in neighbours[point]}
            if around == {BLACK}:
                owner[point] = 1
            elif around == {WHITE}:
                owner[point] = -1
    return owner
