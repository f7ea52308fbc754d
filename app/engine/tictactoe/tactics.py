"""Tactical vocabulary of the human-like player: threats, forks and forcing lines.

Start with `winning_cells` (where a side completes a line: its *threats*), then `fork_cells`
(moves that make two threats at once), then `forcing_lines`, the one piece of reading the
rules player does: it follows only *forcing* moves (each of my moves makes a threat, each
reply is the forced block) and reports which first moves end in a fork or a win, and how fast.
That is how a person reads a combination: "I play here, they must block there, then I fork".

All functions take `(me, them)` masks with `me` the side to move, like `search`, and never
look at a quiet (non-forcing) move of either side: no game-tree search hides in here.
"""

from __future__ import annotations

from functools import cache

from .board import CELL_COUNT, FULL_MASK, HAS_LINE, LINE_MASKS


def winning_cells(me: int, them: int) -> int:
    """Mask of the empty cells where `me` would complete a line (its threats)."""
    cells = 0
    for line in LINE_MASKS:
        if not line & them and (me & line).bit_count() == 2:
            cells |= line & ~me
    return cells & ~(me | them)


def fork_cells(me: int, them: int) -> int:
    """Mask of the empty cells where a mark by `me` would make two or more threats."""
    taken = me | them
    cells = 0
    for cell in range(CELL_COUNT):
        bit = 1 << cell
        if not taken & bit and winning_cells(me | bit, them).bit_count() >= 2:
            cells |= bit
    return cells


def cells_of(mask: int) -> list[int]:
    """The cells set in `mask`, in increasing order."""
    return [cell for cell in range(CELL_COUNT) if mask >> cell & 1]


@cache
def forcing_win(me: int, them: int) -> int | None:
    """Plies to the fastest win `me` (to move) can force with forcing moves only, else None.

    - `me` has a threat: win now (1 ply).
    - `them` has two threats: no (this is a loss). One threat: `me` must block it; the line
      goes on only if the block itself makes a threat (two threats: a win in 3 plies).
    - Otherwise try every move that makes a threat: two threats is a fork (3 plies); one
      threat forces the block, after which the reading continues.
    """
    if winning_cells(me, them):
        return 1
    their_threats = winning_cells(them, me)
    if their_threats:
        if their_threats.bit_count() >= 2:
            return None
        return _after_my_move(me | their_threats, them)
    lines = forcing_lines(me, them)
    return min(lines.values()) if lines else None


def forcing_lines(me: int, them: int) -> dict[int, int]:
    """For a position without threats on either side: {first move: plies to the forced win}
    for every threat-making first move that wins by force (forks included, at 3 plies)."""
    taken = me | them
    lines: dict[int, int] = {}
    for cell in range(CELL_COUNT):
        bit = 1 << cell
        if taken & bit:
            continue
        plies = _after_my_move(me | bit, them)
        if plies is not None:
            lines[cell] = plies
    return lines


def _after_my_move(mine: int, them: int) -> int | None:
    """Plies to a forced win, counting the move that produced `mine`, if it forces one.

    `them` had no threat left standing before the move (the caller blocked it, or there was
    none), so they cannot win with their reply.
    """
    threats = winning_cells(mine, them)
    if threats.bit_count() >= 2:
        return 3  # a fork: they block one threat, the other wins
    if not threats:
        return None  # a quiet move: not part of a forcing line
    theirs = them | threats  # the forced block
    if HAS_LINE[theirs] or (mine | theirs) == FULL_MASK:
        return None
    rest = forcing_win(mine, theirs)
    return None if rest is None else rest + 2
