"""Shared fixtures: a fresh app on a temporary database with an httpx-backed client, and
the real server (`python -m app`) in a subprocess for tests that need one.

Databases: SQLite files by default; a module that runs on both databases overrides
`database_kind` with `params=["sqlite", "postgresql"]`, and its tests then also run on a throwaway
PostgreSQL server (app/database/throwaway.py), started once per session on first use and
stopped at its end — the run fails, never skips, if PostgreSQL is not installed.

The session also checks, when it ends, that no process it started is left behind (worker
pools, servers, browsers): a leftover fails the run.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.database.throwaway import PostgresMissing, ThrowawayPostgres
from app.limits import Limits
from app.main import create_app
from app.store import GameStore

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = "tabletop_template"  # migrated once; each test's PostgreSQL database is a copy
DATABASE_NUMBERS = itertools.count(1)
# The `client` fixture's app: a test is one client making many games; the rates have tests
# of their own (tests/api/test_rate_limits.py).
ROOMY = Limits(new_games_per_minute=100_000, new_games_burst=100_000,
               analyses_per_minute=100_000, analyses_burst=100_000)


@pytest.fixture(scope="session")
def postgres() -> Iterator[ThrowawayPostgres]:
    """A PostgreSQL server of the session's own, with a migrated template database."""
    try:
        server = ThrowawayPostgres()
    except PostgresMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    try:
        server.start()
        GameStore(server.create_database(TEMPLATE)).close()
        yield server
    finally:
        server.stop()


@pytest.fixture
def database_kind() -> str:
    """The database the test's apps and servers use (see the module docstring)."""
    return "sqlite"


@pytest.fixture
def new_database(database_kind: str, tmp_path_factory: pytest.TempPathFactory,
                 request: pytest.FixtureRequest) -> Callable[[], str]:
    """A factory: new_database() is the URL of a new, migrated database of the test's kind."""

    def make() -> str:
        if database_kind == "sqlite":
            return f"sqlite:///{tmp_path_factory.mktemp('db') / 'tabletop.db'}"
        server: ThrowawayPostgres = request.getfixturevalue("postgres")
        return server.create_database(f"test_{next(DATABASE_NUMBERS)}", template=TEMPLATE)

    return make


@pytest.fixture
def database_url(new_database: Callable[[], str]) -> str:
    return new_database()


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(database_url=database_url, rng=random.Random(1234), limits=ROOMY)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def clients(tmp_path: Path) -> Iterator[Callable[[], TestClient]]:
    """Browsers (or API clients) of one server: each call is a new one with no cookie."""
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", rng=random.Random(5))
    opened: list[TestClient] = []

    def new() -> TestClient:
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return client

    yield new
    for client in opened:
        client.__exit__(None, None, None)


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


def descendants(pid: int) -> list[int]:
    """Every process below `pid`: its children, theirs, and so on."""
    found = children_of(pid)
    for child in list(found):
        found += descendants(child)
    return found


@pytest.fixture(scope="session")
def process_tree() -> Callable[[int], list[int]]:
    """descendants, for tests: process_tree(pid) -> every process below it."""
    return descendants


@pytest.fixture(scope="session")
def wait_gone() -> Callable[[list[int], float], list[int]]:
    """pids_left, for tests: wait_gone(pids, seconds) -> the pids still alive after."""
    return pids_left


# A test's server is one client for every test that shares it (all on 127.0.0.1): its rates
# and its streams per client are lifted unless the test sets them (tests/test_connection_
# limits.py and tests/api/test_rate_limits.py test the defaults).
UNLIMITED_RATES = {"TABLETOP_NEW_GAMES_PER_MINUTE": "100000", "TABLETOP_NEW_GAMES_BURST": "100000",
                   "TABLETOP_ANALYSES_PER_MINUTE": "100000", "TABLETOP_ANALYSES_BURST": "100000",
                   "TABLETOP_STREAMS_PER_CLIENT": "100000"}


