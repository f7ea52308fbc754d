"""The trained move features (`mcts.features`, `priors.move_features`) and their training
(tools/train_patterns.py).

Start with `test_move_features_name_the_tactics`: small positions where the tactical meaning of
a move is known (capture, self-atari, atari, ladder, escape). Then the pattern keys (one per
shape in any orientation, colours seen from the mover), the place on the board, the MM fit
against strengths it must recover, and the committed weights against a refit of the games.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from app.engine.go import BLACK, PASS, WHITE
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import priors, scratch, walk, warm_up
from app.engine.go.mcts.features import (
    _permutations,
    from_picture,
    gamma_table,
    pattern_keys,
    picture,
    spatial_table,
    swap_colours,
)
from app.engine.go.mcts.scratch import make_work
from app.engine.go.mcts.tree import Tree
from app.engine.go.mcts.tuning import make_params
from tools import train_patterns

from .test_mcts_fastboard import at, board_of, fast_from, ladder_board

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def tactic(b: np.ndarray, p: int, color: int) -> int:
    work = make_work(b)
    priors.atari_features(b, color, work)
    out = np.zeros(4, np.int64)
    priors.move_features(b, p, color, work, out)
    return int(out[0]) - priors.F_TACTIC


# White's C7 is in atari (its liberty C6), white's G6-G5 has two liberties (H6, H5) and an
# escape towards its stone at J5, and black at A1 would be alone beside white's B1.
TACTICS = """
    . . . . . . . . .
    . . X . . . . . .
    . X O X . . . . .
    . . . . . . X . .
    . . . . . X O . .
    . . . . . X O . O
    . . . . . . X . .
    . . . . . . . . .
    . O . . . . . . .
