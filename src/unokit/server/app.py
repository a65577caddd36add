"""The web application: the core's routes, and the parts it puts together (``docs/protocol.md``).

Its own routes are the rooms':

* ``GET /api/variants`` -> the variants, their options and the bots a room can seat;
* ``POST /api/rooms`` -> a new room: its code, link, websocket address and the host's token;
* ``GET /api/rooms/{code}`` -> the room as everyone may see it;
* ``GET /api/rooms/{code}/records`` and ``.../records/{n}`` -> finished games as ``unokit-record/1``;
* ``GET /api/lobby`` -> the public rooms waiting for players and those playing;
* ``POST /api/play-now`` -> a public room of a variant with an open seat (a new one if none);
* ``POST /api/my-games`` and ``/api/my-games/forget`` -> a player identity's finished games,
  and forgetting the identity.

Beside them: health, metrics and ``/api/admin`` (:mod:`.operations`), the websocket ``WS /ws``
(:mod:`.websocket`), the browser client's data (:mod:`.web`, :mod:`.realtable`) and pages
(:func:`.web.page_routes`), and each feature's routes (:mod:`.features`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Route

from .. import VARIANTS
from ..bots import level_names
from . import features
from .botpool import warm_engine
from .config import ServerConfig
from .edge import Edge, EdgeMiddleware
from .hub import Hub
from .operations import operation_routes
from .peers import identity_hash
from .protocol import HARD_MAX_BYTES
from .realtable import realtable_routes
from .room import RoomError, offer_policies, seat_bots
from .seam import FeatureContext, Limits
from .web import catalog, game_number, page_routes, web_routes
from .webapi import (
    answer,
    base_url,
    body_of,
    client_of,
    limited,
    open_room,
    problem,
    refusal,
    room_code,
    sealed_error,
)
from .websocket import websocket_route
from .wordfilter import WordFilter, load_word_filter, use_word_filter

log = logging.getLogger("unokit.server")

#: The most games "My games" lists.
MY_GAMES_LIMIT = 200


def create_app(config: ServerConfig) -> Starlette:
    """The ASGI application serving ``config``; the hub starts and stops with it. Every request
    passes :class:`~unokit.server.edge.EdgeMiddleware` first. Raises ``ValueError`` for a policy
    file of ``config.bots`` that cannot be used, or a feature of ``config.without`` that there is not."""
    offer_policies(list(config.bots))
    use_word_filter(load_word_filter(config.word_filter) if config.word_filter is not None else WordFilter())
    running = features.enabled(config.without)
    hub = Hub(config, features.store_hooks(config.without))
    edge = Edge(config.edge(), hub.cluster.node_origins, hub.cluster.refresh_nodes if hub.clustered else None)
    # Per client address: rooms created; room codes looked up in vain (code guessing); and
    # identity look-ups ("My games", "Forget me", boards, ratings), as many a minute as codes.
    # Each feature's further allowances are as many again, each of its own.
    make, lookup = hub.allowances.make, (config.lookup_rate / 60, max(1.0, config.lookup_rate * 1.5))
    rooms_rate = make("rooms", config.room_rate / 60, max(1.0, config.room_rate * 2))
    limits = Limits(rooms_rate, make("misses", *lookup), make("lookups", *lookup), make=make, lookup=lookup)
    rooms_made, misses, identity_lookups = limits.rooms_made, limits.misses, limits.identity_lookups
    context = FeatureContext(config, hub.store, hub.metrics, hub.node, hub.bots, hub, limits)
    for feature in running:
        if feature.server is not None:
            context.running[feature.name] = feature.server(context)
    hub.serve_features(list(context.running.values()), [f for f in features.FEATURES if f not in running])

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # The compiled engine is imported and compiled in a thread, before the server says it is
        # ready (``--warm-engine``), so that the first room with a search bot does not stall the
        # loop for seconds; with ``--no-warm-engine``, beside the start (docs/server.md, "Start-up").
        engine = asyncio.create_task(asyncio.to_thread(warm_engine), name="unokit-warm-engine")
        engine.add_done_callback(_engine_warmed)
        if config.warm_engine:
            await engine
        await hub.start()
        # The catalogue the lobby draws itself from takes seconds to make (it imports every
        # bot): made now, while nobody waits, so that the first page opens at once.
        warming = asyncio.create_task(asyncio.to_thread(catalog))
        try:
            yield
        finally:
            await warming
            await hub.stop()

    async def variants(_request: Request) -> Response:
        return answer(
            {
                "variants": {
                    name: {
                        "title": rules.title,
                        "min_players": rules.min_players,
                        "max_players": rules.max_players,
                        "options": sorted(rules.accepted_options),  # house rules included
                    }
                    for name, rules in VARIANTS.items()
                },
                "bots": seat_bots(),
                "levels": level_names(),
            }
        )

    async def running_features(_request: Request) -> Response:
        """The features this server runs (``--without`` turns one off): what the page offers."""
        return answer({"features": list(context.running), "all": list(features.NAMES)})

    async def create_room(request: Request) -> Response:
        client = client_of(request)
        if not await rooms_made.allow(client):
            return await limited(rooms_made, client, "new rooms")
        try:
            created = await hub.create_room(await body_of(request), base_url(request), client)
        except RoomError as exc:
            return refusal(exc)
        return answer(created, 201)

    async def lobby(request: Request) -> Response:
        return answer(await hub.lobby(base_url(request)))

    async def play_now(request: Request) -> Response:
        client = client_of(request)
        if not await rooms_made.allow(client):  # it may create a room
            return await limited(rooms_made, client, "new rooms")
        try:
            return answer(await hub.play_now(await body_of(request), base_url(request), client))
        except RoomError as exc:
            return refusal(exc)

    async def _player(request: Request) -> str:
        """The hash of the identity a request names in its body's ``player``."""
        body = await body_of(request)
        unknown = set(body) - {"player"}
        if unknown:
            raise RoomError("bad_request", f"unknown field(s) {', '.join(sorted(unknown))}")
        return identity_hash(body.get("player"))

    async def my_games(request: Request) -> Response:
        client = client_of(request)
        if not await identity_lookups.allow(client):
            return await limited(identity_lookups, client, "requests for a player's games")
        try:
            player = await _player(request)
        except RoomError as exc:
            return refusal(exc, 400)
        games = await asyncio.to_thread(hub.store.player_games, player, MY_GAMES_LIMIT)
        specs = await asyncio.to_thread(hub.store.room_specs, (game["room"] for game in games))
        now = time.time()
        for game in games:
            game["record"] = f"/api/rooms/{game['room']}/records/{game['game']}"
            game["sealed_until"] = hub.seal_of(specs.get(game["room"], {}), now)
        return answer(
            {"games": games, "retention_days": config.retain_players_days, "records_days": config.retain_records_days}
        )

    async def forget(request: Request) -> Response:
        client = client_of(request)
        if not await identity_lookups.allow(client):
            return await limited(identity_lookups, client, "requests for a player's games")
        try:
            player = await _player(request)
        except RoomError as exc:
            return refusal(exc, 400)
        return answer({"forgotten": await asyncio.to_thread(hub.store.forget_player, player)})

    async def room_info(request: Request) -> Response:
        room = await open_room(request, hub, misses)
        if isinstance(room, Response):
            return room
        return answer({**room.room_info(), "served_by": room.owner_node})

    async def record_list(request: Request) -> Response:
        client = client_of(request)
        if await misses.spent(client):
            return await limited(misses, client, "room codes that do not exist")
        code = room_code(request)
        numbers = await asyncio.to_thread(hub.store.record_numbers, code) if code else []
        if not numbers:
            await misses.allow(client)
        return answer({"room": code, "records": numbers})

    async def record_file(request: Request) -> Response:
        client = client_of(request)
        if await misses.spent(client):
            return await limited(misses, client, "room codes that do not exist")
        code = room_code(request)
        number = game_number(request.path_params["number"])
        text = await asyncio.to_thread(hub.store.record, code, number) if code and number else None
        if text is None:
            await misses.allow(client)
            return problem("no_record", "there is no such finished game", 404)
        until = await hub.sealed(str(code))  # only for a game that exists: a miss costs no more
        if until is not None:
            return refusal(sealed_error(until))
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="unokit-{code}-{number}.json"'},
        )

    routes = [
        *operation_routes(hub),
        Route("/api/variants", variants),
        Route("/api/features", running_features),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/lobby", lobby),
        Route("/api/play-now", play_now, methods=["POST"]),
        Route("/api/my-games", my_games, methods=["POST"]),
        Route("/api/my-games/forget", forget, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/records", record_list),
        Route("/api/rooms/{code}/records/{number}", record_file),
        *web_routes(hub.store.record, hub.sealed, limits.own("replay_files")),
        *realtable_routes(),
        websocket_route(hub, misses),
        *(route for feature in hub.features for route in feature.routes()),
        *(route for feature in features.FEATURES if feature not in running and feature.off for route in feature.off()),
        *page_routes(),
    ]
    refused = functools.partial(hub.metrics.refused, via="http")
    # The edge's checks and headers outermost; inside them, pages, scripts and JSON answers go
    # compressed to browsers that accept it.
    middleware = [
        Middleware(EdgeMiddleware, edge=edge, refused=refused, route=functools.partial(_api_route, routes)),
        Middleware(GZipMiddleware, minimum_size=512),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.hub = hub
    app.state.edge = edge
    return app


def _api_route(routes: list[BaseRoute], scope: Any) -> str | tuple[str, ...] | None:
    """Whether a request to the API has a route (``None``), none (``no_route``), or one that
    takes other methods (their names): :class:`~.edge.EdgeMiddleware`'s ``route``."""
    methods: set[str] = set()
    for route in routes:
        matched, _child = route.matches(scope)
        if matched == Match.FULL:
            return None
        if matched == Match.PARTIAL and isinstance(route, Route):
            methods |= route.methods or set()
    return tuple(sorted(methods)) if methods else "no_route"


def _engine_warmed(task: asyncio.Task[float]) -> None:
    if task.cancelled():
        return
    if (failure := task.exception()) is not None:
        log.error("the compiled engine could not be warmed: %s", failure)
        return
    if task.result():
        log.info("the compiled engine is ready (%.1f s)", task.result())


__all__ = ["HARD_MAX_BYTES", "create_app"]
