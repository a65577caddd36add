"""The web application: the HTTP API under ``/api``, the websocket at ``/ws``, and ``/`` and
``/static`` reserved for the browser client (a placeholder page for now).

Routes (``docs/protocol.md``):

* ``GET /api/health`` -> ``{"status": "ok"}`` once the database is migrated and rooms can be served;
* ``GET /api/variants`` -> the variants, their options and the bots a room can seat;
* ``POST /api/rooms`` -> a new room: its code, link, websocket address and the host's token;
* ``GET /api/rooms/{code}`` -> the room as everyone may see it;
* ``GET /api/rooms/{code}/records`` and ``.../records/{n}`` -> finished games as ``unokit-record/1``;
* ``GET /api/lobby`` -> the public rooms waiting for players and those playing;
* ``POST /api/play-now`` -> a public room of a variant with an open seat (a new one if none);
* ``POST /api/my-games`` and ``/api/my-games/forget`` -> a player identity's finished games,
  and forgetting the identity;
* ``GET /r/{code}`` -> the room's link, the browser client's page;
* ``GET /sw.js`` and ``GET /manifest.webmanifest`` -> the page's service worker and web app
  manifest (``docs/web.md``, "On a phone's home screen");
* ``WS /ws`` -> the game protocol ``unokit-server/2``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import VARIANTS, __version__
from ..bots import level_names
from . import PROTOCOL, features, upkeep
from .authority import Room
from .botpool import warm_engine
from .config import ServerConfig
from .edge import Buckets, Edge, EdgeMiddleware, client_key, ip_network_of, is_loopback
from .hub import Hub
from .items import Arrived, Gone, Said
from .messages import MessageError, Pong, error, read_message
from .metrics import CONTENT_TYPE as METRICS_TYPE
from .metrics import Metrics
from .offline import PYODIDE_FILES, engine_zip, pyodide_dir
from .owners import send_to_owner
from .peers import identity_hash
from .protocol import HARD_MAX_BYTES, NO_HELLO, RateLimit, encode
from .realtable import realtable_routes
from .room import RoomError, offer_policies, seat_bots
from .seam import FeatureContext, Limits
from .web import catalog, game_number, web_routes
from .webapi import (
    CODE_ALPHABET,
    admin_refusal,
    answer,
    base_url,
    body_of,
    client_of,
    limited,
    open_room,
    problem,
    refusal,
    room_code,
)
from .wordfilter import WordFilter, load_word_filter, use_word_filter

log = logging.getLogger("unokit.server")

STATIC = Path(__file__).parent / "static"
#: Refused messages (bad JSON, over the rate, ...) after which a connection is closed.
STRIKES_LIMIT = 200
#: The largest request body the API reads, in bytes.
MAX_BODY = 8192
#: The most games "My games" lists.
MY_GAMES_LIMIT = 200
#: How long readiness waits for the database to answer.
READY_SECONDS = 2.0


class WsPeer:
    """One websocket client: its seat once it said hello, an outbox and the task that sends it.

    A send never waits (:mod:`.sendbuffer`): the sender task hands each message to the
    connection's transport as soon as it runs, so the outbox only holds what the rooms delivered
    since then. What the client does not read waits in the transport, which closes the connection
    as too slow once it holds more than ``--send-buffer`` bytes.
    """

    def __init__(self, websocket: WebSocket, config: ServerConfig, metrics: Metrics) -> None:
        self.websocket = websocket
        self.metrics = metrics
        self.conn_id = secrets.token_hex(8)
        self.seat: int | None = None
        self.holder: str | None = None
        self.role = "none"
        self.name: str | None = None
        self.player: str | None = None  # the hash of the identity its hello gave
        self.visible = True  # its page shows the table (it says so when it is hidden)
        self.room: Room | None = None
        self.redirects = False  # the client follows a redirect to its room's owner
        self.unreachable: str | None = None  # an owner's address the client could not reach
        self.pending_forward: str | None = None
        self.rate = RateLimit(config.rate, config.burst)
        self.strikes = 0
        self.outbox: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.closing = False
        self.client = ""  # the key per-client limits count it by
        self.sender = asyncio.get_running_loop().create_task(self._send_loop())

    def deliver(self, message: dict[str, Any] | str) -> None:
        if self.closing:
            return
        if isinstance(message, dict) and message.get("type") == "error":
            self.metrics.refused(str(message.get("code")), "websocket")
        self.outbox.put_nowait(message if isinstance(message, str) else encode(message))

    def close(self, reason: str, code: int = 1000) -> None:
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait((code, reason if code != 1000 else ""))

    async def _send_loop(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                if isinstance(text, tuple):
                    with contextlib.suppress(Exception):
                        await self.websocket.close(*text)
                    return
                await self.websocket.send_text(text)
        except Exception:
            self.closing = True


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
    lookups = functools.partial(Buckets, config.lookup_rate / 60, max(1.0, config.lookup_rate * 1.5))
    limits = Limits(Buckets(config.room_rate / 60, max(1.0, config.room_rate * 2)), lookups(), lookups(), make=lookups)
    rooms_made, misses, identity_lookups = limits.rooms_made, limits.misses, limits.identity_lookups
    context = FeatureContext(config, hub.store, hub.metrics, hub.node, hub.bots, hub, limits)
    for feature in running:
        if feature.server is not None:
            context.running[feature.name] = feature.server(context)
    hub.features = list(context.running.values())

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

    async def live(_request: Request) -> Response:
        """Liveness: the process answers (its event loop turns). Nothing else is checked, so a
        supervisor restarts it only when it is stuck, never because the database is away."""
        return answer({"status": "alive", "node": hub.node})

    async def ready(_request: Request) -> Response:
        """Readiness: the process serves rooms (started, not stopping) and its database answers
        within :data:`READY_SECONDS`; a proxy sends it new clients only then."""
        if not hub.ready:
            return answer({"status": "starting" if not hub.stopping else "stopping"}, 503)
        try:
            await asyncio.wait_for(asyncio.to_thread(hub.store.ping), READY_SECONDS)
        except Exception:
            return answer({"status": "no_database"}, 503)
        return answer({"status": "ready", "node": hub.node})

    async def metrics(request: Request) -> Response:
        if not _trusted_caller(request, config.admin_token):
            return problem("forbidden", "the metrics are for this machine, or for the admin token", 403)
        return Response(hub.metrics.page(), media_type=METRICS_TYPE)

    async def admin_rooms(request: Request) -> Response:
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        which = request.query_params.get("which", "open")
        if which not in ("open", "closed", "all"):
            return problem("bad_request", "'which' is open, closed or all", 400)
        listed = await asyncio.to_thread(hub.store.upkeep.rooms_list, which)
        return answer({"rooms": listed, "totals": await asyncio.to_thread(hub.store.upkeep.totals)})

    async def admin_close(request: Request) -> Response:
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        code = room_code(request)
        if code is None or not await hub.close_room(code):
            return problem("no_room", f"there is no open room {request.path_params['code']!r}", 404)
        return answer({"room": code, "closing": True})

    async def admin_records(request: Request) -> Response:
        """Finished games since ``since`` (seconds since the epoch), of ``room`` if given, as JSON
        lines: ``{"room", "game", "at", "record"}``."""
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        try:
            since = float(request.query_params.get("since", "0"))
        except ValueError:
            return problem("bad_request", "'since' is a number of seconds since 1970", 400)
        room = request.query_params.get("room")
        rows = await asyncio.to_thread(lambda: list(hub.store.upkeep.records_since(since, room)))
        lines = (encode({"room": r, "game": g, "at": at, "record": text}) + "\n" for r, g, at, text in rows)
        return Response("".join(lines), media_type="application/x-ndjson")

    async def admin_tables(request: Request) -> Response:
        """Every row of one of the tables ``unokit admin export`` writes (``upkeep.exported_tables``),
        as JSON lines."""
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        name = request.path_params["name"]
        if name not in upkeep.exported_tables():
            return problem("no_table", f"tables are {', '.join(upkeep.exported_tables())}", 404)
        rows = await asyncio.to_thread(lambda: list(upkeep.table_rows(hub.store, name)))
        return Response("".join(encode(row) + "\n" for row in rows), media_type="application/x-ndjson")

    async def admin_prune(request: Request) -> Response:
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        try:
            body = await body_of(request)
            rooms_days = body.get("rooms_days")
            records_days = body.get("records_days")
            players_days = body.get("players_days")
            for value in (rooms_days, records_days, players_days):
                if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value < 0):
                    raise RoomError("bad_request", "'rooms_days', 'records_days', 'players_days' are numbers of days")
        except RoomError as exc:
            return refusal(exc, 400)
        pruned = await hub.prune(rooms_days, records_days, players_days)
        return answer(dataclasses.asdict(pruned))

    async def admin_reports(request: Request) -> Response:
        """Players' reports, newest first (``room``: of that room only)."""
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        code = request.query_params.get("room")
        room = code.upper() if code and len(code) <= 16 and code.isalnum() else None
        if code is not None and room is None:
            return problem("bad_request", "'room' is a room's code", 400)
        return answer({"reports": await asyncio.to_thread(hub.store.moderation.reports_list, 500, room)})

    async def admin_bans(request: Request) -> Response:
        """``GET``: the bans in force; ``POST {kind, value, hours?, reason?}``: a new ban."""
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        if request.method == "GET":
            return answer({"bans": await asyncio.to_thread(hub.store.moderation.bans_list, time.time())})
        try:
            body = await body_of(request)
            kind, value, until, reason = ban_fields(body)
        except RoomError as exc:
            return refusal(exc, 400)
        number = await asyncio.to_thread(hub.store.moderation.add_ban, kind, value, until, reason)
        await hub.moderation.refresh_bans()
        log.info("ban %d: %s %s until %s", number, kind, value[:12], until)
        return answer({"ban": number, "kind": kind, "value": value, "until": until}, 201)

    async def admin_lift(request: Request) -> Response:
        refused = admin_refusal(request, config.admin_token)
        if refused is not None:
            return refused
        text = str(request.path_params["number"])
        if not (text.isascii() and text.isdigit() and len(text) <= 12) or not await asyncio.to_thread(
            hub.store.moderation.lift_ban, int(text)
        ):
            return problem("no_ban", f"there is no ban {text[:20]!r}", 404)
        await hub.moderation.refresh_bans()
        return answer({"lifted": int(text)})

    async def health(_request: Request) -> Response:
        if not hub.ready:
            return answer({"status": "starting"}, 503)
        owned = sum(1 for room in hub.rooms.values() if room.owner)
        return answer(
            {
                "status": "ok",
                "version": __version__,
                "protocol": PROTOCOL,
                "node": hub.node,
                "rooms": {"owned": owned, "followed": len(hub.rooms) - owned},
                "redirected": hub.cluster.redirected,
                "forwarded": hub.cluster.forwarded,
            }
        )

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

    async def create_room(request: Request) -> Response:
        client = client_of(request)
        if not rooms_made.allow(client):
            return limited(rooms_made, client, "new rooms")
        try:
            created = await hub.create_room(await body_of(request), base_url(request), client)
        except RoomError as exc:
            return refusal(exc)
        return answer(created, 201)

    async def lobby(request: Request) -> Response:
        return answer(await hub.lobby(base_url(request)))

    async def play_now(request: Request) -> Response:
        client = client_of(request)
        if not rooms_made.allow(client):  # it may create a room
            return limited(rooms_made, client, "new rooms")
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
        if not identity_lookups.allow(client):
            return limited(identity_lookups, client, "requests for a player's games")
        try:
            player = await _player(request)
        except RoomError as exc:
            return refusal(exc, 400)
        games = await asyncio.to_thread(hub.store.player_games, player, MY_GAMES_LIMIT)
        for game in games:
            game["record"] = f"/api/rooms/{game['room']}/records/{game['game']}"
        return answer(
            {"games": games, "retention_days": config.retain_players_days, "records_days": config.retain_records_days}
        )

    async def forget(request: Request) -> Response:
        client = client_of(request)
        if not identity_lookups.allow(client):
            return limited(identity_lookups, client, "requests for a player's games")
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
        if misses.spent(client):
            return limited(misses, client, "room codes that do not exist")
        code = room_code(request)
        numbers = await asyncio.to_thread(hub.store.record_numbers, code) if code else []
        if not numbers:
            misses.allow(client)
        return answer({"room": code, "records": numbers})

    async def record_file(request: Request) -> Response:
        client = client_of(request)
        if misses.spent(client):
            return limited(misses, client, "room codes that do not exist")
        code = room_code(request)
        number = game_number(request.path_params["number"])
        text = await asyncio.to_thread(hub.store.record, code, number) if code and number else None
        if text is None:
            misses.allow(client)
            return problem("no_record", "there is no such finished game", 404)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="unokit-{code}-{number}.json"'},
        )

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def service_worker(_request: Request) -> Response:
        # At the root, so that it may serve the pages of every room (its scope is "/").
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    async def pyodide_file(request: Request) -> Response:
        # Offline play's Pyodide (server/offline.py): its listed files only, long cached.
        name, folder = request.path_params["name"], pyodide_dir()
        if name not in PYODIDE_FILES or folder is None:
            return JSONResponse({"error": "no_file", "message": "offline play is not served here"}, status_code=404)
        return FileResponse(folder / name, media_type=PYODIDE_FILES[name], headers={"Cache-Control": "no-cache"})

    async def engine_file(_request: Request) -> Response:
        data = await asyncio.to_thread(engine_zip)  # zipped once, never on the event loop
        return Response(data, media_type="application/zip", headers={"Cache-Control": "no-cache"})

    async def manifest(_request: Request) -> Response:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    async def websocket_endpoint(websocket: WebSocket) -> None:
        client = client_key(websocket.client.host if websocket.client else "unknown")
        if hub.connections >= config.max_connections or not hub.ready or by_client[client] >= config.client_connections:
            await websocket.close(1013)  # before the handshake: HTTP 403
            return
        await websocket.accept()
        hub.connections += 1
        by_client[client] += 1
        peer = WsPeer(websocket, config, hub.metrics)
        peer.client = client
        no_hello = asyncio.get_running_loop().call_later(config.hello_timeout, _no_hello, peer, config.hello_timeout)
        try:
            await _serve(hub, peer, misses)
        finally:
            no_hello.cancel()
            hub.connections -= 1
            by_client[client] -= 1
            if by_client[client] <= 0:
                del by_client[client]
            hub.local_peers.pop(peer.conn_id, None)
            if peer.room is not None:
                peer.room.submit(Gone(peer))
            peer.close("gone")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(peer.sender, 5)

    routes = [
        Route("/api/health", health),
        Route("/api/live", live),
        Route("/api/ready", ready),
        Route("/metrics", metrics),
        Route("/api/admin/rooms", admin_rooms),
        Route("/api/admin/rooms/{code}/close", admin_close, methods=["POST"]),
        Route("/api/admin/records", admin_records),
        Route("/api/admin/tables/{name}", admin_tables),
        Route("/api/admin/prune", admin_prune, methods=["POST"]),
        Route("/api/admin/reports", admin_reports),
        Route("/api/admin/bans", admin_bans, methods=["GET", "POST"]),
        Route("/api/admin/bans/{number}/lift", admin_lift, methods=["POST"]),
        Route("/api/variants", variants),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/lobby", lobby),
        Route("/api/play-now", play_now, methods=["POST"]),
        Route("/api/my-games", my_games, methods=["POST"]),
        Route("/api/my-games/forget", forget, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/records", record_list),
        Route("/api/rooms/{code}/records/{number}", record_file),
        *web_routes(hub.store.record),
        *realtable_routes(),
        *(route for feature in hub.features for route in feature.routes()),
        *(route for feature in features.FEATURES if feature not in running and feature.off for route in feature.off()),
        WebSocketRoute("/ws", websocket_endpoint),
        Route("/", index),
        Route("/r/{code}", index),
        Route("/sw.js", service_worker),
        Route("/manifest.webmanifest", manifest),
        Route("/offline/pyodide/{name}", pyodide_file),
        Route("/offline/unokit.zip", engine_file),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    by_client: Counter[str] = Counter()  # open websockets per client address
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


def _trusted_caller(request: Request, token: str | None) -> bool:
    """A request from this machine (its client, as the edge resolved it through any trusted
    proxy, is a loopback address), or one that carries the admin token (``Authorization:
    Bearer TOKEN``)."""
    given = request.headers.get("authorization", "")
    if token is not None and given.startswith("Bearer ") and secrets.compare_digest(given[7:].strip(), token):
        return True
    return request.client is not None and is_loopback(request.client.host)


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


def ban_fields(body: dict[str, Any]) -> tuple[str, str, float | None, str | None]:
    """A ban asked for in ``body`` (``kind``: ``identity`` or ``address``; ``value``: an
    identity, its hash, or an address or network; ``hours``: how long, none for good;
    ``reason``) as stored: (kind, value, until, reason). Raise :class:`RoomError` ``bad_request``."""
    unknown = set(body) - {"kind", "value", "hours", "reason"}
    if unknown:
        raise RoomError("bad_request", f"unknown field(s) {', '.join(sorted(unknown))}")
    kind, value, hours, reason = body.get("kind"), body.get("value"), body.get("hours"), body.get("reason")
    if not isinstance(value, str) or not value.strip():
        raise RoomError("bad_request", "'value' is the identity or the address to ban")
    value = value.strip()
    if kind == "identity":
        hashed = len(value) == 64 and all(ch in "0123456789abcdef" for ch in value)  # as a report shows it
        stored = value if hashed else identity_hash(value)
    elif kind == "address":
        try:
            stored = str(ip_network_of(value))
        except ValueError:
            raise RoomError("bad_request", f"{value[:60]!r} is not an IP address or network") from None
    else:
        raise RoomError("bad_request", "'kind' is identity or address")
    if hours is not None and (isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 1e6):
        raise RoomError("bad_request", "'hours' is how many hours the ban lasts (leave it out: for good)")
    if reason is not None and (not isinstance(reason, str) or len(reason) > 200):
        raise RoomError("bad_request", "'reason' is a short text")
    return kind, stored, None if hours is None else time.time() + float(hours) * 3600, reason


def _engine_warmed(task: asyncio.Task[float]) -> None:
    if task.cancelled():
        return
    if (failure := task.exception()) is not None:
        log.error("the compiled engine could not be warmed: %s", failure)
        return
    if task.result():
        log.info("the compiled engine is ready (%.1f s)", task.result())


def _no_hello(peer: WsPeer, seconds: float) -> None:
    """``--hello-timeout`` ran out: a connection that is in no room is closed (4008)."""
    if peer.room is None or peer.conn_id not in peer.room.admitted:
        peer.deliver(error("no_hello", f"no 'hello' within {seconds:g} s: closing the connection"))
        peer.close("no hello", NO_HELLO)


async def _serve(hub: Hub, peer: WsPeer, misses: Buckets) -> None:
    """Read one client's messages until it leaves: every message is checked here (size, JSON,
    rate, type) before the room sees it."""
    websocket = peer.websocket
    while True:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        raw = frame.get("text")
        if raw is None:
            raw = frame.get("bytes") or b""
        if peer.closing or websocket.application_state != WebSocketState.CONNECTED:
            return
        try:
            message, typed = read_message(raw)
        except MessageError as exc:
            _strike(peer, exc.code, exc.message, exc.reply_to)
            continue
        if not peer.rate.allow():
            _strike(peer, "rate_limited", "too many messages: slow down", message.get("id"))
            continue
        kind = message["type"]
        if kind == "ping":
            peer.deliver(Pong(reply_to=message.get("id")).to_json())
        elif kind == "hello":
            await _hello(hub, peer, message, misses)
        elif peer.room is None:
            _strike(peer, "not_joined", "say 'hello' to a room first", message.get("id"))
        else:
            peer.room.submit(Said(peer, message, typed))


async def _hello(hub: Hub, peer: WsPeer, message: dict[str, Any], misses: Buckets) -> None:
    if peer.room is not None and peer.conn_id in peer.room.admitted:
        peer.deliver(error("bad_message", "this connection is already in a room", message.get("id")))
        return
    protocol = message.get("protocol", PROTOCOL)
    if protocol != PROTOCOL:
        peer.deliver(error("bad_protocol", f"this server speaks {PROTOCOL}, not {protocol[:40]!r}", message.get("id")))
        return
    if misses.spent(peer.client):
        peer.deliver(error("rate_limited", "too many room codes that do not exist: wait a while", message.get("id")))
        return
    code = message["room"].upper()
    with contextlib.suppress(RoomError):  # a bad identity is refused by the room, with its reason
        peer.player = identity_hash(message["player"]) if "player" in message else None
    peer.redirects = bool(message.get("redirects"))
    peer.unreachable = message.get("unreachable")
    room = None
    if code and all(ch in CODE_ALPHABET for ch in code) and len(code) <= 16:
        room = await hub.locate(code, redirects=peer.redirects, unreachable=peer.unreachable)
    if isinstance(room, str):  # another process owns the room: the client goes there
        send_to_owner(peer, code, room, message.get("id"))
        return
    if room is None:
        misses.allow(peer.client)
        peer.deliver(error("no_room", f"there is no open room {message['room'][:40]!r}", message.get("id")))
        return
    # Counted here, as hellos arrive, not once the room has answered them: a burst of hellos
    # cannot slip in while the room's queue is still working through the first ones.
    if len(room.admitted) >= hub.config.room_connections:
        peer.deliver(error("room_crowded", "this room has too many connections", message.get("id")))
        peer.close("crowded")
        return
    room.admitted.add(peer.conn_id)
    peer.room = room
    hub.local_peers[peer.conn_id] = peer
    room.submit(Arrived(peer, message))


def _strike(peer: WsPeer, code: str, message: str, reply_to: str | int | None = None) -> None:
    peer.strikes += 1
    if peer.strikes > STRIKES_LIMIT:
        peer.deliver(error("too_many_errors", "too many refused messages: closing the connection"))
        peer.close("strikes")
        return
    peer.deliver(error(code, message, reply_to))


__all__ = ["HARD_MAX_BYTES", "create_app"]
