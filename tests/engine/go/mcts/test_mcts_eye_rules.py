"""Two playout rules of Pachi's that keep a living group alive and kill a dead one: the eye fix
(`policy.eye_fix_candidates`: an enemy move threatening to make an eye false is answered by
filling the point it needs) and the vital point (`tactics.vital_point`,
`policy.vital_point_candidates`: when the enemy's move borders an eye space of its own that one
stone reduces to one eye, play that stone). Pictures are 9x9, rows from the top (row 0 is
line 9), X black and O white."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.go import BLACK, PASS, WHITE
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import policy, tactics, warm_up
from app.engine.go.mcts.patterns import pattern_table
from app.engine.go.mcts.scratch import W_CAND, make_work
from app.engine.go.mcts.tuning import (
    C_EYE_FIX,
    C_VITAL_POINT,
    NAKADE_MAX,
    P_COINS,
    make_params,
)

PARAMS = make_params(7.5)
SCRATCH = np.zeros(NAKADE_MAX, np.int64)  # vital_point's flood


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def at(row: int, column: int) -> int:
    """The padded point of row, column (0-based from the top left) on 9x9."""
    return (row + 1) * 11 + column + 1


def position(picture: str, last: tuple[int, int], color: int) -> np.ndarray:
    """The array board of `picture` with `color`'s stone at `last` (drawn as "!" in the
    picture) played last: the other side to move."""
    rows = [line.split() for line in picture.strip().splitlines()]
    black = [at(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]
    white = [at(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O"]
    b = fb.setup_board(9, np.array(black, np.int64), np.array(white, np.int64), color, PASS)
    fb.play(b, at(*last), color)
    return b


def candidates(rule, b: np.ndarray) -> set[int]:  # type: ignore[no-untyped-def]
    work = make_work(b)
    count = rule(b, int(b[fb.META, fb.M_LAST]), int(b[fb.META, fb.M_TOMOVE]), work,
                 np.int64(0))
    return {int(p) for p in work[W_CAND, :count]}


def answers(b: np.ndarray, params: np.ndarray, tries: int = 400) -> dict[int, int]:
    """How often each move is the heavy policy's answer to the position, over many tries."""
    work = make_work(b)
    rng = np.array([5], np.uint64)
    color = int(b[fb.META, fb.M_TOMOVE])
    counts: dict[int, int] = {}
    for _ in range(tries):
        p = policy.heavy_move(b, color, rng, pattern_table(), work, params, np.bool_(False),
                              np.bool_(False))
        counts[p] = counts.get(p, 0) + 1
    return counts


def without(which: int) -> np.ndarray:
    params = PARAMS.copy()
    params[P_COINS + which] = 0.0
    return params


# -- the vital point ------------------------------------------------------------------------------

# Black's wall on the bottom edge encloses A1, B1, C1: a straight three, whose middle B1 kills.
# Black has just played D1 (the "!"), closing it; white is to move.
THREE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . O O . . .
    . . . . O . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X . . . .
    . . . ! X . . . .
