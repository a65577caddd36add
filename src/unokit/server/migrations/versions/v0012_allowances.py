"""The client addresses' allowances a cluster's processes share (``allowances``): chat across
rooms, rooms made, codes looked up in vain, identity look-ups, reports, each counted where every
process sees the same figure.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "allowances",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("stamp", sa.Float, nullable=False),
        sa.Column("full_at", sa.Float, nullable=False),
    )
    op.create_index("ix_allowances_full_at", "allowances", ["full_at"])


def downgrade() -> None:
    op.drop_index("ix_allowances_full_at", table_name="allowances")
    op.drop_table("allowances")
