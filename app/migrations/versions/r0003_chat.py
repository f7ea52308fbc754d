"""The chat between a friend game's players (app/chat.py): one row per message, in the
order said (`id`), kept with its game and deleted with it (app/store.py's sweep).

Not part of the game's versioned data: a message never makes a move stale, and a move
never refuses a message.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("seat", sa.Text(), nullable=False),
        sa.Column("name", sa.Text()),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("said_at", sa.Float(), nullable=False),
    )
    op.create_index("chat_game", "chat", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index("chat_game", "chat")
    op.drop_table("chat")
