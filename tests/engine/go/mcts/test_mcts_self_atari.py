"""A lone stone's self-atari (`tactics.lone_throw_in`): the ones worth playing - a capture, the
throw-in that leaves a two-point eye one point, a snapback - told from a stone walking into
atari. Black plays; each picture is a 5x5 board, rows from 5 at the top."""

from __future__ import annotations

import pytest

from app.engine.go import BLACK
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import tactics
from app.engine.go.mcts.fastboard import padded_point
from app.engine.go.mcts.player import array_board

TWO_POINT_EYE = """
    . . O X .
    O O O X .
    X X X X .
    . . . . .
    . . . . .
"""
KO = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
"""
SNAPBACK = """
    X X X X .
    X O O O X
    X O . . X
    . X O X .
    . . O . .
"""
WALL = """
    . . . . .
    . O O O .
    . O . O .
    . . . . .
    . . . . .
"""


@pytest.mark.parametrize(("picture", "move", "worth"), [
    (TWO_POINT_EYE, "A5", True),  # white must take at B5: one eye left
    (TWO_POINT_EYE, "B5", True),
    (KO, "C4", True),  # the capture
    (SNAPBACK, "C3", True),  # white takes at D3, black takes five back at C3
    (SNAPBACK.replace("X O O O X\n    X O . . X", "X O O O X\n    X O . . ."), "C3",
     False),  # E3 empty: white's chain runs out at D3
    (WALL, "C3", False),  # into a wall's mouth for nothing
])
def test_a_lone_self_atari_is_played_only_when_it_gains(boards, picture: str, move: str,  # type: ignore[no-untyped-def]
                                                       worth: bool) -> None:
    root = array_board(boards.game(picture, to_move="black", komi=0.5))
    p = padded_point(move, 5)
    assert fb.liberties_after(root, p, BLACK) == (1, 1)  # a lone stone with one liberty
    assert tactics.lone_throw_in(root, p, BLACK) is worth
