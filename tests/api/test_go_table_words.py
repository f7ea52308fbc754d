"""What the Go view says to each person at the table: whose turn it is in the player's own
words (a friend game's invited player reads "Your move", not "Black to play."), the question
an early or first pass asks before it is sent, and the win-rate graph's caption and axes,
which quote the move shown, not the end of the game."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.routes.go_board import win_rate_graph


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient, TestClient]]:
    """Alice, Bob and Carol: three browsers of one server."""
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", rng=random.Random(3))
    with TestClient(app) as alice, TestClient(app) as bob, TestClient(app) as carol:
        yield alice, bob, carol


def status_of(client: TestClient, game_id: str) -> str:
    page = client.get(f"/ui/go/{game_id}").text
    found = re.search(r'<p class="game-status[^"]*" role="status">([^<]*)</p>', page)
    assert found, page[:600]
    return html.unescape(found.group(1))


def pass_question(client: TestClient, game_id: str) -> str | None:
    """The question on the Pass button (None: it passes at once, or there is no button)."""
    page = client.get(f"/ui/go/{game_id}").text
    button = re.search(r'<button type="button" id="go-pass"[^>]*>', page)
    if not button:
        return None
    asked = re.search(r'data-confirm-pass="([^"]*)"', button.group(0))
    return html.unescape(asked.group(1)) if asked else None


def move(client: TestClient, game: dict[str, Any], token: str, vertex: str) -> None:
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": vertex},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


def friend_game(alice: TestClient, bob: TestClient) -> tuple[dict[str, Any], str]:
    game = alice.post("/api/games", json={"game": "go", "options": {
        "opponent": "remote", "size": 9, "human": "black"}}).json()
    code = game["invite"].split("?invite=", 1)[1]
    joined = bob.post(f"/api/games/{game['id']}/join", json={"invite": code})
    assert joined.status_code == 200, joined.text
    return game, joined.json()["token"]


def test_each_seat_hears_whose_turn_it_is_in_its_own_words(
        two: tuple[TestClient, TestClient, TestClient]) -> None:
    alice, bob, carol = two
    game, bob_token = friend_game(alice, bob)
    carol.get("/")  # a watcher: a browser with no seat
    assert status_of(alice, game["id"]) == "Your move (black)."
    assert status_of(bob, game["id"]) == "Your friend's move (black)."
    assert status_of(carol, game["id"]) == "Black to play."
    move(alice, game, game["token"], "E5")
    assert status_of(alice, game["id"]) == "Your friend's move (white)."
    assert status_of(bob, game["id"]) == "Your move (white)."
    assert status_of(carol, game["id"]) == "White to play."


def test_an_early_pass_and_a_first_pass_ask_first(
        two: tuple[TestClient, TestClient, TestClient]) -> None:
    alice, bob, carol = two
    game, bob_token = friend_game(alice, bob)
    question = pass_question(alice, game["id"])
    assert question == "Pass this early? If your friend passes too, the game ends."
    assert pass_question(bob, game["id"]) is None  # not bob's turn: the button is disabled
    assert pass_question(carol, game["id"]) is None  # a watcher has no Pass button
    move(alice, game, game["token"], "pass")
    assert pass_question(bob, game["id"]) is None  # passing back ends play: the notice says so

    local = alice.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    assert "If White passes too" in (pass_question(alice, local["id"]) or "")
    # Past the opening (20 moves on 9x9), only the game's first pass asks.
    moves = ["A1", "J9", "A3", "J7", "A5", "J5", "A7", "J3", "A9", "J1",
             "C1", "G9", "C3", "G7", "C5", "G5", "C7", "G3", "C9", "G1"]
    for vertex in moves:
        move(alice, local, local["token"], vertex)
    assert (pass_question(alice, local["id"]) or "").startswith("Pass now? If White passes too")
    move(alice, local, local["token"], "pass")
    move(alice, local, local["token"], "E5")  # white plays on
    assert pass_question(alice, local["id"]) is None  # a later pass is the player's own


def test_the_graph_quotes_the_move_shown_and_has_axes() -> None:
    analysis = [(2, 0.55), (4, 0.7), (10, 0.99)]  # the estimates after moves 2, 4 and 10
    live = win_rate_graph(analysis, 10)
    assert live is not None and live["latest"] and live["quoted"] == 99
    review = win_rate_graph(analysis, 10, current=5)
    assert review is not None and not review["latest"]
    assert (review["quoted"], review["quoted_move"]) == (70, 4)  # the estimate after move 4
    early = win_rate_graph(analysis, 10, current=1)
    assert early is not None and early["quoted"] is None
    assert [t["share"] for t in live["y_ticks"]] == [100, 50, 0]
    assert [t["y"] for t in live["y_ticks"]] == [0, 50, 100]
    assert [t["move"] for t in live["x_ticks"]] == [0, 5, 10]  # the start at the left edge
    assert live["x_ticks"][0]["x"] == 0 and live["x_ticks"][-1]["x"] == live["width"]


def test_the_caption_in_review_quotes_the_move_shown(
        two: tuple[TestClient, TestClient, TestClient]) -> None:
    alice = two[0]
    local = alice.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    for vertex in ("E5", "D4", "C3", "F6"):
        move(alice, local, local["token"], vertex)
    store = alice.app.state.service.store  # type: ignore[attr-defined]
    record = store.find(local["id"])
    record.data["analysis"] = [{"move": 0, "win_rate": 0.4}, {"move": 2, "win_rate": 0.9}]
    store.update(record, record.version, {"type": "test"})

    def caption(query: str) -> str:
        page = alice.get(f"/ui/go/{local['id']}{query}").text
        found = re.search(r"<figcaption>([^<]*)</figcaption>", page)
        assert found, page[:400]
        return html.unescape(found.group(1))

    assert "90% now." in caption("")
    assert "40% at move 1." in caption("?move=2")
    assert "no estimate yet at move 0." in caption("?move=0")
    page = alice.get(f"/ui/go/{local['id']}?move=2").text
    assert 'class="go-graph-tick"' in page and ">50%</text>" in page


def test_each_stone_carries_the_number_of_the_move_that_put_it_there() -> None:
    from app.engine.go import Game
    from app.routes.go_board import board_picture

    game = Game(size=9)
    # Black's A1 (move 1) is captured by white's A2 (move 4); white plays A1 as move 6.
    for vertex in ("A1", "B1", "J9", "A2", "J8", "A1"):
        game.play(vertex)
    stones = {stone["name"]: stone for stone in board_picture(game)["stones"]}
    assert {name: stone["number"] for name, stone in stones.items()} == {
        "A1": 6, "B1": 2, "J9": 3, "A2": 4, "J8": 5}
    assert stones["A1"]["color"] == "white" and stones["A1"]["last"]
