"""Running on the internet: when each room was closed (retention prunes closed rooms a set time
later), and the processes of a cluster with their addresses (the Origin check accepts them).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("closed_at", sa.Float, nullable=True))
    # Rooms closed before this revision: their last activity is when they were closed.
    op.execute("UPDATE rooms SET closed_at = last_activity WHERE closed")
    op.create_index("rooms_closed_at", "rooms", ["closed", "closed_at"])
    op.create_index("records_created", "records", ["created_at"])
    op.create_table(
        "nodes",
        sa.Column("node", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(200), nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("nodes")
    op.drop_index("records_created", "records")
    op.drop_index("rooms_closed_at", "rooms")
    op.drop_column("rooms", "closed_at")
