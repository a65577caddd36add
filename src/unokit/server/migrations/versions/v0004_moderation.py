"""Safe among strangers: who created each open public room (its address, for the cap of public
rooms an address may hold; forgotten when the room closes) and how many people sit in it (the
lobby lists the fullest first); players' reports; bans of identities and addresses.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("creator", sa.String(64), nullable=True))
    op.add_column("rooms", sa.Column("people", sa.Integer, nullable=False, server_default="0"))
    op.create_index("rooms_creator", "rooms", ["creator", "closed"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reporter", sa.String(64), nullable=True),
        sa.Column("reported", sa.String(64), nullable=True),
        sa.Column("name", sa.Text, nullable=True),
        sa.Column("lines", sa.Text, nullable=False),
    )
    op.create_index("reports_at", "reports", ["at"])
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("value", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("bans")
    op.drop_index("reports_at", "reports")
    op.drop_table("reports")
    op.drop_index("rooms_creator", "rooms")
    op.drop_column("rooms", "people")
    op.drop_column("rooms", "creator")
