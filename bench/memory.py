"""One instance's memory: `python -m app` idle, then after ten 19x19 searches, and how long
the first search takes.

Starts the server as `make run` does (its worker pool warms up at start), waits until every
worker has said it is ready and the memory has settled, and reads each process's PSS
(proportional set size, /proc/<pid>/smaps_rollup: a page shared by n processes counts 1/n in
each, so the sum is what the instance really holds; RSS would count shared pages in every
process). Then plays ten moves against the computer on a 19x19 board through the API - each
reply is one search in a worker - timing the first, and reads the memory again.

Goals (issue 33): idle <= 250 MB, after the ten searches <= 450 MB, the first search no
slower than before.

Run: .venv/bin/python -m bench.memory [--level medium] [--starts 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench._server import ROOT, children_of, free_port, wait_until_up

IDLE_GOAL_MB = 250
BUSY_GOAL_MB = 450
SEARCHES = 10
# The human's moves, spread over the board; one the computer has taken is skipped.
MOVES = [f"{column}{row}" for row in (4, 16, 10, 7, 13) for column in "DGKOQ"]


def kb(pid: int, file: str, field: str) -> int:
    """A field of /proc/<pid>/<file> in kB (0 if the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def pss_kb(pid: int) -> int:
    """The process's proportional set size."""
    return kb(pid, "smaps_rollup", "Pss")


def rss_kb(pid: int) -> int:
    return kb(pid, "status", "VmRSS")


def instance(server: int) -> dict[int, str]:
    """The server and every process under it, with its role: the pool's zygote is the
    server's child, the workers are the zygote's (app/pool.py)."""
    found = {server: "server"}
    for zygote in children_of(server):
        found[zygote] = "zygote"
        found.update((worker, "worker") for worker in children_of(zygote))
    return found


def settled(server: int, workers: int, timeout: float = 180.0) -> dict[int, str]:
    """Waits until the pool's workers are up and the instance's PSS has stopped moving
    (two readings a second apart within 1 MB, three times running)."""
    deadline = time.monotonic() + timeout
    calm, last = 0, -1
    while time.monotonic() < deadline:
        pids = instance(server)
        total = sum(pss_kb(pid) for pid in pids)
        running = sum(1 for role in pids.values() if role == "worker")
        if running == workers and abs(total - last) < 1024:
            calm += 1
            if calm == 3:
                return pids
        else:
            calm = 0
        last = total
        time.sleep(1.0)
    raise TimeoutError("the instance's memory did not settle")


def report(title: str, pids: dict[int, str]) -> int:
    total = sum(pss_kb(pid) for pid in pids)
    print(f"{title}: {total / 1024:.0f} MB PSS in all "
          f"({sum(rss_kb(pid) for pid in pids) / 1024:.0f} MB RSS)")
    for pid, role in pids.items():
        print(f"  {role} {pid}: {pss_kb(pid) / 1024:.0f} MB PSS, {rss_kb(pid) / 1024:.0f} MB RSS")
    return total


def searches(base: str, level: str) -> list[float]:
    """Seconds for each of SEARCHES replies of the computer on 19x19 (the move's request:
    the human's move, the search in a worker, the reply stored)."""
    times: list[float] = []
    with httpx.Client(base_url=base, timeout=120) as client:
        game = client.post("/api/games", json={"game": "go", "options": {
            "size": 19, "opponent": "computer", "level": level}}).json()
        seat = {"Authorization": f"Bearer {game['token']}"}
        moves = iter(MOVES)
        while len(times) < SEARCHES:
            start = time.perf_counter()
            response = client.post(f"/api/games/{game['id']}/moves", headers=seat,
                                   json={"move": next(moves)})
            if response.status_code in (409, 422):  # the computer took that point: the next
                continue
            response.raise_for_status()
            times.append(time.perf_counter() - start)
    return times


def one_instance(level: str, workers: int, verbose: bool) -> tuple[int, int, list[float]]:
    """Starts an instance, reads it idle, runs the searches, reads it again: (idle kB, busy
    kB, each search's seconds)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PORT": str(port), "TABLETOP_WORKERS": str(workers),
               "TABLETOP_DATABASE_URL": f"sqlite:///{tmp}/memory.db"}
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, process, "/ui/home")
            pids = settled(process.pid, workers)
            if verbose:
                print(f"up and settled in {time.perf_counter() - started:.1f} s "
                      f"({workers} workers)")
            idle = report("idle", pids) if verbose else total_pss(pids)
            times = searches(base, level)
            after = instance(process.pid)
            busy = (report(f"after {SEARCHES} 19x19 searches ({level})", after) if verbose
                    else total_pss(after))
        finally:
            process.terminate()
            process.wait()
    return idle, busy, times


def total_pss(pids: dict[int, str]) -> int:
    return sum(pss_kb(pid) for pid in pids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="medium", help="the computer's level (default medium)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="TABLETOP_WORKERS (default: one per core, as make run)")
    parser.add_argument("--starts", type=int, default=5,
                        help="instances started one after another (default 5): the first "
                             "search is timed once per start")
    args = parser.parse_args()
    runs = [one_instance(args.level, args.workers, verbose=start == 0)
            for start in range(args.starts)]
    idle = [run[0] / 1024 for run in runs]
    busy = [run[1] / 1024 for run in runs]
    first = [run[2][0] for run in runs]
    rest = [time for run in runs for time in run[2][1:]]
    print(f"over {args.starts} starts: idle {spread(idle, 'MB')}, after the searches "
          f"{spread(busy, 'MB')}")
    print(f"first search {spread(first, 's')}; the others {spread(rest, 's')}")
    for name, values, goal in (("idle", idle, IDLE_GOAL_MB), ("busy", busy, BUSY_GOAL_MB)):
        verdict = "within" if statistics.median(values) <= goal else "OVER"
        print(f"{name}: median {statistics.median(values):.0f} MB, {verdict} the {goal} MB goal")


def spread(values: list[float], unit: str) -> str:
    digits = 0 if unit == "MB" else 2
    return (f"median {statistics.median(values):.{digits}f} {unit} "
            f"({min(values):.{digits}f}-{max(values):.{digits}f})")


if __name__ == "__main__":
    main()
