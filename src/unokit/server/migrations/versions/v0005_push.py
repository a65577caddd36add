"""Web Push: the server's VAPID key pair, and players' push subscriptions (``docs/server.md``,
"Notifications when the page is closed").

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("private_key", sa.Text, nullable=False),
        sa.Column("public_key", sa.String(100), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1024), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column("key_id", sa.Integer, nullable=False),
        sa.Column("lang", sa.String(16), nullable=False),
        sa.Column("kinds", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("push_subscriptions_player", "push_subscriptions", ["player"])


def downgrade() -> None:
    op.drop_index("push_subscriptions_player", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")
