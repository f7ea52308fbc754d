"""The server's worker processes: where heavy work runs, never on the server's own threads.

Start at WorkerPool.run. CPU-bound work — a Go search, a knight's-tour solve — would freeze
every other request if it ran in the server process (one GIL), so it runs in child processes
(app/worker_process.py), one per core by default, started from the event loop. The pool
promises three things:

- Bounded work. `admit()` hands out at most `capacity` tickets (a job running on each worker
  plus `queue_per_worker` waiting for each); beyond that it refuses at once with `Busy` (HTTP
  503 with Retry-After), before the request has changed anything.
- A hard deadline. Every job has one; a worker that overruns it is killed and replaced, and
  the job fails with `JobFailed`.
- No orphans. Workers die with the server (see app/worker_process.py), and `shutdown()` kills
  them at once, mid-job or not, so stopping the server takes well under two seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import pickle
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.errors import ApiError

HEADER = struct.Struct("!I")  # the worker protocol's length prefix (app/worker_process.py)
QUEUE_PER_WORKER = 3  # jobs that may wait for each worker: a short queue, not a backlog
START_SECONDS = 120.0  # a worker's start-up, numba's first compile included on a cold machine
WARM_UP = "app.engine.go.mcts:warm_up"  # loads the compiled Go search before the first job
RESPAWN_DELAY = 0.2  # seconds between losing a worker and starting its replacement


class Busy(ApiError):
    """Every worker is taken and every queue place too: come back in `retry_after` s."""

    status = 503
    code = "busy"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})
        self.retry_after = retry_after


class JobFailed(ApiError):
    """A job overran its deadline, its worker died, or the pool shut down under it."""

    status = 503
    code = "job_failed"


@dataclass
class Ticket:
    """A place in the pool, from admit() until release(); a job needs one to run."""

    pool: WorkerPool
    seconds: float
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.pool._release(self)


class Worker:
    """One child process and its pipes."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        self.jobs = process.stdin
        self.replies = process.stdout

    async def send(self, message: Any) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self.jobs.write(HEADER.pack(len(data)) + data)
        await self.jobs.drain()

    async def receive(self) -> Any:
        header = await self.replies.readexactly(HEADER.size)
        (length,) = HEADER.unpack(header)
        return pickle.loads(await self.replies.readexactly(length))

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def reap(self) -> None:
        self.kill()
        with contextlib.suppress(ProcessLookupError):
            await self.process.wait()


def default_workers() -> int:
    return int(os.environ.get("TABLETOP_WORKERS", "0")) or os.cpu_count() or 1


def default_queue() -> int:
    return int(os.environ.get("TABLETOP_QUEUE_PER_WORKER", str(QUEUE_PER_WORKER)))


