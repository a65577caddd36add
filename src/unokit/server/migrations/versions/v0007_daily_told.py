"""The days whose "your deal of the day is ready" message was sent (one row a day: the process
that writes it is the one that sends).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_told",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("told_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("daily_told")
