"""Every position a real game can reach: `reachable_positions`.

Start with `reachable_positions`; it walks the game from the empty board, stopping at wins and
full boards, and is the ground truth the exhaustive tests and the benchmark iterate over.
"""

from __future__ import annotations

from functools import cache

from .board import Board


@cache
def _reachable() -> tuple[Board, ...]:
    seen: set[Board] = set()
    frontier = [Board.empty()]
    while frontier:
        layer: list[Board] = []
        for board in frontier:
            if board in seen:
                continue
            seen.add(board)
            if not board.is_over:
                layer.extend(board.play(cell) for cell in board.empty_cells())
        frontier = layer
    return tuple(sorted(seen, key=lambda b: (b.move_count, b.to_string())))


def reachable_positions() -> list[Board]:
    """All 5,478 positions reachable by legal play (4,520 of them not over).

    Ordered by number of marks, then by notation; a new list on each call.
    """
    return list(_reachable())
