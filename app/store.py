"""Persistence of games in SQLite: one row per game, its seats, its invitation, its events.

Start at GameStore. Every update names the version it read (`UPDATE … WHERE version = ?`),
so of two racing writers exactly one succeeds and the other gets StaleVersion; the update and
the event it publishes (the game as a watcher sees it, for app/live.py) are written in one
transaction, so an acknowledged change always has its event. The database runs in WAL mode
with synchronous=FULL: once a write returns, it survives a kill -9.

Tables: games (the adapter's JSON data, version, the creator's browser digest for the tally,
the clock's deadline), seats (who holds each seat: digests of tokens and browser ids, never
the secrets), invites (the digest of an unspent invitation), events (each version's public
JSON, the last EVENTS_KEPT per game). `migrate` brings an older database up to date.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from app.errors import StaleVersion
from app.seats import Seat, digest

DEFAULT_DATABASE_URL = "sqlite:///data/tabletop.db"
SCHEMA_VERSION = 2  # PRAGMA user_version; migrate() brings older databases here
EVENTS_KEPT = 500  # versions of one game a reconnecting watcher can still catch up on

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    version    INTEGER NOT NULL,
    owner      TEXT,            -- digest of the creating browser's id (the tally's owner)
    outcome    TEXT,            -- the owner's 'win' | 'draw' | 'loss' once a game ends
    data       TEXT NOT NULL,   -- game-specific JSON, owned by the game's adapter
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    deadline   REAL             -- when the running clock runs out (epoch seconds), if any
);
CREATE INDEX IF NOT EXISTS games_owner_kind ON games (owner, kind);
CREATE INDEX IF NOT EXISTS games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE TABLE IF NOT EXISTS seats (
    game_id   TEXT NOT NULL,
    seat      TEXT NOT NULL,    -- 'X' | 'O' | 'black' | 'white' | 'player'
    token     TEXT,             -- digest of the holder's token (NULL for the computer)
    browser   TEXT,             -- digest of the holder's browser id, if seated from one
    computer  INTEGER NOT NULL DEFAULT 0,
    joined_at REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_browser ON seats (browser);
CREATE TABLE IF NOT EXISTS invites (
    game_id        TEXT PRIMARY KEY,
    code           TEXT NOT NULL,  -- digest of the invitation code
    seat           TEXT NOT NULL,
    sealed_token   TEXT,           -- the code sealed with the creator's token (seats.seal)
    sealed_browser TEXT            -- … and with the creator's browser id
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    data    TEXT NOT NULL,      -- the Game as a watcher sees it, at this version
    PRIMARY KEY (game_id, version)
);
"""


@dataclass
class GameRecord:
    """One stored game as the server sees it; `data` belongs to the game's adapter."""

    id: str
    kind: str
    version: int
    data: dict[str, Any]
    owner: str | None = None  # digest of the creating browser's id
    outcome: str | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    deadline: float | None = None
    seats: tuple[Seat, ...] = ()
    invited: str | None = None  # the seat an unspent invitation is for


