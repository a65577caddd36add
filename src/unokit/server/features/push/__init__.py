"""Web Push (``docs/push.md``): a player whose page is closed is told it is their turn, that a
game they wait for started or ended, that their deals of the day are ready. Its key pair and
subscriptions are :mod:`.keys`'; the threads that send, :mod:`.send`; who is told what as the
rooms commit, :mod:`.notices`. ``unokit serve --without push`` (or ``--no-push``) turns it off."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...peers import identity_hash
from ...room import RoomError
from ...seam import Feature, FeatureContext, FeatureServer, StoreHooks
from ...webapi import admin_refusal, answer, body_of, client_of, limited, problem, refusal, unknown_fields
from ..daily.cli import DailySettings
from ..daily.deals import TELL_WITHIN, claim_telling, day_of, day_start, featured
from . import cli
from .keys import (
    DEFAULT_KINDS,
    KINDS,
    PushServices,
    check_subscription,
    current_key,
    ensure_key,
    push_subscriptions,
    registry_keys,
    remove_subscription,
    rotate_key,
    save_subscription,
    subscribers,
)
from .notices import Notices
from .send import Notice, Sender

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ...authority import Room

log = logging.getLogger("unokit.server")

#: Seconds the deal of the day's messages wait for room in the push queue, each (a big server
#: feeds them to the senders as they send, rather than dropping them).
DAILY_QUEUE_WAIT = 30.0


def _forget_player(c: Connection, player: str) -> None:
    c.execute(delete(push_subscriptions).where(push_subscriptions.c.player == player))


def _forget_stale(c: Connection, stale: Any) -> None:
    c.execute(delete(push_subscriptions).where(push_subscriptions.c.player.in_(stale)))


class PushServer(FeatureServer):
    """Where messages may go, the threads that send them, and who is told what."""

    def __init__(self, context: FeatureContext) -> None:
        super().__init__(context)
        settings = context.config.settings_of("push", cli.PushSettings)
        self.services = PushServices(settings.services)
        self.sender = Sender(
            context.store, self.services, settings.contact_for(context.config.public_url), context.metrics.pushed
        )
        self.notices = Notices(self.sender.submit, settings.away)
        self._told_day: dt.date | None = None  # the last day whose deals this process told or passed

    async def start(self) -> None:
        await asyncio.to_thread(ensure_key, self.context.store)  # the first start makes the key pair
        self.sender.start()

    async def stop(self) -> None:
        await asyncio.to_thread(self.sender.stop)

    def gauges(self) -> dict[str, float]:
        return {"push_queue": self.sender.waiting()}

    async def sweep(self, now: float) -> None:
        """A new day of the deal of the day began (``--daily-rollover``) less than
        :data:`~..daily.deals.TELL_WITHIN` ago: if this process is the cluster's one to tell it
        (:func:`~..daily.deals.claim_telling`), queue "your deals are ready" for every identity
        subscribed to that kind, once each (with the deal of the day turned off, never)."""
        if "daily" not in self.context.running:
            return
        daily = self.context.config.settings_of("daily", DailySettings)
        day = day_of(now, daily.rollover_hours)
        if day == self._told_day:
            return
        if now - day_start(day, daily.rollover_hours) > TELL_WITHIN:
            self._told_day = day
            return
        deals = tuple(featured(day, daily.deals))
        sender, store = self.sender, self.context.store

        def tell() -> None:
            if not claim_telling(store, day, now):
                return
            key = current_key(store)
            for player in subscribers(store, "daily", key.id) if key is not None else []:
                sender.submit(Notice(player, "daily", day.isoformat(), "", deals=deals), wait=DAILY_QUEUE_WAIT)

        await asyncio.to_thread(tell)
        self._told_day = day  # (a failure above is tried again at the next sweep)

    def told(self, room: Room, entries: list[dict[str, Any]]) -> None:
        self.notices.committed(room, entries)

    def looked(self, room: Room) -> None:
        self.notices.looked(room)

    def routes(self) -> list[BaseRoute]:
        store = self.context.store
        requests = self.context.limits.own("push")  # posted and withdrawn subscriptions

        async def info(_request: Request) -> Response:
            """Whether this server sends notifications, the key pages subscribe with, and the kinds."""
            key = await asyncio.to_thread(self.sender.keys.get)
            return answer(
                {
                    "enabled": key is not None,
                    "key": key.public_key if key else None,
                    "kinds": list(KINDS),
                    "defaults": list(DEFAULT_KINDS),
                }
            )

        async def identified(request: Request, fields: set[str]) -> tuple[str, dict[str, Any]] | Response:
            """A push request's identity (hash) and body, or its refusal."""
            client = client_of(request)
            if not await requests.allow(client):
                return await limited(requests, client, "notification requests")
            try:
                body = await body_of(request)
                unknown_fields(body, fields)
                return identity_hash(body.get("player")), body
            except RoomError as exc:
                return refusal(exc, 400)

        async def subscribe(request: Request) -> Response:
            """Keep the browser's subscription for the identity (again: its language and kinds)."""
            found = await identified(request, {"player", "subscription", "lang", "kinds"})
            if isinstance(found, Response):
                return found
            player, body = found
            try:
                subscription = check_subscription(body, self.services)
                key = await asyncio.to_thread(self.sender.keys.get)
                if key is None:
                    raise RoomError("push_off", "this server has no key to sign notifications with yet")
                await asyncio.to_thread(save_subscription, store, player, subscription, key.id)
            except RoomError as exc:
                return refusal(exc)
            kinds = [kind for kind in KINDS if kind in subscription.kinds]
            return answer({"subscribed": True, "key": key.public_key, "lang": subscription.lang, "kinds": kinds})

        async def unsubscribe(request: Request) -> Response:
            """Delete the identity's subscription at ``endpoint`` (only its own)."""
            found = await identified(request, {"player", "endpoint"})
            if isinstance(found, Response):
                return found
            player, body = found
            endpoint = body.get("endpoint")
            if not isinstance(endpoint, str) or len(endpoint) > 4096:
                return problem("bad_subscription", "'endpoint' is the subscription's address", 400)
            return answer({"removed": await asyncio.to_thread(remove_subscription, store, player, endpoint)})

        async def admin_key(request: Request) -> Response:
            """``GET``: the public key in use and when it was made; ``POST``: a new key pair."""
            refused = admin_refusal(request, self.context.config.admin_token)
            if refused is not None:
                return refused
            if request.method == "POST":
                key, dropped = await asyncio.to_thread(rotate_key, store)
                self.sender.keys.forget()
                log.info("push: a new key pair; %d subscriptions of the old one deleted", dropped)
                return answer({"key": key.public_key, "created_at": key.created_at, "dropped": dropped})
            kept = await asyncio.to_thread(current_key, store)
            if kept is None:
                return problem("push_off", "this server has made no key pair yet", 404)
            return answer({"key": kept.public_key, "created_at": kept.created_at})

        return [
            Route("/api/push", info),
            Route("/api/push/subscribe", subscribe, methods=["POST"]),
            Route("/api/push/unsubscribe", unsubscribe, methods=["POST"]),
            Route("/api/admin/push-key", admin_key, methods=["GET", "POST"]),
        ]


def _off_routes() -> list[BaseRoute]:
    """A server without push says so: no key, no kinds, and subscriptions refused."""

    async def info(_request: Request) -> Response:
        return answer({"enabled": False, "key": None, "kinds": [], "defaults": []})

    async def refused(_request: Request) -> Response:
        return problem("push_off", "this server sends no notifications (unokit serve --without push)", 403)

    return [
        Route("/api/push", info),
        Route("/api/push/subscribe", refused, methods=["POST"]),
        Route("/api/push/unsubscribe", refused, methods=["POST"]),
    ]


FEATURE = Feature(
    name="push",
    summary="notifications to players whose page is closed (Web Push)",
    store=StoreHooks(forget_player=_forget_player, forget_stale=_forget_stale),
    server=PushServer,
    off=_off_routes,
    catalogue_keys=registry_keys,
    commands=cli.COMMANDS,
)

__all__ = ["FEATURE", "PushServer"]
