"""The client address of a review in progress (``reviewstore.reviews.address``): an address
may have only so many reviews in progress at once, counted the same by every process.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("reviews", sa.Column("address", sa.String(64), nullable=True))
    op.create_index("reviews_address", "reviews", ["address", "status"])


def downgrade() -> None:
    op.drop_index("reviews_address", "reviews")
    with op.batch_alter_table("reviews") as batch:
        batch.drop_column("address")
