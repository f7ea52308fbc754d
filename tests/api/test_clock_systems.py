"""Byo-yomi and Canadian clocks, enforced by the server from stored times like Fischer's: a
move within its period keeps every period, a slow one uses some up, the last period (or a
block) running out loses; their options are bounded, each refusal a sentence; and byo-yomi
runs out across a restart of the server."""

from __future__ import annotations

import json
import time as pytime
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient


class Time:
    """The server's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def timed(client: TestClient, game: str = "go", **options: Any) -> tuple[str, Time]:
    time = Time()
    client.app.state.service.now = time  # type: ignore[attr-defined]
    base = {"opponent": "local", **({"size": 9} if game == "go" else {})}
    response = client.post("/api/games", json={"game": game, "options": {**base, **options}})
    assert response.status_code == 201, response.text
    return response.json()["id"], time


def move(client: TestClient, game_id: str, vertex: str) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/moves", json={"move": vertex})
    assert response.status_code == 200, response.text
    return dict(response.json())


def seen(client: TestClient, game_id: str) -> dict[str, Any]:
    return dict(client.get(f"/api/games/{game_id}").json())


BYOYOMI = {"system": "byoyomi", "minutes": 1, "periods": 3, "period": 10}
CANADIAN = {"system": "canadian", "minutes": 1, "stones": 3, "block": 30}


def test_a_byoyomi_clock_is_documented_in_the_game(client: TestClient) -> None:
    game_id, _ = timed(client, **BYOYOMI)
    clock = seen(client, game_id)["clock"]
    assert clock == {"initial": 60, "increment": 0, "system": "byoyomi", "running": None,
                     "periods": 3, "period": 10,
                     "remaining": {"black": 60.0, "white": 60.0},
                     "overtime": {"black": {"periods": 3, "seconds": 10.0},
                                  "white": {"periods": 3, "seconds": 10.0}}}


def test_byoyomi_moves_within_the_period_keep_every_period(client: TestClient) -> None:
    game_id, time = timed(client, **BYOYOMI)
    move(client, game_id, "E5")  # white's clock starts
    time.now += 65  # white's main time runs out, and 5 s of the first period
    clock = seen(client, game_id)["clock"]
    assert clock["remaining"]["white"] == 0
    assert clock["overtime"]["white"] == {"periods": 3, "seconds": 5.0}
    after = move(client, game_id, "D4")["clock"]
    assert after["overtime"]["white"] == {"periods": 3, "seconds": 10.0}  # full again
    for vertex in ("C3", "F6", "C7", "G3"):  # white moves in 9 s, four times
        time.now += 9
        after = move(client, game_id, vertex)["clock"]
    assert after["overtime"]["white"] == {"periods": 3, "seconds": 10.0}
    assert after["remaining"]["black"] == 60 - 18


def test_a_slow_byoyomi_move_uses_a_period_and_the_last_one_loses(client: TestClient) -> None:
    game_id, time = timed(client, **BYOYOMI)
    move(client, game_id, "E5")
    time.now += 60 + 15  # main time, a whole period and half the next
    assert seen(client, game_id)["clock"]["overtime"]["white"] == {"periods": 2,
                                                                   "seconds": 5.0}
    after = move(client, game_id, "D4")["clock"]
    assert after["overtime"]["white"] == {"periods": 2, "seconds": 10.0}
    move(client, game_id, "C3")
    time.now += 19.5  # a period and most of the last one
    assert seen(client, game_id)["clock"]["overtime"]["white"] == {"periods": 1,
                                                                   "seconds": 0.5}
    time.now += 0.5
    over = seen(client, game_id)
    assert over["status"] == "over" and over["result"] == {"winner": "black", "text": "B+T"}
    assert over["clock"]["overtime"]["white"]["periods"] == 0
    refused = client.post(f"/api/games/{game_id}/moves", json={"move": "D5"})
    assert refused.status_code == 409 and refused.json()["code"] == "game_over"


def test_canadian_moves_within_the_block_and_a_new_block_after_them(
        client: TestClient) -> None:
    game_id, time = timed(client, **CANADIAN)
    move(client, game_id, "E5")
    time.now += 70  # main time and 10 s of the block; this move is the block's first
    after = move(client, game_id, "D4")["clock"]
    assert after["remaining"]["white"] == 0
    assert after["overtime"]["white"] == {"stones": 2, "seconds": 20.0}
    move(client, game_id, "C3")
    time.now += 5
    after = move(client, game_id, "F6")["clock"]
    assert after["overtime"]["white"] == {"stones": 1, "seconds": 15.0}
    move(client, game_id, "C7")
    time.now += 14
    after = move(client, game_id, "G3")["clock"]  # the third move: a new block, full
    assert after["overtime"]["white"] == {"stones": 3, "seconds": 30.0}
    assert after["overtime"]["black"] == {"stones": 3, "seconds": 30.0}  # still main time


def test_a_canadian_block_running_out_loses(client: TestClient) -> None:
    game_id, time = timed(client, "tictactoe", **CANADIAN)
    move(client, game_id, 4)
    time.now += 60 + 29
    move(client, game_id, 0)  # O's first move of the block, with 1 s of it left
    move(client, game_id, 8)
    time.now += 1.5
    over = seen(client, game_id)
    assert over["result"] == {"winner": "X", "text": "X wins on time"}


def test_old_clocks_without_a_system_are_fischer(client: TestClient) -> None:
    """A clock stored before the other systems has no "system": it runs as Fischer."""
    game_id, time = timed(client, minutes=1, increment=2)
    service = client.app.state.service  # type: ignore[attr-defined]
    record = service.store.find(game_id)
    assert "system" not in record.data["clock"]
    del record.data["options"]["system"]
    move(client, game_id, "E5")
    time.now += 10
    clock = move(client, game_id, "D4")["clock"]
    assert clock["system"] == "fischer" and clock["remaining"]["white"] == 52.0
    assert "overtime" not in clock


@pytest.mark.parametrize(("options", "sentence"), [
    ({"system": "byoyomi", "periods": 0},
     "The number of byo-yomi periods must be a whole number from 1 to 10, not 0."),
    ({"system": "byoyomi", "periods": 11},
     "The number of byo-yomi periods must be a whole number from 1 to 10, not 11."),
    ({"system": "byoyomi", "period": 4},
     "The byo-yomi period in seconds must be a whole number from 5 to 300, not 4."),
    ({"system": "byoyomi", "period": 301},
     "The byo-yomi period in seconds must be a whole number from 5 to 300, not 301."),
    ({"system": "canadian", "stones": 51},
     "The number of moves per Canadian block must be a whole number from 1 to 50, not 51."),
    ({"system": "canadian", "block": 29},
     "The Canadian block in seconds must be a whole number from 30 to 1800, not 29."),
    ({"system": "canadian", "block": 1801.5},
     "The Canadian block in seconds must be a whole number from 30 to 1800, not 1801.5."),
    ({"system": "hourglass"},
     "The time system is one of 'fischer', 'byoyomi', 'canadian', not 'hourglass'."),
])
def test_overtime_options_are_bounded_with_a_sentence(
        client: TestClient, options: dict[str, Any], sentence: str) -> None:
    response = client.post("/api/games", json={"game": "go", "options": {
        "minutes": 5, **options}})
    assert response.status_code == 422, response.text
    assert response.json() == {"detail": sentence, "code": "bad_options"}


def test_the_clock_system_is_documented(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    options = schemas["GoOptions"]["properties"]
    assert (options["period"]["minimum"], options["period"]["maximum"]) == (5, 300)
    assert (options["block"]["minimum"], options["block"]["maximum"]) == (30, 1800)
    assert options["system"]["enum"] == ["fischer", "byoyomi", "canadian"]
    assert "overtime" in schemas["Clock"]["properties"]


def started(client: TestClient, game: str, **form: str) -> dict[str, Any]:
    """The game a new-game form starts (the route answers with where to navigate)."""
    fields = ({"size": "9", "handicap": "0", "opponent": "local"} if game == "go"
              else {"opponent": "local", "human": "X"})
    response = client.post(f"/ui/{game}/new", data={**fields, **form})
    assert response.status_code == 204, response.text
    path = json.loads(response.headers["HX-Trigger"])["tabletop:navigate"]["path"]
    return dict(client.get(f"/api/games/{path.rsplit('/', 1)[1]}").json())


def test_the_forms_offer_presets_by_system_and_custom_values(client: TestClient) -> None:
    for game in ("go", "tictactoe"):
        shown = client.post("/api/games", json={"game": game, "options": {}}).json()
        page = client.get(f"/ui/{game}/{shown['id']}").text
        assert '<optgroup label="Byo-yomi">' in page and 'value="10b5x30"' in page
        assert 'value="10c25/300"' in page and 'value="custom"' in page
        assert 'name="clock_periods"' in page
        clock = started(client, game, clock="10b5x30")["clock"]
        assert (clock["system"], clock["initial"], clock["periods"], clock["period"]) == (
            "byoyomi", 600, 5, 30)
    clock = started(client, "go", clock="10c25/300")["clock"]
    assert (clock["system"], clock["stones"], clock["block"]) == ("canadian", 25, 300)
    clock = started(client, "go", clock="5+3")["clock"]
    assert (clock["system"], clock["initial"], clock["increment"]) == ("fischer", 300, 3)
    clock = started(client, "tictactoe", clock="custom", clock_system="byoyomi",
                    clock_minutes="0.25", clock_periods="3", clock_period="5",
                    clock_stones="not read", clock_increment="")["clock"]
    assert (clock["initial"], clock["periods"], clock["period"]) == (15, 3, 5)


def test_custom_values_out_of_bounds_are_refused_with_a_sentence(client: TestClient) -> None:
    response = client.post("/ui/go/new", data={
        "size": "9", "handicap": "0", "opponent": "local", "clock": "custom",
        "clock_system": "byoyomi", "clock_minutes": "10", "clock_periods": "12",
        "clock_period": "30"})
    assert response.status_code == 200
    assert ("The number of byo-yomi periods must be a whole number from 1 to 10, not &#39;12&#39;."
            in response.text)
    response = client.post("/ui/tictactoe/new", data={
        "opponent": "local", "human": "X", "clock": "custom", "clock_system": "canadian",
        "clock_minutes": "10", "clock_stones": "25", "clock_block": "5"})
    assert response.status_code == 422
    assert response.json()["detail"] == ("The Canadian block in seconds must be a whole "
                                         "number from 30 to 1800, not '5'.")


def test_the_seats_show_periods_and_blocks(client: TestClient) -> None:
    game_id, time = timed(client, **BYOYOMI)
    move(client, game_id, "E5")
    table = client.get(f"/ui/go/{game_id}").text
    assert ">1:00 + 3×10s</span>" in table
    time.now += 60 + 10 + 3  # main time, a period, and 3 s of the next
    table = client.get(f"/ui/go/{game_id}").text
    assert ">0:07.0 (2×10s)</span>" in table
    assert ('aria-label="White&#39;s clock: byo-yomi, 0:07.0 of this period, 2 periods of 10 '
            'seconds left"') in table
    game_id, time = timed(client, **CANADIAN)
    move(client, game_id, "E5")
    time.now += 65
    move(client, game_id, "D4")
    table = client.get(f"/ui/go/{game_id}").text
    assert ">1:00 + 3/0:30</span>" in table  # black, in main time
    assert ">0:25 / 2 moves</span>" in table  # white, in the block


@pytest.mark.slow
def test_byoyomi_runs_out_across_a_restart(
        local_game: Callable[..., Any], start_server: Callable[..., Any],
        watchers: Callable[..., Any]) -> None:
    """15 s of main time and two 10 s periods: the server is down while the main time runs
    out; back (its start takes seconds), it shows the periods running and ends the game when
    the last one does, as if it had never stopped."""
    server = start_server()
    game_id, seat = local_game(server.url, "tictactoe", minutes=0.25, system="byoyomi",
                               periods=2, period=10)
    moved = httpx.post(f"{server.url}/api/games/{game_id}/moves", json={"move": 4},
                       headers=seat)
    began = pytime.monotonic()
    assert moved.json()["clock"]["overtime"]["O"] == {"periods": 2, "seconds": 10.0}
    server.stop()
    pytime.sleep(15 + 1)  # all of O's main time runs out while the server is down
    server.start()
    clock = httpx.get(f"{server.url}/api/games/{game_id}").json()["clock"]
    assert clock["running"] == "O" and clock["remaining"]["O"] == 0
    assert clock["overtime"]["O"]["periods"] >= 1 and clock["overtime"]["O"]["seconds"] < 10
    watcher = watchers(f"{server.url}/api/games/{game_id}/events", last_event_id=1)
    flagged = watcher.next(timeout=25)
    fell = pytime.monotonic() - began
    assert flagged.data["result"] == {"winner": "X", "text": "X wins on time"}
    assert flagged.data["clock"]["overtime"]["O"]["periods"] == 0
    assert 15 + 2 * 10 - 0.5 < fell < 15 + 2 * 10 + 3  # when the last period ran out


@pytest.mark.parametrize("change", [{"system": "byoyomi"}, {"periods": 3}, {"period": 60},
                                    {"stones": 10}, {"block": 600}])
def test_a_started_game_keeps_its_time_system(client: TestClient,
                                              change: dict[str, Any]) -> None:
    game = client.post("/api/games", json={"game": "go", "options": {
        "opponent": "local", "minutes": 5, "system": "canadian"}}).json()
    url = f"/api/games/{game['id']}"
    before = client.get(url).json()
    response = client.patch(url, json={"options": change})
    assert response.status_code == 409 and response.json()["code"] == "fixed_option"
    assert client.get(url).json()["options"] == before["options"]  # a refusal changes nothing
