"""A score estimate on request (issue 34): the search's ownership map, from the API and in
the widget, live (the game goes on) and in review; marks drawn where the search is sure
enough, on empty points and on stones it expects captured."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.engine.go import Game
from app.routes.go_board import OWNED, board_picture, estimated_count

# Black walls off the right of a 9x9 board along column E, white the left along column D.
WALLS = ["E5", "D5", "E4", "D4", "E3", "D3", "E6", "D6", "E7", "D7", "E2", "D2", "E8", "D8",
         "E1", "D1", "E9", "D9"]


def walled(client: TestClient) -> dict[str, Any]:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    for move in WALLS:
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": move}).json()
    return game


def test_the_analysis_carries_who_owns_each_point(client: TestClient) -> None:
    game = walled(client)
    estimate = client.get(f"/api/games/{game['id']}/analysis").json()
    ownership = estimate["ownership"]
    assert len(ownership) == 81 and all(-1 <= share <= 1 for share in ownership)
    index = {f"{'ABCDEFGHJ'[c]}{9 - r}": r * 9 + c for r in range(9) for c in range(9)}
    # Each side's part of the board is marked its own (random playouts still invade the
    # wide open right a little: not every simulation keeps it black's).
    assert all(ownership[index[point]] > OWNED for point in ("J5", "G3", "F9", "E5"))
    assert all(ownership[index[point]] < -OWNED for point in ("A5", "B8", "C1", "D5"))


def test_the_widget_marks_the_estimate_and_stays_live(client: TestClient) -> None:
    game = walled(client)
    page = client.get(f"/ui/go/{game['id']}?estimate=on").text
    # What the marks add up to: the right five columns to the left four, komi counted.
    assert "<strong>Black ahead by 1.5</strong>" in page
    assert "45 points to 36 + 7.5 komi, by the computer&#39;s estimate (" in page
    assert 'aria-label="J5, empty, black&#39;s by the estimate"' in page
    assert 'aria-label="A5, empty, white&#39;s by the estimate"' in page
    assert page.count("go-owner--black") >= 20 and page.count("go-owner--white") >= 15
    assert "data-review" not in page  # live: the player plays on from here
    assert 'hx-post="/ui/go/' in page.split('id="go-board"')[1]
    assert "Hide the estimate" in page
    plain = client.get(f"/ui/go/{game['id']}").text
    assert "go-owner" not in plain and "Estimate the score" in plain
    # In review, of the position shown.
    early = client.get(f"/ui/go/{game['id']}?move=2&estimate=on").text
    assert "data-review" in early and "by the computer&#39;s estimate" in early
    assert "in the balance" in early  # two stones: most of the board is nobody's yet
    assert f'hx-get="/ui/go/{game["id"]}?move=2"' in early  # hiding stays at move 2


def test_marks_only_where_the_search_is_sure_and_stones_only_when_captured() -> None:
    game = Game(5)
    for move in ["C3", "B2"]:
        game.play(move)
    ownership = [0.0] * 25
    index = {f"{'ABCDE'[c]}{5 - r}": r * 5 + c for r in range(5) for c in range(5)}
    ownership[index["A5"]] = 0.9  # black's, surely
    ownership[index["E1"]] = -(OWNED - 0.01)  # in the balance: unmarked
    ownership[index["C3"]] = 1.0  # black's own stone, kept: unmarked
    ownership[index["B2"]] = 0.8  # white's stone, expected captured by black
    picture = board_picture(game, ownership=ownership)
    marked = {(mark["x"], mark["y"]): mark["owner"] for mark in picture["estimate"]}
    assert marked == {(1, 1): "black", (2, 4): "black"}
    labels = {point["name"]: point["label"] for point in picture["points"]}
    assert labels["B2"] == "B2, white stone, expected captured by black"
    assert labels["A5"] == "A5, empty, black's by the estimate"
    assert board_picture(game)["estimate"] == []
    # The count: C3 black's, B2 (captured) and A5 black's; the other 22 in the balance.
    assert estimated_count(game, ownership) == {"black": 3, "white": 0, "unsure": 22}
