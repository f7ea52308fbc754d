"""Computer players that think for seconds run here, in worker processes, off the event loop.

Start at ThinkingPool.run. The pool has one worker per core (a search is CPU-bound pure
Python/numba work and would otherwise freeze every other request); workers start with the
"spawn" method (forking a threaded server is unsafe) and warm up once, so the first search
does not pay for compilation. Jobs are plain picklable data; the function that runs a job
is a module-level function of the game's adapter module.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def warm_up_worker() -> None:
    """Runs once in every worker: loads (or compiles and caches) the compiled search code."""
    from app.engine.go.mcts import warm_up

    warm_up()


class ThinkingPool:
    """A lazily started process pool sized to the machine's cores."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_up_worker,
            )
        return self._executor

    def start(self) -> None:
        """Starts every worker now (each warms up in its initializer), so the first search a
        player asks for does not wait for process start-up."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(int)  # any trivial picklable call makes the pool spawn a worker

    async def run(self, function: Callable[[Any], Any], job: Any) -> Any:
        """Runs function(job) in a worker and waits for it without blocking the loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), function, job)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
