"""Divide and conquer: a tour of any board from n = 5 to `MAX_SIZE`, built from small tours.

Start with `divide_tour`. The board is cut into a grid of blocks whose sides are a few squares
long (`EVEN_PARTS`, and one row and one column of `ODD_PARTS` on an odd board). Each block gets
a tour of its own, found once by Warnsdorff's rule with backtracking and then cached:

- every block that can have a closed tour gets one (its sides are never both odd);
- on an odd board, no closed tour exists, so the single odd x odd block, chosen to contain the
  requested start, gets an open tour beginning there. It is the root of the construction.

Then neighbouring blocks are glued along a spanning tree (along each row of blocks, and down the
first column), as in Parberry (1997): where the two blocks meet, delete one edge of each tour,
a1-a2 and b1-b2, chosen so that a1-b1 and a2-b2 are knight's moves, and add those two. Two
cycles become one cycle; a path and a cycle become one path with the same first square. Every
glue uses an edge of the blocks' own tours that no other glue has used, so the order of the
glues does not matter and the result is one tour of the whole board.

The tour is then read off block by block (`_walk`): the only Python work is per block and per
glue, and numpy copies the runs of squares in between, so a 1000x1000 tour takes a fraction of
a second. A closed tour is finally rotated to start on the requested square.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from .backtracking import fast_search
from .errors import KnightsTourError

# Sides of the blocks that get closed tours, largest first: bigger blocks mean fewer glues and
# a faster walk; these all have closed tours in a millisecond of search, in every pairing.
EVEN_PARTS: tuple[int, ...] = (16, 14, 12, 10, 8, 6)
# Sides of the odd block of an odd board (the one holding an open tour); 5 only for n = 5,
# because open tours of 5-wide blocks can take many thousand search steps to find.
ODD_PARTS: tuple[int, ...] = (7, 9, 11, 13, 15)
SEARCH_BUDGET = 2_000_000  # steps for one block's tour; all measured blocks need under 200
OPEN_BLOCK_CACHE = 1024  # open block tours kept (one per odd block shape and start square)

IntArray = npt.NDArray[np.int64]


class ConstructionFailed(KnightsTourError):
    """An internal failure of the construction (no glue found): a bug, never a user error."""

    code: ClassVar[str] = "construction_failed"


@dataclass(frozen=True)
class Construction:
    """A tour built by `divide_tour`, with the size of the construction."""

    tour: IntArray
    blocks: int
    glues: int
    block_steps: int  # search steps spent on block tours not already cached


@dataclass
class _Block:
    """One block of the board: where it is, its own tour, and the glues cut into it."""

    row: int
    col: int
    order: IntArray  # the block's tour, local squares r * width + c
    key: tuple[int, ...]  # identifies the tour for the caches: (h, w) or (h, w, start)
    is_path: bool
    cuts: list[int] = field(default_factory=list)  # sorted positions c: edge (c, c+1) removed
    forward: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    backward: dict[int, tuple[int, int, int]] = field(default_factory=dict)


def divide_tour(n: int, start: int, closed: bool) -> Construction:
    """A tour of the n x n board (n >= 5; closed needs n even) starting on `start` (an index
    row * n + col). For an open tour on an odd board `start` must have the corners' colour."""
    row, col = divmod(start, n)
    steps_before = _search_steps()
    if n % 2 == 0:
        rows = cols = _split_even(n)
        odd_row = odd_col = -1
    else:
        if closed:
            raise ConstructionFailed("Odd boards have no closed tour.")
        rows, odd_row = _split_odd(n, row)
        cols, odd_col = _split_odd(n, col)
    row_starts = [sum(rows[:i]) for i in range(len(rows))]
    col_starts = [sum(cols[:j]) for j in range(len(cols))]

    grid: list[list[_Block]] = []
    root = (0, 0) if odd_row < 0 else (odd_row, odd_col)
    for i, h in enumerate(rows):
        line: list[_Block] = []
        for j, w in enumerate(cols):
            if (i, j) == root and odd_row >= 0:
                local = (row - row_starts[i]) * w + (col - col_starts[j])
                order = _open_block(h, w, local)
                line.append(_Block(row_starts[i], col_starts[j], order, (h, w, local), True))
            else:
                line.append(_Block(row_starts[i], col_starts[j], _closed_block(h, w), (h, w),
                                   False))
        grid.append(line)

    blocks = [b for line in grid for b in line]
    index = {id(b): k for k, b in enumerate(blocks)}
    used: list[set[int]] = [set() for _ in blocks]
    glues = 0
    for i in range(len(rows)):
        for j in range(len(cols) - 1):
            _glue(grid[i][j], grid[i][j + 1], "right", index, used)
            glues += 1
        if i + 1 < len(rows):
            _glue(grid[i][0], grid[i + 1][0], "up", index, used)
            glues += 1
    for b in blocks:
        b.cuts.sort()

    tour = _walk(n, blocks, index[id(grid[root[0]][root[1]])])
    if odd_row < 0:
        at = int(np.flatnonzero(tour == start)[0])
        tour = np.concatenate((tour[at:], tour[:at]))
    return Construction(tour, len(blocks), glues, _search_steps() - steps_before)


