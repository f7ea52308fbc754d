"""Knight's-tour solving for the server: in the worker pool, with a cache of what is
deterministic. Start at TourSolver.solve.

A solve of a 300×300 board by Warnsdorff's rule is seconds of pure Python; run in the server
process it would stall every other request. So `solve` and `complete` send the work to the
worker pool (app/pool.py; in its anonymous share, since anyone may ask: players' moves go
first, 503 when the share is full; a solve that is no cached answer counts against the
client's rate, app/limits.py), and keep the
answers — every solver is deterministic for a given request — in a cache bounded by bytes.
Identical requests that arrive while one is being solved share its answer.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from functools import lru_cache
from pathlib import Path
from typing import Any

from app import jobs
from app.engine.knights_tour import Puzzle
from app.errors import Conflict, IllegalMove
from app.limits import RateLimiter
from app.pool import WorkerPool

SOLVE_SECONDS = 2.0  # what a typical solve costs, for the pool's Retry-After estimate
SOLVE_DEADLINE = 30.0  # the slowest accepted solve (Warnsdorff on 300×300) is about 5 s
CACHE_BYTES = 64 * 1024 * 1024  # room for nine 1000×1000 tours, or thousands of small ones
COMPLETION_BUDGET = 200_000  # search steps for "solve from here": about a second in CPython
COMPARISON_FILE = Path(__file__).resolve().parent.parent / "data" / "knights_tour_comparison_8.json"
BUSY = "The server is busy solving other tours; nothing was done. Try again in a few seconds."


@lru_cache(maxsize=1)
def comparison() -> dict[str, list[int | None]]:
    """The seed's comparison of the solvers on 8×8 (open tours): for each solver, the
    knight's moves it makes from every start square. Made by tools/knights_tour_comparison.py
    (it takes too long to compute per request) and checked against a fresh run by the
    engine's tests."""
    steps: dict[str, list[int | None]] = json.loads(COMPARISON_FILE.read_text())["steps"]
    return steps


class TourSolver:
    """The server's knight's-tour solves: cached, shared, and run in `pool`."""

    def __init__(self, pool: WorkerPool, rate: RateLimiter,
                 cache_bytes: int = CACHE_BYTES) -> None:
        self.pool = pool
        self.rate = rate
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[Hashable, tuple[dict[str, Any], int]] = OrderedDict()
        self._cached_bytes = 0
        self._pending: dict[Hashable, asyncio.Future[dict[str, Any]]] = {}

    async def solve(self, size: int, start: int | str, closed: bool, method: str,
                    client: str | None = None) -> bytes:
        """The tour as the JSON body of GET /api/knights-tour/solve; an ApiError if the
        engine refuses the request (with its code), Busy if the pool is full."""
        request = {"size": size, "start": start, "closed": closed, "method": method}
        answer = await self._answer(("solve", size, start, closed, method),
                                    lambda: self._run(jobs.solve_tour, request, client))
        body: bytes = answer["body"]
        return body

    async def complete(self, puzzle: Puzzle,
                       client: str | None = None) -> tuple[list[str], int]:
        """A completion of the puzzle's path (square names) and the search steps it took."""
        request = {"size": puzzle.size, "closed": puzzle.closed, "path": puzzle.path,
                   "budget": COMPLETION_BUDGET}
        key = ("complete", puzzle.size, puzzle.closed, tuple(puzzle.path))
        answer = await self._answer(key, lambda: self._run(jobs.complete_tour, request, client))
        return answer["squares"], answer["steps"]

    async def _run(self, job: Callable[[dict[str, Any]], dict[str, Any]],
                   request: dict[str, Any], client: str | None) -> dict[str, Any]:
        ticket = self.pool.admit_anonymous(SOLVE_SECONDS, BUSY,
                                           lambda: self.rate.take(client))
        answer: dict[str, Any] = await self.pool.run(ticket, job, request, SOLVE_DEADLINE)
        return answer

    async def _answer(self, key: Hashable,
                      compute: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        cached = self._cache.get(key)
        if cached is None:
            pending = self._pending.get(key)
            if pending is None:
                pending = asyncio.ensure_future(compute())
                self._pending[key] = pending
                pending.add_done_callback(lambda _: self._pending.pop(key, None))
                pending.add_done_callback(lambda done: self._keep(key, done))
            answer = await asyncio.shield(pending)
        else:
            self._cache.move_to_end(key)
            answer = cached[0]
        if "error" in answer:
            code, message, conflict = answer["error"]
            raise (Conflict if conflict else IllegalMove)(message, code=code)
        return answer

    def _keep(self, key: Hashable, done: asyncio.Future[dict[str, Any]]) -> None:
        """Caches a finished answer (refusals too: they are as deterministic), evicting the
        least recently used beyond cache_bytes."""
        if done.cancelled() or done.exception() is not None:
            return  # busy, failed or cut short: the next request tries again
        answer = done.result()
        size = len(answer.get("body", b"")) + 64 * len(answer.get("squares", ())) + 256
        if size > self.cache_bytes:
            return
        self._cache[key] = (answer, size)
        self._cached_bytes += size
        while self._cached_bytes > self.cache_bytes:
            _, (_, evicted) = self._cache.popitem(last=False)
            self._cached_bytes -= evicted

