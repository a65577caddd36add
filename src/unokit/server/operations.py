"""The server's operations over HTTP (``docs/server.md``, "Running it on the internet"): liveness,
readiness and health, the metrics, and ``/api/admin`` (rooms, records, exported tables,
retention, reports and bans) for ``unokit admin --server`` and the host's own tools."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .. import __version__
from . import PROTOCOL, upkeep
from .edge import is_loopback
from .metrics import CONTENT_TYPE as METRICS_TYPE
from .protocol import encode
from .room import RoomError
from .webapi import admin_refusal, answer, body_of, problem, refusal, room_code

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("unokit.server")

#: How long readiness waits for the database to answer.
READY_SECONDS = 2.0


def _trusted_caller(request: Request, token: str | None) -> bool:
    """A request from this machine (its client, as the edge resolved it through any trusted
    proxy, is a loopback address), or one that carries the admin token (``Authorization:
    Bearer TOKEN``)."""
    given = request.headers.get("authorization", "")
    if token is not None and given.startswith("Bearer ") and secrets.compare_digest(given[7:].strip(), token):
        return True
    return request.client is not None and is_loopback(request.client.host)


def operation_routes(hub: Hub) -> list[BaseRoute]:
    """The routes of operations, over ``hub``."""
    config = hub.config

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

    return [
        Route("/api/health", health),
        Route("/api/live", live),
        Route("/api/ready", ready),
        Route("/metrics", metrics),
        Route("/api/admin/rooms", admin_rooms),
        Route("/api/admin/rooms/{code}/close", admin_close, methods=["POST"]),
        Route("/api/admin/records", admin_records),
        Route("/api/admin/tables/{name}", admin_tables),
        Route("/api/admin/prune", admin_prune, methods=["POST"]),
    ]


__all__ = ["operation_routes"]
