"""Each player's share of finished games, shown at public tables (``docs/server.md``,
"Finishing games"): of the games an identity played to their end in the last
:data:`WINDOW_DAYS` days, those it stayed in to the end. A player who left a game (closed the
page for good: the room's stand-in bot made at least their last ``LEFT_AFTER`` moves) has it
counted as left; the games come from the identity's list of games (``player_games``, whose
summary names the seats that had left), so they follow its retention and "Forget me".
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..seam import Feature, FeatureServer
from ..storage import player_games, room_players
from ..webapi import answer, client_of, limited, open_room

if TYPE_CHECKING:
    from ..room import RoomState
    from ..storage import Store

#: How far back a player's games count ("remembered for a while").
WINDOW_DAYS = 30
#: The most recent games read for one identity.
WINDOW_GAMES = 500


def shares(store: Store, room: str, state: RoomState, now: float) -> list[dict[str, Any]]:
    """The people seated in ``room`` (its ``state``) with their games of the last
    :data:`WINDOW_DAYS` days and how many of them they finished; seats without a known identity
    and bots are left out."""
    since = now - WINDOW_DAYS * 86400.0
    out = []
    with store.begin() as c:
        identity = dict(
            c.execute(select(room_players.c.token_hash, room_players.c.player).where(room_players.c.room == room)).all()
        )
        for index, seat in enumerate(state.seats):
            player = identity.get(seat.token_hash) if seat.kind == "human" and seat.token_hash else None
            if player is None:
                continue
            rows = c.execute(
                select(player_games.c.seat, player_games.c.summary)
                .where(player_games.c.player == player, player_games.c.at >= since)
                .order_by(player_games.c.at.desc())
                .limit(WINDOW_GAMES)
            ).all()
            left = sum(row.seat in json.loads(row.summary).get("left", []) for row in rows)
            games = len(rows)
            out.append(
                {
                    "seat": index,
                    "name": seat.name,
                    "games": games,
                    "finished": games - left,
                    "share": None if games == 0 else round((games - left) / games, 3),
                }
            )
    return out


class FinishingServer(FeatureServer):
    """``GET /api/rooms/{code}/finishing``: a public room's people and their shares."""

    def routes(self) -> list[BaseRoute]:
        context = self.context
        lookups = context.limits.own("finishing")  # each reads the room's finished games

        async def finishing(request: Request) -> Response:
            room = await open_room(request, context.rooms, context.limits.misses, public=True)
            if isinstance(room, Response):
                return room
            client = client_of(request)
            if not await lookups.allow(client):
                return await limited(lookups, client, "look-ups of finishing shares")
            seats = await asyncio.to_thread(shares, context.store, room.code, room.state, time.time())
            return answer({"room": room.code, "days": WINDOW_DAYS, "seats": seats})

        return [Route("/api/rooms/{code}/finishing", finishing)]


FEATURE = Feature(
    name="finishing",
    summary="each player's share of finished games, shown at public tables",
    server=FinishingServer,
)