class LiveServer:
    """`python -m app` (with `args`) on a free port with its database (an SQLite file's path,
    or any database URL); restartable. `nofile` lowers its descriptor limit; `log` is the file
    its output goes to (else nowhere)."""

    def __init__(self, database: Path | str, env: dict[str, str] | None = None,
                 args: tuple[str, ...] = (), nofile: int | None = None,
                 log: Path | None = None) -> None:
        self.database_url = database if isinstance(database, str) else f"sqlite:///{database}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env or {}
        self.args = args
        self.nofile = nofile
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def _limit_descriptors(self) -> None:
        """In the child, before exec: the lower descriptor limit (soft and hard)."""
        if self.nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def start(self) -> None:
        env = {**os.environ, **UNLIMITED_RATES, "TABLETOP_DATABASE_URL": self.database_url,
               "PORT": str(self.port), **self.env}
        output = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app", *self.args], cwd=ROOT, env=env, stdout=output,
                stderr=output, preexec_fn=self._limit_descriptors if self.nofile else None)
        finally:
            if self.log:
                output.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                httpx.get(f"{self.url}/ui/home", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start (exit status {self.process.poll()})")

    def workers(self, count: int, timeout: float = 60) -> list[int]:
        """The pids of the server's pool, once `count` workers are running: the workers and
        the zygote they are forked from (app/pool.py), the server's child."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            zygotes = children_of(self.process.pid)
            workers = [pid for zygote in zygotes for pid in children_of(zygote)]
            if len(workers) >= count:
                return zygotes + workers
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


GNUGO = Path(os.environ.get("GNUGO", "/usr/games/gnugo"))


@pytest.fixture(scope="session")
def gnugo() -> Path:
    """GNU Go, the referee and sparring partner of the GTP and SGF tests: a missing one fails
    them (never a silent skip); `make test` installs it."""
    if not GNUGO.exists():
        pytest.fail(f"No GNU Go at {GNUGO}: apt-get install gnugo (make test does it).")
    return GNUGO


@pytest.fixture(scope="session")
def free_ports() -> Callable[[], int]:
    """free_port, for tests: free_ports() -> a loopback port nothing listens on."""
    return free_port


@pytest.fixture(scope="session")
def local_game() -> Callable[..., tuple[str, dict[str, str]]]:
    """local_game(url, game, **options): a new game for two at one screen on the server at
    `url` (options beside the opponent); its id and the Authorization header of its seats."""

    def create(url: str, game: str, **options: Any) -> tuple[str, dict[str, str]]:
        body = httpx.post(f"{url}/api/games", json={"game": game, "options": {
            "opponent": "local", **options}}).json()
        return body["id"], {"Authorization": f"Bearer {body['token']}"}

    return create


@pytest.fixture(scope="session")
def live_server_class() -> type[LiveServer]:
    """LiveServer itself, for fixtures that manage a server's life themselves."""
    return LiveServer


@pytest.fixture
def start_server(new_database: Callable[[], str]) -> Iterator[Callable[..., LiveServer]]:
    """A factory: start_server(**env) starts a real server on a new database of the test's
    kind (start_server(database=url) on that one: instances that serve the same games);
    all are stopped afterwards."""
    started: list[LiveServer] = []

    def start(database: str | None = None, args: tuple[str, ...] = (),
              nofile: int | None = None, log: Path | None = None, **env: str) -> LiveServer:
        server = LiveServer(database or new_database(), env, args, nofile, log)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@dataclass
class Event:
    event: str
    data: Any
    id: int | None


class Watcher:
    """An SSE client in a thread: its events arrive on a queue. With `reconnect`, it does
    what a browser's EventSource does when its stream ends or fails: connects again with
    Last-Event-ID after RECONNECT_SECONDS, until closed (`connections` counts them)."""

    RECONNECT_SECONDS = 0.2

    def __init__(self, url: str, last_event_id: int | None = None,
                 reconnect: bool = False) -> None:
        self.url = url
        self.events: queue.Queue[Event | None] = queue.Queue()
        self.last_id = last_event_id
        self.reconnect = reconnect
        self.connections = 0
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self.connections += 1
                self._read()
                if not self.reconnect or self._stop.wait(self.RECONNECT_SECONDS):
                    return
        finally:
            self.events.put(None)

    def _read(self) -> None:
        headers = {"Last-Event-ID": str(self.last_id)} if self.last_id is not None else {}
        try:
            with httpx.stream("GET", self.url, headers=headers, timeout=30) as response:
                fields: dict[str, str] = {}
                for line in response.iter_lines():
                    if self._stop.is_set():
                        return
                    if line == "":
                        if "data" in fields:
                            number = int(fields["id"]) if "id" in fields else None
                            if number is not None:
                                self.last_id = number
                            self.events.put(Event(fields.get("event", "message"),
                                                  json.loads(fields["data"]), number))
                        fields = {}
                    elif not line.startswith(":"):
                        name, _, value = line.partition(":")
                        fields[name] = value[1:] if value.startswith(" ") else value
        except httpx.HTTPError:
            pass

    def next(self, kind: str = "game", timeout: float = 10) -> Event:
        """The next event of `kind` ("any": of any kind but presence), skipping others."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            if item is None:
                raise EOFError("the stream ended")
            if item.event == kind or (kind == "any" and item.event != "presence"):
                return item

    def close(self) -> None:
        self._stop.set()


@pytest.fixture
def watchers() -> Iterator[Callable[..., Watcher]]:
    """A factory: watchers(url, last_event_id=None, reconnect=False) opens a Watcher; all
    are closed afterwards."""
    opened: list[Watcher] = []

    def open_(url: str, last_event_id: int | None = None, reconnect: bool = False) -> Watcher:
        watcher = Watcher(url, last_event_id, reconnect)
        opened.append(watcher)
        return watcher

    yield open_
    for watcher in opened:
        watcher.close()


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
