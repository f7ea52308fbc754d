"""The computer's review of a whole Go game (issue 34): asked by a seat once the game is
over, it reads every position in the background and keeps black's chances and the move it
prefers with the game; the moves that cost their side most are marked; a review stopped
by a restart goes on where it stood; a change to the game drops it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games import Caller
from app.games.go_review import DROP, drops, state
from app.main import create_app

# A 9x9 game at one screen: black's four stones on column C are walled in, then captured.
BLUNDER = ["C5", "B5", "C4", "B4", "C6", "B6", "C3", "B3", "G5", "C7", "G4", "D6", "G6", "D5",
           "G3", "D4", "G7", "D3", "J9", "C2"]


def finished(client: TestClient, moves: list[str]) -> dict[str, Any]:
    """A game at one screen after `moves`, black having resigned."""
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    token = {"Authorization": f"Bearer {game['token']}"}
    for move in moves:
        assert client.post(f"/api/games/{game['id']}/moves", json={"move": move},
                           headers=token).status_code == 200
    assert client.post(f"/api/games/{game['id']}/resign", json={},
                       headers=token).json()["status"] == "over"
    return {**game, "headers": token}


def reviewed(client: TestClient, game_id: str, seconds: float = 60) -> dict[str, Any]:
    """The review once it is no longer running."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        review = client.get(f"/api/games/{game_id}/review").json()
        if review["state"] != "running":
            return review
        time.sleep(0.2)
    raise AssertionError(f"the review of {game_id} did not end in {seconds} s")


def fake(client: TestClient, game_id: str, review: dict[str, Any]) -> None:
    """Stores `review` with the game, as an instance that stopped would have left it."""
    store = client.app.state.service.store  # type: ignore[attr-defined]
    record = store.find(game_id)
    record.data["review"] = review
    store.update(record, record.version, {"type": "test"})


def test_a_seat_has_the_whole_game_reviewed(client: TestClient) -> None:
    client.app.state.reviewer.seconds = 0.1  # type: ignore[attr-defined]
    playing = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "size": 9}}).json()
    refused = client.post(f"/api/games/{playing['id']}/review")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_over")
    game = finished(client, ["E5", "D4", "C3", "E4"])
    watcher = TestClient(client.app)
    assert watcher.post(f"/api/games/{game['id']}/review").status_code == 403
    assert client.get(f"/api/games/{game['id']}/review").json()["state"] == "none"

    asked = client.post(f"/api/games/{game['id']}/review", headers=game["headers"])
    assert asked.status_code == 202 and asked.json()["positions"] == 5  # the start and 4
    review = reviewed(watcher, game["id"])
    assert review["state"] == "done" and review["reviewed"] == 5
    assert all(0 <= share <= 1 for share in review["win_rates"])
    assert len(review["preferred"]) == 5 and all(review["preferred"])
    version = client.get(f"/api/games/{game['id']}").json()["version"]
    again = client.post(f"/api/games/{game['id']}/review", headers=game["headers"])
    assert again.json()["state"] == "done"  # nothing to do: left as it is
    assert client.get(f"/api/games/{game['id']}").json()["version"] == version
    page = client.get(f"/ui/go/{game['id']}?move=2").text
    assert "Reviewed: 5 positions." in page
    assert "Black&#39;s winning chances by move, by the computer&#39;s review" in page
    assert page.count('class="go-graph-dot') == 5
    end = client.get(f"/ui/go/{game['id']}").text  # as it ended: black had the move
    assert f"; the computer would play {review['preferred'][4]} as black." in end


def test_a_review_cut_off_goes_on_where_it_stood(client: TestClient) -> None:
    client.app.state.reviewer.seconds = 0.1  # type: ignore[attr-defined]
    game = finished(client, ["E5", "D4", "C3", "E4", "F6", "D6"])
    kept = [[0.123, "A1"], [0.456, "B2"]]  # what the stopped instance had read
    running = {"positions": kept, "to": 7, "by": "elsewhere", "updated": time.time(),
               "stopped": None}
    fake(client, game["id"], running)
    # Another instance is on it and it advanced a moment ago: left to that instance.
    left = client.post(f"/api/games/{game['id']}/review", headers=game["headers"]).json()
    assert (left["state"], left["reviewed"]) == ("running", 2)
    time.sleep(0.5)
    assert client.get(f"/api/games/{game['id']}/review").json()["reviewed"] == 2
    page = client.get(f"/ui/go/{game['id']}").text
    assert "2 of 7 positions" in page and 'hx-trigger="load delay:' in page
    # Its instance stopped: after a minute without progress it may be asked again.
    fake(client, game["id"], {**running, "updated": time.time() - 120})
    assert client.get(f"/api/games/{game['id']}/review").json()["state"] == "stale"
    assert "Go on with the review" in client.get(f"/ui/go/{game['id']}").text
    client.post(f"/api/games/{game['id']}/review", headers=game["headers"])
    review = reviewed(client, game["id"])
    assert review["state"] == "done" and review["reviewed"] == 7
    assert review["win_rates"][:2] == [0.123, 0.456] and review["preferred"][:2] == ["A1", "B2"]


