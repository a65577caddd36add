"""Ratings (``docs/ratings.md``): players who choose to be rated get an OpenSkill rating per
variant and table size from their public games, and leaderboards show them. The ratings and
their tables are :mod:`.skill`'s; the HTTP API is :mod:`.api`'s."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...room import RoomError
from ...seam import Feature, FeatureServer, StoreHooks
from ...webapi import answer, body_of, client_of, limited, refusal
from . import api
from .skill import forget_player, forget_stale, rated_players, rating_history, ratings, record_written


class RatingsServer(FeatureServer):
    """Joining, leaving, one's own ratings, and the leaderboards."""

    def routes(self) -> list[BaseRoute]:
        context, lookups = self.context, self.context.limits.identity_lookups
        calls = {"join": api.join, "leave": api.leave, "mine": api.own}

        async def call(request: Request) -> Response:
            client = client_of(request)
            if not await lookups.allow(client):
                return await limited(lookups, client, "requests for a player's ratings")
            try:
                return answer(await calls[request.url.path.rsplit("/", 1)[1]](context, await body_of(request)))
            except RoomError as exc:
                return refusal(exc)

        async def leaderboard(request: Request) -> Response:
            try:
                return answer(await api.board(context, dict(request.query_params)))
            except RoomError as exc:
                return refusal(exc)

        return [
            *(Route(f"/api/ratings/{name}", call, methods=["POST"]) for name in calls),
            Route("/api/leaderboard", leaderboard),
        ]


FEATURE = Feature(
    name="ratings",
    summary="OpenSkill ratings of the players who choose them, and leaderboards",
    store=StoreHooks(
        game_written=record_written,
        forget_player=forget_player,
        forget_stale=forget_stale,
        exported=(rated_players, ratings, rating_history),
    ),
    server=RatingsServer,
)

__all__ = ["FEATURE", "RatingsServer"]
