"""A move predictor in the tree (`Tree.prefer`, `MctsPlayer(network=..., inner_visits=...)`):
its probabilities replace the trained features' in the prior wins and widening order of the
root's children and of busy inner nodes', once per node, the searched subtrees move with their
moves, and the player plays what it is told to prefer."""

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
    assert not tree.preferred(0)  # a new root: its children carry the features' priors


def test_a_node_is_reweighed_once_and_keeps_its_mark_when_the_tree_is_reused() -> None:
    tree, _, _ = searched(400)
    busiest = max(tree.children(), key=lambda c: c.visits).point
    node = tree.child(0, busiest)
    assert node is not None and not tree.preferred(node)
    below = {c.point: 0.5 for c in tree.children(node)}
    priors = tree.tf[:, node : node + 1].copy()
    tree.prefer(node, below, below, 100.0)  # the same view: nothing but the mark changes
    assert tree.preferred(node) and not tree.preferred(0)
    first = int(tree.ti[walk.T_CHILD, node])
    weights = tree.tf[walk.F_PV, first : first + len(below)].copy()
    tree.prefer(node, {p: 1.0 for p in below}, below, 100.0)  # a second view is not applied
    assert np.array_equal(tree.tf[walk.F_PV, first : first + len(below)], weights)
    assert np.array_equal(tree.tf[:, node : node + 1], priors)
    moves = {c.point: 1.0 / (k + 1) for k, c in enumerate(tree.children())}
    tree.prefer(0, moves, moves, 100.0)  # the root's children move: the mark goes with it
    moved = tree.child(0, busiest)
    assert moved is not None and tree.preferred(moved)
    assert tree.advance([busiest]) and tree.preferred(0)


def test_busy_nodes_are_listed_busiest_first_with_the_line_to_them() -> None:
    tree, board, _ = searched(600)
    busy = tree.busy_unpreferred(20)
    visits = [float(tree.tf[walk.F_V, n]) for n in busy]
    assert busy[0] == 0 and len(busy) > 2 and visits == sorted(visits, reverse=True)
    assert min(visits) >= 20
    assert all(int(tree.ti[walk.T_CHILD, n]) >= 0 for n in busy)
    deepest = max(busy, key=lambda n: len(tree.line(n)))
    line = tree.line(deepest)
    assert len(line) >= 2
    node = 0
    for point in line:  # the line leads from the root to the node
        found = tree.child(node, point)
        assert found is not None
        node = found
    assert node == deepest
    tree.prefer(deepest, {}, {}, 1.0)
    assert deepest not in tree.busy_unpreferred(20)


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


class Recording(Insistent):
    """Insistent, and it keeps the stones of every position it is asked about."""

    def __init__(self, favourite: str) -> None:
        super().__init__(favourite)
        self.boards: list[bytes] = []

    def candidates(self, b: np.ndarray, symmetries: int = 1
                   ) -> tuple[np.ndarray, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        self.boards.append(b[fb.COLOR].tobytes())
        return super().candidates(b, symmetries)


def test_busy_inner_nodes_get_the_network_s_view_of_their_own_position() -> None:
    game = Game.from_moves(MOVES, size=9, komi=7.5)
    told = Recording("B8")
    player = MctsPlayer(seconds=None, playouts=1000, seed=3, network=told, inner_visits=20)
    player.genmove(game)
    tree = player._tree
    assert tree is not None
    preferred = [n for n in range(tree.size) if tree.preferred(n)]
    assert len(preferred) > 3 and told.calls == len(preferred)
    assert not tree.busy_unpreferred(20)  # every node that got there was reweighed
    names = {node: [fb.point_name(p, 9) if p != fb.PASS else "pass" for p in tree.line(node)]
             for node in preferred}
    expected = {array_board(Game.from_moves(MOVES + line, size=9, komi=7.5))[fb.COLOR].tobytes()
                for line in names.values()}
    assert set(told.boards) == expected  # each read its own node's position
    assert len(told.boards) == len(expected)


def test_inner_visits_need_a_network() -> None:
    with pytest.raises(ValueError, match="inner_visits needs a network"):
        MctsPlayer(inner_visits=100)
    with pytest.raises(ValueError, match="inner_visits needs a network"):
        MctsPlayer(network=Insistent("B8"), inner_visits=0)
