"""How `python -m app` (app/__main__.py) serves: one process, or N sharing one port. Start at
Server, then Supervisor.

Every serving process stops at once on SIGTERM or Ctrl-C: the live event streams end
cleanly (browsers reconnect by themselves, to this server once it is back or to another
one), requests still running after GRACEFUL_SECONDS (a search, say) are cancelled — a move
already stored stays stored, and the request is answered 503 (app/middleware.py) — and its
worker processes are killed (app/pool.py). Connections reach the app through
app/connections.py's guarded protocol (`config`): capped per client and in total, with
deadlines for a request to arrive.

With N processes (PostgreSQL only), the Supervisor binds the port once and starts N serving
processes that share it; the kernel spreads connections between them. Each has its own
worker pool and live hub, like separate instances behind a balancer. None outlives the
supervisor: each asks the kernel to kill it when the supervisor dies (as the pool's workers
do with theirs), so a kill -9 of the supervisor takes every process down with it.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
from multiprocessing.process import BaseProcess
from types import FrameType

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from app.connections import quiet_accept_failures
from app.live import close_all_soon
from app.worker_process import die_with_parent

GRACEFUL_SECONDS = 1  # how long a stopping server waits for requests still running
STOP_SECONDS = 5.0  # how long the supervisor waits for its processes before killing them
RESPAWN_SECONDS = 1.0  # between a serving process's death and its replacement (no spinning)
KEEP_ALIVE_SECONDS = 5  # a connection idle this long after an answer is closed
TRUSTED_PROXIES = "127.0.0.1,::1"  # uvicorn's own default
SUPERVISOR = "TABLETOP_SUPERVISOR"  # env: the pid each serving process dies with
log = logging.getLogger("tabletop.server")


class Server(uvicorn.Server):
    """uvicorn's server, ending the event streams as soon as it is asked to stop (they
    would otherwise hold it for GRACEFUL_SECONDS and then be cut mid-message)."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        close_all_soon()
        super().handle_exit(sig, frame)


def config(host: str, port: int) -> uvicorn.Config:
    """How uvicorn serves the app: through app/connections.py's guarded protocol, believing
    X-Forwarded-For and X-Forwarded-Proto only from TABLETOP_TRUSTED_PROXIES (default: this
    machine, where docs/nginx.conf's balancer runs; "" for nobody, "*" for everyone)."""
    quiet_accept_failures()
    return uvicorn.Config("app.main:serve", factory=True, host=host, port=port,
                          timeout_graceful_shutdown=GRACEFUL_SECONDS,
                          http="app.connections:GuardedH11Protocol",
                          timeout_keep_alive=KEEP_ALIVE_SECONDS,
                          forwarded_allow_ips=os.environ.get("TABLETOP_TRUSTED_PROXIES",
                                                             TRUSTED_PROXIES))


def serve_process(settings: uvicorn.Config, sockets: list[socket.socket]) -> None:
    """One of the Supervisor's processes (module-level: multiprocessing starts it by name)."""
    die_with_parent(int(os.environ[SUPERVISOR]))
    quiet_accept_failures()
    server = Server(settings)
    server.run(sockets=sockets)
    if not server.started:
        sys.exit(STARTUP_FAILURE)  # the supervisor gives up instead of restarting it


class Supervisor:
    """`count` serving processes on one socket; a process that dies is replaced, SIGTERM or
    Ctrl-C stops them all."""

    def __init__(self, settings: uvicorn.Config, count: int) -> None:
        self.settings = settings
        self.count = count
        self.stopping = threading.Event()
        self.context = multiprocessing.get_context("spawn")  # no state copied from us

    def run(self) -> int:
        """Serves until asked to stop; the exit status."""
        listening = self.settings.bind_socket()
        os.environ[SUPERVISOR] = str(os.getpid())
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: self.stopping.set())
        processes = [self._start(listening) for _ in range(self.count)]
        status = 0
        while not self.stopping.wait(0.5):
            for index, process in enumerate(processes):
                if process.is_alive():
                    continue
                if process.exitcode == STARTUP_FAILURE:
                    log.error("a serving process could not start; stopping")
                    status = 1
                    self.stopping.set()
                    break
                log.warning("serving process %s died (%s); starting another",
                            process.pid, process.exitcode)
                if self.stopping.wait(RESPAWN_SECONDS):
                    break
                processes[index] = self._start(listening)
        self._stop(processes)
        return status

    def _start(self, listening: socket.socket) -> BaseProcess:
        process = self.context.Process(target=serve_process, args=(self.settings, [listening]),
                                       name="tabletop-server")
        process.start()
        return process

    def _stop(self, processes: list[BaseProcess]) -> None:
        for process in processes:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        for process in processes:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