# --- cutting the board into blocks ------------------------------------------------------------


@cache
def _split_even(total: int) -> tuple[int, ...]:
    """`total` (0 or an even number >= 6) as a sum of `EVEN_PARTS`, fewest parts first; the
    larger parts go first. Empty when there is no such sum."""
    best: list[tuple[int, ...] | None] = [()] + [None] * total
    for t in range(1, total + 1):
        for part in EVEN_PARTS:
            prev = best[t - part] if t >= part else None
            if prev is not None:
                candidate = (*prev, part)
                current = best[t]
                if current is None or len(candidate) < len(current):
                    best[t] = candidate
    result = best[total]
    if result is None:
        raise ConstructionFailed(f"{total} is not a sum of block sides {EVEN_PARTS}.")
    return tuple(sorted(result, reverse=True))


def _splittable(total: int) -> bool:
    return total == 0 or (total % 2 == 0 and total >= min(EVEN_PARTS))


def _split_odd(n: int, position: int) -> tuple[tuple[int, ...], int]:
    """An odd `n` as block sides with exactly one odd part, which covers `position`; returns
    the parts and the odd part's index. The fewest parts win."""
    if n == 5:
        return (5,), 0
    best: tuple[tuple[int, ...], int] | None = None
    for before in range(0, position + 1, 2):
        if not _splittable(before):
            continue
        for odd in ODD_PARTS:
            after = n - before - odd
            if position < before + odd and after >= 0 and _splittable(after):
                head = _split_even(before) if before else ()
                tail = _split_even(after) if after else ()
                parts = (*head, odd, *tail)
                if best is None or len(parts) < len(best[0]):
                    best = (parts, len(head))
    if best is None:
        raise ConstructionFailed(f"No way to cut {n} around position {position}.")
    return best


# --- the blocks' own tours --------------------------------------------------------------------

_steps_spent = [0]  # search steps spent on block tours so far, for `Construction.block_steps`


def _search_steps() -> int:
    return _steps_spent[0]


@cache
def _closed_block(h: int, w: int) -> IntArray:
    """A closed tour of an h x w block, found by Warnsdorff's rule with backtracking."""
    found = fast_search(h, w, [0], closed=True, budget=SEARCH_BUDGET)
    _steps_spent[0] += found.steps
    return np.array(found.tour, dtype=np.int64)


@lru_cache(maxsize=OPEN_BLOCK_CACHE)
def _open_block(h: int, w: int, start: int) -> IntArray:
    """An open tour of an h x w block (both odd) from `start`, found the same way."""
    found = fast_search(h, w, [start], closed=False, budget=SEARCH_BUDGET)
    _steps_spent[0] += found.steps
    return np.array(found.tour, dtype=np.int64)


# --- gluing neighbours ------------------------------------------------------------------------

Glue = tuple[int, int, bool]  # (position in A, position in B, crossed) - see `_glue_options`


def _edges(order: IntArray, width: int, is_path: bool, rows: range, cols: range) -> list[int]:
    """Positions c of the tour whose edge (c, c+1) has both ends within `rows` x `cols`."""
    m = len(order)
    found = []
    last = m - 1 if is_path else m
    for c in range(last):
        for square in (int(order[c]), int(order[(c + 1) % m])):
            r, q = divmod(square, width)
            if r not in rows or q not in cols:
                break
        else:
            found.append(c)
    return found


