"""Game-tree search: minimax and alpha-beta, memoized for play and plain for node counts.

Start with `minimax_score`: a negamax over `(me, them)` masks (the side to move first), scored
so that faster wins and slower losses rank higher. Then `alphabeta_score`, the same search
with alpha-beta pruning, and `best_cells_minimax` / `best_cells_alphabeta`, which turn those
into the set of equally good moves a player picks from. The two `count_*_nodes` functions
run the textbook searches *without* a memo, counting every position they visit (the root
included), for `analysis.analyse`.

Scores. A finished game scores from the point of view of the side to move at the searched
position: a win completed when the board holds n marks is worth WIN_BASE - n (positive,
larger when sooner), a loss -(WIN_BASE - n), a draw 0. Because n is a property of the final
position, a score does not depend on where the search started, so it can be memoized per
position, and `plies_to_end` recovers how many moves the game lasts from it.
"""

from __future__ import annotations

from functools import cache

from .board import CELL_COUNT, FULL_MASK, HAS_LINE

# Larger than the 9 marks a board can hold, so every win scores > 0 and every loss < 0.
WIN_BASE = 10
# Bounds of the alpha-beta window: no score reaches them (|score| <= WIN_BASE - 5).
SCORE_BOUND = WIN_BASE

CELL_BITS: tuple[int, ...] = tuple(1 << cell for cell in range(CELL_COUNT))


def move_score(me: int, them: int, bit: int) -> int:
    """Minimax score, for the side to move, of marking the cell `bit`."""
    mine = me | bit
    if HAS_LINE[mine]:
        return WIN_BASE - (mine | them).bit_count()
    if (mine | them) == FULL_MASK:
        return 0
    return -minimax_score(them, mine)


def plies_to_end(score: int, move_count: int) -> int:
    """Moves left until the game ends, from a position with `move_count` marks."""
    if score == 0:
        return CELL_COUNT - move_count  # a draw always fills the board
    return WIN_BASE - abs(score) - move_count


# -- minimax -----------------------------------------------------------------------------------


@cache
def minimax_score(me: int, them: int) -> int:
    """Minimax (negamax) score of a non-terminal position for the side to move.

    A full search; the memo caches each position's result, so the whole game tree (5,478
    positions) is searched at most once per process.
    """
    taken = me | them
    best = -SCORE_BOUND
    for bit in CELL_BITS:
        if taken & bit:
            continue
        score = move_score(me, them, bit)
        if score > best:
            best = score
    return best


def best_cells_minimax(me: int, them: int) -> list[int]:
    """The cells whose minimax score is the best: fastest win, else draw, else slowest loss."""
    taken = me | them
    best = -SCORE_BOUND
    cells: list[int] = []
    for cell, bit in enumerate(CELL_BITS):
        if taken & bit:
            continue
        score = move_score(me, them, bit)
        if score > best:
            best, cells = score, [cell]
        elif score == best:
            cells.append(cell)
    return cells


# -- alpha-beta --------------------------------------------------------------------------------


@cache
def alphabeta_score(me: int, them: int, alpha: int, beta: int) -> int:
    """Fail-soft negamax alpha-beta of a non-terminal position for the side to move.

    The result is exact when it lies strictly inside (alpha, beta); otherwise it is a bound on
    the side that failed. It is a pure function of the position *and* the window, so the memo
    is keyed on both: the pruning and its results are the same as without it.
    """
    taken = me | them
    best = -SCORE_BOUND
    for bit in CELL_BITS:
        if taken & bit:
            continue
        mine = me | bit
        if HAS_LINE[mine]:
            score = WIN_BASE - (mine | them).bit_count()
        elif (mine | them) == FULL_MASK:
            score = 0
        else:
            score = -alphabeta_score(them, mine, -beta, -alpha)
        if score > best:
            best = score
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best


def best_cells_alphabeta(me: int, them: int) -> list[int]:
    """The best cells found by alpha-beta, keeping every move that ties the best.

    Each root move is searched with the window (best - 1, +bound): with integer scores a
    result <= best - 1 proves the move worse, and anything higher is exact, so ties are seen
    without searching any move to full width.
    """
    taken = me | them
    best = -SCORE_BOUND
    cells: list[int] = []
    for cell, bit in enumerate(CELL_BITS):
        if taken & bit:
            continue
        mine = me | bit
        if HAS_LINE[mine]:
            score = WIN_BASE - (mine | them).bit_count()
        elif (mine | them) == FULL_MASK:
            score = 0
        else:
            score = -alphabeta_score(them, mine, -SCORE_BOUND, 1 - best)
        if score > best:
            best, cells = score, [cell]
        elif score == best:
            cells.append(cell)
    return cells


# -- plain searches that count their nodes -----------------------------------------------------


def count_minimax_nodes(me: int, them: int) -> tuple[int, int]:
    """(score, positions visited) of plain minimax, no memo, from a non-terminal position.

    Every position reached is counted once per visit, the root and finished positions
    included: from the empty board that is the whole game tree, 549,946 positions.
    """
    taken = me | them
    best = -SCORE_BOUND
    nodes = 1
    for bit in CELL_BITS:
        if taken & bit:
            continue
        mine = me | bit
        if HAS_LINE[mine]:
            score = WIN_BASE - (mine | them).bit_count()
            nodes += 1
        elif (mine | them) == FULL_MASK:
            score = 0
            nodes += 1
        else:
            child, child_nodes = count_minimax_nodes(them, mine)
            score = -child
            nodes += child_nodes
        if score > best:
            best = score
    return best, nodes


def count_alphabeta_nodes(
    me: int, them: int, alpha: int = -SCORE_BOUND, beta: int = SCORE_BOUND
) -> tuple[int, int]:
    """(score, positions visited) of plain fail-soft alpha-beta, no memo, cells tried 0-8."""
    taken = me | them
    best = -SCORE_BOUND
    nodes = 1
    for bit in CELL_BITS:
        if taken & bit:
            continue
        mine = me | bit
        if HAS_LINE[mine]:
            score = WIN_BASE - (mine | them).bit_count()
            nodes += 1
        elif (mine | them) == FULL_MASK:
            score = 0
            nodes += 1
        else:
            child, child_nodes = count_alphabeta_nodes(them, mine, -beta, -alpha)
            score = -child
            nodes += child_nodes
        if score > best:
            best = score
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best, nodes