def test_the_costliest_moves_are_marked_and_said() -> None:
    moves = [{"number": n, "colour": "black" if n % 2 else "white", "move": f"M{n}",
              "captures": 0} for n in range(1, 11)]
    # Black's chances after each position: black's moves 3, 5, 7 and 9 each lose some; white's
    # move 4 gains black a lot (white's loss); move 6 loses white a lot but was its choice.
    shares = [0.5, 0.5, 0.5, 0.2, 0.6, 0.3, 0.9, 0.65, 0.6, 0.3, 0.3]
    preferred = ["x"] * 11
    preferred[5] = "M6"  # the computer's own move at position 5
    data = {"game": {"moves": [m["move"] for m in moves]},
            "review": {"positions": [[s, p] for s, p in zip(shares, preferred, strict=True)],
                       "to": 11}}
    marked = drops(data, moves)
    # Black: 3 (-0.3), 5 (-0.3), 9 (-0.3) and 7's -0.25 is the fourth; white: 4 (-0.4).
    assert set(marked) == {3, 4, 5, 9}
    assert marked[4] == {"number": 4, "colour": "white", "move": "M4", "drop": 0.4,
                         "before": pytest.approx(0.8), "after": pytest.approx(0.4),
                         "preferred": "x"}  # white's own chances, before and after
    assert all(mistake["drop"] >= DROP for mistake in marked.values())
    assert state(data["review"], time.time()) == "done"
    assert drops({"game": {"moves": []}}, []) == {}


def test_the_widget_marks_the_costly_move_and_names_the_better_one(client: TestClient) -> None:
    game = finished(client, BLUNDER)
    shares = [0.5] * 18 + [0.45, 0.05, 0.05]  # black's J9 (move 19) lost it
    preferred = ["E5"] * 21
    preferred[18] = "C2"
    fake(client, game["id"], {"positions": [[s, p] for s, p in zip(shares, preferred,
                                                                   strict=True)],
                              "to": 21, "by": "done", "updated": time.time(),
                              "stopped": None})
    page = client.get(f"/ui/go/{game['id']}?move=19").text
    assert "One move cost 15 points or more: ringed on the graph, ? in the list." in page
    assert "Move 19, black J9, cost black 40 points (45% to 5%); the computer preferred C2." \
        in page
    assert page.count('class="go-graph-mistake"') == 1 and 'data-step="19"' in page
    assert page.count('class="go-mistake"') == 1  # "??": it cost more than 30 points
    assert '>??<span class="visually-hidden">: it cost black 40 points' in page
    other = client.get(f"/ui/go/{game['id']}?move=4").text
    assert "Black&#39;s chances here: 50%; the computer would play E5 as black." in other


def test_a_change_to_the_game_drops_its_review(client: TestClient) -> None:
    game = finished(client, ["E5", "D4"])
    fake(client, game["id"], {"positions": [[0.5, "E5"]] * 3, "to": 3, "by": "done",
                              "updated": time.time(), "stopped": None})
    undone = client.post(f"/api/games/{game['id']}/undo", json={}, headers=game["headers"])
    assert undone.status_code == 200, undone.text
    assert client.get(f"/api/games/{game['id']}/review").json()["state"] == "none"


def test_a_review_stops_with_its_server_and_is_left_to_be_asked_again(database_url: str) -> None:
    app = create_app(database_url)
    with TestClient(app) as client:
        app.state.reviewer.seconds = 3.0
        game = finished(client, ["E5", "D4", "C3"])
        client.post(f"/api/games/{game['id']}/review", headers=game["headers"])
        assert app.state.reviewer.reviewing() == [game["id"]]
    assert app.state.reviewer.reviewing() == []  # cancelled at shutdown, nothing left behind
    with TestClient(create_app(database_url)) as again:
        review = again.get(f"/api/games/{game['id']}/review").json()
        assert review["state"] == "running" and review["reviewed"] < 4  # stale in a minute


def test_on_a_variation_the_review_stops_where_the_line_leaves_the_main_one(
        client: TestClient) -> None:
    record = b"(;GM[1]FF[4]SZ[9];B[ee];W[cc](;B[gc];W[cg];B[gg])(;B[cf];W[gg]))"
    game = client.post("/api/games/import", content=record,
                       headers={"Content-Type": "application/x-go-sgf"}).json()
    shares = [0.5, 0.5, 0.5, 0.5, 0.9, 0.9]  # the main line's white C3 (move 4) gave it away
    fake(client, game["id"], {"positions": [[share, "x"] for share in shares], "to": 6,
                              "by": "done", "updated": time.time(), "stopped": None})
    main = client.get(f"/ui/go/{game['id']}?move=4").text
    assert main.count('class="go-mistake"') == 1 and "Move 4, white C3" in main
    variation = client.get(f"/ui/go/{game['id']}?move=4&line=3.1").text
    assert "In variation" in variation
    assert 'class="go-mistake"' not in variation and "Move 4, white" not in variation
    assert variation.count('class="go-graph-dot') == 3  # the positions before move 3
    # A seat may ask on the record, and only the record's main line is reviewed.
    assert client.post(f"/api/games/{game['id']}/review").json()["positions"] == 6


def test_two_asks_at_once_start_one_review(client: TestClient) -> None:
    app: Any = client.app
    app.state.reviewer.seconds = 0.2
    game = finished(client, ["E5", "D4", "C3", "E4", "F6"])
    reviewer, service = app.state.reviewer, app.state.service
    record = service.load(game["id"], "go")
    caller = Caller(token=game["token"], address="testclient")
    searched: list[int] = []
    analyse = app.state.analyst.analyse

    async def counted(data: dict[str, Any], moves: int, *args: Any, **kwargs: Any) -> Any:
        searched.append(moves)
        return await analyse(data, moves, *args, **kwargs)

    app.state.analyst.analyse = counted

    async def both() -> list[Any]:
        return list(await asyncio.gather(reviewer.ask(record, caller),
                                         reviewer.ask(record, caller)))

    assert client.portal is not None
    client.portal.call(both)
    assert reviewer.reviewing() == [game["id"]]  # one runner, counted once against RUNNING
    review = reviewed(client, game["id"])
    assert review["state"] == "done" and review["reviewed"] == 6
    assert sorted(searched) == [0, 1, 2, 3, 4, 5]  # each position searched once
    assert reviewer.reviewing() == []
