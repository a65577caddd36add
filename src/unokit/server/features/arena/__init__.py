"""Arenas (``docs/arena.md``): timed events in which whoever joins is seated at a table as soon as
enough players are free (bots of the arena's level fill a table after its wait), plays one hand,
scores by finishing place with a streak bonus, and is seated again. The rules are :mod:`.rules`'
(pure); the rows and what changes them :mod:`.rows`'; the ``unokit admin arena`` commands
:mod:`.cli`'s. A table is a private room nobody hosts, marked ``arena`` in its stored spec with
the arena and the players it was made for: only they sit at it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...peers import identity_hash
from ...room import LOBBY, RoomError, RoomSpec, check_name
from ...seam import Feature, FeatureContext, FeatureServer, StoreHooks
from ...vault import address_mark, secret
from ...webapi import admin_refusal, answer, base_url, body_of, client_of, limited, refusal, unknown_fields
from ...work import off_loop
from . import cli, rows
from .rules import pair

if TYPE_CHECKING:
    from ...authority import Room

#: The name of the server's secret the address marks of arena players are made under.
SECRET_NAME = "arena"
#: How long a table waits for its players to sit once one has (then bots take the open seats,
#: and who never sat loses), in seconds.
FILL_SECONDS = 30.0
#: A table nobody sat at is given up this long after it was seated, in seconds.
NO_SHOW_SECONDS = FILL_SECONDS + 60.0


class ArenaServer(FeatureServer):
    """The arenas' routes, the seating of free players at each sweep, and who sits at a table."""

    def __init__(self, context: FeatureContext) -> None:
        super().__init__(context)
        #: The time the routes go by (a test passes its own, as it passes ``sweep`` its ``now``).
        self.clock: Callable[[], float] = time.time
        #: The identities each loaded arena table was made for, by room code.
        self.tables: dict[str, frozenset[str]] = {}
        #: The room settings of every table beside its fill wait and stand-in (the room's own
        #: defaults when empty: a test passes quicker turns).
        self.settings: dict[str, Any] = {}
        self._secret: bytes | None = None

    async def start(self) -> None:
        self._secret = await asyncio.to_thread(secret, self.context.store, SECRET_NAME)

    async def loaded(self, room: Room, spec: dict[str, Any]) -> None:
        mark = spec.get("arena")
        if isinstance(mark, dict):
            self.tables[room.code] = frozenset(str(p) for p in mark.get("players", []))

    def admit(self, room: Room, name: str, player: str | None) -> None:
        """Only the players a table was made for sit at it (``not_your_table``)."""
        meant = self.tables.get(room.code)
        if meant is not None and player not in meant:
            raise RoomError("not_your_table", "this arena table was set for other players")

    async def sweep(self, now: float) -> None:
        """Seat the free players of every running arena (:func:`.rules.pair`), and give up the
        tables nobody sat at (their players are withdrawn)."""
        store = self.context.store
        for arena in await asyncio.to_thread(rows.listed, store, now):
            if arena.status(now) != "running":
                continue
            free = await asyncio.to_thread(rows.free_players, store, arena)
            for table in pair(free, arena.players, now, arena.bot_wait):
                await self._open(arena, table.players, table.bots, now)
        for ident, code in await asyncio.to_thread(rows.stuck, store, now - NO_SHOW_SECONDS):
            room = await self.context.rooms.room(code)
            if room is None or (room.state.phase == LOBBY and not any(s.kind == "human" for s in room.state.seats)):
                await asyncio.to_thread(rows.withdraw_table, store, ident, code)

    async def _open(self, arena: rows.Arena, players: tuple[str, ...], bots: int, now: float) -> None:
        settings = {**self.settings, "fill_seconds": FILL_SECONDS, "standin_bot": arena.bot_level}
        spec = await off_loop(
            RoomSpec.build, arena.variant, arena.players, {"rounds": 1}, settings, False, hosted=False
        )
        marks = {"arena": {"id": arena.id, "players": list(players)}}
        base = self.context.config.public_url or ""
        made = await self.context.rooms.open_room(spec, base, bots=[arena.bot_level] * bots, marks=marks)
        await asyncio.to_thread(rows.seat, self.context.store, arena, players, made["room"], now)

    def _mark(self, client: str) -> str:
        assert self._secret is not None, "the arena's secret is read at start"
        return address_mark(self._secret, client)

    async def join(self, ident: str, body: dict[str, Any], client: str, where: str) -> dict[str, Any]:
        """``POST /api/arenas/{id}/join {player, name}``: join (or come back), then :meth:`mine`."""
        unknown_fields(body, {"player", "name"})
        player, name = identity_hash(body.get("player")), check_name(body.get("name"))
        if self.context.rooms.banned(client, player):
            raise RoomError("banned", "you are banned from this server's public rooms")
        store, now = self.context.store, self.clock()
        await asyncio.to_thread(rows.join, store, ident, player, name, self._mark(client), now)
        return await self._mine(ident, player, where)

    async def mine(self, ident: str, body: dict[str, Any], where: str) -> dict[str, Any]:
        """``POST /api/arenas/{id}/mine {player}``: :func:`.rows.mine`, with the ``link`` of
        the player's table."""
        unknown_fields(body, {"player"})
        return await self._mine(ident, identity_hash(body.get("player")), where)

    async def _mine(self, ident: str, player: str, where: str) -> dict[str, Any]:
        found = await asyncio.to_thread(rows.mine, self.context.store, ident, player, self.clock())
        if found.get("room"):
            found["link"] = f"{where}/r/{found['room']}"
        return found

    def routes(self) -> list[BaseRoute]:
        store, token, lookups = (
            self.context.store,
            self.context.config.admin_token,
            self.context.limits.identity_lookups,
        )

        def arena_of(request: Request) -> str:
            return rows.check_id(request.path_params["arena"])

        async def listing(request: Request) -> Response:
            client = client_of(request)
            if not await lookups.allow(client):
                return await limited(lookups, client, "requests for the arenas")
            return answer({"arenas": await asyncio.to_thread(rows.listed_json, store, self.clock())})

        async def one(request: Request) -> Response:
            client = client_of(request)
            if not await lookups.allow(client):
                return await limited(lookups, client, "requests for an arena's standings")
            try:
                return answer(await asyncio.to_thread(rows.standings_json, store, arena_of(request), self.clock()))
            except RoomError as exc:
                return refusal(exc)

        async def player_call(request: Request) -> Response:
            client = client_of(request)
            if not await lookups.allow(client):
                return await limited(lookups, client, "requests for a player's arenas")
            try:
                ident, body, where = arena_of(request), await body_of(request), base_url(request)
                if request.url.path.endswith("/join"):
                    return answer(await self.join(ident, body, client, where))
                return answer(await self.mine(ident, body, where))
            except RoomError as exc:
                return refusal(exc)

        async def admin_arenas(request: Request) -> Response:
            """``GET /api/admin/arenas`` (every arena, the cancelled too) and ``POST`` (schedule
            one: :func:`.rows.new_arena`), with the admin token."""
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            now = self.clock()
            if request.method == "GET":
                return answer({"arenas": await asyncio.to_thread(rows.listed_json, store, now, every=True)})
            try:
                arena = rows.new_arena(await body_of(request), now)
            except RoomError as exc:
                return refusal(exc)
            return answer((await asyncio.to_thread(rows.create, store, arena)).to_json(now), 201)

        async def admin_cancel(request: Request) -> Response:
            """``POST /api/admin/arenas/{id}/cancel`` (admin token)."""
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            try:
                now = self.clock()
                return answer((await asyncio.to_thread(rows.cancel, store, arena_of(request), now)).to_json(now))
            except RoomError as exc:
                return refusal(exc)

        return [
            Route("/api/arenas", listing),
            Route("/api/arenas/{arena}", one),
            Route("/api/arenas/{arena}/join", player_call, methods=["POST"]),
            Route("/api/arenas/{arena}/mine", player_call, methods=["POST"]),
            Route("/api/admin/arenas", admin_arenas, methods=["GET", "POST"]),
            Route("/api/admin/arenas/{arena}/cancel", admin_cancel, methods=["POST"]),
        ]


FEATURE = Feature(
    name="arena",
    summary="arenas: timed events that seat players as they are free, with standings",
    store=StoreHooks(
        game_written=rows.game_written,
        forget_player=rows.forget_player,
        forget_stale=rows.forget_stale,
        exported=(rows.arenas, rows.arena_players, rows.arena_games),
    ),
    server=ArenaServer,
    commands=cli.COMMANDS,
)

__all__ = ["FEATURE", "ArenaServer"]
