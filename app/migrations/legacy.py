"""SQLite databases made before the schema was kept by Alembic: brought to schema 2 by the
code that kept them then, so that revision 0001 (schema 2) can be stamped on them. Start at
adopt(). Frozen: new schema changes are revisions in app/migrations/versions/, never here.
"""

from __future__ import annotations

import sqlite3

from app.seats import digest

SCHEMA_VERSION = 2  # PRAGMA user_version of the last schema kept by this code
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, version INTEGER NOT NULL, owner TEXT,
    outcome TEXT, data TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL,
    deadline REAL);
CREATE INDEX IF NOT EXISTS games_owner_kind ON games (owner, kind);
CREATE INDEX IF NOT EXISTS games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL, seat TEXT NOT NULL, token TEXT, browser TEXT,
    computer INTEGER NOT NULL DEFAULT 0, joined_at REAL NOT NULL, PRIMARY KEY (game_id, seat));
CREATE INDEX IF NOT EXISTS seats_browser ON seats (browser);
CREATE TABLE IF NOT EXISTS invites (
    game_id TEXT PRIMARY KEY, code TEXT NOT NULL, seat TEXT NOT NULL, sealed_token TEXT,
    sealed_browser TEXT);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (game_id, version));
"""


def adopt(path: str) -> bool:
    """Brings a pre-Alembic database (it has games but no alembic_version) to schema 2, in one
    transaction; True if the file was one (the caller stamps it), False for any other file."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        tables = {name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "games" not in tables or "alembic_version" in tables:
            db.execute("ROLLBACK")
            return False
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version < SCHEMA_VERSION:
            columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
            if "deadline" not in columns:  # version 1: games only, raw owners
                db.execute("ALTER TABLE games ADD COLUMN deadline REAL")
                owners = db.execute("SELECT DISTINCT owner FROM games WHERE owner IS NOT NULL")
                for (owner,) in owners.fetchall():
                    db.execute("UPDATE games SET owner = ? WHERE owner = ?",
                               (digest(owner), owner))
            # One statement at a time: executescript would commit the transaction first.
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
        return True
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    finally:
        db.close()
