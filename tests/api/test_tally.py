"""The tally of this browser's games against the computer cannot be rewritten: a finished
game's result stands (no undo, no change of sides after the end), and a game that changed
sides or opponent mid-game does not count."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.seats import digest


def tally(client: TestClient, kind: str) -> dict[str, int]:
    counts: dict[str, int] = client.app.state.service.store.tally(  # type: ignore[attr-defined]
        digest(client.cookies["tabletop_browser"]), kind)
    return counts


def finish_tictactoe(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    while game["status"] == "playing":
        cell = game["state"]["board"].index(".")
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": cell}).json()
    return game


def test_undo_after_a_finished_game_against_the_computer_keeps_the_result(
        client: TestClient) -> None:
    game = client.post("/api/games", json={
        "game": "tictactoe", "options": {"opponent": "alphabeta"}}).json()
    game = finish_tictactoe(client, game)
    recorded = tally(client, "tictactoe")
    assert sum(recorded.values()) == 1 and recorded["win"] == 0
    response = client.post(f"/api/games/{game['id']}/undo")
    assert response.status_code == 409 and response.json()["code"] == "game_over"
    response = client.patch(f"/api/games/{game['id']}", json={"options": {"human": "O"}})
    assert response.status_code == 409
    assert client.get(f"/api/games/{game['id']}").json() == game
    assert tally(client, "tictactoe") == recorded


def test_a_go_resignation_stays_a_loss(client: TestClient) -> None:
    game = client.post("/api/games", json={
        "game": "go", "options": {"opponent": "computer", "level": "easy"}}).json()
    game = client.post(f"/api/games/{game['id']}/moves", json={"move": "resign"}).json()
    assert game["status"] == "over"
    assert tally(client, "go") == {"win": 0, "draw": 0, "loss": 1}
    response = client.post(f"/api/games/{game['id']}/undo")
    assert response.status_code == 409
    response = client.patch(f"/api/games/{game['id']}", json={"options": {"opponent": "local"}})
    assert response.status_code == 409
    assert tally(client, "go") == {"win": 0, "draw": 0, "loss": 1}


def test_a_game_that_changed_sides_mid_game_does_not_count(client: TestClient) -> None:
    game = client.post("/api/games", json={
        "game": "tictactoe", "options": {"opponent": "random"}}).json()
    game = client.post(f"/api/games/{game['id']}/moves", json={"move": 4}).json()
    # Play both sides at one screen to a won position, then hand it back to the computer.
    game = client.patch(f"/api/games/{game['id']}", json={"options": {"opponent": "local"}}
                        ).json()
    game = client.patch(f"/api/games/{game['id']}", json={"options": {"opponent": "random"}}
                        ).json()
    finish_tictactoe(client, game)
    assert tally(client, "tictactoe") == {"win": 0, "draw": 0, "loss": 0}


def test_local_games_are_not_in_the_tally_and_may_be_undone_after_the_end(
        client: TestClient) -> None:
    game = client.post("/api/games", json={
        "game": "tictactoe", "options": {"opponent": "local"}}).json()
    for cell in (0, 3, 1, 4, 2):
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": cell}).json()
    assert game["status"] == "over"
    assert client.post(f"/api/games/{game['id']}/undo").status_code == 200
    assert tally(client, "tictactoe") == {"win": 0, "draw": 0, "loss": 0}
