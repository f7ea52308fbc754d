"""The notice under the Go board's status line: the other side's pass is always said, first,
even with a stone in atari (whose line used to take its place, so a player could pass back
and end the game unknowingly)."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient


def notice_of(client: TestClient, game_id: str, headers: dict[str, str]) -> tuple[str, str]:
    page = client.get(f"/ui/go/{game_id}", headers=headers).text
    found = re.search(r'<p class="go-notice go-notice--(\w+)"([^>]*)>([^<]*)</p>', page)
    assert found, page[:800]
    return found.group(1), html.unescape(found.group(3)) + found.group(2)


def test_a_pass_is_said_before_an_atari(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    seat = {"Authorization": f"Bearer {game['token']}"}
    for move in ("B1", "A1"):  # white's stone at A1 has one liberty left: A2
        client.post(f"/api/games/{game['id']}/moves", json={"move": move}, headers=seat)
    assert notice_of(client, game["id"], seat)[0] == "atari"
    client.post(f"/api/games/{game['id']}/moves", json={"move": "pass"}, headers=seat)
    kind, text = notice_of(client, game["id"], seat)
    assert kind == "pass"
    assert text.startswith("Black passed. Another pass ends play.")
    assert "Atari: white's stone at A1" in text  # still said, after the pass
    assert 'role="status"' in text  # read out to screen readers
