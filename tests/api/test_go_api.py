"""The JSON game API for Go: rules through HTTP, scoring, SGF out and in, every refusal."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

KO_SETUP = ["C4", "D4", "B3", "E3", "C2", "D2", "D3", "C3"]  # white has just taken the ko


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


def new_go(client: TestClient, **options: Any) -> dict[str, Any]:
    """A new game for two people at one screen (these tests play both colours)."""
    options = {"opponent": "local", **options}
    response = client.post("/api/games", json={"game": "go", "options": options})
    assert response.status_code == 201, response.text
    return public(response.json())


def play(client: TestClient, game: dict[str, Any], *moves: str) -> dict[str, Any]:
    for move in moves:
        response = client.post(f"/api/games/{game['id']}/moves", json={"move": move})
        assert response.status_code == 200, (move, response.text)
        game = response.json()
    return game


def assert_refused(client: TestClient, game: dict[str, Any], response: Any,
                   status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_new_game_has_the_contract_shape(client: TestClient) -> None:
    game = new_go(client)
    assert game["game"] == "go" and game["status"] == "playing" and game["to_move"] == "black"
    state = game["state"]
    assert state["size"] == 9 and state["komi"] == 7.5
    assert state["board"] == ["." * 9] * 9
    assert state["captures"] == {"black": 0, "white": 0}
    assert state["ko"] is None and state["last_move"] is None and state["moves"] == []


def test_options_from_query_text_and_handicap(client: TestClient) -> None:
    game = new_go(client, size="13", handicap="4")
    assert game["state"]["size"] == 13
    assert game["state"]["komi"] == 0.5
    assert sum(row.count("X") for row in game["state"]["board"]) == 4
    assert game["to_move"] == "white"


@pytest.mark.parametrize("options", [
    {"size": 4}, {"size": 26}, {"size": "big"}, {"handicap": 1}, {"handicap": 10},
    {"komi": "lots"}, {"opponent": "gnugo"}, {"colour": "black"},
])
def test_bad_options_are_422(client: TestClient, options: dict[str, Any]) -> None:
    response = client.post("/api/games", json={"game": "go", "options": options})
    assert response.status_code == 422, response.text
    assert response.json()["detail"]


def test_capture_and_atari(client: TestClient) -> None:
    game = new_go(client)
    game = play(client, game, "E5", "D5", "A1", "F5", "A2", "E6")
    assert game["state"]["atari"] == [{"color": "black", "stones": ["E5"], "liberty": "E4"}]
    game = play(client, game, "A3", "E4")
    assert game["state"]["board"][4][4] == "."  # E5 was taken
    assert game["state"]["captures"] == {"black": 0, "white": 1}


def test_ko_is_refused_then_allowed_after_a_move_elsewhere(client: TestClient) -> None:
    game = play(client, new_go(client), *KO_SETUP)
    assert game["state"]["ko"] == "D3"
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "D3"})
    assert_refused(client, game, response, 422, "ko")
    assert response.json()["detail"].startswith("ko")
    game = play(client, game, "A9", "J9", "D3")
    assert game["state"]["captures"]["black"] == 1


@pytest.mark.parametrize(("move", "code"), [
    ("5E", "malformed_move"), ("I5", "malformed_move"), ("K5", "off_board"), ("Z9", "off_board"),
    (42, "malformed_move"), ("", "malformed_move"), ("toggle E5", "not_scoring"),
])
def test_malformed_and_off_board_moves(client: TestClient, move: Any, code: str) -> None:
    game = new_go(client)
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": move})
    expected = 409 if code == "not_scoring" else 422
    assert_refused(client, game, response, expected, code)


def test_occupied_and_suicide(client: TestClient) -> None:
    game = play(client, new_go(client), "B1", "E5", "A2")
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "B1"})
    assert_refused(client, game, response, 422, "occupied")
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "A1"})
    assert_refused(client, game, response, 422, "suicide")


def test_two_passes_then_scoring_toggle_and_done(client: TestClient) -> None:
    game = play(client, new_go(client, size=5), "C3", "pass", "pass")
    assert game["status"] == "scoring" and game["to_move"] is None
    assert game["state"]["score"]["text"] == "B+17.5"
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "A1"})
    assert_refused(client, game, response, 409, "game_over")
    marked = play(client, game, "toggle C3")
    assert marked["state"]["dead"] == ["C3"]
    assert marked["state"]["score"]["text"] == "W+7.5"
    unmarked = play(client, marked, "toggle C3")
    assert unmarked["state"]["dead"] == []
    over = play(client, unmarked, "done")
    assert over["status"] == "over"
    assert over["result"] == {"winner": "black", "text": "B+17.5"}
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "pass"})
    assert_refused(client, over, response, 409, "game_over")


def test_resign_and_undo(client: TestClient) -> None:
    game = play(client, new_go(client), "E5", "resign")
    assert game["status"] == "over"
    assert game["result"] == {"winner": "black", "text": "B+R"}
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert undone["status"] == "playing" and undone["to_move"] == "white"
    assert undone["version"] == game["version"] + 1


def test_sgf_download(client: TestClient) -> None:
    game = play(client, new_go(client), "E5", "C3", "pass")
    response = client.get(f"/api/games/{game['id']}/sgf")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-go-sgf")
    disposition = response.headers["content-disposition"]
    assert disposition.startswith("attachment;") and ".sgf" in disposition
    text = response.text
    for part in ("FF[4]", "GM[1]", "SZ[9]", "KM[7.5]", "B[ee]", "W[cg]", "B[]"):
        assert part in text, part


def test_sgf_round_trip_gives_the_same_position(client: TestClient) -> None:
    game = play(client, new_go(client, size=13, handicap=3), "F6", "C3", "pass", "E5")
    sgf = client.get(f"/api/games/{game['id']}/sgf").content
    response = client.post("/api/games/import", content=sgf,
                           headers={"content-type": "application/x-go-sgf"})
    assert response.status_code == 201, response.text
    imported = response.json()
    assert imported["id"] != game["id"]
    assert imported["state"]["board"] == game["state"]["board"]
    assert imported["state"]["moves"] == game["state"]["moves"]
    assert imported["state"]["komi"] == game["state"]["komi"]
    # A record is for review; play goes on in a game branched from its last position.
    assert imported["status"] == "over" and imported["to_move"] is None
    refused = client.post(f"/api/games/{imported['id']}/moves", json={"move": "H8"})
    assert refused.status_code == 409 and refused.json()["code"] == "review_only"
    branched = client.post(f"/api/games/{imported['id']}/branch", json={
        "move": len(game["state"]["moves"]), "options": {"opponent": "local"}}).json()
    assert branched["to_move"] == game["to_move"]
    play(client, branched, "H8")


def test_import_with_setup_stones(client: TestClient) -> None:
    sgf = b"(;FF[4]GM[1]SZ[9]KM[6.5]AB[cc][dd]AW[ee];B[gg];W[ff])"
    imported = client.post("/api/games/import", content=sgf,
                           headers={"content-type": "application/x-go-sgf"}).json()
    board = imported["state"]["board"]
    assert board[2][2] == "X" and board[3][3] == "X" and board[4][4] == "O"
    assert board[6][6] == "X" and board[5][5] == "O"
    assert imported["state"]["moves"] == ["G3", "F4"]
    assert imported["state"]["komi"] == 6.5


@pytest.mark.parametrize(("body", "status"), [
    (b"(;FF[4]GM[1]SZ[9];B[ee]", 422),                 # unbalanced brackets
    (b"(;FF[4]GM[1]SZ[9];B[ee];W[ee])", 422),          # an illegal move in the record
    (b"(;FF[4]GM[1]SZ[30])", 422),                     # size off the range
    (b"(;FF[4]GM[1]SZ[3])", 422),
    (b"(;GM[1]SZ[9]" + b"(;B[aa]" * 5000 + b")" * 5001, 422),  # deep nesting
    (b"(;FF[4]GM[1]SZ[9]C[" + b"x" * 2_000_000 + b"])", 413),  # megabytes of comment
    (b"not an sgf at all", 422),
    (b"", 422),
])
def test_hostile_sgf_is_refused_cleanly(client: TestClient, body: bytes, status: int) -> None:
    response = client.post("/api/games/import", content=body,
                           headers={"content-type": "application/x-go-sgf"})
    assert response.status_code == status, response.text[:300]
    assert response.json()["detail"]


def test_import_needs_the_sgf_content_type(client: TestClient) -> None:
    response = client.post("/api/games/import", json={"sgf": "(;SZ[9])"})
    assert response.status_code == 415


def test_sgf_of_a_tictactoe_game_is_not_found(client: TestClient) -> None:
    game = public(client.post("/api/games", json={"game": "tictactoe"}).json())
    response = client.get(f"/api/games/{game['id']}/sgf")
    assert response.status_code == 404
    assert response.json()["detail"].startswith("There is no Go game with the id")
    assert client.get("/api/games/unknown/sgf").status_code == 404
