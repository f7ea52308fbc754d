"""Persistence of games: one row per game, its seats, its invitation, its events — in SQLite
(the embedded default) or PostgreSQL (many instances), with the same queries.

Start at GameStore. Every update names the version it read (`UPDATE … WHERE version = ?`),
so of two racing writers exactly one succeeds and the other gets StaleVersion; the update and
the event it publishes (the game as a watcher sees it, for app/live.py) are written in one
transaction, so an acknowledged change always has its event, and once a write returns it
survives a kill -9 of the server. On PostgreSQL the same transaction announces the new
version to every other instance (`announcements`), so their watchers hear of it at once.

Tables (app/migrations keeps them, Alembic revisions applied at start-up): games (the
adapter's JSON data, version, the creator's browser digest for the tally, the clock's
deadline, when a person last played in it: `played_at`), seats (who holds each seat:
digests of tokens and browser ids, never the secrets), invites (the digest of an unspent
invitation), events (each version's public JSON, the last EVENTS_KEPT per game), chat (a
friend game's messages, app/chat.py: not versioned with the game). The drivers are in
app/database.

Games nobody played in are not kept for ever: sweep_abandoned deletes, a bounded batch at a
time, those that no person has moved in, that have not ended, and that nothing has changed
for a while (app/main.py's sweep runs it every few minutes); a game once played or finished
is kept. Every write takes its game's row before any row of its seats, invitation or events,
so the sweep, which claims the rows of the games it deletes first, never deadlocks with
them, and a move that races it either wins (the sweep passes the game over) or finds the
game gone (StaleVersion), never acknowledged and then lost.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from app import migrations
from app.database import DEFAULT_DATABASE_URL, Session, connect, sqlite_path
from app.errors import StaleVersion
from app.seats import Seat

__all__ = ["DEFAULT_DATABASE_URL", "Announcement", "GameRecord", "GameStore", "sqlite_path"]

EVENTS_KEPT = 500  # versions of one game a reconnecting watcher can still catch up on
SWEEP_BATCH = 500  # games one sweep_abandoned call deletes at most: one short transaction
SWEEP_CHUNK = 100  # game ids per statement deleting their seats, invitations and events
# Not played in: the sweep's test, and the index (games_unplayed) that finds such games.
UNPLAYED = "played_at IS NULL AND outcome IS NULL AND updated_at < ?"
CHUNK_IDS = ", ".join(["?"] * SWEEP_CHUNK)


class _Unspent(Exception):
    """Inside GameStore.join: the invitation is not the game's unspent one (rolls back)."""


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
    # When a person last moved in the game, or it ended (an imported record is born ended);
    # None while neither has happened: such a game is abandoned once left long enough.
    played_at: float | None = None
    seats: tuple[Seat, ...] = ()
    invited: str | None = None  # the seat an unspent invitation is for
    # What the service worked out from `data` (its view: a Go game replayed), kept with the
    # record so that one request works it out once. Never stored; a copy made with
    # dataclasses.replace starts without it, since its data may differ.
    derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False,
                                    compare=False)


@dataclass(frozen=True)
class Announcement:
    """What another instance stored or said about a game: a new `version`, or a message for
    the game's streams that is no version (`event`, `data`: the computer's search)."""

    game_id: str
    version: int | None = None
    event: str | None = None
    data: str = ""


