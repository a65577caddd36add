"""Provisional ratings (``docs/ratings.md``): the different opponents each rating met
(``rating_opponents``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_opponents",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("opponent", sa.String(64), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("rating_opponents")
