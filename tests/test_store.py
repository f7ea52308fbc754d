"""Persistence, on SQLite and on PostgreSQL: versioned writes with their events, racing
writers, migrations (Alembic, and SQLite databases from before it), announcements between
instances, and games that survive a kill -9 once a move was acknowledged."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.errors import StaleVersion
from app.seats import digest
from app.store import Announcement, GameRecord, GameStore, sqlite_path

ROOT = Path(__file__).resolve().parent.parent


def newest_revision() -> str:
    """The head of app/migrations/versions/: what every database is brought to."""
    from alembic.script import ScriptDirectory

    from app.migrations import alembic_config

    head = ScriptDirectory.from_config(alembic_config("sqlite:///unused")).get_current_head()
    assert head is not None
    return head


@pytest.fixture(params=["sqlite", "postgresql"])
def database_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(database_url: str) -> Any:
    opened = GameStore(database_url)
    yield opened
    opened.close()


def test_default_database_directory_is_created(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'nested' / 'dir' / 'games.db'}")
    store.create(GameRecord(id="a", kind="tictactoe", version=0, data={"x": 1}), {"v": 0})
    assert store.find("a").data == {"x": 1}
    with store.db.session() as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_update_checks_the_version_and_writes_its_event(store: GameStore) -> None:
    record = GameRecord(id="a", kind="tictactoe", version=0, data={})
    store.create(record, {"v": 0})
    record.version = 1
    store.update(record, read_version=0, event={"v": 1})
    record.version = 2
    with pytest.raises(StaleVersion):
        store.update(record, read_version=0, event={"v": 2})
    assert store.find("a").version == 1
    assert store.events_since("a", -1) == [(0, '{"v":0}'), (1, '{"v":1}')]


def test_of_racing_writers_exactly_one_wins(store: GameStore) -> None:
    store.create(GameRecord(id="a", kind="tictactoe", version=0, data={}), {"v": 0})
    results: list[str] = []
    start = threading.Barrier(8)

    def write(number: int) -> None:
        start.wait()
        try:
            store.update(GameRecord(id="a", kind="tictactoe", version=1,
                                    data={"writer": number}), 0, {"writer": number})
            results.append("won")
        except StaleVersion:
            results.append("stale")

    threads = [threading.Thread(target=write, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["stale"] * 7 + ["won"]
    winner = store.find("a").data["writer"]
    assert store.events_since("a", 0) == [(1, f'{{"writer":{winner}}}')]


def test_seats_invitations_and_queries(store: GameStore) -> None:
    from app.seats import Seat

    record = GameRecord(id="g", kind="go", version=0, data={}, owner="me", deadline=50.0,
                        seats=(Seat("black", token="t", browser="me"),
                               Seat("white", computer=True)), invited=None)
    store.create(record, {"v": 0})
    friendly = GameRecord(id="f", kind="go", version=0, data={}, owner="me",
                          seats=(Seat("black", token="t2", browser="me"),), invited="white")
    store.create(friendly, {"v": 0}, invite_code="code", sealed=("st", "sb"))
    assert store.find("g").seats == record.seats
    assert store.invite("f") == ("code", "st", "sb")
    assert store.due(49.0) == [] and store.due(50.0) == ["g"]
    assert {game.id for game in store.games_of("me", 10)} == {"g", "f"}
    friendly.version = 1
    assert not store.join(friendly, "wrong", Seat("white", token="t3"), {"v": 1})
    assert store.join(friendly, "code", Seat("white", token="t3"), {"v": 1})
    assert store.find("f").invited is None and store.invite("f") is None
    record.version, record.outcome = 1, "win"
    store.update(record, 0, {"v": 1})
    assert store.tally("me", "go") == {"win": 1, "draw": 0, "loss": 0}


def test_opening_again_migrates_nothing_and_keeps_the_games(database_url: str) -> None:
    first = GameStore(database_url)
    first.create(GameRecord(id="a", kind="tictactoe", version=0, data={"x": 1}), {"v": 0})
    first.close()
    result = subprocess.run([sys.executable, "-m", "app.migrations"], cwd=ROOT, text=True,
                            capture_output=True, env={**os.environ,
                                                      "TABLETOP_DATABASE_URL": database_url})
    assert result.returncode == 0, result.stderr
    again = GameStore(database_url)
    assert again.find("a").data == {"x": 1}
    with again.db.session() as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall()[0][
            "version_num"] == newest_revision()
    again.close()


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
    assert record.played_at == 0  # counted as played (revision 0002): never swept
    assert store.tally(digest("browser-1"), "tictactoe") == {"win": 1, "draw": 0, "loss": 0}
    with store.db.session() as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        assert db.execute("SELECT version_num FROM alembic_version").fetchone()[
            0] == newest_revision()


def test_a_database_from_before_alembic_is_stamped_and_keeps_working(tmp_path: Path) -> None:
    """Version 2 is the baseline revision's schema: adopted as it is, not made again."""
    from app.migrations.legacy import SCHEMA

    path = tmp_path / "v2.db"
    old = sqlite3.connect(path)
    old.executescript(SCHEMA + """
        INSERT INTO games VALUES ('g', 'go', 3, 'owner', NULL, '{"a": 1}', 0, 0, 99.5);
        INSERT INTO events VALUES ('g', 3, '{"version":3}');
        PRAGMA user_version = 2;
    """)
    old.close()
    store = GameStore(f"sqlite:///{path}")
    assert store.find("g").data == {"a": 1} and store.due(100) == ["g"]
    assert store.events_since("g", 2) == [(3, '{"version":3}')]
    record = store.find("g")
    record.version = 4
    store.update(record, 3, {"version": 4})
    assert [version for version, _ in store.events_since("g", 0)] == [3, 4]


