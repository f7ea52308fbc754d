"""Bounded thinking: when every place in the worker pool is taken, a move against the Go
computer is refused at once with 503 and Retry-After, changing nothing, and the view says so
and sends the move again by itself; a search that fails leaves the human's move standing."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.pool import JobFailed, Ticket, WorkerPool


def public(game: dict[str, Any]) -> dict[str, Any]:
    """A creation response without the creator's secret, as a later GET shows the game."""
    game.pop("token", None)
    return game


@pytest.fixture
def small_pool() -> WorkerPool:
    return WorkerPool(workers=1, queue_per_worker=0)


@pytest.fixture
def busy_client(tmp_path: Path, small_pool: WorkerPool) -> Iterator[TestClient]:
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}",
                     rng=random.Random(7), pool=small_pool)
    with TestClient(app) as client:
        yield client


def new_go(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={
        "game": "go", "options": {"opponent": "computer", "level": "easy"}})
    assert response.status_code == 201
    return public(response.json())


def test_a_move_is_refused_at_once_when_the_computer_is_busy(
        busy_client: TestClient, small_pool: WorkerPool) -> None:
    game = new_go(busy_client)
    taken = small_pool.admit(5, "busy")  # another game's search holds the only place
    began = time.monotonic()
    response = busy_client.post(f"/api/games/{game['id']}/moves", json={"move": "E5"})
    assert time.monotonic() - began < 0.5
    assert response.status_code == 503
    assert response.json()["code"] == "busy"
    assert response.json()["detail"].startswith("The computer is busy")
    assert int(response.headers["retry-after"]) >= 1
    assert busy_client.get(f"/api/games/{game['id']}").json() == game  # nothing changed
    taken.release()
    after = busy_client.post(f"/api/games/{game['id']}/moves", json={"move": "E5"})
    assert after.status_code == 200 and len(after.json()["state"]["moves"]) == 2
    assert small_pool.admitted == 0


def test_the_view_says_busy_and_sends_the_move_again_by_itself(
        busy_client: TestClient, small_pool: WorkerPool) -> None:
    game = new_go(busy_client)
    taken = small_pool.admit(5, "busy")
    response = busy_client.post(f"/ui/go/{game['id']}/moves",
                                data={"move": "E5", "version": "0"})
    assert response.status_code == 200
    assert "The computer is busy with other games, so your move E5 is not played yet" \
        in response.text
    retry = re.search(r'hx-post="(/ui/go/[^"]+)" hx-trigger="load delay:(\d+)s"\s*'
                      r"hx-vals='(\{[^']*\})'", response.text)
    assert retry, response.text
    assert retry.group(1) == f"/ui/go/{game['id']}/moves" and int(retry.group(2)) >= 1
    assert '"move": "E5"' in retry.group(3)
    assert busy_client.get(f"/api/games/{game['id']}").json() == game
    taken.release()


def test_the_computer_turn_view_retries_when_busy(
        busy_client: TestClient, small_pool: WorkerPool) -> None:
    response = busy_client.post("/api/games", json={
        "game": "go", "options": {"opponent": "local"}})
    game = response.json()
    busy_client.post(f"/api/games/{game['id']}/moves", json={"move": "E5"})
    taken = small_pool.admit(5, "busy")
    # Handing the computer the move while it is busy: the change stands, the reply waits.
    changed = busy_client.patch(f"/api/games/{game['id']}", json={
        "options": {"opponent": "computer", "human": "black", "level": "easy"}})
    assert changed.status_code == 200 and changed.json()["to_move"] == "white"
    response = busy_client.post(f"/ui/go/{game['id']}/reply")
    assert "The computer is busy with other games. Trying again in" in response.text
    assert f'hx-post="/ui/go/{game["id"]}/reply" hx-trigger="load delay:' in response.text
    taken.release()


class FailingPool(WorkerPool):
    """A pool whose every search overruns its deadline."""

    async def run(self, ticket: Ticket, function: Callable[[Any], Any], payload: Any,
                  deadline: float) -> Any:
        ticket.release()
        raise JobFailed("The work took longer than its limit and was stopped.",
                        code="deadline")


def test_a_failed_search_keeps_the_humans_move(tmp_path: Path) -> None:
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}",
                     pool=FailingPool(workers=1))
    with TestClient(app) as client:
        game = new_go(client)
        response = client.post(f"/api/games/{game['id']}/moves", json={"move": "E5"})
        assert response.status_code == 200
        after = response.json()
        assert after["state"]["moves"] == ["E5"] and after["to_move"] == "white"
        response = client.post(f"/api/games/{game['id']}/computer-move")
        assert response.status_code == 503 and response.json()["code"] == "deadline"
        assert client.get(f"/api/games/{game['id']}").json() == after


@pytest.mark.parametrize("move", ["resign", "RESIGN"])
def test_a_move_that_needs_no_search_is_played_while_the_computer_is_busy(
        busy_client: TestClient, small_pool: WorkerPool, move: str) -> None:
    """Resigning hands the computer nothing to think about: it needs no place in the pool,
    so a full pool does not refuse it (it used to answer 503)."""
    game = new_go(busy_client)
    taken = small_pool.admit(5, "busy")
    try:
        response = busy_client.post(f"/api/games/{game['id']}/moves", json={"move": move})
        assert response.status_code == 200, response.text
        assert response.json()["status"] == "over"
        stone = busy_client.post(f"/api/games/{game['id']}/moves", json={"move": "E5"})
        assert stone.status_code == 409  # over: refused for that, not for the busy pool
    finally:
        taken.release()
