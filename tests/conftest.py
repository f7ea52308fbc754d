"""Shared fixtures: a fresh app on a temporary SQLite file with an httpx-backed client, and
the real server (`python -m app`) in a subprocess for tests that need one.

The session also checks, when it ends, that no process it started is left behind (worker
pools, servers, browsers): a leftover fails the run.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tabletop.db'}"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(database_url=database_url, rng=random.Random(1234))
    with TestClient(app) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid …": comm may hold spaces, so split after its ')'.
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def pids_left(pids: list[int], seconds: float) -> list[int]:
    """The pids still alive after waiting up to `seconds` for them to exit."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


@pytest.fixture(scope="session")
def wait_gone() -> Callable[[list[int], float], list[int]]:
    """pids_left, for tests: wait_gone(pids, seconds) -> the pids still alive after."""
    return pids_left


class LiveServer:
    """`python -m app` on a free port with its own database; restartable."""

    def __init__(self, database: Path, env: dict[str, str] | None = None) -> None:
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env or {}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "TABLETOP_DATABASE_URL": f"sqlite:///{self.database}",
               "PORT": str(self.port), **self.env}
        self.process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{self.url}/ui/home", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def workers(self, count: int, timeout: float = 60) -> list[int]:
        """The pids of the server's worker processes, once `count` of them are running."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = children_of(self.process.pid)
            if len(pids) >= count:
                return pids
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start {count} workers")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture(scope="session")
def live_server_class() -> type[LiveServer]:
    """LiveServer itself, for fixtures that manage a server's life themselves."""
    return LiveServer


@pytest.fixture
def start_server(tmp_path_factory: pytest.TempPathFactory
                 ) -> Iterator[Callable[..., LiveServer]]:
    """A factory: start_server(**env) starts a real server; all are stopped afterwards."""
    started: list[LiveServer] = []

    def start(**env: str) -> LiveServer:
        server = LiveServer(tmp_path_factory.mktemp("server") / "tabletop.db", env)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fails the run if any process the tests started outlives them (a few seconds'
    grace for processes that are exiting)."""
    deadline = time.monotonic() + 5
    leftovers = children_of(os.getpid())
    while leftovers and time.monotonic() < deadline:
        time.sleep(0.2)
        leftovers = children_of(os.getpid())
    if leftovers:
        names = [Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:120]
                 for pid in leftovers if Path(f"/proc/{pid}").exists()]
        print(f"\nprocesses left behind by the tests: {names}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