"""


def test_move_features_name_the_tactics() -> None:
    b = fast_from(board_of(TACTICS), BLACK)
    assert tactic(b, at(3, 2), BLACK) == priors.FT_CAPTURE_ONE  # C6 takes C7
    assert tactic(b, at(8, 0), BLACK) == priors.FT_SELF_ATARI_ONE  # A1: one liberty, A2
    assert tactic(b, at(4, 7), BLACK) == priors.FT_ATARI  # H5: white escapes to J4 - no ladder
    assert tactic(b, at(7, 3), BLACK) == priors.FT_NONE
    w = fast_from(board_of(TACTICS), WHITE)
    assert tactic(w, at(3, 2), WHITE) == priors.FT_ESCAPE_ONE  # C6 gives C7 three liberties


@pytest.mark.parametrize("breaker", [False, True])
def test_move_features_read_ladders(breaker: bool) -> None:
    b, _ = ladder_board(breaker)  # white to move, D6 in atari
    expected = priors.FT_ESCAPE_ONE if breaker else priors.FT_ESCAPE_LOST
    assert tactic(b, at(3, 4), WHITE) == expected
    b, _ = ladder_board(breaker, atari_played=False)  # black to move
    assert tactic(b, at(2, 3), BLACK) == (priors.FT_ATARI if breaker else priors.FT_LADDER_ATARI)


def test_move_features_measure_the_distance_to_the_last_two_moves() -> None:
    b = fast_from(board_of(TACTICS), BLACK)
    work = make_work(b)
    priors.atari_features(b, BLACK, work)
    out = np.zeros(4, np.int64)
    b[fb.META, fb.M_LAST] = at(7, 2)
    b[fb.META, fb.M_LAST2] = PASS
    for point, distance in ((at(7, 3), 2), (at(8, 3), 3), (at(7, 4), 4), (at(8, 4), 5)):
        priors.move_features(b, point, BLACK, work, out)
        assert out[1] == priors.F_DIST + distance
        assert out[2] == priors.F_DIST2  # a pass before: no distance
    b[fb.META, fb.M_LAST] = at(0, 8)
    priors.move_features(b, at(8, 0), BLACK, work, out)
    assert out[1] == priors.F_DIST + 1  # far: 8 + 8 + 8 = 24


def test_place_on_the_board_is_symmetric_and_tells_the_star_points_apart() -> None:
    size, w = 19, 21

    def place(row: int, column: int) -> int:
        return priors.board_place(row * w + column, size, w)

    corners = {place(r, c) for r, c in ((1, 1), (1, 19), (19, 1), (19, 19))}
    assert corners == {0}
    assert place(3, 4) == place(4, 3) == place(17, 16) == place(16, 17)
    assert len({place(3, 3), place(3, 4), place(4, 4), place(3, 10), place(10, 10)}) == 5
    assert place(10, 10) == place(5, 5) == 14
    assert sorted({place(r, c) for r in range(1, 20) for c in range(1, 20)}) == list(range(15))


def test_pattern_keys_are_one_per_shape_and_seen_from_the_mover() -> None:
    keys = pattern_keys()
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 1 << 16, 200)
    fields = [(codes >> (2 * k)) & 3 for k in range(8)]
    for source in _permutations():
        variant = sum(fields[source[k]] << (2 * k) for k in range(8))
        assert np.array_equal(keys[0, variant], keys[0, codes])
    assert np.array_equal(keys[1, codes], keys[0, swap_colours(codes)])
    assert len(set(keys[0].tolist())) < (1 << 16) / 6  # about an eighth: the symmetries
    for key in keys[0, codes]:
        assert from_picture(picture(int(key))) == key
    with pytest.raises(ValueError, match="expected 8"):
        from_picture("XO.")


def test_gamma_table_gives_white_the_colour_swapped_gammas() -> None:
    table = gamma_table()
    codes = np.arange(1 << 16)
    assert np.array_equal(table[1], table[0][swap_colours(codes)])
    assert not table.flags.writeable
    # What the games taught: a lost ladder and a self-atari are bad moves (a big one less so
    # than it was in GNU Go's games - Pachi throws stones in to kill), a saving capture good.
    tactics = table[2, priors.F_TACTIC : priors.F_TACTIC + priors.N_TACTICS]
    assert tactics[priors.FT_ESCAPE_LOST] < 0.1 * tactics[priors.FT_ESCAPE_ONE]
    assert tactics[priors.FT_SELF_ATARI_ONE] < 0.2 and tactics[priors.FT_SELF_ATARI_MANY] < 0.2
    assert tactics[priors.FT_CAPTURE_SAVES] > 10
    # ... and the large patterns are there, the table holding what the file names.
    assert 1000 < int((spatial_table()[0] != 0).sum()) <= priors.N_SPATIAL_MAX


def test_the_root_candidates_are_the_training_candidates() -> None:
    b = fast_from(board_of(TACTICS), BLACK)
    work = make_work(b)
    work[scratch.W_MASK, :] = 1
    tree = Tree(WHITE)
    tree.search(b, b.copy(), make_params(7.5), np.zeros(1 << 16, np.uint8), gamma_table(),
                spatial_table(), np.array([5], np.uint64), work, 1)
    first = tree.ti[walk.T_CHILD, 0]
    children = set(tree.ti[walk.T_MOVE, first : first + tree.ti[walk.T_NCHILD, 0]].tolist())
    out = np.zeros((400, priors.FEATURE_COLUMNS), np.int64)
    count = priors.position_features(b, make_work(b), spatial_table(), out)
    assert set(out[:count, 0].tolist()) == children
    assert at(8, 0) in children and at(2, 2) not in children  # self-atari yes, stone no


def test_mm_recovers_the_strengths_that_made_the_choices() -> None:
    """An oracle for the fit: choices drawn from known gammas (two groups of four values) are
    fitted back to the same gammas, up to each group's scale."""
    rng = np.random.default_rng(7)
    truth = np.array([1.0, 3.0, 0.5, 8.0, 1.0, 0.2, 2.0, 4.0])
    positions, per = 6000, 12
    features = np.stack([rng.integers(0, 4, positions * per),
                         rng.integers(4, 8, positions * per)], axis=1)
    position = np.repeat(np.arange(positions), per)
    strength = truth[features].prod(axis=1).reshape(positions, per)
    chosen = np.array([k * per + rng.choice(per, p=row / row.sum())
                       for k, row in enumerate(strength)])
    data = train_patterns.Competitions(features, position, chosen)
    gamma = train_patterns.fit(data, 8, iterations=30)
    for group in (slice(0, 4), slice(4, 8)):
        fitted = gamma[group] / gamma[group][0]
        expected = truth[group] / truth[group][0]
        assert np.allclose(fitted, expected, rtol=0.15), (fitted, expected)


@pytest.mark.slow
def test_the_committed_weights_are_what_the_games_give() -> None:
    """Reproducibility: refitting the recorded games gives the committed file, byte for byte,
    and the gammas predict Pachi's move in held-out games far better than chance (48 % of
    the time, where a uniform pick over the candidates would be right about 1 %)."""
    run = subprocess.run([sys.executable, "-m", "tools.train_patterns", "--check"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    held_out = float(run.stdout.split("the move played in ")[1].split("%")[0])
    assert held_out >= 45.0, run.stdout
