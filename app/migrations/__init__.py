"""The schema's history, kept by Alembic. Start at upgrade().

Every change to the tables is a revision in app/migrations/versions/ (the first, 0001, is
schema 2: games, seats, invites, events; 0002 adds games.played_at, which the sweep of
abandoned games reads; 0003 adds the chat of friend games). `upgrade(url)` brings a
database to the newest revision; it is idempotent, runs at every start-up (app/store.py)
and as `make migrate` (`python -m app.migrations`), and PostgreSQL serializes concurrent
runs with an advisory lock (env.py), so any number of instances may start at once.
Developers use the `alembic` command as usual (alembic.ini at the top of the repository):
`alembic revision -m "…"`.

SQLite databases made before Alembic (schema versions 1 and 2, counted in PRAGMA
user_version) are brought to schema 2 by the code that kept them then (legacy.py) and
stamped as revision 0001; from there the revisions apply as to any other database.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from app.database import DEFAULT_DATABASE_URL, is_postgres, sqlite_path

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).resolve().parent
BASELINE = "0001"  # the revision that is schema 2, the last schema kept before Alembic
MIGRATION_LOCK = 7_140_011  # pg_advisory_xact_lock key: one instance migrates at a time


def database_url() -> str:
    return os.environ.get("TABLETOP_DATABASE_URL", DEFAULT_DATABASE_URL)


def sqlalchemy_url(url: str) -> str:
    """`url` as SQLAlchemy names it: PostgreSQL through psycopg 3 (its default is psycopg2)."""
    if is_postgres(url):
        return "postgresql+psycopg:" + url.split(":", 1)[1]
    return url


def alembic_config(url: str) -> Config:
    """Alembic's configuration for `url`, without alembic.ini (the package carries its
    scripts wherever it is installed)."""
    from alembic.config import Config  # Alembic and SQLAlchemy load only to migrate

    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))  # ini interpolation
    return config


def upgrade(url: str) -> None:
    """Brings the database at `url` to the newest revision (idempotent)."""
    from alembic import command

    from app.migrations import legacy

    config = alembic_config(url)
    if urlparse(url).scheme == "sqlite":
        Path(sqlite_path(url)).parent.mkdir(parents=True, exist_ok=True)
        if legacy.adopt(sqlite_path(url)):
            command.stamp(config, BASELINE)
    command.upgrade(config, "head")
