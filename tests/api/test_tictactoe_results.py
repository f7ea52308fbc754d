"""How the end of a tic-tac-toe game reads, from each seat: sentences built from who won and
how — never a slice of the result's text (which once gave "You wins!")."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.routes.ui_tictactoe import result_sentence

ENDINGS = [(None, ""), ("time", " on time"), ("resign", " by resignation")]


@pytest.mark.parametrize(("ending", "how"), ENDINGS)
def test_every_ending_from_every_seat(ending: str | None, how: str) -> None:
    assert result_sentence("X", ending, "computer", {"X"}) == f"You win{how}!"
    assert result_sentence("O", ending, "computer", {"X"}) == f"The computer wins{how}."
    assert result_sentence("X", ending, "remote", {"X"}) == f"You win{how}!"
    assert result_sentence("X", ending, "remote", {"O"}) == f"Your friend wins{how}."
    assert result_sentence("O", ending, "remote", set()) == f"O wins{how}!"  # a watcher
    assert result_sentence("X", ending, "local", {"X", "O"}) == f"X wins{how}!"
    assert result_sentence(None, None, "remote", {"O"}) == "It's a draw."


def status(client: TestClient, game_id: str, headers: dict[str, str] | None = None) -> str:
    page = client.get(f"/ui/tictactoe/{game_id}", headers=headers or {}).text
    found = re.search(r'class="game-status[^"]*" role="status">([^<]*)<', page)
    assert found, page[:500]
    return found.group(1)


def test_the_status_line_at_the_end_of_real_games(client: TestClient) -> None:
    local = client.post("/api/games", json={"game": "tictactoe",
                                            "options": {"opponent": "local"}}).json()
    seat = {"Authorization": f"Bearer {local['token']}"}
    for cell in (0, 3, 1, 4, 2):  # X takes the top row
        client.post(f"/api/games/{local['id']}/moves", json={"move": cell}, headers=seat)
    assert status(client, local["id"], seat) == "X wins!"

    computer = client.post("/api/games", json={"game": "tictactoe"}).json()
    seat = {"Authorization": f"Bearer {computer['token']}"}
    client.post(f"/api/games/{computer['id']}/resign", headers=seat)
    assert status(client, computer["id"], seat) == "The computer wins by resignation."

    friendly = client.post("/api/games", json={"game": "tictactoe",
                                               "options": {"opponent": "remote"}}).json()
    creator = {"Authorization": f"Bearer {friendly['token']}"}
    code = friendly["invite"].split("invite=")[1]
    other_browser = TestClient(client.app)  # cookies of its own: the friend's browser
    other_browser.post(f"/api/games/{friendly['id']}/join", json={"invite": code})
    other_browser.post(f"/api/games/{friendly['id']}/resign")
    assert status(client, friendly["id"], creator) == "You win by resignation!"
    assert status(other_browser, friendly["id"]) == "Your friend wins by resignation."
