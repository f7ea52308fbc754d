"""The JSON game API as a client sees it, for tic-tac-toe: the contract /docs documents."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "tictactoe", "options": options})
    assert response.status_code == 201, response.text
    return public(response.json())


def test_create_local_game_has_the_contract_shape(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    assert set(game) == {"id", "game", "version", "status", "to_move", "result", "options",
                         "state", "seats", "takeback", "clock", "names", "rematch", "you",
                         "watching"}
    assert game["seats"] == {"X": "person", "O": "person"} and game["you"] == ["O", "X"]
    assert game["game"] == "tictactoe"
    assert game["version"] == 0
    assert game["status"] == "playing"
    assert game["to_move"] == "X"
    assert game["result"] is None
    assert game["options"] == {"opponent": "local", "human": "X", "minutes": 0, "increment": 0,
                               "system": "fischer", "periods": 5, "period": 30, "stones": 25,
                               "block": 300}
    assert game["state"]["board"] == "........."
    assert game["state"]["winning_line"] is None
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_computer_playing_x_opens_at_once(client: TestClient) -> None:
    game = new_game(client, opponent="minimax", human="O")
    assert game["version"] == 1
    assert game["state"]["board"].count("X") == 1
    assert game["to_move"] == "O"


def test_move_applies_the_computer_reply_before_returning(client: TestClient) -> None:
    game = new_game(client, opponent="rules", human="X")
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": 4, "version": 0})
    assert response.status_code == 200
    after = response.json()
    assert after["version"] == 2  # the human's move and the computer's reply
    assert after["state"]["board"][4] == "X"
    assert after["state"]["board"].count("O") == 1
    assert after["to_move"] == "X"


def test_full_game_against_a_perfect_player_never_ends_in_a_human_win(client: TestClient) -> None:
    game = new_game(client, opponent="alphabeta", human="X")
    while game["status"] == "playing":
        cell = game["state"]["board"].index(".")
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": cell}).json()
    assert game["status"] == "over"
    assert game["to_move"] is None
    assert game["result"]["winner"] in ("O", None)
    assert game["result"]["text"] in ("O wins", "Draw")


def test_local_game_to_a_win_draws_the_line(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    for cell in (0, 3, 1, 4, 2):
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": cell}).json()
    assert game["result"] == {"winner": "X", "text": "X wins"}
    assert game["state"]["winning_line"] == [0, 1, 2]
    assert game["version"] == 5


def test_undo_against_the_computer_takes_back_both_moves(client: TestClient) -> None:
    game = new_game(client, opponent="rules")
    played = client.post(f"/api/games/{game['id']}/moves", json={"move": 0}).json()
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert undone["state"]["board"] == "........."
    assert undone["version"] == played["version"] + 1
    assert undone["to_move"] == "X"


def test_undo_in_a_local_game_takes_back_one_move(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    client.post(f"/api/games/{game['id']}/moves", json={"move": 0})
    client.post(f"/api/games/{game['id']}/moves", json={"move": 4})
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert undone["state"]["board"] == "X........"
    assert undone["to_move"] == "O"


def test_patch_switches_strategy_mid_game(client: TestClient) -> None:
    game = new_game(client, opponent="random")
    client.post(f"/api/games/{game['id']}/moves", json={"move": 0})
    patched = client.patch(f"/api/games/{game['id']}", json={"options": {"opponent": "minimax"}})
    assert patched.status_code == 200
    assert patched.json()["options"]["opponent"] == "minimax"
    move = client.post(f"/api/games/{game['id']}/moves",
                       json={"move": patched.json()["state"]["board"].index(".")})
    assert move.status_code == 200


def test_patch_handing_the_computer_the_move_makes_it_play(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    patched = client.patch(f"/api/games/{game['id']}",
                           json={"options": {"opponent": "rules", "human": "O"}}).json()
    assert patched["state"]["board"].count("X") == 1
    assert patched["to_move"] == "O"
    assert patched["version"] == 2


# ---- every refusal has a status, a code and a sentence, and changes nothing ----

def assert_refused(client: TestClient, game: dict[str, Any], response: Any,
                   status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["detail"], str) and body["detail"].endswith((".", "!"))
    assert client.get(f"/api/games/{game['id']}").json() == game


@pytest.mark.parametrize(("move", "code"), [
    (9, "off_board"), (-1, "off_board"), ("4", "malformed_move"), (True, "malformed_move"),
    (None, "malformed_move"), (4.5, "malformed_move"), ([4], "malformed_move"),
])
def test_malformed_moves_are_422_and_change_nothing(client: TestClient, move: Any,
                                                    code: str) -> None:
    game = new_game(client, opponent="local")
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": move})
    assert_refused(client, game, response, 422, code)


def test_occupied_cell_is_422(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    game = client.post(f"/api/games/{game['id']}/moves", json={"move": 4}).json()
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": 4})
    assert_refused(client, game, response, 422, "occupied")


def test_move_after_the_end_is_409(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    for cell in (0, 3, 1, 4, 2):
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": cell}).json()
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": 8})
    assert_refused(client, game, response, 409, "game_over")


def test_stale_version_is_409(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    game = client.post(f"/api/games/{game['id']}/moves", json={"move": 4, "version": 0}).json()
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": 0, "version": 0})
    assert_refused(client, game, response, 409, "stale_version")


def test_unknown_game_is_404(client: TestClient) -> None:
    for response in (
        client.get("/api/games/nope"),
        client.post("/api/games/nope/moves", json={"move": 1}),
        client.post("/api/games/nope/undo"),
        client.patch("/api/games/nope", json={"options": {}}),
    ):
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_nothing_to_undo_is_409(client: TestClient) -> None:
    game = new_game(client, opponent="minimax", human="O")
    response = client.post(f"/api/games/{game['id']}/undo")
    assert_refused(client, game, response, 409, "nothing_to_undo")


@pytest.mark.parametrize("options", [
    {"opponent": "godlike"}, {"human": "Z"}, {"colour": "X"},
])
def test_bad_options_are_422(client: TestClient, options: dict[str, Any]) -> None:
    response = client.post("/api/games", json={"game": "tictactoe", "options": options})
    assert response.status_code == 422
    assert response.json()["code"] == "bad_options"
    game = new_game(client, opponent="local")
    response = client.patch(f"/api/games/{game['id']}", json={"options": options})
    assert_refused(client, game, response, 422, "bad_options")


def test_unknown_game_kind_and_malformed_bodies_are_422(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "chess"})
    assert response.status_code == 422 and response.json()["code"] == "unknown_game"
    response = client.post("/api/games", content=b"{not json",
                           headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["code"] == "malformed_request"
    game = new_game(client, opponent="local")
    response = client.post(f"/api/games/{game['id']}/moves", json={"version": 0})
    assert_refused(client, game, response, 422, "malformed_move")
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": 1, "version": "0"})
    assert_refused(client, game, response, 422, "malformed_request")


def test_racing_moves_apply_exactly_once(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def play(cell: int) -> None:
        barrier.wait()
        statuses.append(client.post(f"/api/games/{game['id']}/moves",
                                    json={"move": cell, "version": 0}).status_code)

    threads = [threading.Thread(target=play, args=(cell,)) for cell in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 7
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["version"] == 1
    assert after["state"]["board"].count("X") == 1


def test_racing_moves_without_versions_never_both_apply(client: TestClient) -> None:
    game = new_game(client, opponent="local")
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def play(cell: int) -> None:
        barrier.wait()
        statuses.append(client.post(f"/api/games/{game['id']}/moves",
                                    json={"move": cell}).status_code)

    threads = [threading.Thread(target=play, args=(cell,)) for cell in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = client.get(f"/api/games/{game['id']}").json()
    assert statuses.count(200) == after["version"]
    assert set(statuses) <= {200, 409}
    assert 9 - after["state"]["board"].count(".") == after["version"]


def test_unknown_api_paths_are_json_404s(client: TestClient) -> None:
    for path in ("/api", "/api/nothing", "/api/games/x/y/z"):
        response = client.get(path)
        assert response.status_code in (404, 405)
        assert response.headers["content-type"].startswith("application/json")
