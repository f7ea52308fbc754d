"""Serving many players, measured in one run on loopback (`python -m app` instances):

1. Load: GAMES games at once (two people at one screen, 9x9 Go: the move itself is cheap, so
   what is measured is the serving and the store), each playing MOVES moves as fast as its
   answers come back — one asyncio client, one request in flight per game. Run twice:
   two instances on one PostgreSQL (a durable throwaway server, fsync on), every request of
   a game sent to either instance at random as a balancer without sticky sessions would;
   then one instance on SQLite. Printed: moves/s, the median and p99 of a move's answer,
   errors (anything but 200), and the ratio of the two throughputs.
2. Fan-out (bench/live_games.py's): WATCHERS event streams on one game, half on each
   PostgreSQL instance; for each of five moves made through the first, the time from the
   move's request until every stream, on both instances, has its event.

The machine has 2 cores shared by the client, the instances and PostgreSQL: the figures are
this machine's, not a ceiling. Run: .venv/bin/python -m bench.scale
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import tempfile
import time

import httpx

from app.database.throwaway import ThrowawayPostgres
from bench._server import tabletop
from bench.live_games import fan_out

GAMES = 200
MOVES = 20  # per game: 4,000 moves a run
WATCHERS = 1000
# Black fills the bottom rows, white the top ones: no capture, every move legal.
BLACK = [f"{column}{row}" for row in (1, 2) for column in "ABCDEFGHJ"]
WHITE = [f"{column}{row}" for row in (9, 8) for column in "ABCDEFGHJ"]
SEQUENCE = [point for pair in zip(BLACK, WHITE, strict=True) for point in pair][:MOVES]


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def load(urls: list[str]) -> tuple[float, list[float], int]:
    """Moves/s, each move's answer time (ms), and the number of errors."""
    rng = random.Random(7)
    # keepalive_expiry below the server's 5 s: never reuse a connection as the server closes it
    limits = httpx.Limits(max_connections=GAMES + 10, max_keepalive_connections=GAMES + 10,
                          keepalive_expiry=2.0)
    clients = [httpx.AsyncClient(base_url=url, timeout=60, limits=limits) for url in urls]
    times: list[float] = []
    errors = 0

    async def play(game_id: str, seat: dict[str, str]) -> None:
        nonlocal errors
        for move in SEQUENCE:
            began = time.perf_counter()
            reply = await rng.choice(clients).post(f"/api/games/{game_id}/moves",
                                                   headers=seat, json={"move": move})
            times.append((time.perf_counter() - began) * 1000)
            errors += reply.status_code != 200

    try:
        games = []
        for index in range(GAMES):
            created = (await clients[index % len(clients)].post("/api/games", json={
                "game": "go", "options": {"opponent": "local", "size": 9}})).json()
            games.append((created["id"], {"Authorization": f"Bearer {created['token']}"}))
        began = time.perf_counter()
        await asyncio.gather(*(play(game_id, seat) for game_id, seat in games))
        elapsed = time.perf_counter() - began
    finally:
        for client in clients:
            await client.aclose()
    return len(times) / elapsed, times, errors


def report(label: str, rate: float, times: list[float], errors: int) -> None:
    print(f"| {label} | {rate:.0f} moves/s | median {statistics.median(times):.0f} ms | "
          f"p99 {percentile(times, 0.99):.0f} ms | {errors} errors of {len(times)} |")


def main() -> None:
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores); {GAMES} games at once, "
          f"{MOVES} moves each\n")
    postgres = ThrowawayPostgres(durable=True).start()
    try:
        url = postgres.create_database("bench")
        with tabletop(url) as first, tabletop(url) as second:
            rate_pg, times_pg, errors_pg = asyncio.run(load([first, second]))
            report("two instances, PostgreSQL", rate_pg, times_pg, errors_pg)
            with tempfile.TemporaryDirectory() as tmp, \
                    tabletop(f"sqlite:///{tmp}/bench.db") as alone:
                rate_sq, times_sq, errors_sq = asyncio.run(load([alone]))
                report("one instance, SQLite", rate_sq, times_sq, errors_sq)
            print(f"\nthroughput ratio, two on PostgreSQL / one on SQLite: "
                  f"{rate_pg / rate_sq:.2f}\n")
            fan, _, _ = asyncio.run(fan_out([first, second], watchers=WATCHERS))
            print(f"| one move to {WATCHERS} watchers on two instances, {len(fan)} moves | median "
                  f"{statistics.median(fan):.0f} ms | min {min(fan):.0f} ms | "
                  f"max {max(fan):.0f} ms |")
    finally:
        postgres.stop()


if __name__ == "__main__":
    main()
