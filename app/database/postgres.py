"""PostgreSQL, for any number of server processes on any number of machines. Start at
PostgresDatabase.

Queries run on a pool of connections (psycopg_pool) shared by the server's threads; each
statement outside a transaction commits on its own (autocommit), and a write is one
`BEGIN … COMMIT`. Versioned writes need nothing more than READ COMMITTED: of two
`UPDATE … WHERE version = n` racing on one row, the second waits for the first, sees the new
version and updates nothing (app/store.py's StaleVersion).

Announcements ride on LISTEN/NOTIFY, no broker: a write calls `pg_notify` inside its
transaction, so PostgreSQL delivers the payload to every listening connection when, and only
when, the write commits. Each server process keeps one extra connection that LISTENs
(`announcements`), reconnecting by itself if the database goes away.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool

from app.database import Cursor, Session

CHANNEL = "tabletop_games"  # the NOTIFY channel every instance listens on
POOL_MIN = 2  # connections kept open while idle
POOL_MAX = 16  # per process: queries take milliseconds, so a few serve the 40 request threads
POOL_WAIT_SECONDS = 30.0  # a request waits this long for a free connection before failing
RECONNECT_SECONDS = 1.0  # between attempts to listen again after losing the database
log = logging.getLogger("tabletop.database")


@functools.lru_cache(maxsize=256)
def placeholders(sql: str) -> str:
    """The store's `?` placeholders as psycopg's `%s` (the store's SQL has no other `?` or
    `%`)."""
    return sql.replace("?", "%s")


class PostgresSession:
    """A pooled connection running the store's SQL."""

    def __init__(self, connection: psycopg.Connection[DictRow]) -> None:
        self.connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self.connection.execute(placeholders(sql), params)


class PostgresDatabase:
    """A PostgreSQL database (`postgresql://user@host:port/db`, any libpq URL)."""

    shared = True
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, url: str) -> None:
        self.url = url
        self.pool: ConnectionPool[psycopg.Connection[DictRow]] = ConnectionPool(
            url, min_size=POOL_MIN, max_size=POOL_MAX, timeout=POOL_WAIT_SECONDS,
            connection_class=psycopg.Connection[DictRow], open=True, name="tabletop",
            kwargs={"autocommit": True, "row_factory": dict_row})

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.pool.connection() as connection:
            yield PostgresSession(connection)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        with self.pool.connection() as connection, connection.transaction():
            yield PostgresSession(connection)

    def announce(self, session: Session, payload: str) -> None:
        session.execute("SELECT pg_notify(?, ?)", (CHANNEL, payload))

    async def announcements(self) -> AsyncIterator[str | None]:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    yield None  # listening (again): whatever was announced meanwhile is lost
                    async for notice in connection.notifies():
                        yield notice.payload
            except psycopg.OperationalError as error:
                log.warning("listening for other instances' changes: %s; again in %g s",
                            error, RECONNECT_SECONDS)
                await asyncio.sleep(RECONNECT_SECONDS)

    def close(self) -> None:
        self.pool.close()
