"""What one client address may ask for how often (app/limits.py), with the defaults a server
runs with: new games, and the anonymous searches of the worker pool (analyses, solves) —
refused with 429, Retry-After and a sentence, changing nothing, while other clients go on.
Also the cookie's Secure flag and the Allow header of a literal path."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.limits import Limits, RateLimited, RateLimiter
from app.main import create_app

DEFAULTS = Limits()


@pytest.fixture
def app_of(tmp_path: Path) -> Callable[..., Any]:
    """app_of(limits) -> a fresh app on its own database (default: the default limits)."""

    def make(limits: Limits = DEFAULTS) -> Any:
        return create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}",
                          rng=random.Random(3), limits=limits)

    return make


def client_at(app: Any, address: str) -> TestClient:
    """A client whose requests come from `address`."""
    return TestClient(app, client=(address, 40000))


def test_a_client_starts_a_burst_of_games_then_waits(app_of: Callable[..., Any]) -> None:
    app = app_of()
    with client_at(app, "198.51.100.7") as flood, client_at(app, "198.51.100.8") as player:
        made = [flood.post("/api/games", json={"game": "tictactoe"})
                for _ in range(DEFAULTS.new_games_burst)]
        assert {response.status_code for response in made} == {201}
        refused = flood.post("/api/games", json={"game": "go"})
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert "nothing was created" in refused.json()["detail"]
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        # The refusal stored nothing: the browser's list holds the burst and no more.
        assert len(flood.get("/ui/games").text.split('href="/tictactoe/')) - 1 <= \
            DEFAULTS.new_games_burst
        assert player.post("/api/games", json={"game": "go"}).status_code == 201
        # The same bound holds for games made through the views' forms.
        form = flood.post("/ui/tictactoe/new", data={"opponent": "minimax", "human": "X"})
        assert form.status_code == 429


def test_the_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=6, burst=2, refusal="wait {seconds} s",
                          clock=lambda: now[0])
    limiter.take("a")
    limiter.take("a")
    with pytest.raises(RateLimited) as refused:
        limiter.take("a")
    assert refused.value.detail == "wait 10 s" and refused.value.headers["Retry-After"] == "10"
    limiter.take("b")  # another client has its own bucket
    now[0] = 10.0
    limiter.take("a")  # one token back after 10 s at 6 a minute
    with pytest.raises(RateLimited):
        limiter.take("a")


def test_the_limiter_remembers_a_bounded_number_of_clients() -> None:
    limiter = RateLimiter(per_minute=1, burst=1, refusal="{seconds}")
    for number in range(12_000):
        limiter.take(f"client {number}")
    assert len(limiter._buckets) == 10_000


@pytest.mark.slow
def test_analyses_past_the_rate_are_refused_but_cached_ones_are_free(
        app_of: Callable[..., Any]) -> None:
    """A position already analysed is answered from the cache whatever the rate; a new one
    past the client's rate is refused before any search starts."""
    app = app_of(Limits(analyses_burst=2, analyses_per_minute=1))
    with client_at(app, "198.51.100.9") as reviewer:
        game = reviewer.post("/api/games", json={"game": "go", "options": {
            "opponent": "local", "size": 9}}).json()
        headers = {"Authorization": f"Bearer {game['token']}"}
        for move in ("E5", "C3"):
            reviewer.post(f"/api/games/{game['id']}/moves", json={"move": move},
                          headers=headers)
        first = reviewer.get(f"/api/games/{game['id']}/analysis", params={"move": 0})
        second = reviewer.get(f"/api/games/{game['id']}/analysis", params={"move": 1})
        assert (first.status_code, second.status_code) == (200, 200)
        refused = reviewer.get(f"/api/games/{game['id']}/analysis", params={"move": 2})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        again = reviewer.get(f"/api/games/{game['id']}/analysis", params={"move": 0})
        assert again.status_code == 200 and again.json() == first.json()


def test_options_on_a_literal_path_names_only_its_own_methods(
        app_of: Callable[..., Any]) -> None:
    """/api/games/import is no game id: OPTIONS on it says POST, not the methods of
    /api/games/{game_id}."""
    with client_at(app_of(), "198.51.100.10") as client:
        response = client.options("/api/games/import")
        assert response.status_code == 405
        assert response.headers["allow"] == "POST"
        assert client.options("/api/games/abc").headers["allow"] == "GET, PATCH"


def cookie_of(response: httpx.Response) -> str:
    return response.headers.get("set-cookie", "")


@pytest.mark.slow
def test_the_cookie_is_secure_over_https_and_behind_a_trusted_proxy(
        start_server: Callable[..., Any]) -> None:
    """Secure when the request came over https: X-Forwarded-Proto from the trusted proxy
    (127.0.0.1) counts, from anyone else it does not; TABLETOP_SECURE_COOKIE=always sets it
    on plain http too."""
    server = start_server()
    https = {"X-Forwarded-Proto": "https"}
    assert "Secure" not in cookie_of(httpx.get(f"{server.url}/ui/home"))
    assert "; Secure" in cookie_of(httpx.get(f"{server.url}/ui/home", headers=https))
    stranger = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"))
    with stranger:
        assert "Secure" not in cookie_of(stranger.get(f"{server.url}/ui/home", headers=https))
    always = start_server(TABLETOP_SECURE_COOKIE="always")
    assert "; Secure" in cookie_of(httpx.get(f"{always.url}/ui/home"))


def test_a_secure_cookie_setting_that_is_no_setting_stops_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_SECURE_COOKIE", "sometimes")
    with pytest.raises(SystemExit, match="TABLETOP_SECURE_COOKIE"):
        create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}")


@pytest.mark.slow
def test_tour_solves_share_the_analyses_rate(app_of: Callable[..., Any]) -> None:
    """Solves nobody asked for before count against the same rate as analyses; an answer
    already cached is free."""
    app = app_of(Limits(analyses_burst=3, analyses_per_minute=1))
    with client_at(app, "198.51.100.11") as solver:
        def solve(size: int) -> int:
            return solver.get("/api/knights-tour/solve", params={
                "size": size, "method": "warnsdorff"}).status_code

        assert [solve(size) for size in (6, 7, 8)] == [200, 200, 200]
        assert solve(9) == 429
        assert solve(6) == 200  # cached
