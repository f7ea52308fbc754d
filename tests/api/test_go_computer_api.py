"""Go against the Monte-Carlo computer through HTTP: its reply comes with the response,
it opens with black, undo takes back both moves, and its estimates are kept."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


def new_go(client: TestClient, **options: Any) -> dict[str, Any]:
    options = {"opponent": "computer", "level": "easy", **options}
    response = client.post("/api/games", json={"game": "go", "options": options})
    assert response.status_code == 201, response.text
    return public(response.json())


def stones(game: dict[str, Any]) -> int:
    return sum(row.count("X") + row.count("O") for row in game["state"]["board"])


def test_the_computer_replies_before_the_response(client: TestClient) -> None:
    game = new_go(client)
    assert game["options"]["opponent"] == "computer" and game["options"]["level"] == "easy"
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": "E5"}).json()
    assert after["version"] == 2
    assert len(after["state"]["moves"]) == 2 and after["to_move"] == "black"
    analysis = after["state"]["analysis"]
    assert len(analysis) == 1 and analysis[0]["move"] == 1
    assert 0 <= analysis[0]["win_rate"] <= 1 and analysis[0]["playouts"] > 0


def test_the_computer_opens_with_black(client: TestClient) -> None:
    game = new_go(client, human="white")
    assert stones(game) == 1 and game["to_move"] == "white"


def test_undo_takes_back_the_move_and_the_reply(client: TestClient) -> None:
    game = new_go(client)
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": "C3"}).json()
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert stones(undone) == 0 and undone["to_move"] == "black"
    assert undone["state"]["analysis"] == []
    assert undone["version"] == after["version"] + 1


def test_switching_colours_mid_game_hands_the_computer_the_move(client: TestClient) -> None:
    game = new_go(client)
    switched = client.patch(f"/api/games/{game['id']}", json={"options": {"human": "white"}})
    assert switched.status_code == 200
    assert stones(switched.json()) == 1 and switched.json()["to_move"] == "white"


def test_resigning_counts_as_a_loss_in_the_tally(client: TestClient) -> None:
    game = new_go(client)
    over = client.post(f"/api/games/{game['id']}/moves", json={"move": "resign"}).json()
    assert over["result"] == {"winner": "white", "text": "W+R"}
    page = client.get(f"/ui/go/{game['id']}").text
    assert "<strong>1</strong> loss" in page


def test_bad_levels_are_refused(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "go", "options": {"level": "godlike"}})
    assert response.status_code == 422 and response.json()["code"] == "bad_options"


def test_the_levels_match_the_search_levels() -> None:
    from app.engine.go.mcts import LEVELS as SEARCH_LEVELS
    from app.games.go import LEVELS

    assert list(LEVELS) == list(SEARCH_LEVELS)


def test_computer_move_endpoint_plays_only_when_it_is_the_computers_turn(
        client: TestClient) -> None:
    game = new_go(client)
    same = client.post(f"/api/games/{game['id']}/computer-move").json()
    assert same == game  # the human is to move: nothing happens
    # A game left with the computer to move (as after a restart mid-search) gets its move.
    local = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local"}}).json()
    client.post(f"/api/games/{local['id']}/moves", json={"move": "E5"})
    client.patch(f"/api/games/{local['id']}", json={"options": {"opponent": "computer",
                                                                 "level": "easy"}})
    after = client.get(f"/api/games/{local['id']}").json()
    assert len(after["state"]["moves"]) == 2  # the patch handed it the move and it played
    moved = client.post(f"/api/games/{local['id']}/computer-move").json()
    assert moved == after  # now it is the human's turn again
