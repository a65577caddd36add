"""Rooms, their append-only logs and the records of finished games.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_activity", sa.Float, nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("closed", sa.Boolean, nullable=False),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("owner_url", sa.String(200), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=False),
    )
    op.create_index("rooms_open_activity", "rooms", ["closed", "last_activity"])
    op.create_table(
        "room_log",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("entry", sa.Text, nullable=False),
    )
    op.create_table(
        "records",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("records")
    op.drop_table("room_log")
    op.drop_index("rooms_open_activity", "rooms")
    op.drop_table("rooms")
