"""The deal of the day: the server's daily secret and each identity's scored attempts.

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_secrets",
        sa.Column("name", sa.String(16), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("deal", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("name", sa.Text, nullable=True),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("points", sa.Integer, nullable=True),
        sa.Column("actions", sa.Integer, nullable=True),
    )
    op.create_index("daily_attempts_room", "daily_attempts", ["room"])
    op.create_index("daily_attempts_player", "daily_attempts", ["player", "day"])


def downgrade() -> None:
    op.drop_index("daily_attempts_player", "daily_attempts")
    op.drop_index("daily_attempts_room", "daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_secrets")
