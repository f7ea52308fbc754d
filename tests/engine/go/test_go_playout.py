"""Random playouts, the fast path under the dead-stone proposal: they end, they keep the
board consistent, and they never fill an eye."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.go import BLACK, PASS, WHITE, Board, playout
from app.engine.go.playout import is_eye, ownership, random_move


@pytest.mark.parametrize("size", [5, 9, 19])
def test_playouts_end_with_no_move_left_for_either_side(size: int, boards: Any) -> None:
    rng = random.Random(size)
    for _ in range(5):
        board = Board(size)
        moves = playout(board, BLACK, rng)
        assert 0 < moves < 3 * size * size
        assert random_move(board, BLACK, rng) == PASS
        assert random_move(board, WHITE, rng) == PASS
        assert boards.chains_incremental(board) == boards.chains_by_flood_fill(board)
        assert all(chain.liberties for chain in board.all_chains())
        owners = ownership(board)
        assert set(owners) <= {-1, 0, 1}
        # What is left empty is almost all eyes: one owner per point.
        assert owners.count(0) <= size


def test_eyes_and_false_eyes(boards: Any) -> None:
    board = boards.board("""
        . X . X O
        X X X O .
        X . X O O
        O X X O .
        . O X O .
    """)
    names = board.geometry.index
    assert is_eye(board, names["A5"], BLACK)  # corner eye
    assert not is_eye(board, names["C5"], BLACK)  # edge point, white diagonal D4: false eye
    assert is_eye(board, names["B3"], BLACK)  # centre eye, one enemy diagonal (A2) allowed
    assert not is_eye(board, names["E4"], WHITE)  # edge point with a black diagonal: false
    assert not is_eye(board, names["A1"], WHITE)  # a neighbour is black


def test_playouts_never_fill_their_own_eyes(boards: Any) -> None:
    start = boards.board("""
        . X . X O . .
        X X X X O . .
        O O O O O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    rng = random.Random(5)
    for _ in range(20):
        board = start.copy()
        playout(board, WHITE, rng)
        assert board.colors[0] == 0 and board.colors[2] == 0  # black's eyes stay empty
        assert board.colors[1] == BLACK
