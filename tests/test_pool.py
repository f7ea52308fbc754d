"""The worker pool (app/pool.py): jobs run in child processes, admission is bounded, a job
that overruns its deadline loses its worker, and no worker outlives the pool or its parent."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from app.pool import ANONYMOUS, PLAYERS, Busy, JobFailed, WorkerPool

ROOT = Path(__file__).resolve().parents[1]
Gone = Callable[[list[int], float], list[int]]
T = TypeVar("T")


def run(scenario: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps an event
    loop running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, scenario).result()


def test_a_job_runs_in_a_worker_process_and_returns_its_result(wait_gone: Gone) -> None:
    async def scenario() -> tuple[int, list[int]]:
        pool = WorkerPool(workers=2, queue_per_worker=1, warm_up="")
        try:
            result = await pool.run(pool.admit(1, "busy"), abs, -7, deadline=10)
            # The job took the first worker forked; the second may be a moment behind.
            for _ in range(500):
                if len(pool.pids()) == 2:
                    break
                await asyncio.sleep(0.01)
            return result, pool.pids()
        finally:
            await pool.shutdown()

    result, pids = run(scenario())
    assert result == 7
    assert len(pids) == 2 and os.getpid() not in pids
    assert wait_gone(pids, 2) == []


def test_admission_is_bounded_and_refuses_at_once_with_a_retry_time() -> None:
    pool = WorkerPool(workers=2, queue_per_worker=1, warm_up="")
    assert pool.capacity == 4
    tickets = [pool.admit(5, "busy") for _ in range(4)]
    began = time.monotonic()
    with pytest.raises(Busy) as refused:
        pool.admit(5, "The computer is busy.")
    assert time.monotonic() - began < 0.01
    assert refused.value.status == 503 and refused.value.detail == "The computer is busy."
    assert 1 <= refused.value.retry_after <= 30
    assert refused.value.headers["Retry-After"] == str(refused.value.retry_after)
    tickets[0].release()
    tickets[0].release()  # releasing twice frees one place only
    pool.admit(5, "busy")
    with pytest.raises(Busy):
        pool.admit(5, "busy")


def test_a_job_past_its_deadline_fails_and_its_worker_is_replaced(wait_gone: Gone) -> None:
    async def scenario() -> tuple[list[int], list[int], float]:
        pool = WorkerPool(workers=1, queue_per_worker=0, warm_up="")
        try:
            await pool.run(pool.admit(1, "busy"), abs, 1, deadline=10)
            before = pool.pids()
            began = time.monotonic()
            with pytest.raises(JobFailed) as failed:
                await pool.run(pool.admit(1, "busy"), time.sleep, 30, deadline=0.5)
            took = time.monotonic() - began
            assert failed.value.code == "deadline"
            assert pool.admitted == 0  # the failed job gave its place back
            assert await pool.run(pool.admit(1, "busy"), abs, -2, deadline=10) == 2
            return before, pool.pids(), took
        finally:
            await pool.shutdown()

    before, after, took = run(scenario())
    assert took < 2
    assert before != after and len(after) == 1
    assert wait_gone(before, 2) == []  # the overrunning worker was killed


def test_shutdown_kills_workers_mid_job_within_a_second(wait_gone: Gone) -> None:
    async def scenario() -> tuple[list[int], float]:
        pool = WorkerPool(workers=2, queue_per_worker=0, warm_up="")
        await pool.run(pool.admit(1, "busy"), abs, 1, deadline=10)
        job = asyncio.ensure_future(pool.run(pool.admit(1, "busy"), time.sleep, 30, 60))
        await asyncio.sleep(0.3)
        pids = pool.pids()
        began = time.monotonic()
        await pool.shutdown()
        with pytest.raises(JobFailed):
            await job
        return pids, time.monotonic() - began

    pids, took = run(scenario())
    assert took < 1
    assert wait_gone(pids, 1) == []


def test_workers_die_with_a_parent_killed_by_sigkill(wait_gone: Gone) -> None:
    """A parent that cannot clean up (kill -9) still leaves no worker behind."""
    script = textwrap.dedent("""
        import asyncio, os, signal, sys
        from app.pool import WorkerPool

        async def main():
            pool = WorkerPool(workers=2, queue_per_worker=0, warm_up="")
            await pool.run(pool.admit(1, "busy"), abs, 1, deadline=30)
            await asyncio.sleep(0.5)  # the second worker starts too
            print(" ".join(map(str, pool.pids())), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)

        asyncio.run(main())
    """)
    parent = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert parent.returncode == -signal.SIGKILL
    pids = [int(pid) for pid in parent.stdout.split()]
    assert len(pids) == 2
    assert wait_gone(pids, 3) == [], "workers outlived their killed parent"


def test_anonymous_work_has_its_own_share_and_never_takes_the_players_places() -> None:
    """Analyses and tour solves (ANONYMOUS) are refused once their own share is taken, while
    every one of the players' places stays free."""
    pool = WorkerPool(workers=2, queue_per_worker=3, warm_up="")
    assert (pool.capacity, pool.anonymous_capacity, pool.anonymous_workers) == (8, 4, 1)
    anonymous = [pool.admit(1, "busy", ANONYMOUS) for _ in range(pool.anonymous_capacity)]
    with pytest.raises(Busy):
        pool.admit(1, "The computer is busy analysing.", ANONYMOUS)
    players = [pool.admit(5, "busy") for _ in range(pool.capacity)]
    with pytest.raises(Busy):
        pool.admit(5, "busy")
    for ticket in anonymous + players:
        ticket.release()
    assert pool.admitted == 0