class GameStore:
    """Games in one database (TABLETOP_DATABASE_URL); safe to share between the server's
    threads. The database is migrated to the newest schema when the store opens."""

    def __init__(self, url: str = DEFAULT_DATABASE_URL) -> None:
        self.url = url
        self.origin = secrets.token_hex(8)  # this process, in its own announcements
        self.migrate()
        self.db = connect(url)

    @property
    def shared(self) -> bool:
        """Whether other instances may serve the same games (PostgreSQL)."""
        return self.db.shared

    def migrate(self) -> None:
        """Creates the schema, or brings a database made by an earlier version up to date
        (idempotent; app/migrations)."""
        migrations.upgrade(self.url)

    def close(self) -> None:
        self.db.close()

    # -- games -------------------------------------------------------------------------------

    def create(self, record: GameRecord, event: dict[str, Any], invite_code: str | None = None,
               sealed: tuple[str | None, str | None] = (None, None)) -> None:
        """Stores a new game with its seats, its invitation (a code's digest, and the code
        sealed for its creator) and the event of its first version."""
        with self.db.transaction() as db:
            db.execute(
                "INSERT INTO games (id, kind, version, owner, outcome, data, created_at,"
                " updated_at, deadline, played_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, record.kind, record.version, record.owner, record.outcome,
                 json.dumps(record.data), record.created_at, record.updated_at,
                 record.deadline, record.played_at))
            self._write_seats(db, record.id, record.seats)
            if invite_code is not None and record.invited is not None:
                db.execute("INSERT INTO invites (game_id, code, seat, sealed_token,"
                           " sealed_browser) VALUES (?, ?, ?, ?, ?)",
                           (record.id, invite_code, record.invited, *sealed))
            self._write_event(db, record.id, record.version, event)

    def _write_seats(self, db: Session, game_id: str,
                     seats: Sequence[Seat]) -> None:
        now = time.time()
        for seat in seats:
            db.execute("INSERT INTO seats (game_id, seat, token, browser, computer, joined_at)"
                       " VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, seat.seat, seat.token, seat.browser, int(seat.computer), now))

    def _write_event(self, db: Session, game_id: str, version: int,
                     event: dict[str, Any]) -> None:
        db.execute("INSERT INTO events (game_id, version, data) VALUES (?, ?, ?)"
                   " ON CONFLICT (game_id, version) DO UPDATE SET data = excluded.data",
                   (game_id, version, json.dumps(event, separators=(",", ":"))))
        db.execute("DELETE FROM events WHERE game_id = ? AND version <= ?",
                   (game_id, version - EVENTS_KEPT))
        self.db.announce(db, json.dumps({"from": self.origin, "game": game_id,
                                         "version": version}))

    def find(self, game_id: str) -> GameRecord | None:
        """The stored game with its seats, or None if there is no such game."""
        with self.db.session() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            return None if row is None else self._record(db, row)

    def _record(self, db: Session, row: Any) -> GameRecord | None:
        """The game of `row` with its seats and invitation; None if it was swept away since
        the row was read (each read sees the database of its moment, and a game found
        without its seats would be taken for one from before seats existed)."""
        seats = tuple(
            Seat(seat=s["seat"], token=s["token"], browser=s["browser"],
                 computer=bool(s["computer"]))
            for s in db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY joined_at, seat",
                                (row["id"],)))
        if not seats and db.execute("SELECT id FROM games WHERE id = ?",
                                    (row["id"],)).fetchone() is None:
            return None
        invite = db.execute("SELECT seat FROM invites WHERE game_id = ?",
                            (row["id"],)).fetchone()
        return GameRecord(
            id=row["id"], kind=row["kind"], version=row["version"],
            data=json.loads(row["data"]), owner=row["owner"], outcome=row["outcome"],
            created_at=row["created_at"], updated_at=row["updated_at"],
            deadline=row["deadline"], played_at=row["played_at"], seats=seats,
            invited=invite["seat"] if invite else None)

    def update(self, record: GameRecord, read_version: int, event: dict[str, Any]) -> None:
        """Writes `record` and its event if the stored game is still at `read_version`,
        else StaleVersion (nothing written; also when the game was swept away meanwhile)."""
        record.updated_at = time.time()
        with self.db.transaction() as db:
            # COALESCE: a game once played stays played, whatever record a caller holds.
            cursor = db.execute(
                "UPDATE games SET version = ?, outcome = ?, data = ?, updated_at = ?,"
                " deadline = ?, played_at = COALESCE(?, played_at) WHERE id = ? AND version = ?",
                (record.version, record.outcome, json.dumps(record.data), record.updated_at,
                 record.deadline, record.played_at, record.id, read_version))
            if cursor.rowcount != 1:
                raise StaleVersion()
            self._write_event(db, record.id, record.version, event)

    def join(self, record: GameRecord, invite_code: str, seat: Seat,
             event: dict[str, Any]) -> bool:
        """Seats a person with an invitation, spending it, and records the game's new
        version; False (nothing written) if the code is not this game's unspent one or the
        game changed meanwhile."""
        try:
            with self.db.transaction() as db:
                # The game's row before its invitation's, as every write takes them (see the
                # module docstring): the other way round could deadlock with a sweep.
                bumped = db.execute("UPDATE games SET version = ?, updated_at = ? WHERE id = ?"
                                    " AND version = ?", (record.version, time.time(),
                                                         record.id, record.version - 1))
                spent = db.execute(
                    "DELETE FROM invites WHERE game_id = ? AND code = ? AND seat = ?",
                    (record.id, invite_code, seat.seat))
                if spent.rowcount != 1:
                    raise _Unspent()  # rolls the version back
                if bumped.rowcount != 1:
                    raise StaleVersion()
                self._write_seats(db, record.id, [seat])
                self._write_event(db, record.id, record.version, event)
        except _Unspent:
            return False
        return True

    def invite(self, game_id: str) -> tuple[str, str | None, str | None] | None:
        """The game's unspent invitation: the code's digest and its sealed copies."""
        with self.db.session() as db:
            row = db.execute(
                "SELECT code, sealed_token, sealed_browser FROM invites WHERE game_id = ?",
                (game_id,)).fetchone()
        return (row["code"], row["sealed_token"], row["sealed_browser"]) if row else None

    # -- abandoned games -----------------------------------------------------------------

    def sweep_abandoned(self, before: float, limit: int = SWEEP_BATCH) -> list[str]:
        """Deletes at most `limit` abandoned games — no person has moved in them, they have
        not ended, and their last change was before `before` (epoch seconds) — with their
        seats, invitations and events, oldest first, in one transaction; their ids.

        Safe to run from any number of instances at once: on PostgreSQL the batch claims its
        games' rows with FOR UPDATE SKIP LOCKED, so two sweeps never wait for each other nor
        take the same game, and a game whose row a write holds (a first move being stored)
        is passed over. A write that committed first is seen by the claim, which rechecks
        the test on the row's newest version: the game, played now, is kept. A write that
        comes after finds no row (StaleVersion): refused, never acknowledged. On SQLite the
        transactions simply take turns."""
        with self.db.transaction() as db:
            # MATERIALIZED: the claim runs once, so the batch is never more than `limit`;
            # the second test repeats the claim's (on PostgreSQL's claimed rows it is moot).
            doomed = [row["id"] for row in db.execute(
                f"WITH doomed AS MATERIALIZED (SELECT id FROM games WHERE {UNPLAYED}"
                f" ORDER BY updated_at LIMIT ?{self.db.skip_locked})"
                f" DELETE FROM games WHERE id IN (SELECT id FROM doomed) AND {UNPLAYED}"
                " RETURNING id", (before, limit, before)).fetchall()]
            for start in range(0, len(doomed), SWEEP_CHUNK):
                chunk = doomed[start:start + SWEEP_CHUNK]
                # Padded with a repeated id, so each statement's text is always the same one
                # (psycopg prepares statements it sees often; one text, not a hundred).
                chunk += chunk[-1:] * (SWEEP_CHUNK - len(chunk))
                for table in ("seats", "invites", "events", "chat"):
                    db.execute(f"DELETE FROM {table} WHERE game_id IN ({CHUNK_IDS})", chunk)
        return doomed

    # -- chat --------------------------------------------------------------------------------

    def say(self, game_id: str, seat: str, name: str | None, text: str, said_at: float,
            most: int) -> int | None:
        """Stores a message of the game's chat; its id (ids grow in the order said), or
        None if the game has `most` messages already (nothing is stored). The game's row is
        taken first, as by every write (see the module's docstring), so the count holds and
        the sweep never deletes the game under the message."""
        with self.db.transaction() as db:
            held = db.execute("UPDATE games SET id = id WHERE id = ?", (game_id,))
            if held.rowcount != 1:
                raise StaleVersion()  # the game is gone
            count = db.execute("SELECT COUNT(*) AS n FROM chat WHERE game_id = ?",
                               (game_id,)).fetchone()["n"]
            if count >= most:
                return None
            row = db.execute("INSERT INTO chat (game_id, seat, name, text, said_at)"
                             " VALUES (?, ?, ?, ?, ?) RETURNING id",
                             (game_id, seat, name, text, said_at)).fetchone()
            return int(row["id"])

    def chat(self, game_id: str, limit: int) -> list[dict[str, Any]]:
        """The game's last `limit` messages, oldest first: id, seat, name, text, said_at."""
        with self.db.session() as db:
            rows = db.execute("SELECT id, seat, name, text, said_at FROM chat WHERE game_id = ?"
                              " ORDER BY id DESC LIMIT ?", (game_id, limit)).fetchall()
        return [dict(row) for row in reversed(rows)]

    # -- events and queries -------------------------------------------------------------------

    def events_since(self, game_id: str, version: int) -> list[tuple[int, str]]:
        """(version, JSON) of every stored event after `version`, in order."""
        with self.db.session() as db:
            rows = db.execute(
                "SELECT version, data FROM events WHERE game_id = ? AND version > ?"
                " ORDER BY version", (game_id, version))
            return [(row["version"], row["data"]) for row in rows]

    def games_of(self, browser: str, limit: int, played: bool = False) -> list[GameRecord]:
        """The games a browser (its id's digest) created or sits at, newest first; with
        `played`, only those a person has moved in or that have ended (`played_at` set),
        the most recently played first — filtered here, so `limit` counts only them."""
        order = "played_at DESC, updated_at DESC" if played else "updated_at DESC"
        with self.db.session() as db:
            rows = db.execute(
                "SELECT * FROM games WHERE (owner = ? OR id IN"
                " (SELECT game_id FROM seats WHERE browser = ?))"
                f"{' AND played_at IS NOT NULL' if played else ''}"
                f" ORDER BY {order} LIMIT ?", (browser, browser, limit)).fetchall()
            return [record for record in (self._record(db, row) for row in rows) if record]

    def due(self, now: float, limit: int = 100) -> list[str]:
        """Games whose running clock has run out by `now`."""
        with self.db.session() as db:
            rows = db.execute(
                "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ?"
                " ORDER BY deadline LIMIT ?", (now, limit))
            return [row["id"] for row in rows]

    def tally(self, owner: str, kind: str) -> dict[str, int]:
        """Wins, draws and losses of one browser's (digest's) finished games of one kind."""
        counts = {"win": 0, "draw": 0, "loss": 0}
        with self.db.session() as db:
            rows = db.execute(
                "SELECT outcome, COUNT(*) AS n FROM games"
                " WHERE owner = ? AND kind = ? AND outcome IS NOT NULL GROUP BY outcome",
                (owner, kind))
            for row in rows:
                counts[row["outcome"]] = row["n"]
        return counts

    # -- between instances ---------------------------------------------------------------

    def relay(self, game_id: str, event: str, data: str) -> None:
        """Hands a message that is no version (the computer's search) to the game's streams
        in the other instances (nothing on SQLite: there are none)."""
        if self.db.shared:
            with self.db.session() as db:
                self.db.announce(db, json.dumps({"from": self.origin, "game": game_id,
                                                 "event": event, "data": data}))

    async def announcements(self) -> AsyncIterator[Announcement | None]:
        """What the other instances store and relay, as it happens, for as long as the
        server runs (nothing on SQLite); None whenever some may have been missed (the
        connection to the database was lost and made again)."""
        async for payload in self.db.announcements():
            if payload is None:
                yield None
                continue
            try:
                notice = json.loads(payload)
                announcement = Announcement(notice["game"], notice.get("version"),
                                            notice.get("event"), notice.get("data", ""))
            except (ValueError, KeyError, TypeError):
                continue  # not one of ours (another program on the channel)
            if notice.get("from") != self.origin:
                yield announcement