def test_only_file_databases_are_accepted() -> None:
    with pytest.raises(ValueError):
        sqlite_path("postgres://x")
    with pytest.raises(ValueError):
        sqlite_path("sqlite:///:memory:")


def test_other_instances_hear_of_each_committed_change(database_kind: str,
                                                       database_url: str) -> None:
    """Two stores on one database, as two instances are: each hears what the other stores
    and relays — only once committed — and not its own (PostgreSQL; SQLite has no others)."""
    writer, listener = GameStore(database_url), GameStore(database_url)

    async def hear() -> list[Announcement | None]:
        heard: list[Announcement | None] = []
        notices = listener.announcements()
        if database_kind == "sqlite":
            return [notice async for notice in notices]  # ends at once
        heard.append(await anext(notices))  # None: listening
        await asyncio.to_thread(write)
        while len(heard) < 5:
            heard.append(await asyncio.wait_for(anext(notices), 5))
        await notices.aclose()
        return heard

    def write() -> None:
        record = GameRecord(id="a", kind="tictactoe", version=0, data={})
        writer.create(record, {"v": 0})
        record.version = 1
        with pytest.raises(StaleVersion):  # rolled back: never announced
            writer.update(record, read_version=5, event={"v": 1})
        writer.update(record, read_version=0, event={"v": 1})
        writer.relay("a", "computer", '{"thinking":true}')
        listener.relay("a", "computer", "its own: not heard by itself")
        writer.relay("a", "computer", "last")

    try:  # in a thread of its own: a browser test's event loop may run in this one
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            heard = thread.submit(asyncio.run, hear()).result()
    finally:
        writer.close()
        listener.close()
    if database_kind == "sqlite":
        assert heard == []
    else:
        assert heard == [None, Announcement("a", 0), Announcement("a", 1),
                         Announcement("a", event="computer", data='{"thinking":true}'),
                         Announcement("a", event="computer", data="last")]


def test_acknowledged_moves_survive_kill_9(start_server: Callable[..., Any]) -> None:
    server = start_server()
    game = httpx.post(f"{server.url}/api/games",
                      json={"game": "tictactoe", "options": {"opponent": "local"}}).json()
    seat = {"Authorization": f"Bearer {game['token']}"}
    for cell in (4, 0, 8):
        played = httpx.post(f"{server.url}/api/games/{game['id']}/moves", json={"move": cell},
                            headers=seat)
        assert played.status_code == 200
    server.kill()
    server.start()
    again = httpx.get(f"{server.url}/api/games/{game['id']}").json()
    assert again["state"]["board"] == "O...X...X"
    assert again["version"] == 3