class WorkerPool:
    """`workers` child processes (TABLETOP_WORKERS, else one per core), each with
    `queue_per_worker` waiting places (TABLETOP_QUEUE_PER_WORKER, default 3). Started lazily
    by the first job, or up front by start()."""

    def __init__(self, workers: int | None = None, queue_per_worker: int | None = None,
                 warm_up: str = WARM_UP) -> None:
        self.workers = max(1, workers or default_workers())
        self.queue_per_worker = max(0, default_queue() if queue_per_worker is None
                                    else queue_per_worker)
        self.capacity = self.workers * (1 + self.queue_per_worker)
        self.warm_up = warm_up
        self._tickets: list[Ticket] = []
        self._idle: asyncio.Queue[Worker] | None = None
        self._all: set[Worker] = set()
        self._starting: set[asyncio.Task[None]] = set()
        self._reaping: set[asyncio.Task[None]] = set()
        self._closed = False

    # -- admission -----------------------------------------------------------------------

    def admit(self, seconds: float, busy: str) -> Ticket:
        """A place for a job of about `seconds`, or `Busy(busy)` at once if there is none."""
        if len(self._tickets) >= self.capacity:
            raise Busy(busy, self.retry_after())
        ticket = Ticket(self, seconds)
        self._tickets.append(ticket)
        return ticket

    def retry_after(self) -> int:
        """Seconds until a place is likely free: the admitted work spread over the places
        (1 to 30)."""
        total = sum(ticket.seconds for ticket in self._tickets)
        return min(30, max(1, math.ceil(total / self.capacity)))

    def _release(self, ticket: Ticket) -> None:
        with contextlib.suppress(ValueError):
            self._tickets.remove(ticket)

    @property
    def admitted(self) -> int:
        return len(self._tickets)

    # -- running jobs --------------------------------------------------------------------

    async def run(self, ticket: Ticket, function: Callable[[Any], Any], payload: Any,
                  deadline: float) -> Any:
        """Runs function(payload) in a worker once one is free; at most `deadline` seconds
        once it runs. The ticket is released when this returns or raises."""
        try:
            if self._closed:
                raise JobFailed("The server is shutting down.", code="shutting_down")
            idle = self._ensure_started()
            worker = await idle.get()
            while worker.process.returncode is not None:  # died while idle
                self._replace(worker)
                worker = await idle.get()
            try:
                await worker.send((function, payload))
                status, value = await asyncio.wait_for(worker.receive(), deadline)
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, OSError) as error:
                self._replace(worker)
                if isinstance(error, TimeoutError):
                    raise JobFailed(f"The work took longer than its {deadline:g} s limit and "
                                    "was stopped.", code="deadline") from None
                raise JobFailed("A worker process stopped unexpectedly; try again.") from None
            except BaseException:
                self._replace(worker)  # cancelled mid-job: the worker's reply is unwanted
                raise
            idle.put_nowait(worker)
            if status != "ok":
                raise JobFailed(f"The work failed: {value}", code="job_error")
            return value
        finally:
            ticket.release()

    def start(self) -> None:
        """Starts every worker now, so the first job does not wait for start-up. Must be
        called from the event loop the pool will serve."""
        self._ensure_started()

    def _ensure_started(self) -> asyncio.Queue[Worker]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.workers):
                self._spawn()
        return self._idle

    def _spawn(self) -> None:
        if self._closed:
            return
        task = asyncio.get_running_loop().create_task(self._start_worker())
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    def _replace(self, worker: Worker) -> None:
        worker.kill()
        self._all.discard(worker)
        loop = asyncio.get_running_loop()
        task = loop.create_task(worker.reap())
        self._reaping.add(task)
        task.add_done_callback(self._reaping.discard)
        # A moment later: if the job died because the server is stopping, no new worker.
        loop.call_later(RESPAWN_DELAY, self._spawn)

    async def _start_worker(self) -> None:
        env = {**os.environ, "TABLETOP_POOL_PARENT": str(os.getpid()),
               "TABLETOP_POOL_WARM_UP": self.warm_up}
        # Started from the event loop's thread: the kernel's parent-death signal follows
        # the thread that forked, and this one lives as long as the server.
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "app.worker_process", env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        worker = Worker(process)
        self._all.add(worker)
        try:
            status, _ = await asyncio.wait_for(worker.receive(), START_SECONDS)
            if status != "ready":
                raise ConnectionError(status)
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            self._all.discard(worker)
            await worker.reap()
            await asyncio.sleep(1)  # a worker that cannot start: do not spin
            self._spawn()
            return
        if self._closed:
            await worker.reap()
            return
        assert self._idle is not None
        self._idle.put_nowait(worker)

    async def shutdown(self) -> None:
        """Kills every worker at once (their jobs fail) and waits until they are gone."""
        self._closed = True
        for task in list(self._starting):
            task.cancel()
        await asyncio.gather(*self._starting, return_exceptions=True)
        workers, self._all = list(self._all), set()
        for worker in workers:
            worker.kill()
        await asyncio.gather(*(worker.reap() for worker in workers), *self._reaping,
                             return_exceptions=True)

    def pids(self) -> list[int]:
        return [worker.process.pid for worker in self._all]
