"""Moves per second through POST /api/games/{id}/moves (the human's move and the computer's
reply, stored in SQLite), as a ratio to a trivial FastAPI endpoint measured in the same run.

Both servers run under uvicorn on loopback; one keep-alive client sends requests one after
another. Each side is measured in ROUNDS alternating rounds; the medians are compared.
Run: .venv/bin/python -m bench.http_moves
"""

from __future__ import annotations

import statistics
import tempfile
import time

import httpx

from bench._server import serving

ROUNDS = 7            # alternating rounds: noise on this shared machine hits both sides alike
GAMES_PER_ROUND = 40  # a game against minimax is 4 or 5 move requests
PINGS_PER_ROUND = 400
OPPONENT = "minimax"


def moves_per_second(client: httpx.Client, base: str) -> float:
    moves = 0
    elapsed = 0.0
    for _ in range(GAMES_PER_ROUND):
        game = client.post(f"{base}/api/games",
                           json={"game": "tictactoe", "options": {"opponent": OPPONENT}}).json()
        while game["status"] == "playing":
            cell = game["state"]["board"].index(".")
            start = time.perf_counter()
            response = client.post(f"{base}/api/games/{game['id']}/moves",
                                   json={"move": cell, "version": game["version"]})
            elapsed += time.perf_counter() - start
            response.raise_for_status()
            game = response.json()
            moves += 1
    return moves / elapsed


def pings_per_second(client: httpx.Client, base: str) -> float:
    start = time.perf_counter()
    for _ in range(PINGS_PER_ROUND):
        client.post(f"{base}/ping").raise_for_status()
    return PINGS_PER_ROUND / (time.perf_counter() - start)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"TABLETOP_DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
        with serving("app.main:create_app", env, probe="/ui/home") as app_url, \
                serving("bench.trivial_app:create_app") as trivial_url, \
                httpx.Client() as client:
            moves_per_second(client, app_url)  # warm-up: caches, SQLite, connections
            pings_per_second(client, trivial_url)
            moves, pings = [], []
            for _ in range(ROUNDS):
                moves.append(moves_per_second(client, app_url))
                pings.append(pings_per_second(client, trivial_url))
    move_rate, ping_rate = statistics.median(moves), statistics.median(pings)
    print(f"move endpoint (move + {OPPONENT} reply + SQLite write): "
          f"median {move_rate:,.0f} moves/s over {ROUNDS} rounds")
    print(f"trivial FastAPI endpoint:                              "
          f"median {ping_rate:,.0f} requests/s over {ROUNDS} rounds")
    print(f"ratio moves/s : trivial requests/s = {move_rate / ping_rate:.2f}")


if __name__ == "__main__":
    main()