def test_a_free_worker_goes_to_a_players_job_before_anonymous_ones() -> None:
    """With anonymous jobs queued up, a player's job waits for one running job at most, and
    anonymous jobs never run on more than `anonymous_workers` workers at once."""

    async def scenario() -> tuple[list[str], int]:
        pool = WorkerPool(workers=2, queue_per_worker=3, warm_up="")
        finished: list[str] = []
        running_anonymous = 0
        most_anonymous = 0

        async def job(name: str, share: int, seconds: float) -> None:
            nonlocal running_anonymous, most_anonymous
            ticket = pool.admit(seconds, "busy", share)
            await pool.run(ticket, time.sleep, seconds, deadline=30)
            finished.append(name)

        async def watch() -> None:
            nonlocal most_anonymous
            while True:
                most_anonymous = max(most_anonymous, pool._anonymous_running)
                await asyncio.sleep(0.01)

        try:
            await pool.run(pool.admit(1, "busy"), abs, 1, deadline=60)  # both workers up
            await pool.run(pool.admit(1, "busy"), abs, 1, deadline=60)
            watcher = asyncio.create_task(watch())
            crowd = [asyncio.create_task(job(f"analysis {n}", ANONYMOUS, 0.4))
                     for n in range(4)]
            await asyncio.sleep(0.1)  # the first analysis runs, three wait
            move = asyncio.create_task(job("move", PLAYERS, 0.1))
            await asyncio.gather(move, *crowd)
            watcher.cancel()
            return finished, most_anonymous
        finally:
            await pool.shutdown()

    finished, most_anonymous = run(scenario())
    assert finished[0] == "move", finished  # on the worker anonymous jobs may not take
    assert most_anonymous == 1


def test_workers_are_forked_from_one_zygote_that_loaded_their_jobs(wait_gone: Gone) -> None:
    """The pool's zygote (app/worker_process.py) warms up once and forks every worker; the
    workers find the compiled search and the jobs (app/jobs.py) already loaded, and none of
    the web stack, and the move predictor read (on one BLAS thread); a worker killed at its
    deadline is replaced by a fork in well under a second."""

    async def scenario() -> tuple[int, set[int], list[int], list[int], list[str], float]:
        pool = WorkerPool(workers=2, queue_per_worker=1)  # the real warm-up
        try:
            loaded = await pool.run(pool.admit(1, "busy"), loaded_modules, None, deadline=60)
            assert await pool.run(pool.admit(1, "busy"), networks_read, None, deadline=10) == 1
            threads = await pool.run(pool.admit(1, "busy"), os.getenv, "OPENBLAS_NUM_THREADS",
                                     deadline=10)
            assert threads == os.environ.get("OPENBLAS_NUM_THREADS", "1")
            while len(pool.pids()) < 2:  # the second fork may be a moment behind the first
                await asyncio.sleep(0.01)
            assert pool.zygote is not None
            zygote, before = pool.zygote.process.pid, pool.pids()
            began = time.monotonic()
            with pytest.raises(JobFailed):
                await pool.run(pool.admit(1, "busy"), time.sleep, 30, deadline=0.2)
            while len(pool.pids()) < 2:  # its replacement, forked again
                await asyncio.sleep(0.01)
            took = time.monotonic() - began
            parents = {parent_of(pid) for pid in pool.pids()}
            return zygote, parents, before, pool.pids(), loaded, took

        finally:
            await pool.shutdown()

    zygote, parents, before, after, loaded, took = run(scenario())
    assert parents == {zygote}
    assert {"app.jobs", "numba", "app.engine.go.mcts.player"} <= set(loaded)
    assert not {"fastapi", "pydantic", "app.games", "app.store"} & set(loaded)
    assert took < 1.5, f"a replacement took {took:.2f} s"
    assert len(set(after) - set(before)) == 1
    assert wait_gone([zygote, *before, *after], 2) == []


def test_a_zygote_that_dies_is_started_again_and_its_workers_go_with_it(
        wait_gone: Gone) -> None:
    async def scenario() -> tuple[list[int], int, int]:
        pool = WorkerPool(workers=1, queue_per_worker=0, warm_up="")
        try:
            await pool.run(pool.admit(1, "busy"), abs, 1, deadline=30)
            assert pool.zygote is not None
            first, workers = pool.zygote.process.pid, pool.pids()
            os.kill(first, signal.SIGKILL)
            assert wait_gone(workers, 2) == []  # the worker died with its zygote
            assert await pool.run(pool.admit(1, "busy"), abs, -3, deadline=30) == 3
            assert pool.zygote is not None
            return workers, first, pool.zygote.process.pid
        finally:
            await pool.shutdown()

    workers, first, second = run(scenario())
    assert second != first


def loaded_modules(_: Any) -> list[str]:
    """A job: the modules its worker has loaded."""
    return sorted(sys.modules)


def networks_read(_: Any) -> int:
    """A job: how many move predictors' weights its worker holds (read before the fork)."""
    from app.engine.go.mcts.network import load

    return load.cache_info().currsize


def parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[1])
