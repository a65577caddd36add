"""Reviews kept with the records (``reviewstore.reviews``): one row per reviewed seat of a
finished game and effort, first the claim of the process computing it, then the review.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("effort", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("node", sa.String(64), nullable=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("review", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
    )
    op.create_index("reviews_player", "reviews", ["player", "started_at"])


def downgrade() -> None:
    op.drop_index("reviews_player", "reviews")
    op.drop_table("reviews")
