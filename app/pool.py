"""The server's worker processes: where heavy work runs, never on the server's own threads.

Start at WorkerPool.run. CPU-bound work — a Go search, a knight's-tour solve — would freeze
every other request if it ran in the server process (one GIL), so it runs in child processes
(app/worker_process.py), one per core by default. They are forked from one process, the
zygote, which loads the compiled search once: the workers share its memory, and a worker
killed at its deadline is replaced in milliseconds. The pool promises four things:

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
- No orphans. The zygote dies with the server and the workers with the zygote (see
  app/worker_process.py), and `shutdown()` kills them all at once, mid-job or not, so
  stopping the server takes well under two seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import pickle
import select
import signal
import socket
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.errors import ApiError
from app.worker_process import FORK, HEADER, READY  # the protocols' bytes

REAP_SECONDS = 5.0  # how long reaping waits for a killed worker to be gone
QUEUE_PER_WORKER = 3  # jobs that may wait for each worker: a short queue, not a backlog
START_SECONDS = 120.0  # the zygote's start-up, numba's first compile included on a cold machine
WARM_UP = "app.jobs:warm_up"  # the zygote loads what the workers run before it forks them
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
    """One worker process, forked by the zygote, and its two pipes. It is not the server's
    child, so it is watched and killed through a pidfd (no pid reuse can mislead either)."""

    def __init__(self, pid: int, pidfd: int, jobs: asyncio.StreamWriter,
                 replies: asyncio.StreamReader) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.jobs = jobs
        self.replies = replies
        self._reaped: asyncio.Future[None] | None = None

    async def send(self, message: Any) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self.jobs.write(HEADER.pack(len(data)) + data)
        await self.jobs.drain()

    async def receive(self) -> Any:
        header = await self.replies.readexactly(HEADER.size)
        (length,) = HEADER.unpack(header)
        return pickle.loads(await self.replies.readexactly(length))

    @property
    def exited(self) -> bool:
        return self.pidfd < 0 or bool(select.select([self.pidfd], [], [], 0)[0])

    def kill(self) -> None:
        if self.pidfd >= 0:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)

    async def reap(self) -> None:
        """Kills it, waits until it is gone (the kernel reaps it for the zygote) and closes
        the pipes and the pidfd. Asked twice (a job's failure and a shutdown at once), the
        second waits for the first."""
        if self._reaped is None:
            self._reaped = asyncio.ensure_future(self._reap())
        await asyncio.shield(self._reaped)

    async def _reap(self) -> None:
        self.kill()
        await wait_readable(self.pidfd, REAP_SECONDS)
        os.close(self.pidfd)
        self.pidfd = -1
        self.jobs.close()
        self.replies.feed_eof()


class Zygote:
    """The process every worker is forked from (app/worker_process.py): it loads the
    compiled search once, so the workers share its pages, and a new worker starts at once.
    Forks are asked for one at a time, on its control socket."""

    def __init__(self, process: asyncio.subprocess.Process, control: socket.socket) -> None:
        self.process = process
        self.control = control
        self.lock = asyncio.Lock()

    @classmethod
    async def start(cls, warm_up: str) -> Zygote:
        """Starts the zygote and waits until it has warmed up (ConnectionError if it dies
        first, TimeoutError after START_SECONDS)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        # One BLAS thread per worker (the move predictor's matrix products): the workers are
        # one per core already, and OpenBLAS's own threads on a busy machine slowed 19x19
        # predictions from ~390 a second to 5 (docs/benchmarks.md). A deployer's setting wins.
        env = {"OPENBLAS_NUM_THREADS": "1", **os.environ,
               "TABLETOP_POOL_PARENT": str(os.getpid()), "TABLETOP_POOL_WARM_UP": warm_up,
               "TABLETOP_POOL_CONTROL": str(theirs.fileno())}
        try:
            # Started from the event loop's thread: the kernel's parent-death signal follows
            # the thread that forked, and this one lives as long as the server.
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "app.worker_process", env=env,
                stdin=asyncio.subprocess.DEVNULL, pass_fds=(theirs.fileno(),))
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        zygote = cls(process, ours)
        try:
            ready = await asyncio.wait_for(zygote._receive(len(READY)), START_SECONDS)
            if ready != READY:
                raise ConnectionError(ready)
        except BaseException:
            await zygote.stop()
            raise
        return zygote

    async def _receive(self, size: int) -> bytes:
        data = b""
        loop = asyncio.get_running_loop()
        while len(data) < size:
            chunk = await loop.sock_recv(self.control, size - len(data))
            if not chunk:
                raise ConnectionError("the zygote is gone")
            data += chunk
        return data

    async def fork(self) -> Worker:
        """A new worker on two new pipes (ConnectionError if the zygote is gone)."""
        loop = asyncio.get_running_loop()
        async with self.lock:
            jobs_read, jobs_write = os.pipe()
            replies_read, replies_write = os.pipe()
            try:
                socket.send_fds(self.control, [FORK], [jobs_read, replies_write])
                (pid,) = HEADER.unpack(await self._receive(HEADER.size))
                pidfd = os.pidfd_open(pid)  # ProcessLookupError if it is gone already
            except BaseException:
                os.close(jobs_write)
                os.close(replies_read)
                raise
            finally:
                os.close(jobs_read)  # the worker's ends: it holds them now
                os.close(replies_write)
        replies = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(replies),
                                     os.fdopen(replies_read, "rb", buffering=0))
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(jobs_write, "wb", buffering=0))
        jobs = asyncio.StreamWriter(transport, protocol, None, loop)
        return Worker(pid, pidfd, jobs, replies)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def stop(self) -> None:
        """Kills it (its workers die with it) and waits until it is gone."""
        self.control.close()
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        await self.process.wait()


async def wait_readable(descriptor: int, seconds: float) -> None:
    """Waits until `descriptor` is readable (a pidfd: its process has ended), at most
    `seconds`."""
    loop = asyncio.get_running_loop()
    readable: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(descriptor, ready)
    try:
        await asyncio.wait_for(readable, seconds)
    except TimeoutError:
        pass
    finally:
        loop.remove_reader(descriptor)


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
        self.zygote: Zygote | None = None
        self._zygote_lock = asyncio.Lock()

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
            while worker.exited:  # died while idle
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
        try:
            zygote = await self._zygote()
            worker = await zygote.fork()
        except (TimeoutError, ConnectionError, OSError):
            await asyncio.sleep(1)  # a zygote that cannot start or fork: do not spin
            self._spawn()
            return
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

    async def _zygote(self) -> Zygote:
        """The zygote, started (or started again, if it died) on first need."""
        async with self._zygote_lock:
            if self._closed:
                raise ConnectionError("the pool is shut down")
            if self.zygote is None or not self.zygote.alive:
                if self.zygote is not None:
                    await self.zygote.stop()
                self.zygote = await Zygote.start(self.warm_up)
            return self.zygote

    async def shutdown(self) -> None:
        """Kills every worker at once (their jobs fail) and waits until they are gone."""
        self._closed = True
        for task in list(self._starting):
            task.cancel()
        await asyncio.gather(*self._starting, return_exceptions=True)
        workers, self._all = list(self._all), set()
        for worker in workers:
            worker.kill()
        async with self._zygote_lock:
            zygote, self.zygote = self.zygote, None
        await asyncio.gather(*(worker.reap() for worker in workers), *self._reaping,
                             *([zygote.stop()] if zygote else []), return_exceptions=True)

    def pids(self) -> list[int]:
        """The workers' process ids (not the zygote's)."""
        return [worker.pid for worker in self._all]
