"""Does a Go search freeze the server? The p99 latency of other requests while the computer
thinks, against the same requests on an idle server, measured in one run.

The server runs as `python -m app` does (searches in worker processes). A client thread
keeps asking for a game (GET /api/games/{id}) and for a tic-tac-toe move; meanwhile another
thread makes the Go computer think at the "strong" level (2 s a move) ROUNDS times.
Run: .venv/bin/python -m bench.search_latency
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time

import httpx

from bench._server import serving

ROUNDS = 5        # Go moves searched while the other requests are timed
LEVEL = "strong"  # 2 s of search per move
IDLE_SECONDS = 5  # how long the idle baseline is sampled


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def sample(client: httpx.Client, base: str, game_id: str, stop: threading.Event,
           out: list[float]) -> None:
    while not stop.is_set():
        began = time.perf_counter()
        client.get(f"{base}/api/games/{game_id}").raise_for_status()
        out.append((time.perf_counter() - began) * 1000)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, \
            serving("app.main:serve", {"TABLETOP_DATABASE_URL": f"sqlite:///{tmp}/b.db"},
                    probe="/ui/home") as base, httpx.Client(timeout=60) as client:
        other = client.post(f"{base}/api/games", json={"game": "tictactoe"}).json()["id"]
        go = client.post(f"{base}/api/games", json={"game": "go", "options": {
            "opponent": "computer", "level": LEVEL}}).json()
        time.sleep(3)  # let the worker processes finish starting
        idle: list[float] = []
        stop = threading.Event()
        thread = threading.Thread(target=sample, args=(client, base, other, stop, idle))
        thread.start()
        time.sleep(IDLE_SECONDS)
        stop.set()
        thread.join()

        busy: list[float] = []
        stop = threading.Event()
        with httpx.Client(timeout=60) as sampler:
            thread = threading.Thread(target=sample, args=(sampler, base, other, stop, busy))
            thread.start()
            thinking = 0.0
            for move in ("E5", "C3", "G7", "C7", "G3")[:ROUNDS]:
                began = time.perf_counter()
                response = client.post(f"{base}/api/games/{go['id']}/moves", json={"move": move})
                thinking += time.perf_counter() - began
                if response.status_code != 200:  # the computer may have taken that point
                    continue
            stop.set()
            thread.join()
    print(f"Go searches at level {LEVEL!r}: {thinking:.1f} s of move requests "
          f"({ROUNDS} moves) while GET /api/games/<id> was timed")
    print(f"  idle server:      {len(idle):5} requests, median {statistics.median(idle):6.2f} ms,"
          f" p99 {p99(idle):6.2f} ms")
    print(f"  during searches:  {len(busy):5} requests, median {statistics.median(busy):6.2f} ms,"
          f" p99 {p99(busy):6.2f} ms")
    print(f"  p99 ratio (during / idle): {p99(busy) / p99(idle):.2f}")


if __name__ == "__main__":
    main()
