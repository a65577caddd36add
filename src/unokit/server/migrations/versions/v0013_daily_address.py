"""The deal of the day keeps, for each scored attempt, a mark of the client address it was asked
from (an HMAC under the server's secret, never the address): only an address's first attempt at
a deal ranks (``docs/daily.md``, "One network, one place"). Attempts from before have none and
rank as they did.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("daily_attempts") as table:
        table.add_column(sa.Column("address", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("daily_attempts") as table:
        table.drop_column("address")
