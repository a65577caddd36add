"""The deal of the day (``docs/daily.md``): each day's deals, one scored attempt per identity,
a board per deal and streaks. The deals, their seeds and their table are :mod:`.deals`'; the
HTTP API is :mod:`.api`'s. A daily room is marked ``daily`` in its stored spec, and its seeds
are the deal's when it is loaded."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ....i18n import N_
from ...room import RoomError
from ...seam import Feature, FeatureContext, FeatureServer, StoreHooks
from ...vault import secret
from ...webapi import answer, base_url, body_of, client_of, limited, refusal
from . import api, cli
from .cli import DailySettings
from .deals import DealSeeds, daily_attempts, day_start, forget_player, forget_stale, prune, record_written

if TYPE_CHECKING:
    from ...authority import Room


class DailyServer(FeatureServer):
    """Today's deals, a room to play one in, a deal's board; the seeds of the daily rooms."""

    def __init__(self, context: FeatureContext) -> None:
        super().__init__(context)
        self._secret: bytes | None = None  # read from the database at the first daily room

    async def loaded(self, room: Room, spec: dict[str, Any]) -> None:
        if "daily" in spec:
            room.seeds = await self.deal_seeds(spec["daily"])

    def sealed(self, spec: dict[str, Any]) -> float | None:
        """A daily room's games are sealed until the end of their deal's day: while the day runs,
        no record or replay holds the deal's seed, or the hands from which the deck follows."""
        if "daily" not in spec:
            return None
        day = dt.date.fromisoformat(spec["daily"]["day"])
        return day_start(
            day + dt.timedelta(days=1), self.context.config.settings_of("daily", DailySettings).rollover_hours
        )

    def notes(self, spec: dict[str, Any]) -> tuple[str, ...]:
        """A daily room's games are never rated (its room is not public): its end says so."""
        return (N_("daily.not_rated"),) if "daily" in spec else ()

    async def deal_seeds(self, daily: dict[str, Any]) -> DealSeeds:
        """The seeds of the deal a daily room plays (its spec's ``daily``: day and deal)."""
        if self._secret is None:
            self._secret = await asyncio.to_thread(secret, self.context.store)
        return DealSeeds(self._secret, daily["day"], daily["deal"])

    def routes(self) -> list[BaseRoute]:
        context, limits = self.context, self.context.limits

        async def deals(_request: Request) -> Response:
            return answer(api.deals_of_today(context))

        async def start(request: Request) -> Response:
            client = client_of(request)
            if not await limits.rooms_made.allow(client):  # it creates a room
                return await limited(limits.rooms_made, client, "new rooms")
            try:
                return answer(await api.start(context, await body_of(request), base_url(request), client))
            except RoomError as exc:
                return refusal(exc)

        async def board(request: Request) -> Response:
            client = client_of(request)
            if not await limits.identity_lookups.allow(client):
                return await limited(limits.identity_lookups, client, "requests for a board")
            try:
                return answer(await api.board_of(context, await body_of(request)))
            except RoomError as exc:
                return refusal(exc)

        return [
            Route("/api/daily", deals),
            Route("/api/daily/start", start, methods=["POST"]),
            Route("/api/daily/board", board, methods=["POST"]),
        ]


FEATURE = Feature(
    name="daily",
    summary="the deal of the day: the same deals for everyone, a board and streaks",
    store=StoreHooks(
        game_written=record_written,
        forget_player=forget_player,
        forget_stale=forget_stale,
        prune=prune,
        exported=(daily_attempts,),
    ),
    server=DailyServer,
    commands=cli.COMMANDS,
)

__all__ = ["FEATURE", "DailyServer"]
