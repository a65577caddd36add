"""The feature ``moderation`` (``docs/server.md``, "Moderation for public rooms"): players'
reports, and the bans that keep an identity or an address out of public rooms and every chat.

A player reports a chat line, a name or a player's conduct (:class:`~...messages.Report`): the
report keeps the room, the identities (hashes) of who reported and who was reported, the name
and the chat lines around it, and nothing else; an address may make :data:`REPORT_BURST` at
once and :data:`REPORT_RATE` a minute. The server's host reads them with ``unokit admin
reports`` and bans with ``unokit admin ban``: every process reads the bans every
:data:`BANS_EVERY` seconds (a ban made on the database, or at another process, takes effect
everywhere within that long, and at once at the process that made it), and ends the connections
of the banned in public rooms (their seats stay; a stand-in plays them, as for anyone who left).
The core asks :meth:`~..seam.FeatureServer.bars` before it seats anyone at a public table, opens
a public room or takes a chat line.

Without it (``--without moderation``) nobody is banned and a ``report`` is refused
(``no_reports``); the reports and bans already kept stay, and are pruned as before. The chat's
rates and the public rooms an address may open are the core's (they share the CPU), not this.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ... import messages
from ...chat import REPORTS
from ...messages import error
from ...room import RoomError, sender
from ...seam import Feature, FeatureContext, FeatureServer, Periodic, RoomMessage, StoreHooks
from ...webapi import admin_refusal, answer, body_of, problem, refusal
from . import cli, rows
from .rules import BansInForce, ban_fields

if TYPE_CHECKING:
    from ...authority import Peer, Room
    from ...messages import ClientMessage

log = logging.getLogger("unokit.server")

#: Seconds between two readings of the bans.
BANS_EVERY = 5.0
#: Reports one client address may make a minute, and at once.
REPORT_RATE, REPORT_BURST = 5.0, 10.0
#: The chat fields a report keeps of each line around what it reports.
KEPT_FIELDS = ("n", "seat", "name", "channel", "text", "reaction", "at", "from")


class ModerationServer(FeatureServer):
    """The bans in force at this process, and its clients' reports."""

    def __init__(self, context: FeatureContext) -> None:
        super().__init__(context)
        self.bans = BansInForce()
        self._reports = context.limits.own("reports", (REPORT_RATE / 60, REPORT_BURST))

    async def start(self) -> None:
        await self.read_bans()

    def periodic(self) -> Sequence[Periodic]:
        return (Periodic(BANS_EVERY, self.read_bans, "reading the bans"),)

    def bars(self, client: str, player: str | None) -> bool:
        return self.bans.bars(client, player)

    async def read_bans(self) -> None:
        """Read the bans in force, and end the connections of the banned in public rooms."""
        self.bans.read(await asyncio.to_thread(rows.bans_list, self.context.store, time.time()))
        for peer in list(self.context.rooms.clients()):
            room = getattr(peer, "room", None)
            if room is not None and room.state.public_room and self.bans.bars(peer.client, peer.player):
                peer.deliver(error("banned", "you are banned from this server's public rooms"))
                peer.close("banned")

    def room_messages(self) -> Mapping[type[ClientMessage], RoomMessage]:
        return {messages.Report: self.report}

    async def report(self, room: Room, peer: Peer, msg: messages.Report) -> None:
        """Keep a report of a chat line (``message``: its number), or of a name or a player's
        conduct (``seat``, or ``from``: a spectator's name in the chat)."""
        about = msg.about
        if about not in REPORTS:
            raise RoomError("bad_report", f"'about' is one of {', '.join(REPORTS)}")
        if msg.token is not None:
            room.seating.own_seat(peer, msg.token)
        kept = room.chat.messages
        if about == "chat":
            at = next((i for i, m in enumerate(kept) if m["n"] == msg.message), None)
            if at is None:
                raise RoomError("bad_report", "'message' must be the number of a chat line of this room")
            line = kept[at]
            who, name, lines = line.get("from"), line.get("name"), kept[max(0, at - 5) : at + 6]
        elif msg.seat is not None and 0 <= msg.seat < len(room.state.seats):
            held = room.state.seats[msg.seat]
            if held.kind != "human" or held.token_hash is None:
                raise RoomError("bad_report", f"seat {msg.seat} holds no player")
            who, name, lines = sender(room.code, held.token_hash), held.name, kept[-10:]
        elif msg.sender is not None and msg.sender in room.seating.senders:
            who = msg.sender
            said = [m for m in kept if m.get("from") == who]
            name, lines = (said[-1].get("name") if said else None), kept[-10:]
        else:
            raise RoomError("bad_report", "say whom: 'seat' (a player's) or 'from' (a name in the chat)")
        if not await self._reports.allow(peer.client):
            raise RoomError("rate_limited", "too many reports: wait a while")
        keep = functools.partial(
            rows.add_report,
            self.context.store,
            room=room.code,
            kind=about,
            reporter=peer.player,
            reported=room.seating.senders.get(who) if who else None,
            name=name,
            lines=[{key: m[key] for key in KEPT_FIELDS if key in m} for m in lines],
        )
        try:
            await asyncio.to_thread(keep)
        except SQLAlchemyError as exc:
            raise RoomError("unavailable", "the report could not be kept; try again") from exc
        self.context.metrics.reports.inc()
        log.info("room %s: a player reported a %s", room.code, about, extra={"room": room.code})

    def routes(self) -> list[BaseRoute]:
        store, token = self.context.store, self.context.config.admin_token

        async def admin_reports(request: Request) -> Response:
            """Players' reports, newest first (``room``: of that room only)."""
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            code = request.query_params.get("room")
            room = code.upper() if code and len(code) <= 16 and code.isalnum() else None
            if code is not None and room is None:
                return problem("bad_request", "'room' is a room's code", 400)
            return answer({"reports": await asyncio.to_thread(rows.reports_list, store, 500, room)})

        async def admin_bans(request: Request) -> Response:
            """``GET``: the bans in force; ``POST {kind, value, hours?, reason?}``: a new ban."""
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            if request.method == "GET":
                return answer({"bans": await asyncio.to_thread(rows.bans_list, store, time.time())})
            try:
                kind, value, until, reason = ban_fields(await body_of(request))
            except RoomError as exc:
                return refusal(exc, 400)
            number = await asyncio.to_thread(rows.add_ban, store, kind, value, until, reason)
            await self.read_bans()
            log.info("ban %d: %s %s until %s", number, kind, value[:12], until)
            return answer({"ban": number, "kind": kind, "value": value, "until": until}, 201)

        async def admin_lift(request: Request) -> Response:
            refused = admin_refusal(request, token)
            if refused is not None:
                return refused
            text = str(request.path_params["number"])
            if not (text.isascii() and text.isdigit() and len(text) <= 12) or not await asyncio.to_thread(
                rows.lift_ban, store, int(text)
            ):
                return problem("no_ban", f"there is no ban {text[:20]!r}", 404)
            await self.read_bans()
            return answer({"lifted": int(text)})

        return [
            Route("/api/admin/reports", admin_reports),
            Route("/api/admin/bans", admin_bans, methods=["GET", "POST"]),
            Route("/api/admin/bans/{number}/lift", admin_lift, methods=["POST"]),
        ]


FEATURE = Feature(
    name="moderation",
    summary="players' reports, and bans from public rooms and chat",
    store=StoreHooks(prune_with_rooms=rows.prune_with_rooms),
    server=ModerationServer,
    commands=cli.COMMANDS,
    refusals={messages.Report: ("no_reports", "this server keeps no reports")},
)

__all__ = ["BANS_EVERY", "FEATURE", "REPORT_BURST", "REPORT_RATE", "ModerationServer"]
