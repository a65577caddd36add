"""Ban numbers are never reused: on SQLite the ``bans`` table is made again with
``AUTOINCREMENT`` (a plain integer key gives a lifted ban's number, the highest, to the next
ban); PostgreSQL's sequence never gives a number twice already.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("bans", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
            pass


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("bans", recreate="always"):
            pass
