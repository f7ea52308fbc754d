"""The embedded database: one SQLite file, one server process. Start at SqliteDatabase.

WAL mode lets readers run beside the one writer; synchronous=FULL makes a write that
returned survive a kill -9 (and a power cut). Writes take the write lock up front
(BEGIN IMMEDIATE), so two racing writers queue instead of failing half-way. Only one
process may serve from a file: `python -m app --workers N` refuses SQLite (app/__main__.py),
and there is nobody to announce changes to.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

from app.database import Session, sqlite_path

BUSY_SECONDS = 10  # how long a write waits for the file's lock (a checkpoint, a migration)


class SqliteDatabase:
    """One SQLite file; safe to share between the server's threads."""

    shared = False
    skip_locked = ""  # BEGIN IMMEDIATE: no other writer runs meanwhile

    def __init__(self, url: str) -> None:
        self.url = url
        self.path = sqlite_path(url)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        # One connection per thread: sqlite3 connections must not be shared across threads.
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.row_factory = sqlite3.Row
            self._local.db = db
        return db

    @contextmanager
    def session(self) -> Iterator[Session]:
        yield self.connection()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def announce(self, session: Session, payload: str) -> None:
        pass  # one process: its live hub hears of each change directly

    async def announcements(self) -> AsyncIterator[str | None]:
        return
        yield  # an async generator that ends at once: no other instance to hear from

    def close(self) -> None:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
