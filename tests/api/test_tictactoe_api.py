"""The stateless tic-tac-toe engine endpoints: best move and analysis."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


def test_best_move_takes_the_win(client: TestClient) -> None:
    for strategy in ("rules", "minimax", "alphabeta", "montecarlo"):
        response = client.post("/api/tictactoe/best-move",
                               json={"board": "XX.OO....", "strategy": strategy})
        assert response.status_code == 200, response.text
        assert response.json()["cell"] == 2
        assert response.json()["to_move"] == "X"


def test_side_to_move_follows_from_the_board(client: TestClient) -> None:
    response = client.post("/api/tictactoe/best-move",
                           json={"board": "XX..O....", "strategy": "minimax"})
    assert response.json() == {"cell": 2, "to_move": "O", "strategy": "minimax"}


def test_analysis_of_the_empty_board(client: TestClient) -> None:
    body = client.post("/api/tictactoe/analysis", json={"board": "........."}).json()
    assert body["to_move"] == "X"
    assert body["nodes"]["minimax"] == 549_946
    assert 0 < body["nodes"]["alphabeta"] < 549_946
    assert {v["outcome"] for v in body["values"].values()} == {"draw"}
    assert len(body["values"]) == 9


def test_analysis_values_a_won_position(client: TestClient) -> None:
    body = client.post("/api/tictactoe/analysis", json={"board": "XX.OO...."}).json()
    assert body["values"]["2"] == {"outcome": "win", "plies": 1}
    assert body["best"] == [2]


@pytest.mark.parametrize("board", [
    "X..", "XXXXXXXXXX", "X...O...Z", "XX.......", "OO.X.....", "XXXOOO...", "OOOXX.XX.",
    "XXXOO.O..",
])
def test_malformed_boards_are_422(client: TestClient, board: str) -> None:
    for path in ("/api/tictactoe/best-move", "/api/tictactoe/analysis"):
        response = client.post(path, json={"board": board})
        assert response.status_code == 422, (board, response.text)
        assert response.json()["code"] == "invalid_board"
        assert response.json()["detail"]


def test_finished_boards_are_409(client: TestClient) -> None:
    response = client.post("/api/tictactoe/best-move", json={"board": "XXXOO...."})
    assert response.status_code == 409
    assert response.json()["code"] == "game_over"


def test_unknown_strategy_is_422(client: TestClient) -> None:
    response = client.post("/api/tictactoe/best-move", json={"board": ".........", "strategy": "x"})
    assert response.status_code == 422
    assert response.json()["code"] == "unknown_strategy"
