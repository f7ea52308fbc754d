"""Progressive widening (`walk.width`): on a large board the search chooses among a
node's best few children by the trained priors, more of them as its playouts grow; `expand`
orders the children best first for it."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.go import Game
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import priors, scratch, tuning, walk
from app.engine.go.mcts.features import gamma_table, spatial_table
from app.engine.go.mcts.patterns import pattern_table
from app.engine.go.mcts.player import array_board
from app.engine.go.mcts.scratch import make_work
from app.engine.go.mcts.tree import Tree
from app.engine.go.mcts.tuning import make_params


def widening(visits: float, step: float = 40.0, rate: float = 1.4) -> int:
    params = np.zeros(tuning.NPARAMS, np.float64)
    params[tuning.P_WIDEN_VISITS] = step
    params[tuning.P_WIDEN_RATE] = rate
    return int(walk.width(visits, params))


def test_width_starts_at_two_and_grows_with_the_log_of_the_playouts() -> None:
    assert widening(0) == 2
    assert widening(15) == 2  # 1 + 15/40 = 1.375 < 1.4
    assert widening(17) == 3  # 1.425 > 1.4
    assert widening(40 * (1.4**5 - 1) + 1) == 7
    assert widening(10_000) == 2 + int(np.log(1 + 10_000 / 40) / np.log(1.4))  # 18
    assert widening(1e9, step=0.0) >= 1 << 30  # off: every child


@pytest.mark.parametrize(("size", "on"), [(9, False), (13, False), (19, True)])
def test_widening_is_on_from_the_minimum_size(size: int, on: bool) -> None:
    params = make_params(7.5, size=size)
    assert bool(params[tuning.P_WIDEN_VISITS] > 0) is on
    assert size < tuning.WIDEN_MIN_SIZE or on


def _searched(moves: list[str], simulations: int, widen: bool) -> tuple[Tree, np.ndarray]:
    game = Game.from_moves(moves, size=19, komi=7.5)
    board = array_board(game)
    work = make_work(board)
    work[scratch.W_MASK, :] = 1
    params = make_params(7.5, size=19)
    if not widen:
        params[tuning.P_WIDEN_VISITS] = 0.0
    tree = Tree(3 - int(board[fb.META, fb.M_TOMOVE]))
    tree.search(board, board.copy(), params, pattern_table(), gamma_table(), spatial_table(),
                np.array([7], np.uint64), work, simulations)
    out = np.zeros((400, priors.FEATURE_COLUMNS), np.int64)
    count = priors.position_features(board, make_work(board), spatial_table(), out)
    table = gamma_table()
    color = int(board[fb.META, fb.M_TOMOVE])
    features = out[:, 2 : priors.FEATURE_HASHES]  # the four move features and the spatial one
    strength = {int(out[k, 0]): table[color - 1, out[k, 1]] * np.prod(table[2, features[k]])
                for k in range(count)}
    first = int(tree.ti[walk.T_CHILD, 0])
    moves_in_order = tree.ti[walk.T_MOVE, first : first + int(tree.ti[walk.T_NCHILD, 0])]
    return tree, np.array([strength[int(m)] for m in moves_in_order])


def test_children_come_best_first_by_the_trained_model() -> None:
    _, strengths = _searched(["Q16", "D4", "Q4"], 1, widen=True)
    assert len(strengths) == 19 * 19 - 3
    assert np.all(np.diff(strengths) <= 0)


@pytest.mark.parametrize("widen", [True, False])
def test_the_search_tries_only_the_best_children_until_its_playouts_grow(widen: bool) -> None:
    """2,000 simulations from an opening position: with widening every root playout went to
    the first width(2000) = 13 children; without it, far more moves were tried."""
    tree, _ = _searched(["Q16", "D4", "Q4"], 2000, widen)
    visits = np.array([c.visits for c in tree.children()])
    tried = int(np.count_nonzero(visits))
    limit = widening(2000)
    if widen:
        assert tried <= limit
        assert np.count_nonzero(visits[limit:]) == 0
    else:
        assert tried > 3 * limit