def sqlite_path(url: str) -> str:
    """The file path of a sqlite:/// URL (sqlite:///relative/path or sqlite:////absolute)."""
    parsed = urlparse(url)
    if parsed.scheme != "sqlite":
        raise ValueError(f"Only sqlite:/// database URLs are supported, not {url[:80]!r}.")
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
        self.migrate()

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

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def migrate(self) -> None:
        """Creates the schema, or brings a database made by an earlier version up to date
        (idempotent; one transaction)."""
        with self._transaction() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version >= SCHEMA_VERSION:
                return
            columns = {row["name"] for row in db.execute("PRAGMA table_info(games)")}
            if columns and "deadline" not in columns:  # version 1: games only, raw owners
                db.execute("ALTER TABLE games ADD COLUMN deadline REAL")
                owners = db.execute("SELECT DISTINCT owner FROM games WHERE owner IS NOT NULL")
                for (owner,) in owners.fetchall():
                    db.execute("UPDATE games SET owner = ? WHERE owner = ?",
                               (digest(owner), owner))
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # -- games -------------------------------------------------------------------------------

    def create(self, record: GameRecord, event: dict[str, Any], invite_code: str | None = None,
               sealed: tuple[str | None, str | None] = (None, None)) -> None:
        """Stores a new game with its seats, its invitation (a code's digest, and the code
        sealed for its creator) and the event of its first version."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, kind, version, owner, outcome, data, created_at,"
                " updated_at, deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, record.kind, record.version, record.owner, record.outcome,
                 json.dumps(record.data), record.created_at, record.updated_at,
                 record.deadline))
            self._write_seats(db, record.id, record.seats)
            if invite_code is not None and record.invited is not None:
                db.execute("INSERT INTO invites (game_id, code, seat, sealed_token,"
                           " sealed_browser) VALUES (?, ?, ?, ?, ?)",
                           (record.id, invite_code, record.invited, *sealed))
            self._write_event(db, record.id, record.version, event)

    def _write_seats(self, db: sqlite3.Connection, game_id: str,
                     seats: Sequence[Seat]) -> None:
        now = time.time()
        for seat in seats:
            db.execute("INSERT INTO seats (game_id, seat, token, browser, computer, joined_at)"
                       " VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, seat.seat, seat.token, seat.browser, int(seat.computer), now))

    def _write_event(self, db: sqlite3.Connection, game_id: str, version: int,
                     event: dict[str, Any]) -> None:
        db.execute("INSERT OR REPLACE INTO events (game_id, version, data) VALUES (?, ?, ?)",
                   (game_id, version, json.dumps(event, separators=(",", ":"))))
        db.execute("DELETE FROM events WHERE game_id = ? AND version <= ?",
                   (game_id, version - EVENTS_KEPT))

    def find(self, game_id: str) -> GameRecord | None:
        """The stored game with its seats, or None if there is no such game."""
        db = self._connection()
        row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return self._record(db, row)

    def _record(self, db: sqlite3.Connection, row: sqlite3.Row) -> GameRecord:
        seats = tuple(
            Seat(seat=s["seat"], token=s["token"], browser=s["browser"],
                 computer=bool(s["computer"]))
            for s in db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY joined_at, seat",
                                (row["id"],)))
        invite = db.execute("SELECT seat FROM invites WHERE game_id = ?",
                            (row["id"],)).fetchone()
        return GameRecord(
            id=row["id"], kind=row["kind"], version=row["version"],
            data=json.loads(row["data"]), owner=row["owner"], outcome=row["outcome"],
            created_at=row["created_at"], updated_at=row["updated_at"],
            deadline=row["deadline"], seats=seats,
            invited=invite["seat"] if invite else None)

    def update(self, record: GameRecord, read_version: int, event: dict[str, Any]) -> None:
        """Writes `record` and its event if the stored game is still at `read_version`,
        else StaleVersion (nothing written)."""
        record.updated_at = time.time()
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE games SET version = ?, outcome = ?, data = ?, updated_at = ?,"
                " deadline = ? WHERE id = ? AND version = ?",
                (record.version, record.outcome, json.dumps(record.data), record.updated_at,
                 record.deadline, record.id, read_version))
            if cursor.rowcount != 1:
                raise StaleVersion()
            self._write_event(db, record.id, record.version, event)

    def join(self, record: GameRecord, invite_code: str, seat: Seat,
             event: dict[str, Any]) -> bool:
        """Seats a person with an invitation, spending it, and records the game's new
        version; False (nothing written) if the code is not this game's unspent one or the
        game changed meanwhile."""
        with self._transaction() as db:
            spent = db.execute("DELETE FROM invites WHERE game_id = ? AND code = ? AND seat = ?",
                               (record.id, invite_code, seat.seat))
            if spent.rowcount != 1:
                return False
            bumped = db.execute("UPDATE games SET version = ?, updated_at = ? WHERE id = ?"
                                " AND version = ?", (record.version, time.time(), record.id,
                                                     record.version - 1))
            if bumped.rowcount != 1:
                raise StaleVersion()
            self._write_seats(db, record.id, [seat])
            self._write_event(db, record.id, record.version, event)
        return True

    def invite(self, game_id: str) -> tuple[str, str | None, str | None] | None:
        """The game's unspent invitation: the code's digest and its sealed copies."""
        row = self._connection().execute(
            "SELECT code, sealed_token, sealed_browser FROM invites WHERE game_id = ?",
            (game_id,)).fetchone()
        return (row["code"], row["sealed_token"], row["sealed_browser"]) if row else None

    # -- events and queries -------------------------------------------------------------------

    def events_since(self, game_id: str, version: int) -> list[tuple[int, str]]:
        """(version, JSON) of every stored event after `version`, in order."""
        rows = self._connection().execute(
            "SELECT version, data FROM events WHERE game_id = ? AND version > ?"
            " ORDER BY version", (game_id, version))
        return [(row["version"], row["data"]) for row in rows]

    def games_of(self, browser: str, limit: int) -> list[GameRecord]:
        """The games a browser (its id's digest) created or sits at, newest first."""
        db = self._connection()
        rows = db.execute(
            "SELECT * FROM games WHERE owner = ? OR id IN"
            " (SELECT game_id FROM seats WHERE browser = ?)"
            " ORDER BY updated_at DESC LIMIT ?", (browser, browser, limit)).fetchall()
        return [self._record(db, row) for row in rows]

    def due(self, now: float, limit: int = 100) -> list[str]:
        """Games whose running clock has run out by `now`."""
        rows = self._connection().execute(
            "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ?"
            " ORDER BY deadline LIMIT ?", (now, limit))
        return [row["id"] for row in rows]

    def tally(self, owner: str, kind: str) -> dict[str, int]:
        """Wins, draws and losses of one browser's (digest's) finished games of one kind."""
        counts = {"win": 0, "draw": 0, "loss": 0}
        rows = self._connection().execute(
            "SELECT outcome, COUNT(*) AS n FROM games"
            " WHERE owner = ? AND kind = ? AND outcome IS NOT NULL GROUP BY outcome",
            (owner, kind),
        )
        for row in rows:
            counts[row["outcome"]] = row["n"]
        return counts
