"""Self-ataris in the playouts: a lone stone's that are worth playing (`tactics.lone_throw_in`:
a capture, the throw-in that leaves a two-point eye one point, a snapback) told from a stone
walking into atari; the move a refused self-atari was reaching for
(`policy.self_atari_instead`); and the capture or atari that beats filling an own false eye
(`policy.eye_fill_instead`). Black plays; each picture is a 5x5 board, rows from 5 at the
top."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.go import BLACK
from app.engine.go.coords import PASS
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import policy, tactics
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


ENEMY_TWO_LIBERTIES = """
    . . . . .
    . . . . .
    X X . . .
    O O X . .
    . . . . .
"""
OWN_TWO_LIBERTIES = """
    . . . . .
    O O . . .
    X X O . .
    . . . . .
    O O . . .
"""


@pytest.mark.parametrize(("picture", "refused", "instead"), [
    (ENEMY_TWO_LIBERTIES, "A1", "B1"),  # the same atari on white's pair, from B1: two liberties
    (OWN_TWO_LIBERTIES, "A2", "B2"),  # A2 leaves black's three stones one liberty; B2 extends
    (WALL, "C3", PASS),  # nothing it reached for
])
def test_a_refused_self_atari_plays_what_it_reached_for(boards, picture: str, refused: str,  # type: ignore[no-untyped-def]
                                                        instead: str | int) -> None:
    root = array_board(boards.game(picture, to_move="black", komi=0.5))
    p = padded_point(refused, 5)
    assert fb.liberties_after(root, p, BLACK)[0] == 1
    rng = np.array([12345], np.uint64)
    expected = instead if instead == PASS else padded_point(str(instead), 5)
    assert policy.self_atari_instead(root, p, BLACK, rng) == expected


FALSE_EYE = """
    . . . . .
    . . . . .
    X X . . .
    X X O . .
    X . X . .
"""


@pytest.mark.parametrize(("picture", "fill", "instead"), [
    (FALSE_EYE, "B1", {"C3", "D2"}),  # atari on C2, the stone that makes B1 false
    (FALSE_EYE.replace("X X O . .", "X X O X ."), "B1", {"C3"}),  # C2 in atari: take it
    (FALSE_EYE, "D1", set()),  # not an eye of black's
])
def test_filling_a_false_eye_takes_the_stone_that_makes_it_false(boards, picture: str,  # type: ignore[no-untyped-def]
                                                                fill: str,
                                                                instead: set[str]) -> None:
    root = array_board(boards.game(picture, to_move="black", komi=0.5))
    p = padded_point(fill, 5)
    assert not fb.is_eye(root, p, BLACK)
    move = policy.eye_fill_instead(root, p, BLACK)
    assert move in ({padded_point(name, 5) for name in instead} or {PASS})
