"""Schema 2, the baseline: games, their seats, their invitations, their events.

The tables as app/store.py uses them (its docstring says what each column holds); the same
schema that SQLite databases made before Alembic have (app/migrations/legacy.py), which are
stamped with this revision instead of running it. Timestamps are epoch seconds in double
precision (FLOAT: REAL on SQLite, double precision on PostgreSQL).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHERE_DEADLINE = sa.text("deadline IS NOT NULL")  # only games with a running clock


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("owner", sa.Text()),
        sa.Column("outcome", sa.Text()),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("deadline", sa.Float()),
    )
    op.create_index("games_owner_kind", "games", ["owner", "kind"])
    op.create_index("games_deadline", "games", ["deadline"], sqlite_where=WHERE_DEADLINE,
                    postgresql_where=WHERE_DEADLINE)
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("seat", sa.Text(), nullable=False),
        sa.Column("token", sa.Text()),
        sa.Column("browser", sa.Text()),
        sa.Column("computer", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("seats_browser", "seats", ["browser"])
    op.create_table(
        "invites",
        sa.Column("game_id", sa.Text(), primary_key=True),
        sa.Column("code", sa.Text(), nullable=False),
        sa.Column("seat", sa.Text(), nullable=False),
        sa.Column("sealed_token", sa.Text()),
        sa.Column("sealed_browser", sa.Text()),
    )
    op.create_table(
        "events",
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version"),
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 2")  # what the code before Alembic checks


def downgrade() -> None:
    for table in ("events", "invites", "seats", "games"):
        op.drop_table(table)
