"""Arenas (``docs/arena.md``): the arenas the operator schedules, each player's line of an arena
(points, wins, games, streak, the table they sit at, a mark of their address) and each counted
game's points for each of its players.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("ends", sa.Float, nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("bot_wait", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("cancelled", sa.Float, nullable=True),
    )
    op.create_index("arenas_ends", "arenas", ["ends"])
    op.create_table(
        "arena_players",
        sa.Column("arena", sa.String(16), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("address", sa.String(32), nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("free_since", sa.Float, nullable=True),
        sa.Column("room", sa.String(16), nullable=True),
        sa.Column("seated_at", sa.Float, nullable=True),
    )
    op.create_index("arena_players_room", "arena_players", ["room"])
    op.create_index("arena_players_player", "arena_players", ["player"])
    op.create_table(
        "arena_games",
        sa.Column("arena", sa.String(16), primary_key=True),
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("doubled", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("arena_games")
    op.drop_index("arena_players_player", table_name="arena_players")
    op.drop_index("arena_players_room", table_name="arena_players")
    op.drop_table("arena_players")
    op.drop_index("arenas_ends", table_name="arenas")
    op.drop_table("arenas")