"""


@pytest.mark.parametrize(("picture", "vital"), [
    ("# # #", (0, 1)),                # straight three: the middle
    ("# #\n# .", (0, 0)),             # bent three: the bend
    ("# # #\n. # .", (0, 1)),         # T four: its centre
    ("# # .\n# # #", (1, 1)),         # bulky five
    (". # .\n# # #\n. # .", (1, 1)),  # cross five
    (". # .\n# # #\n# # .", (1, 1)),  # rabbity six
    ("# # # #", None),                # straight four: two eyes whatever is played
    ("# #\n# #", None),               # square four: dead already, no vital point
    ("# # #\n# . #", None),           # U five
    ("# #", None),                    # two points: an eye, nothing to pierce
    ("# # # #\n# # # .", None),       # seven points: too big
])
def test_the_vital_point_of_each_eye_shape(picture: str, vital: tuple[int, int] | None
                                           ) -> None:
    # The shape is drawn from D6 and walled in by black stones all round it.
    rows = [line.split() for line in picture.strip().splitlines()]
    inside = {(r + 3, c + 3) for r, row in enumerate(rows) for c, ch in enumerate(row)
              if ch == "#"}
    wall = {(r + dr, c + dc) for r, c in inside for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))}
    black = np.array([at(r, c) for r, c in wall - inside], np.int64)
    b = fb.setup_board(9, black, np.zeros(0, np.int64), WHITE, PASS)
    first = min(inside)
    expected = PASS if vital is None else at(vital[0] + 3, vital[1] + 3)
    assert tactics.vital_point(b, at(*first), BLACK, SCRATCH) == expected


def test_an_eye_space_touching_an_enemy_stone_has_no_vital_point() -> None:
    b = position(THREE, (8, 3), BLACK)
    assert tactics.vital_point(b, at(8, 0), BLACK, SCRATCH) == at(8, 1)
    fb.play(b, at(8, 2), WHITE)  # white inside: no longer an empty space of black's alone
    assert tactics.vital_point(b, at(8, 0), BLACK, SCRATCH) == PASS
    assert tactics.vital_point(b, at(8, 0), WHITE, SCRATCH) == PASS  # nor white's


def test_the_playouts_take_the_vital_point_the_last_move_borders() -> None:
    b = position(THREE, (8, 3), BLACK)
    assert candidates(policy.vital_point_candidates, b) == {at(8, 1)}
    # White answers B1 as the coin says (0.8), where without the rule it is a random point.
    played = answers(b, PARAMS).get(at(8, 1), 0)
    unruled = answers(b, without(C_VITAL_POINT)).get(at(8, 1), 0)
    assert played >= 0.7 * 400 and unruled <= 0.1 * 400


def test_a_move_away_from_the_eye_space_is_not_answered_there() -> None:
    b = position(THREE, (4, 5), WHITE)  # white's own move at F5: black to move, no such space
    assert candidates(policy.vital_point_candidates, b) == set()
    # Nor a move with two empty neighbours on either side of it, like D1 with E1 still empty:
    # from outside, only a move with at most two empty neighbours, diagonal to each other,
    # can close an eye space (Pachi's test, which keeps the reading off most moves).
    b = position(THREE_OPEN, (8, 3), BLACK)
    assert candidates(policy.vital_point_candidates, b) == set()


THREE_OPEN = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . O O . . .
    . . . . O . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X . . . . .
    . . . ! . . . . .
"""


# -- the eye fix ----------------------------------------------------------------------------------

# Pachi's example, on the top edge: white's E9 ("!") props up its D9 stone between black's C8
# and the edge; were white to take C9 too, black's eye at B8 would have two white diagonals
# (C7 and C9) and be false. Black fills C9 first.
FALSIFY = """
    X X . O ! O . . .
    X . X X O . . . .
    X X O O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_an_eye_threatened_with_falsehood_is_kept() -> None:
    b = position(FALSIFY, (0, 4), WHITE)
    assert candidates(policy.eye_fix_candidates, b) == {at(0, 2)}


# The same with white's C7-D7 chain down to one liberty (E7): black takes it rather than fill
# C9 - the eye then has no white diagonal but the threatened point.
FALSIFY_IN_ATARI = """
    X X . O ! O . . .
    X . X X O . . . .
    X X O O . . . . .
    . . X X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_an_enemy_stone_in_atari_on_the_eye_s_diagonal_is_taken_instead() -> None:
    b = position(FALSIFY_IN_ATARI, (0, 4), WHITE)
    assert fb.in_atari(b, b[fb.HEAD, at(2, 2)])
    assert candidates(policy.eye_fix_candidates, b) == {at(2, 4)}  # E7, the capture


def test_no_fix_where_the_eye_is_not_threatened() -> None:
    # With black at C7 instead of white, B8 has no white diagonal: one white stone at C9 would
    # not make it false.
    b = position(FALSIFY.replace("X X O O . . . . .", "X X X O . . . . ."), (0, 4), WHITE)
    assert candidates(policy.eye_fix_candidates, b) == set()


def test_the_playouts_fill_the_falsifying_point() -> None:
    b = position(FALSIFY, (0, 4), WHITE)
    played = answers(b, PARAMS).get(at(0, 2), 0)
    unruled = answers(b, without(C_EYE_FIX)).get(at(0, 2), 0)
    assert played > 2 * unruled and played >= 0.5 * 400