@lru_cache(maxsize=4096)
def _glue_options(
    key_a: tuple[int, ...], key_b: tuple[int, ...], side: str, path_a: bool, path_b: bool
) -> tuple[Glue, ...]:
    """Every way to glue tour A to tour B lying on its `side` ("right" or "up"): pairs of edge
    positions (pa, pb) with a knight's move a_lo-b_lo and a_hi-b_hi, or if `crossed`, a_lo-b_hi
    and a_hi-b_lo. Edges nearest the middle of the shared side come first, so that glues on
    different sides of a block do not compete for the same corner edges."""
    order_a, order_b = _order_for(key_a, path_a), _order_for(key_b, path_b)
    ha, wa = key_a[0], key_a[1]
    hb, wb = key_b[0], key_b[1]
    if side == "right":
        near_a = _edges(order_a, wa, path_a, range(ha), range(wa - 2, wa))
        near_b = _edges(order_b, wb, path_b, range(hb), range(2))
        offset = (0, wa)  # B's origin relative to A's
        middle = (ha - 1) / 2, wa - 0.5
    else:
        near_a = _edges(order_a, wa, path_a, range(ha - 2, ha), range(wa))
        near_b = _edges(order_b, wb, path_b, range(2), range(wb))
        offset = (ha, 0)
        middle = ha - 0.5, (wa - 1) / 2

    def place(order: IntArray, width: int, c: int, shift: tuple[int, int]) -> list[tuple[int, int]]:
        m = len(order)
        ends = []
        for square in (int(order[c]), int(order[(c + 1) % m])):
            r, q = divmod(square, width)
            ends.append((r + shift[0], q + shift[1]))
        return ends

    def knight(p: tuple[int, int], q: tuple[int, int]) -> bool:
        return abs((p[0] - q[0]) * (p[1] - q[1])) == 2

    options: list[tuple[float, Glue]] = []
    for pa in near_a:
        a_lo, a_hi = place(order_a, wa, pa, (0, 0))
        for pb in near_b:
            b_lo, b_hi = place(order_b, wb, pb, offset)
            spread = sum(abs(x - y) for p in (a_lo, a_hi, b_lo, b_hi) for x, y in zip(p, middle,
                                                                                     strict=True))
            if knight(a_lo, b_lo) and knight(a_hi, b_hi):
                options.append((spread, (pa, pb, False)))
            if knight(a_lo, b_hi) and knight(a_hi, b_lo):
                options.append((spread, (pa, pb, True)))
    options.sort(key=lambda option: option[0])
    return tuple(glue for _, glue in options)


def _order_for(key: tuple[int, ...], is_path: bool) -> IntArray:
    return _open_block(*key) if is_path else _closed_block(key[0], key[1])


def _glue(a: _Block, b: _Block, side: str, index: dict[int, int], used: list[set[int]]) -> None:
    """Join blocks a and b (b on a's `side`) with the first option whose edges are unused."""
    ka, kb = index[id(a)], index[id(b)]
    for pa, pb, crossed in _glue_options(a.key, b.key, side, a.is_path, b.is_path):
        if pa in used[ka] or pb in used[kb]:
            continue
        used[ka].add(pa)
        used[kb].add(pb)
        ma, mb = len(a.order), len(b.order)
        # Landing on the low end of a cut edge, walk on away from its high end, and vice versa.
        b_lo, b_hi = (kb, pb, -1), (kb, (pb + 1) % mb, 1)
        a_lo, a_hi = (ka, pa, -1), (ka, (pa + 1) % ma, 1)
        a.cuts.append(pa)
        b.cuts.append(pb)
        a.forward[pa] = b_hi if crossed else b_lo
        a.backward[pa] = b_lo if crossed else b_hi
        b.forward[pb] = a_hi if crossed else a_lo
        b.backward[pb] = a_lo if crossed else a_hi
        return
    raise ConstructionFailed(f"No glue left between blocks {a.key} and {b.key} ({side}).")


# --- reading the tour off ---------------------------------------------------------------------


def _walk(n: int, blocks: Sequence[_Block], root: int) -> IntArray:
    """The squares of the glued tour in order, from the root block's first square."""
    total = n * n
    offsets: dict[tuple[int, ...], IntArray] = {}
    pieces: list[IntArray] = []
    origins: list[int] = []
    lengths: list[int] = []
    count = 0
    k, p, d = root, 0, 1
    while count < total:
        b = blocks[k]
        order = b.order
        local = offsets.get(b.key)
        if local is None:
            rows, cols = np.divmod(order, b.key[1])
            local = offsets[b.key] = rows * n + cols
        cuts = b.cuts
        if d == 1:
            i = bisect.bisect_left(cuts, p)
            if i < len(cuts):
                c = cuts[i]
                piece = local[p:c + 1]
            elif cuts and not b.is_path:
                c = cuts[0]
                piece = np.concatenate((local[p:], local[:c + 1]))
            else:
                c = -1
                piece = local[p:] if b.is_path else np.concatenate((local[p:], local[:p]))
            nxt = b.forward.get(c)
        else:
            # Leaving position c + 1 backwards crosses cut edge (c, c + 1).
            i = bisect.bisect_left(cuts, p) - 1
            if i >= 0:
                c = cuts[i]
                piece = local[c + 1:p + 1][::-1]
            elif cuts and not b.is_path:
                c = cuts[-1]
                piece = np.concatenate((local[:p + 1][::-1], local[c + 1:][::-1]))
            else:
                raise ConstructionFailed("The walk ran backwards off a block's tour.")
            nxt = b.backward.get(c)
        take = min(len(piece), total - count)
        pieces.append(piece[:take])
        origins.append(b.row * n + b.col)
        lengths.append(take)
        count += take
        if count < total:
            if nxt is None:
                raise ConstructionFailed("The walk ended before it covered the board.")
            k, p, d = nxt
    return np.concatenate(pieces) + np.repeat(np.array(origins, dtype=np.int64), lengths)
