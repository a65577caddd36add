"""The deal of the day (the server's daily secret and each identity's scored attempts), and
ratings for the identities that chose them (who, their ratings, each rated game's change).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_secrets",
        sa.Column("name", sa.String(16), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("deal", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("name", sa.Text, nullable=True),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("points", sa.Integer, nullable=True),
        sa.Column("actions", sa.Integer, nullable=True),
    )
    op.create_index("daily_attempts_room", "daily_attempts", ["room"])
    op.create_index("daily_attempts_player", "daily_attempts", ["player", "day"])
    op.create_table(
        "rated_players",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["variant", "players", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_index("ratings_board", "ratings")
    op.drop_table("ratings")
    op.drop_table("rated_players")
    op.drop_index("daily_attempts_player", "daily_attempts")
    op.drop_index("daily_attempts_room", "daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_secrets")
