"""The server under pressure, in one run: other requests' latency while heavy work runs, the
busy refusal, how fast SIGTERM stops a server mid-search, and the memory a 20 MB body costs.

Every figure comes from the real server (`python -m app`, worker pool of one process per
core). A client times GET /api/games/{id} back to back (the probe):
1. on an idle server, then while eight knight's-tour solves are asked for at once (300×300,
   Warnsdorff, eight different starts, so no answer is shared or cached): the pool's
   anonymous share admits four and refuses the rest with 503 (the table says how many ran);
   ROUNDS rounds, fresh starts each;
2. while sixteen moves against the strongest Go level (5 s a search) arrive at once: how many
   are admitted, how fast the rest are refused (503), how long the last admitted one waits;
3. SIGTERM sent one second into a 5 s search, TERM_RUNS times: seconds until the server has
   exited, and whether any worker survived it;
4. the server's peak resident memory (VmHWM) before and after refusing a 20 MB body, sent once
   with Content-Length and once chunked.
Run: .venv/bin/python -m bench.hardening
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench._server import children_of, free_port, workers_of

ROOT = Path(__file__).resolve().parent.parent

ROUNDS = 3
TERM_RUNS = 5
IDLE_REQUESTS = 400
# Start squares of 300×300 where Warnsdorff's rule finishes within its step budget (~1 s).
STARTS = [0, 2, 5, 10, 17, 19, 21, 22, 26, 27, 29, 30, 32, 33, 35, 41, 42, 44, 47, 49, 53, 54,
          61, 64]


class Server:
    def __init__(self, database: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "TABLETOP_DATABASE_URL": f"sqlite:///{database}",
               "PORT": str(self.port)}
        self.process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{self.url}/ui/home", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        while len(workers_of(self.process.pid)) < (os.cpu_count() or 1):
            time.sleep(0.1)
        time.sleep(1)  # the workers finish warming up

    def workers(self) -> list[int]:
        """The pool's processes: its zygote and the workers forked from it."""
        return children_of(self.process.pid) + workers_of(self.process.pid)

    def memory_kb(self, field: str) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise KeyError(field)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def probe_while(client: httpx.Client, url: str, busy: Callable[[], bool]) -> list[float]:
    samples = []
    while busy():
        began = time.perf_counter()
        client.get(url).raise_for_status()
        samples.append((time.perf_counter() - began) * 1000)
        time.sleep(0.005)
    return samples


def run_all(threads: list[threading.Thread]) -> Callable[[], bool]:
    for thread in threads:
        thread.start()
    return lambda: any(thread.is_alive() for thread in threads)


def latency_rounds(server: Server, client: httpx.Client, probe: str) -> None:
    print("| round | idle p99 ms | during 8 solves asked p99 ms | ratio | solves run / refused |")
    print("|---|---|---|---|---|")
    ratios = []
    for round_ in range(ROUNDS):
        idle = []
        for _ in range(IDLE_REQUESTS):
            began = time.perf_counter()
            client.get(probe)
            idle.append((time.perf_counter() - began) * 1000)
        statuses: list[int] = []
        starts = STARTS[round_ * 8:(round_ + 1) * 8]
        busy = probe_while(client, probe, run_all(
            [threading.Thread(target=solve, args=(server.url, start, statuses))
             for start in starts]))
        ratios.append(p99(busy) / p99(idle))
        print(f"| {round_ + 1} | {p99(idle):.2f} | {p99(busy):.2f} | {ratios[-1]:.1f} | "
              f"{statuses.count(200)} / {statuses.count(503)} |")
    print(f"\nmedian ratio during/idle: {statistics.median(ratios):.1f}\n")


def solve(url: str, start: int, statuses: list[int]) -> None:
    response = httpx.get(f"{url}/api/knights-tour/solve", timeout=120, params={
        "size": 300, "method": "warnsdorff", "start": start})
    statuses.append(response.status_code)


