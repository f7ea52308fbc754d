"""The real server (`python -m app`) and its worker processes: SIGTERM stops everything within
two seconds even mid-search, and a kill -9 of the server leaves no worker behind."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow


def start_search(url: str, answers: list[httpx.Response] | None = None
                 ) -> tuple[str, threading.Thread]:
    """A Go game against the strongest level, and a thread posting a move (a 5 s search);
    its response, if one comes, goes to `answers`."""
    game = httpx.post(f"{url}/api/games", json={
        "game": "go", "options": {"opponent": "computer", "level": "strongest"}}).json()

    def move() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server goes away mid-search
            response = httpx.post(f"{url}/api/games/{game['id']}/moves", json={"move": "E5"},
                                  timeout=30,
                                  headers={"Authorization": f"Bearer {game['token']}"})
            if answers is not None:
                answers.append(response)

    thread = threading.Thread(target=move)
    thread.start()
    time.sleep(1.0)  # the search is under way
    return game["id"], thread


def test_sigterm_mid_search_stops_server_and_workers_within_two_seconds(
        start_server: Callable[..., Any], wait_gone: Callable[..., list[int]]) -> None:
    server = start_server()
    workers = server.workers(2)
    answers: list[httpx.Response] = []
    game_id, thread = start_search(server.url, answers)
    began = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=10)
    took = time.monotonic() - began
    thread.join()
    assert took <= 2.0, f"the server took {took:.2f} s to stop"
    assert wait_gone(workers, 1) == []
    # The move's request, cut short, is told so in the API's shape: 503, Retry-After, and
    # the headers every answer carries (it used to be uvicorn's plain-text 500).
    (cut,) = answers
    assert cut.status_code == 503, cut.text
    assert cut.json()["code"] == "shutting_down"
    assert int(cut.headers["retry-after"]) >= 1
    assert cut.headers["x-content-type-options"] == "nosniff"
    # The human's move was stored before the search: it survives the stop.
    server.start()
    game = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert game["state"]["moves"][:1] == ["E5"]


def test_kill_9_of_the_server_leaves_no_worker(
        start_server: Callable[..., Any], wait_gone: Callable[..., list[int]]) -> None:
    server = start_server()
    workers = server.workers(2)
    _, thread = start_search(server.url)
    server.kill()
    thread.join()
    assert wait_gone(workers, 3) == [], "workers outlived the killed server"
