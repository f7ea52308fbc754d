"""Persistence of games in SQLite: one row per game, its game-specific data as JSON.

Start at GameStore. Every update names the version it read (`UPDATE … WHERE version = ?`),
so of two racing writers exactly one succeeds and the other gets StaleVersion. The database
runs in WAL mode with synchronous=FULL: once a write returns, it survives a kill -9.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from app.errors import StaleVersion

DEFAULT_DATABASE_URL = "sqlite:///data/tabletop.db"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    version    INTEGER NOT NULL,
    owner      TEXT,
    outcome    TEXT,            -- the owner's 'win' | 'draw' | 'loss' once a game ends
    data       TEXT NOT NULL,   -- game-specific JSON, owned by the game's adapter
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_owner_kind ON games (owner, kind);
"""


@dataclass
class GameRecord:
    """One stored game as the server sees it; `data` belongs to the game's adapter."""

    id: str
    kind: str
    version: int
    data: dict[str, Any]
    owner: str | None = None
    outcome: str | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)


def sqlite_path(url: str) -> str:
    """The file path of a sqlite:/// URL (sqlite:///relative/path or sqlite:////absolute)."""
    parsed = urlparse(url)
    if parsed.scheme != "sqlite":
        raise ValueError(f"Only sqlite:/// database URLs are supported, not {url!r}.")
    path = url[len("sqlite:///"):]
    if path in ("", ":memory:"):
        raise ValueError("The database must be a file, so that games survive a restart.")
    return path


class GameStore:
    """Games in one SQLite file; safe to share between the server's worker threads."""

    def __init__(self, url: str = DEFAULT_DATABASE_URL) -> None:
        self.path = sqlite_path(url)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        with self._connection() as db:
            db.executescript(SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        # One connection per thread: sqlite3 connections must not be shared across threads.
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.row_factory = sqlite3.Row
            self._local.db = db
        return db

    def create(self, record: GameRecord) -> None:
        self._connection().execute(
            "INSERT INTO games (id, kind, version, owner, outcome, data, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (record.id, record.kind, record.version, record.owner, record.outcome,
             json.dumps(record.data), record.created_at, record.updated_at),
        )

    def find(self, game_id: str) -> GameRecord | None:
        """The stored game, or None if there is no such game."""
        row = self._connection().execute(
            "SELECT * FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            return None
        return GameRecord(
            id=row["id"], kind=row["kind"], version=row["version"], data=json.loads(row["data"]),
            owner=row["owner"], outcome=row["outcome"],
            created_at=row["created_at"], updated_at=row["updated_at"],
        )

    def update(self, record: GameRecord, read_version: int) -> None:
        """Writes `record` if the stored game is still at `read_version`, else StaleVersion."""
        record.updated_at = time.time()
        cursor = self._connection().execute(
            "UPDATE games SET version = ?, outcome = ?, data = ?, updated_at = ?"
            " WHERE id = ? AND version = ?",
            (record.version, record.outcome, json.dumps(record.data), record.updated_at,
             record.id, read_version),
        )
        if cursor.rowcount != 1:
            raise StaleVersion()

    def tally(self, owner: str, kind: str) -> dict[str, int]:
        """Wins, draws and losses of one browser's finished games of one kind."""
        counts = {"win": 0, "draw": 0, "loss": 0}
        rows = self._connection().execute(
            "SELECT outcome, COUNT(*) AS n FROM games"
            " WHERE owner = ? AND kind = ? AND outcome IS NOT NULL GROUP BY outcome",
            (owner, kind),
        )
        for row in rows:
            counts[row["outcome"]] = row["n"]
        return counts