def sixteen_searches(server: Server, client: httpx.Client, probe: str) -> None:
    games = [client.post(f"{server.url}/api/games", json={"game": "go", "options": {
        "opponent": "computer", "level": "strongest"}}).json()["id"] for _ in range(16)]
    results: list[tuple[int, float, str]] = []

    def move(game_id: str) -> None:
        began = time.perf_counter()
        response = httpx.post(f"{server.url}/api/games/{game_id}/moves",
                              json={"move": "E5"}, timeout=120)
        results.append((response.status_code, time.perf_counter() - began,
                        response.headers.get("retry-after", "")))

    extra = client.post(f"{server.url}/api/games", json={"game": "go", "options": {
        "opponent": "computer", "level": "strongest"}}).json()["id"]
    running = run_all([threading.Thread(target=move, args=(game_id,)) for game_id in games])
    time.sleep(1)  # every place taken: time refusals from a client with its connection open
    refusals = []
    for _ in range(20):
        began = time.perf_counter()
        response = client.post(f"{server.url}/api/games/{extra}/moves", json={"move": "E5"})
        refusals.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 503, response.text
    busy = probe_while(client, probe, running)
    admitted = sorted(seconds for status, seconds, _ in results if status == 200)
    refused = [status for status, _, _ in results if status == 503]
    retry = sorted({after for status, _, after in results if status == 503})
    print("| sixteen strongest searches at once | |")
    print("|---|---|")
    print(f"| admitted (200) | {len(admitted)}, replies after {admitted[0]:.1f}–"
          f"{admitted[-1]:.1f} s |")
    print(f"| refused (503) | {len(refused)} of the 16, Retry-After {', '.join(retry)} s; "
          f"20 more moves while full: refused in {statistics.median(refusals):.1f} ms median, "
          f"{max(refusals):.1f} ms at most |")
    print(f"| other requests meanwhile | {len(busy)}, median {statistics.median(busy):.2f} "
          f"ms, p99 {p99(busy):.2f} ms |\n")


def sigterm_runs(tmp: Path) -> None:
    took, survivors = [], 0
    for run in range(TERM_RUNS):
        server = Server(tmp / f"term{run}.db")
        workers = server.workers()
        game = httpx.post(f"{server.url}/api/games", json={"game": "go", "options": {
            "opponent": "computer", "level": "strongest"}}).json()
        thread = threading.Thread(target=move_ignoring_errors,
                                  args=(f"{server.url}/api/games/{game['id']}/moves",))
        thread.start()
        time.sleep(1)
        began = time.perf_counter()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=30)
        took.append(time.perf_counter() - began)
        thread.join()
        time.sleep(0.5)
        survivors += sum(1 for pid in workers if Path(f"/proc/{pid}").exists())
    print(f"| SIGTERM mid-search → exit ({TERM_RUNS} runs) | median {statistics.median(took):.2f} "
          f"s, {min(took):.2f}–{max(took):.2f} s; workers left: {survivors} |")


def move_ignoring_errors(url: str) -> None:
    with contextlib.suppress(httpx.HTTPError):  # the server stops mid-search: expected
        httpx.post(url, json={"move": "E5"}, timeout=30)


def big_body(server: Server) -> None:
    before = server.memory_kb("VmHWM")
    size = 20 * 1024 * 1024
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                           b"application/json\r\nContent-Length: " + str(size).encode()
                           + b"\r\n\r\n")
        status_declared = connection.recv(64).split(b" ")[1].decode()
    chunk = b"x" * 65536

    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(size // len(chunk)):
            yield chunk

    try:
        status_chunked = str(httpx.post(f"{server.url}/api/games", content=chunks(),
                                        headers={"content-type": "application/json"}
                                        ).status_code)
    except httpx.HTTPError as error:  # the server may close while the client still sends
        status_chunked = f"connection closed ({type(error).__name__})"
    after = server.memory_kb("VmHWM")
    print(f"| 20 MB body, Content-Length declared | {status_declared} before reading it |")
    print(f"| 20 MB body, chunked | {status_chunked} |")
    print(f"| server peak memory (VmHWM) before → after both | {before / 1024:.1f} → "
          f"{after / 1024:.1f} MB (+{(after - before) / 1024:.2f} MB) |")


def main() -> None:
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} (2 cores)\n")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        server = Server(tmp / "bench.db")
        try:
            with httpx.Client(timeout=60) as client:
                game = client.post(f"{server.url}/api/games", json={"game": "tictactoe"}).json()
                probe = f"{server.url}/api/games/{game['id']}"
                latency_rounds(server, client, probe)
                sixteen_searches(server, client, probe)
            print("| measure | result |\n|---|---|")
            big_body(server)
        finally:
            server.stop()
        sigterm_runs(tmp)


if __name__ == "__main__":
    main()
