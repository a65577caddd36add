"""What the server allows a client address or identity (``docs/server.md``, "Moderation for
public rooms"): chat and report rates across every room, the bans in force (read from the
database every :data:`BANS_EVERY` seconds, so that a ban made on the database or at another
process takes effect everywhere), keeping a report, and how many public rooms an address may
list. One :class:`Moderation` a process, held by its hub."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from .chat import SPECTATORS_SHARE
from .edge import Buckets, ip_network_of
from .messages import error
from .protocol import RateLimit
from .room import RoomError

if TYPE_CHECKING:
    from .authority import Room
    from .config import ServerConfig
    from .metrics import Metrics
    from .peers import Peer
    from .storage import Store

log = logging.getLogger("unokit.server")

#: Seconds between two readings of the bans (``unokit admin ban`` on the database, or on
#: another process of a cluster, takes effect within this long).
BANS_EVERY = 5.0
#: Reports one client address may make a minute, and at once.
REPORT_RATE, REPORT_BURST = 5.0, 10.0


class Moderation:
    """Rates, bans and reports for the rooms of one process; ``peers()`` are its clients (a
    banned one in a public room is closed as the bans are read)."""

    def __init__(
        self, config: ServerConfig, store: Store, metrics: Metrics, peers: Callable[[], Iterable[Peer]]
    ) -> None:
        self.config = config
        self.store = store
        self.metrics = metrics
        self.peers = peers
        #: Chat per client address across every room, and reports per address.
        self._chat_by_address = Buckets(config.chat_rate * SPECTATORS_SHARE, config.chat_burst * 2)
        self._reports = Buckets(REPORT_RATE / 60, REPORT_BURST)
        #: The bans in force, as read at the last :meth:`refresh_bans`: identity hashes, networks.
        self.banned_identities: dict[str, float | None] = {}
        self.banned_networks: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, float | None]] = []

    def chat_limit(self, share: float = 1.0) -> RateLimit:
        return RateLimit(self.config.chat_rate * share, self.config.chat_burst * share)

    def chat_allowed(self, client: str) -> bool:
        return self._chat_by_address.allow(client)

    def report_allowed(self, client: str) -> bool:
        return self._reports.allow(client)

    async def keep_report(self, report: dict[str, Any]) -> None:
        try:
            await asyncio.to_thread(functools.partial(self.store.moderation.add_report, **report))
        except SQLAlchemyError as exc:
            raise RoomError("unavailable", "the report could not be kept; try again") from exc
        self.metrics.reports.inc()
        log.info("room %s: a player reported a %s", report["room"], report["kind"], extra={"room": report["room"]})

    async def may_list(self, room: Room) -> bool:
        if room.creator is None:
            return True
        return await asyncio.to_thread(self.store.public_rooms_of, room.creator) < self.config.public_rooms

    def banned(self, client: str, player: str | None) -> bool:
        """Whether the address ``client`` or the identity (hash) ``player`` is banned now."""
        now = time.time()
        if player is not None:
            until = self.banned_identities.get(player, 0.0)
            if until is None or until > now:
                return True
        if not self.banned_networks:
            return False
        try:
            address = ip_network_of(client)
        except ValueError:
            return False
        return any(
            (until is None or until > now) and address.version == network.version and address.overlaps(network)
            for network, until in self.banned_networks
        )

    async def refresh_bans(self) -> None:
        """Read the bans in force, and end the connections of banned people in public rooms
        (their seats stay; a stand-in plays them, as for anyone who left)."""
        found = await asyncio.to_thread(self.store.moderation.bans_list, time.time())
        identities: dict[str, float | None] = {}
        networks = []
        for ban in found:
            if ban["kind"] == "identity":
                identities[ban["value"]] = ban["until"]
            else:
                with contextlib.suppress(ValueError):
                    networks.append((ip_network_of(ban["value"]), ban["until"]))
        self.banned_identities, self.banned_networks = identities, networks
        for peer in list(self.peers()):
            room = getattr(peer, "room", None)
            if room is not None and room.state.public_room and self.banned(peer.client, peer.player):
                peer.deliver(error("banned", "you are banned from this server's public rooms"))
                peer.close("banned")


__all__ = ["BANS_EVERY", "Moderation"]
