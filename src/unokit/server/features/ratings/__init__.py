"""Ratings (``docs/ratings.md``): players who choose to be rated get an OpenSkill rating per
variant and table size from their public games, and leaderboards show them. The ratings and
their tables are :mod:`.skill`'s; the HTTP API is :mod:`.api`'s; the operator's signals and
remedies (``unokit admin suspicious``, ``annul``, ``reset-rating`` and their ``/api/admin``
twins) are :mod:`.signals`' and :mod:`.cli`'s."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...room import RoomError
from ...seam import Feature, FeatureServer, StoreHooks
from ...vault import secret
from ...webapi import admin_refusal, answer, body_of, client_of, limited, refusal
from . import api, cli, signals
from .skill import (
    ADDRESS_SECRET,
    forget_player,
    forget_stale,
    rated_players,
    rating_history,
    ratings,
    record_written,
)


class RatingsServer(FeatureServer):
    """Joining, leaving, one's own ratings, the leaderboards, and the operator's signals."""

    async def start(self) -> None:
        """Make the secret the address marks of rated games are made under (once, whichever
        process is first: :func:`~...vault.secret`)."""
        await asyncio.to_thread(secret, self.context.store, ADDRESS_SECRET)

    def routes(self) -> list[BaseRoute]:
        context, lookups = self.context, self.context.limits.identity_lookups
        token = context.config.admin_token
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

        async def admin_suspicious(request: Request) -> Response:
            """``GET /api/admin/suspicious``: :func:`.signals.suspicious` (admin token)."""
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            return answer(await asyncio.to_thread(signals.suspicious, context.store))

        async def admin_annul(request: Request) -> Response:
            """``POST /api/admin/annul {room, game}``: :func:`.signals.annul` (admin token)."""
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            try:
                room, game = signals.game_of(await body_of(request))
                return answer(await asyncio.to_thread(signals.annul, context.store, room, game))
            except RoomError as exc:
                return refusal(exc)

        async def admin_reset(request: Request) -> Response:
            """``POST /api/admin/reset-rating {player, variant?, players?}``:
            :func:`.signals.reset_rating` (admin token)."""
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            try:
                player, variant, size = signals.reset_of(await body_of(request))
                return answer(await asyncio.to_thread(signals.reset_rating, context.store, player, variant, size))
            except RoomError as exc:
                return refusal(exc)

        return [
            *(Route(f"/api/ratings/{name}", call, methods=["POST"]) for name in calls),
            Route("/api/leaderboard", leaderboard),
            Route("/api/admin/suspicious", admin_suspicious),
            Route("/api/admin/annul", admin_annul, methods=["POST"]),
            Route("/api/admin/reset-rating", admin_reset, methods=["POST"]),
        ]


FEATURE = Feature(
    name="ratings",
    summary="OpenSkill ratings of the players who choose them, and leaderboards",
    store=StoreHooks(
        game_written=record_written,
        forget_player=forget_player,
        forget_stale=forget_stale,
        prune=signals.prune,
        exported=(rated_players, ratings, rating_history),
    ),
    server=RatingsServer,
    commands=cli.COMMANDS,
)

__all__ = ["FEATURE", "RatingsServer"]
