"""The public bot ladder (``docs/research.md``, "The bot ladder"): bots sit at seeded, rated
one-hand tables of a variant and size and climb standings of their own. Accounts, tables and
their ratings are :mod:`.bots`'; the ``unokit ladder`` command is :mod:`.cli`'s. A table is
marked ``ladder`` in its stored spec, and its seeds are the server's secret's and the room's."""

from __future__ import annotations

import asyncio
import hmac
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...peers import identity_hash
from ...protocol import websocket_url
from ...room import LOBBY, RoomError, RoomSpec
from ...seam import Feature, FeatureContext, FeatureServer, StoreHooks
from ...vault import secret
from ...webapi import answer, base_url, body_of, client_of, limited, refusal, unknown_fields
from ...work import off_loop
from ..daily.deals import DealSeeds
from ..ratings import api as ratings_api
from . import cli
from .bots import LADDER_OPTIONS, LADDER_SETTINGS, SECRET_NAME, bot_token, check_bot, record_written, standings

if TYPE_CHECKING:
    from ...authority import Room


#: The "day" of a ladder table's seeds (:class:`~..daily.deals.DealSeeds`), which no day of
#: the deal of the day is (those are dates).
LADDER_DAY = "ladder"


class LadderServer(FeatureServer):
    """Tables for the bots that ask for one, the ladder's standings, the tables' seeds."""

    def __init__(self, context: FeatureContext) -> None:
        super().__init__(context)
        self._secret: bytes | None = None  # read at the first ladder request
        #: The table of this process filling for each (variant, players): its code.
        self.filling: dict[tuple[str, int], str] = {}

    async def secret(self) -> bytes:
        """The server's ladder secret (bot tokens, table seeds)."""
        if self._secret is None:
            self._secret = await asyncio.to_thread(secret, self.context.store, SECRET_NAME)
        return self._secret

    async def loaded(self, room: Room, spec: dict[str, Any]) -> None:
        if "ladder" in spec:
            room.seeds = DealSeeds(await self.secret(), LADDER_DAY, room.code)

    def admit(self, room: Room, name: str, player: str | None) -> None:
        """Only a ladder bot sits at a ladder table: its hello's identity is the token of the
        name it sits under (``bad_token`` else), whoever knows the table's code."""
        seeds = room.seeds  # a ladder table's (set as it loads, from the secret read then)
        if not (isinstance(seeds, DealSeeds) and seeds.day == LADDER_DAY) or self._secret is None:
            return
        if player is None or not hmac.compare_digest(player, identity_hash(bot_token(self._secret, name))):
            raise RoomError("bad_token", "a ladder table seats ladder bots only, each with its own token")

    async def table(self, body: dict[str, Any], where: str, client: str) -> dict[str, Any]:
        """``POST /api/ladder/join``: the table of ``variant`` at ``players`` seats that the bot
        ``name`` (proved by its ``token``) should sit at: the one of this process still filling
        for that setting (in its lobby, with a seat nobody sits in), or a new one when the
        address may make another room (else :class:`RoomError` ``rate_limited``). The bot then
        sits with ``hello`` (its token as ``player``, its name as ``name``). A seat is the bot's
        once it sits, not when it asks: a bot that asks and never sits holds none, and one that
        asks twice is sent to the same table; a bot sent to a table that others filled first is
        refused ``room_full`` at its hello and asks again (``ladder_play`` does)."""
        unknown_fields(body, {"name", "token", "variant", "players"})
        name = check_bot(await self.secret(), body.get("name"), body.get("token"))
        rooms = self.context.rooms
        if rooms.banned(client, None):
            raise RoomError("banned", "you are banned from this server's public rooms")
        spec = await off_loop(
            RoomSpec.build,
            body.get("variant", "classic"),
            body.get("players", 2),
            LADDER_OPTIONS,
            LADDER_SETTINGS,
            False,
            hosted=False,
        )
        key = (spec.variant, spec.players)
        async with rooms.seating_lock:
            code = self.filling.get(key)
            room = await rooms.room(code) if code is not None else None  # loaded at its first hello, or now
            if code is None or room is None or room.state.phase != LOBBY or room.state.open_seats() == 0:
                if not await self.context.limits.rooms_made.allow(client):
                    raise RoomError("rate_limited", "too many new rooms from your address")
                made = await rooms.open_room(spec, where, client=client, marks={"ladder": {"setting": list(key)}})
                code = self.filling[key] = made["room"]
        return self._sit_at(code, where, name)

    @staticmethod
    def _sit_at(code: str, where: str, name: str) -> dict[str, Any]:
        return {"room": code, "link": f"{where}/r/{code}", "websocket": websocket_url(where), "name": name}

    def routes(self) -> list[BaseRoute]:
        context, rooms_made = self.context, self.context.limits.rooms_made

        async def join(request: Request) -> Response:
            client = client_of(request)
            try:
                return answer(await self.table(await body_of(request), base_url(request), client))
            except RoomError as exc:
                if exc.code == "rate_limited":  # a new table would be one new room too many
                    return await limited(rooms_made, client, "new rooms")
                return refusal(exc)

        async def board(request: Request) -> Response:
            try:
                return answer(await ratings_api.board(context, dict(request.query_params), standings))
            except RoomError as exc:
                return refusal(exc)

        return [Route("/api/ladder", board), Route("/api/ladder/join", join, methods=["POST"])]


FEATURE = Feature(
    name="ladder",
    summary="the public bot ladder: rated tables for bots and their standings",
    store=StoreHooks(game_written=record_written),
    server=LadderServer,
    needs=("ratings",),
    commands=cli.COMMANDS,
)

__all__ = ["FEATURE", "LadderServer"]
