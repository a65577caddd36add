"""Playing together: public rooms and their lobby listings, the rooms' chat logs, and players'
identities with the games they played.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("rooms", sa.Column("listing", sa.Text, nullable=True))
    op.create_index("rooms_public", "rooms", ["public", "closed"])
    op.create_table(
        "room_chat",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("entry", sa.Text, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_index("players_last_seen", "players", ["last_seen"])
    op.create_table(
        "room_players",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
    )
    op.create_index("room_players_player", "room_players", ["player"])
    op.create_table(
        "player_games",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_games")
    op.drop_index("room_players_player", "room_players")
    op.drop_table("room_players")
    op.drop_index("players_last_seen", "players")
    op.drop_table("players")
    op.drop_table("room_chat")
    op.drop_index("rooms_public", "rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("listing")
        batch.drop_column("public")
