"""Alembic's entry point: runs the revisions in versions/ on the database named by the
configuration (app/migrations/__init__.py sets it) or by TABLETOP_DATABASE_URL (the
`alembic` command). The whole run is one transaction that first takes a lock (an advisory
lock on PostgreSQL, the write lock on SQLite), so instances starting together migrate one
after the other, the second finding the work done, and a run that fails changes nothing.
"""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import Connection, Engine, create_engine, event, pool, text

from app.migrations import MIGRATION_LOCK, database_url, sqlalchemy_url


def one_sqlite_transaction(engine: Engine) -> None:
    """Makes SQLite run the migration as one transaction, as PostgreSQL does (Python's
    sqlite3 commits before every DDL statement by itself: one disk sync per table)."""

    @event.listens_for(engine, "connect")
    def manual(connection: Any, _: Any) -> None:
        connection.isolation_level = None  # no implicit BEGIN or COMMIT

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock, taken up front


def run() -> None:
    url = sqlalchemy_url(context.config.get_main_option("sqlalchemy.url") or database_url())
    if context.is_offline_mode():  # `alembic upgrade head --sql`: print the SQL
        context.configure(url=url, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(url, poolclass=pool.NullPool)
    if engine.dialect.name == "sqlite":
        one_sqlite_transaction(engine)
    try:
        with engine.connect() as connection:
            context.configure(connection=connection, transactional_ddl=True)
            with context.begin_transaction():
                if connection.dialect.name == "postgresql":
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                       {"key": MIGRATION_LOCK})
                context.run_migrations()
    finally:
        engine.dispose()


run()
