"""Signals for the operator (``docs/ratings.md``, "Signals for the operator"): each rated game's
line of history keeps the rating before it, its opponents, a mark of the player's address (an
HMAC under the server's secret, never the address; cleared after 30 days), the seat's moves and
stand-in moves, and whether the operator annulled it; a rating keeps when the operator last
reset it. Lines from before have none of these (``NULL``) and are read as before.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

#: The names of the new columns of ``rating_history`` (:func:`_history`).
HISTORY = ("mu_before", "sigma_before", "opponents", "address", "moves", "standins", "annulled")


def _history() -> list[sa.Column[Any]]:
    """The new columns of ``rating_history``, all nullable."""
    kinds: list[Any] = [sa.Float(), sa.Float(), sa.Text(), sa.String(32), sa.Integer(), sa.Integer(), sa.Float()]
    return [sa.Column(name, kind, nullable=True) for name, kind in zip(HISTORY, kinds, strict=True)]


def upgrade() -> None:
    with op.batch_alter_table("rating_history") as table:
        for column in _history():
            table.add_column(column)
    op.create_index("rating_history_game", "rating_history", ["room", "game_no"])
    op.create_index("rating_history_at", "rating_history", ["at"])
    with op.batch_alter_table("ratings") as table:
        table.add_column(sa.Column("reset_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ratings") as table:
        table.drop_column("reset_at")
    op.drop_index("rating_history_at", table_name="rating_history")
    op.drop_index("rating_history_game", table_name="rating_history")
    with op.batch_alter_table("rating_history") as table:
        for name in reversed(HISTORY):
            table.drop_column(name)
