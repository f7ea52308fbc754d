"""The two databases a store can live in, behind one small interface. Start at connect().

TABLETOP_DATABASE_URL picks one: `sqlite:///path` (the embedded default, one process;
app/database/sqlite.py) or `postgresql://user@host:port/db` (any number of processes and
machines; app/database/postgres.py, psycopg 3 with its pool). app/store.py writes every
query once, with `?` placeholders, against `Database`; each driver runs them its own way and
adds what only it can do: PostgreSQL announces each change to every other instance
(NOTIFY inside the writing transaction, so only committed changes are announced) and hands
the announcements of the others to this one (LISTEN). The schema is made and kept up to
date by app/migrations (Alembic), never here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol
from urllib.parse import urlparse

DEFAULT_DATABASE_URL = "sqlite:///data/tabletop.db"
POSTGRES_SCHEMES = ("postgresql", "postgres")


class Cursor(Protocol):
    """What a query returns (sqlite3's and psycopg's cursors both are one); rows are read by
    column name, `row["version"]`."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Session(Protocol):
    """One connection, lent for a read or a transaction."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...


class Database(Protocol):
    """A database the store's queries run on."""

    url: str
    shared: bool  # whether other processes write to it too (their changes are announced)
    # What ends a SELECT that claims the rows it returns for its transaction, passing over
    # rows other transactions hold: " FOR UPDATE SKIP LOCKED" on PostgreSQL; nothing on
    # SQLite, whose write transactions take turns on the whole file.
    skip_locked: str

    def session(self) -> AbstractContextManager[Session]:
        """A connection for reads, each statement on its own."""
        ...

    def transaction(self) -> AbstractContextManager[Session]:
        """A connection inside one write transaction: committed when the block ends,
        rolled back if it raises."""
        ...

    def announce(self, session: Session, payload: str) -> None:
        """Tells every instance `payload` once the transaction of `session` commits (nothing
        for a database no other process uses)."""
        ...

    def announcements(self) -> AsyncIterator[str | None]:
        """Every payload announced by any instance, for as long as the server runs; None
        after each (re)connection, when announcements may have been missed."""
        ...

    def close(self) -> None: ...


def is_postgres(url: str) -> bool:
    return urlparse(url).scheme in POSTGRES_SCHEMES


def sqlite_path(url: str) -> str:
    """The file path of a sqlite:/// URL (sqlite:///relative/path or sqlite:////absolute)."""
    parsed = urlparse(url)
    if parsed.scheme != "sqlite":
        raise ValueError(f"Database URLs are sqlite:///path or postgresql://user@host:port/db,"
                         f" not {url[:80]!r}.")
    path = url[len("sqlite:///"):]
    if path in ("", ":memory:"):
        raise ValueError("The database must be a file, so that games survive a restart.")
    return path


def connect(url: str) -> Database:
    """The database at `url`: PostgreSQL for postgresql:// URLs, else an SQLite file."""
    if is_postgres(url):
        from app.database.postgres import PostgresDatabase  # psycopg only when it is used

        return PostgresDatabase(url)
    from app.database.sqlite import SqliteDatabase

    return SqliteDatabase(url)
