"""`analyse`: move values under perfect play and the node counts of both searches."""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from app.engine.tictactoe import Analysis, Board, MoveValue, analyse

# `oracle` and `live_positions` are fixtures from conftest.py.
Oracle = Any

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def test_empty_board_is_a_draw_everywhere_and_minimax_visits_549946_positions() -> None:
    analysis = analyse(Board.empty())
    assert analysis.values == {cell: MoveValue("draw", 9) for cell in range(9)}
    assert analysis.best == list(range(9))
    assert analysis.nodes["minimax"] == 549_946  # the published size of the game tree
    assert 0 < analysis.nodes["alphabeta"] < analysis.nodes["minimax"]


def test_repeated_analysis_of_the_empty_board_is_instant() -> None:
    analyse(Board.empty())
    start = time.perf_counter()
    for _ in range(10):
        analyse(Board.empty())
    assert time.perf_counter() - start < 0.05


def test_win_now_or_block_or_lose() -> None:
    # X: 0 1, O: 3 4, X to move. 2 wins now; 5 blocks and the game is drawn at the ninth mark;
    # anything else lets O complete 3-4-5 next move.
    analysis = analyse(Board.from_string("XX.OO...."))
    assert analysis.values == {
        2: MoveValue("win", 1),
        5: MoveValue("draw", 5),
        6: MoveValue("loss", 2),
        7: MoveValue("loss", 2),
        8: MoveValue("loss", 2),
    }
    assert analysis.best == [2]


def test_corner_against_adjacent_edge_wins_in_five() -> None:
    # X 0, O 1: X centre threatens 8; after O blocks, X 6 makes two threats (3 and 2).
    analysis = analyse(Board.from_string("XO......."))
    assert analysis.values[4] == MoveValue("win", 5)
    assert 4 in analysis.best
    assert all(analysis.values[cell] == MoveValue("win", 5) for cell in analysis.best)


def test_answering_the_centre() -> None:
    analysis = analyse(Board.from_string("....X...."))
    assert analysis.to_move == "O"
    for corner in (0, 2, 6, 8):
        assert analysis.values[corner] == MoveValue("draw", 8)
    for edge in (1, 3, 5, 7):
        assert analysis.values[edge] == MoveValue("loss", 6)
    assert analysis.best == [0, 2, 6, 8]


def test_finished_board_has_no_values_and_one_node() -> None:
    for text in ("XXXOO....", "XOXXOOOXX"):
        analysis = analyse(Board.from_string(text))
        assert analysis.values == {} and analysis.best == []
        assert analysis.nodes == {"minimax": 1, "alphabeta": 1}


def test_to_json_is_plain_data() -> None:
    data = analyse(Board.from_string("XX.OO....")).to_json()
    assert data == {
        "to_move": "X",
        "values": {
            "2": {"outcome": "win", "plies": 1},
            "5": {"outcome": "draw", "plies": 5},
            "6": {"outcome": "loss", "plies": 2},
            "7": {"outcome": "loss", "plies": 2},
            "8": {"outcome": "loss", "plies": 2},
        },
        "best": [2],
        "nodes": data["nodes"],
    }
    nodes = data["nodes"]
    assert isinstance(nodes, dict) and set(nodes) == {"minimax", "alphabeta"}
    assert isinstance(analyse(Board.empty()), Analysis)


def test_values_match_the_oracle_everywhere(live_positions: list[Board], oracle: Oracle) -> None:
    for board in live_positions:
        analysis = analyse(board)
        expected = oracle.move_values(board.to_string())
        assert {c: (v.outcome, v.plies) for c, v in analysis.values.items()} == expected
        assert set(analysis.best) == oracle.best_cells(board.to_string())
        assert analysis.nodes["alphabeta"] <= analysis.nodes["minimax"]


def test_minimax_nodes_equal_the_size_of_the_game_tree(live_positions: list[Board]) -> None:
    """Counted independently on strings: the root plus every position below it, once per path."""

    @cache
    def tree_size(text: str) -> int:
        mark = "X" if text.count("X") == text.count("O") else "O"
        if any(all(text[i] == m for i in line) for line in LINES for m in "XO"):
            return 1
        return 1 + sum(
            tree_size(text[:c] + mark + text[c + 1 :]) for c, ch in enumerate(text) if ch == "."
        )

    assert tree_size(".........") == 549_946
    for board in live_positions[::50]:
        assert analyse(board).nodes["minimax"] == tree_size(board.to_string())
