"""Fischer clocks, enforced by the server from stored times: minutes plus seconds per move,
a flag that falls whether or not anyone asks, and a move after the flag is refused."""

from __future__ import annotations

import time as pytime
from typing import Any

from fastapi.testclient import TestClient


class Time:
    """The server's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def timed(client: TestClient, game: str = "tictactoe", **options: Any) -> tuple[dict[str, Any],
                                                                                Time]:
    time = Time()
    client.app.state.service.now = time  # type: ignore[attr-defined]
    response = client.post("/api/games", json={"game": game, "options": {
        "opponent": "local", "minutes": 1, "increment": 2, **options}})
    assert response.status_code == 201, response.text
    return response.json(), time


def test_the_clock_starts_after_the_first_move_and_adds_the_increment(
        client: TestClient) -> None:
    game, time = timed(client)
    assert game["clock"] == {"initial": 60, "increment": 2, "running": None, "system": "fischer",
                             "remaining": {"X": 60.0, "O": 60.0}}
    time.now += 100  # X may think before the first move: no clock runs yet
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": 4}).json()
    assert after["clock"]["running"] == "O" and after["clock"]["remaining"]["X"] == 60.0
    time.now += 30
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": 0}).json()
    assert after["clock"]["remaining"] == {"X": 60.0, "O": 32.0}
    time.now += 10.5
    seen = client.get(f"/api/games/{game['id']}").json()
    assert seen["clock"]["remaining"] == {"X": 49.5, "O": 32.0}


def stored_version(client: TestClient, game_id: str) -> int:
    record = client.app.state.service.store.find(game_id)  # type: ignore[attr-defined]
    return int(record.version)


def test_a_flag_falls_without_anyone_asking(client: TestClient) -> None:
    """The server's clock watch ends the game; no request reads it meanwhile."""
    game, time = timed(client)
    client.post(f"/api/games/{game['id']}/moves", json={"move": 4})
    time.now += 59
    pytime.sleep(0.6)  # two turns of the clock watch: nothing is due yet
    assert stored_version(client, game["id"]) == 1
    time.now += 2
    deadline = pytime.monotonic() + 5
    while stored_version(client, game["id"]) == 1 and pytime.monotonic() < deadline:
        pytime.sleep(0.05)
    seen = client.get(f"/api/games/{game['id']}").json()
    assert seen["status"] == "over"
    assert seen["result"] == {"winner": "X", "text": "X wins on time"}
    assert seen["clock"]["remaining"]["O"] == 0 and seen["clock"]["running"] is None


def test_a_move_after_the_flag_is_refused_and_the_flag_stands(client: TestClient) -> None:
    game, time = timed(client, game="go", size=9)
    client.post(f"/api/games/{game['id']}/moves", json={"move": "E5"})
    time.now += 61
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "D4"})
    assert response.status_code == 409 and response.json()["code"] == "game_over"
    seen = client.get(f"/api/games/{game['id']}").json()
    assert seen["result"] == {"winner": "black", "text": "B+T"}
    assert seen["state"]["moves"] == ["E5"]


def test_scoring_stops_the_clock(client: TestClient) -> None:
    game, time = timed(client, game="go", size=9)
    for move in ("E5", "pass", "pass"):
        client.post(f"/api/games/{game['id']}/moves", json={"move": move})
        time.now += 5
    time.now += 1000
    seen = client.get(f"/api/games/{game['id']}").json()
    assert seen["status"] == "scoring" and seen["clock"]["running"] is None


def test_clock_options_are_bounded(client: TestClient) -> None:
    for options in ({"minutes": 181}, {"minutes": 0.3}, {"increment": 61}, {"minutes": -1}):
        response = client.post("/api/games", json={"game": "tictactoe", "options": options})
        assert response.status_code == 422, options
        assert response.json()["code"] == "bad_options"


def test_no_clock_runs_while_the_friends_seat_is_free(client: TestClient) -> None:
    game, time = timed(client, opponent="remote", human="X")
    client.post(f"/api/games/{game['id']}/moves", json={"move": 4})
    time.now += 3600  # an hour before the friend opens the link
    seen = client.get(f"/api/games/{game['id']}").json()
    assert seen["status"] == "playing" and seen["clock"]["running"] is None
