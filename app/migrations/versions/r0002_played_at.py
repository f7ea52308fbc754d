"""Games remember when a person last played in them (`played_at`), so that games nobody
ever played can be swept away (app/store.py's sweep_abandoned).

NULL means no person has moved in the game and it has not ended: once nothing has changed
such a game for TABLETOP_ABANDONED_HOURS it is abandoned. Every game stored before this
revision is counted as played (`played_at = updated_at`): a stored row does not say whether
a person ever moved in it — its version counts the computer's moves and a friend's joining
too, and old events are trimmed — so this revision never makes a game someone played
deletable; only games created after it can be swept. The partial index holds only the
unplayed games, so the sweep finds the oldest of them without reading the played ones.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WHERE_UNPLAYED = sa.text("played_at IS NULL AND outcome IS NULL")  # what the sweep reads


def upgrade() -> None:
    op.add_column("games", sa.Column("played_at", sa.Float()))
    op.execute("UPDATE games SET played_at = updated_at")
    op.create_index("games_unplayed", "games", ["updated_at"], sqlite_where=WHERE_UNPLAYED,
                    postgresql_where=WHERE_UNPLAYED)


def downgrade() -> None:
    op.drop_index("games_unplayed", "games")
    op.drop_column("games", "played_at")
