"""A move predictor at the root (`Tree.prefer`, `MctsPlayer(network=...)`): its probabilities
replace the trained features' in the root children's prior wins and widening order, the
searched subtrees move with their moves, and the player plays what it is told to prefer."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from app.engine.go import Game
from app.engine.go.mcts import fastboard as fb
from app.engine.go.mcts import network, scratch, walk
from app.engine.go.mcts.fastboard import padded_point
from app.engine.go.mcts.features import gamma_table, spatial_table
from app.engine.go.mcts.patterns import pattern_table
from app.engine.go.mcts.player import MctsPlayer, array_board
from app.engine.go.mcts.scratch import make_work
from app.engine.go.mcts.tree import Tree
from app.engine.go.mcts.tuning import make_params

MOVES = ["E5", "D4", "C3", "F6"]


def searched(simulations: int) -> tuple[Tree, np.ndarray, np.ndarray]:
    board = array_board(Game.from_moves(MOVES, size=9, komi=7.5))
    work = make_work(board)
    work[scratch.W_MASK, :] = 1
    tree = Tree(3 - int(board[fb.META, fb.M_TOMOVE]))
    tree.search(board, board.copy(), make_params(7.5), pattern_table(), gamma_table(),
                spatial_table(), np.array([7], np.uint64), work, simulations)
    return tree, board, work


def subtrees(tree: Tree) -> dict[int, tuple[float, list[int]]]:
    """Per root child's move: its playouts and the moves of its own children, in order."""
    found = {}
    for column in range(int(tree.ti[walk.T_CHILD, 0]),
                        int(tree.ti[walk.T_CHILD, 0]) + int(tree.ti[walk.T_NCHILD, 0])):
        first, count = int(tree.ti[walk.T_CHILD, column]), int(tree.ti[walk.T_NCHILD, column])
        below = tree.ti[walk.T_MOVE, first : first + count].tolist() if first >= 0 else []
        found[int(tree.ti[walk.T_MOVE, column])] = (float(tree.tf[walk.F_V, column]), below)
    return found


def test_prefer_reweighs_and_reorders_the_children_with_their_subtrees() -> None:
    tree, board, work = searched(400)
    before = subtrees(tree)
    first = int(tree.ti[walk.T_CHILD, 0])
    count = int(tree.ti[walk.T_NCHILD, 0])
    prior = {int(tree.ti[walk.T_MOVE, c]): (tree.tf[walk.F_PV, c], tree.tf[walk.F_PW, c])
             for c in range(first, first + count)}
    moves = sorted(prior)
    # A policy that likes the moves in the reverse of board order; the replaced one is flat.
    policy = {m: (k + 1) / (count * (count + 1) / 2) for k, m in enumerate(moves)}
    flat = {m: 1 / count for m in moves}
    tree.prefer(0, policy, flat, 100.0)
    assert [int(m) for m in tree.ti[walk.T_MOVE, first : first + count]] == moves[::-1]
    for c in range(first, first + count):
        move = int(tree.ti[walk.T_MOVE, c])
        bonus = 100.0 * (np.sqrt(policy[move]) - np.sqrt(flat[move]))
        assert np.isclose(tree.tf[walk.F_PV, c], prior[move][0] + bonus)
        assert np.isclose(tree.tf[walk.F_PW, c], prior[move][1] + bonus)
        below = int(tree.ti[walk.T_CHILD, c])
        if below >= 0:  # the grandchildren know where their parent went
            parents = tree.ti[walk.T_PARENT, below : below + int(tree.ti[walk.T_NCHILD, c])]
            assert set(parents.tolist()) == {c}
    assert subtrees(tree) == before
    assert sum(v for v, below in before.values() if below) > 0  # there were subtrees to move
    # The tree searches on from there, and reuse still finds the moved subtrees.
    tree.search(board, board.copy(), make_params(7.5), pattern_table(), gamma_table(),
                spatial_table(), np.array([8], np.uint64), work, 200)
    busiest = max(before, key=lambda m: before[m][0])
    kept = subtrees(tree)[busiest][1]
    assert tree.advance([busiest])
    assert [c.point for c in tree.children()] == kept
    assert not tree.root_preferred  # a new root: its children carry the features' priors


def test_expand_root_gives_the_root_its_children_once() -> None:
    board = array_board(Game.from_moves(MOVES, size=9, komi=7.5))
    work = make_work(board)
    work[scratch.W_MASK, padded_point("A1", 9)] = 1
    work[scratch.W_MASK, padded_point("J9", 9)] = 1
    tree = Tree(3 - int(board[fb.META, fb.M_TOMOVE]), capacity=8)  # too small: grows
    params = make_params(7.5)
    tree.expand_root(board, params, pattern_table(), gamma_table(), spatial_table(), work)
    assert sorted(c.point for c in tree.children()) == sorted(
        [padded_point("A1", 9), padded_point("J9", 9)])
    tree.expand_root(board, params, pattern_table(), gamma_table(), spatial_table(), work)
    assert tree.size == 3


class Insistent(network.Network):
    """A predictor that gives one move almost all its probability."""

    def __init__(self, favourite: str) -> None:  # (no weights file)
        self.favourite = favourite
        self.calls = 0

    def candidates(self, b: np.ndarray, symmetries: int = 1
                   ) -> tuple[np.ndarray, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        self.calls += 1
        points, probabilities = network.prior_probabilities(
            b, make_work(b), np.zeros((b.shape[1], network.priors.FEATURE_COLUMNS), np.int64))
        size = int(b[fb.META, fb.M_SIZE])
        mine = np.where(points == padded_point(self.favourite, size), 1.0, 1e-4)
        return points, probabilities, mine / mine.sum()


def test_the_player_plays_what_its_network_prefers() -> None:
    game = Game.from_moves(MOVES, size=9, komi=7.5)
    plain = MctsPlayer(seconds=None, playouts=300, seed=3)
    assert plain.genmove(game).move != "B8"  # a dull move the features do not like
    told = Insistent("B8")
    player = MctsPlayer(seconds=None, playouts=300, seed=3, network=told)
    assert player.genmove(game).move == "B8"
    assert told.calls == 1
    player.read(game)  # the same position again, its tree kept: not reweighed twice
    assert told.calls == 1


@pytest.mark.parametrize("count", [0, 9])
def test_the_player_refuses_a_symmetry_count_out_of_bounds(count: int) -> None:
    with pytest.raises(ValueError, match="symmetries must be 1-8"):
        MctsPlayer(symmetries=count)
