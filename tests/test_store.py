"""Persistence: games survive a restart and a kill -9 once a move was acknowledged."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.errors import StaleVersion
from app.seats import digest
from app.store import GameRecord, GameStore, sqlite_path

ROOT = Path(__file__).resolve().parent.parent


def test_default_database_directory_is_created(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'nested' / 'dir' / 'games.db'}")
    store.create(GameRecord(id="a", kind="tictactoe", version=0, data={"x": 1}), {"v": 0})
    assert store.find("a").data == {"x": 1}
    journal = store._connection().execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"


def test_update_checks_the_version_and_writes_its_event(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'g.db'}")
    record = GameRecord(id="a", kind="tictactoe", version=0, data={})
    store.create(record, {"v": 0})
    record.version = 1
    store.update(record, read_version=0, event={"v": 1})
    record.version = 2
    with pytest.raises(StaleVersion):
        store.update(record, read_version=0, event={"v": 2})
    assert store.find("a").version == 1
    assert store.events_since("a", -1) == [(0, '{"v":0}'), (1, '{"v":1}')]


def test_a_database_from_before_seats_is_brought_up_to_date(tmp_path: Path) -> None:
    """Version 1 kept games only, with the creating browser's raw id as the owner."""
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, version INTEGER NOT NULL,
            owner TEXT, outcome TEXT, data TEXT NOT NULL, created_at REAL NOT NULL,
            updated_at REAL NOT NULL);
        INSERT INTO games VALUES ('g', 'tictactoe', 1, 'browser-1', 'win', '{}', 0, 0);
    """)
    old.close()
    for _ in range(2):  # idempotent
        store = GameStore(f"sqlite:///{path}")
    record = store.find("g")
    assert record is not None and record.owner == digest("browser-1")
    assert record.deadline is None and record.seats == ()
    assert store.tally(digest("browser-1"), "tictactoe") == {"win": 1, "draw": 0, "loss": 0}
    assert store._connection().execute("PRAGMA user_version").fetchone()[0] == 2


def test_only_file_databases_are_accepted() -> None:
    with pytest.raises(ValueError):
        sqlite_path("postgres://x")
    with pytest.raises(ValueError):
        sqlite_path("sqlite:///:memory:")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(database: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TABLETOP_DATABASE_URL": f"sqlite:///{database}", "PORT": str(port)}
    process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games/none", timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def test_acknowledged_moves_survive_kill_9(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    port = free_port()
    server = start_server(database, port)
    base = f"http://127.0.0.1:{port}"
    try:
        game = httpx.post(f"{base}/api/games",
                          json={"game": "tictactoe", "options": {"opponent": "local"}}).json()
        seat = {"Authorization": f"Bearer {game['token']}"}
        for cell in (4, 0, 8):
            played = httpx.post(f"{base}/api/games/{game['id']}/moves", json={"move": cell},
                                headers=seat)
            assert played.status_code == 200
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = start_server(database, port)
    try:
        again = httpx.get(f"{base}/api/games/{game['id']}").json()
        assert again["state"]["board"] == "O...X...X"
        assert again["version"] == 3
    finally:
        server.terminate()
        server.wait()
