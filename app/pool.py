"""The server's worker processes: where heavy work runs, never on the server's own threads.

Start at WorkerPool.run. CPU-bound work — a Go search, a knight's-tour solve — would freeze
every other request if it ran in the server process (one GIL), so it runs in child processes
(app/worker_process.py), one per core by default, started from the event loop. The pool
promises four things:

- Bounded work. `admit()` hands out at most `capacity` tickets (a job running on each worker
  plus `queue_per_worker` waiting for each); beyond that it refuses at once with `Busy` (HTTP
  503 with Retry-After), before the request has changed anything.
- Players first. Work nobody needs a seat for (analyses, tour solves: `ANONYMOUS`) has its
  own tickets (`anonymous_capacity`, half as many as the players'), runs on at most half the
  workers at once (`anonymous_workers`), and a worker that comes free goes to a waiting
  player's job before any anonymous one: a crowd asking for analyses never refuses a move,
  and with two workers or more never keeps every worker from the players.
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
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.errors import ApiError

HEADER = struct.Struct("!I")  # the worker protocol's length prefix (app/worker_process.py)
QUEUE_PER_WORKER = 3  # jobs that may wait for each worker: a short queue, not a backlog
START_SECONDS = 120.0  # a worker's start-up, numba's first compile included on a cold machine
WARM_UP = "app.engine.go.mcts:warm_up"  # loads the compiled Go search before the first job
RESPAWN_DELAY = 0.2  # seconds between losing a worker and starting its replacement
PLAYERS, ANONYMOUS = 0, 1  # the two shares of the pool, in the order workers are handed out


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
    share: int = PLAYERS
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
    `queue_per_worker` waiting places (TABLETOP_QUEUE_PER_WORKER, default 3) for players'
    jobs, and `anonymous_capacity` places for anonymous ones. Started lazily by the first
    job, or up front by start()."""

    def __init__(self, workers: int | None = None, queue_per_worker: int | None = None,
                 warm_up: str = WARM_UP) -> None:
        self.workers = max(1, workers or default_workers())
        self.queue_per_worker = max(0, default_queue() if queue_per_worker is None
                                    else queue_per_worker)
        self.capacity = self.workers * (1 + self.queue_per_worker)
        self.anonymous_capacity = max(1, self.capacity // 2)
        self.anonymous_workers = max(1, self.workers // 2)
        self._anonymous_running = 0
        self.warm_up = warm_up
        self._tickets: list[Ticket] = []
        self._idle: list[Worker] | None = None  # workers free now; None until started
        self._waiting: tuple[deque[asyncio.Future[Worker]], ...] = (deque(), deque())
        self._all: set[Worker] = set()
        self._starting: set[asyncio.Task[None]] = set()
        self._reaping: set[asyncio.Task[None]] = set()
        self._closed = False

    # -- admission -----------------------------------------------------------------------

    def admit(self, seconds: float, busy: str, share: int = PLAYERS) -> Ticket:
        """A place in `share` for a job of about `seconds`, or `Busy(busy)` at once if that
        share has none."""
        limit = self.capacity if share == PLAYERS else self.anonymous_capacity
        if self.admitted_to(share) >= limit:
            raise Busy(busy, self.retry_after(share))
        ticket = Ticket(self, seconds, share)
        self._tickets.append(ticket)
        return ticket

    def admit_anonymous(self, seconds: float, busy: str,
                        take_token: Callable[[], None]) -> Ticket:
        """A place in the anonymous share, then `take_token()` — the client's rate
        (app/limits.py), which may refuse: a busy refusal costs the client nothing, a rate
        refusal gives the place back."""
        ticket = self.admit(seconds, busy, ANONYMOUS)
        try:
            take_token()
        except BaseException:
            ticket.release()
            raise
        return ticket

    def admitted_to(self, share: int) -> int:
        return sum(1 for ticket in self._tickets if ticket.share == share)

    def retry_after(self, share: int = PLAYERS) -> int:
        """Seconds until a place in `share` is likely free: the work admitted ahead of it
        spread over the workers (1 to 30)."""
        ahead = sum(ticket.seconds for ticket in self._tickets if ticket.share <= share)
        return min(30, max(1, math.ceil(ahead / self.workers)))

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
                raise JobFailed("The server is restarting.", code="shutting_down")
            self._ensure_started()
            worker = await self._acquire(ticket.share)
            while worker.process.returncode is not None:  # died while idle
                self._replace(worker, ticket.share)
                worker = await self._acquire(ticket.share)
            try:
                await worker.send((function, payload))
                status, value = await asyncio.wait_for(worker.receive(), deadline)
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, OSError) as error:
                self._replace(worker, ticket.share)
                if isinstance(error, TimeoutError):
                    raise JobFailed(f"The work took longer than its {deadline:g} s limit and "
                                    "was stopped.", code="deadline") from None
                if self._closed:  # shutdown() killed it: the server is stopping
                    raise JobFailed("The server is restarting.", code="shutting_down") from None
                raise JobFailed("The computer stopped while thinking.") from None
            except BaseException:
                self._replace(worker, ticket.share)  # cancelled mid-job: its reply is unwanted
                raise
            self._hand_out(worker, ticket.share)
            if status != "ok":
                raise JobFailed(f"The work failed: {value}", code="job_error")
            return value
        finally:
            ticket.release()

    async def _acquire(self, share: int) -> Worker:
        """A free worker for a job of `share`, once one is (players' jobs are served first;
        anonymous ones on at most `anonymous_workers` at once). The caller gives it back with
        _hand_out or _replace."""
        assert self._idle is not None
        if self._idle and not any(self._waiting[: share + 1]) and self._may_run(share):
            return self._started(self._idle.pop(), share)
        waiter: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        self._waiting[share].append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # given a worker as it was cancelled
                self._hand_out(waiter.result(), share)
            raise

    def _may_run(self, share: int) -> bool:
        return share == PLAYERS or self._anonymous_running < self.anonymous_workers

    def _started(self, worker: Worker, share: int) -> Worker:
        if share == ANONYMOUS:
            self._anonymous_running += 1
        return worker

    def _hand_out(self, worker: Worker, share: int | None = None) -> None:
        """A worker is free (from a job of `share`, or new): to the first waiting job that
        may run, players' before anonymous ones; else it waits for one."""
        assert self._idle is not None
        if share == ANONYMOUS:
            self._anonymous_running -= 1
        for waiting_share, waiting in enumerate(self._waiting):
            while waiting and self._may_run(waiting_share):
                waiter = waiting.popleft()
                if not waiter.done():
                    waiter.set_result(self._started(worker, waiting_share))
                    return
        self._idle.append(worker)

    def start(self) -> None:
        """Starts every worker now, so the first job does not wait for start-up. Must be
        called from the event loop the pool will serve."""
        self._ensure_started()

    def _ensure_started(self) -> None:
        if self._idle is None:
            self._idle = []
            for _ in range(self.workers):
                self._spawn()

    def _spawn(self) -> None:
        if self._closed:
            return
        task = asyncio.get_running_loop().create_task(self._start_worker())
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    def _replace(self, worker: Worker, share: int | None = None) -> None:
        """Kills a worker that failed or was abandoned mid-job (of `share`) and starts
        another a moment later."""
        if share == ANONYMOUS:
            self._anonymous_running -= 1
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
        self._hand_out(worker)

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
