"""The process-wide part of the server: configuration, the rooms in memory, leases, the sweeper,
and, with PostgreSQL, the link to the other server processes (:mod:`.cluster`).

With SQLite one process serves every room (a lock file next to the database refuses a second
one). With PostgreSQL several processes share the rooms: each room is owned by one process at a
time through a lease in the ``rooms`` table, renewed every third of ``lease_seconds``, and its
clients are served by that process. A client that says hello to another process is sent to the
owner's own address (a ``redirect``) when it can follow one; otherwise that process *follows*
the room as a replica: it forwards the client's messages to the owner and folds the steps the
owner commits, as the owner announces them on the room's channel. When a lease runs out (its
owner died), the next process to need the room claims it, folds the committed log and runs the
room from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import gc
import ipaddress
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import IO, Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from ..core.actions import Action
from ..core.observation import View
from . import (
    upkeep,
)
from .authority import Room
from .botpool import BotPool
from .chat import SPECTATORS_SHARE
from .cluster import ClusterKind, Link, node_channel, room_channel
from .config import ServerConfig
from .edge import Buckets, ip_network_of, origin_of
from .entries import entry_of
from .items import (
    AdminClose,
    Arrived,
    BecomeOwner,
    CloseIdle,
    RemoteChat,
    RemotePresence,
    RemoteReply,
    Said,
    SeatBots,
    SeatRemote,
    SyncLog,
)
from .messages import Redirect, error
from .metrics import Metrics, count_rooms
from .peers import Peer, RemoteMarker, new_token, token_hash
from .protocol import RateLimit, decode, encode, websocket_url
from .room import CLOSED, DEFAULT_NAMES_LANG, RoomError, RoomSpec, RoomState
from .seam import FeatureServer, StoreHooks
from .storage import Append, Pruned, RoomRow, StorageError, Store, Writer, libpq_url, migrate, sqlalchemy_url
from .webapi import CODE_ALPHABET
from .work import off_loop

log = logging.getLogger("unokit.server")

CODE_LENGTH = 6
#: Seconds between two collections of reference cycles (see :meth:`Hub._sweep`).
COLLECT_EVERY = 60.0
#: Seconds a process waits for the owner of a room to answer a forwarded message.
FORWARD_TIMEOUT = 5.0
#: Seconds of silence from the owner after which a follower tries to take the room over: the
#: claim succeeds only when the owner is gone (no session in the database) or its lease ran out,
#: so trying early costs one query and never takes a live owner's room.
FORWARD_QUIET = 0.5
#: Leases renewed in one call of the writer thread: at 1,000 rooms one statement held the writer
#: 15 to 30 ms (every room's write waited); a chunk holds it about a tenth of that, and writes
#: are committed between chunks.
RENEW_CHUNK = 100
#: The most public rooms a lobby list reads.
LOBBY_LIMIT = 200
#: The rules of a room that "play now" opens: the variant's own, for one hand (a quick game
#: among strangers; a host who wants a game to 500 creates a public room).
PLAY_NOW_OPTIONS = {"rounds": 1}
#: Seconds between two readings of the bans (``unokit admin ban`` on the database, or on
#: another process of a cluster, takes effect within this long).
BANS_EVERY = 5.0
#: Reports one client address may make a minute, and at once.
REPORT_RATE, REPORT_BURST = 5.0, 10.0


class HubOwnership:
    """The hub's state, and the rooms' ownership across processes: claiming a room's lease,
    taking a room over or stepping down, following a room another process owns (forwarding its
    clients' messages, folding what its owner announces) and the cluster's sweep."""

    def __init__(self, config: ServerConfig, hooks: Sequence[StoreHooks] = ()) -> None:
        self.config = config
        self.node = config.node
        self.store = Store(config.database, synchronous=config.sqlite_synchronous, hooks=hooks)
        #: The running part of each feature this server runs (:mod:`.seam`), set by the app.
        self.features: list[FeatureServer] = []
        self.writer: Writer | None = None
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.connections = 0
        self.local_peers: dict[str, Peer] = {}  # conn_id -> peer, for replies to forwarded messages
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._waiting: dict[str, tuple[str, Peer, str | int | None]] = {}  # key -> (room, peer, id) of a forward
        self._tasks: list[asyncio.Task[None]] = []
        self._lock_file: IO[str] | None = None
        self.link: Link | None = None  # with PostgreSQL: the other processes
        self._heard: dict[tuple[str, str], float] = {}  # (room, node) -> when that follower last said so
        self.forwarded = 0  # client messages sent on to another process (health report)
        self.redirected = 0  # clients sent to another process
        #: Held while a public table is chosen or made (:class:`~.seam.Rooms`).
        self.seating_lock = asyncio.Lock()
        self.ready = False
        self.stopping = False
        self._pruned_at = 0.0
        self._collected_at = time.monotonic()
        self.metrics = Metrics()
        self.metrics.watch(self._gauges)
        self.bots = BotPool(config.bot_threads, config.bot_cpu, self.metrics.bot_thinking.observe)
        self.open_connections: Callable[[], int] = lambda: self.connections  # the TCP guard's count, when there is one
        #: The origins of the cluster's processes (``--node-url``), kept by :meth:`refresh_nodes`.
        self.node_origins: set[str] = set()
        self.public_seats = config.public_seats
        #: Chat per client address across every room, and reports per address.
        self._chat_by_address = Buckets(config.chat_rate * SPECTATORS_SHARE, config.chat_burst * 2)
        self._reports = Buckets(REPORT_RATE / 60, REPORT_BURST)
        #: The bans in force, as read at the last :meth:`refresh_bans`: identity hashes, networks.
        self.banned_identities: dict[str, float | None] = {}
        self.banned_networks: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, float | None]] = []

    @property
    def clustered(self) -> bool:
        return self.store.postgres

    async def _claim(self, code: str) -> bool:
        """Take room ``code``'s lease when it is free, run out, or held by a dead process."""
        config = self.config
        return await asyncio.to_thread(
            self.store.claim, code, self.node, config.own_url, config.lease_seconds, force=not self.clustered
        )

    async def writer_append(self, job: Append) -> None:
        assert self.writer is not None
        await self.writer.append(job)

    def redirect_target(self, row: RoomRow) -> str | None:
        """The websocket address of the live process that owns the room of ``row``, when
        clients can be sent there (another process, with an address of its own); else None."""
        if not self.clustered or row.owner is None or row.owner == self.node or row.lease_until <= time.time():
            return None
        if not row.owner_url or row.owner_url == self.config.own_url:
            return None  # the processes share one address: serve here, forwarding
        return websocket_url(row.owner_url)

    async def _take_over(self, room: Room, previous: str | None) -> None:
        """This process holds the lease of ``room``, which it followed: run it from now on."""
        if room.owner or room.owner_node == self.node:
            return  # already done, or on its way
        log.info("room %s: taking over from %s", room.code, previous)
        room.owner_node = self.node
        assert self.link is not None
        await self.link.unlisten(room_channel(room.code))
        room.submit(BecomeOwner())
        # Messages forwarded to the old owner will never be answered: say so now, so that their
        # clients send them again at once, to this process.
        for key, (code, peer, reply_to) in list(self._waiting.items()):
            handle = self._pending.pop(key, None) if code == room.code else None
            if handle is not None:
                handle.cancel()
                del self._waiting[key]
                peer.deliver(error("unavailable", "this room changed hands: send it again", reply_to))

    async def refused(self, room: Room) -> None:
        """A write of ``room`` was refused: if another process holds its lease now (this
        process's ran out while it was too slow to renew it, and was taken), follow it."""
        if not self.clustered or not room.owner:
            return
        try:
            row = await asyncio.to_thread(self.store.room, room.code)
        except SQLAlchemyError:
            return  # the database is out of reach: the room's reload says so
        if row is not None and row.owner is not None and row.owner != self.node:
            await self._step_down(room)

    async def _step_down(self, room: Room) -> None:
        """Another process holds ``room``'s lease: this one follows the room from now on (its
        writes would be refused) and tells that process which of the room's clients are here."""
        if not room.owner:
            return
        log.warning("room %s: another process holds its lease now; following it", room.code, extra={"room": room.code})
        room.owner = False
        row = await asyncio.to_thread(self.store.room, room.code)
        room.owner_node = row.owner if row is not None else None
        await self._follow(room.code)
        self.presence(room)

    def published(self, room: Room, *, everyone: bool = False) -> None:
        if self.link is not None and (room.seating.remote_seats or everyone):
            rt = room.runtime_info()
            payload = {"k": ClusterKind.LOG, "room": room.code, "seq": room.state.seq, "rt": rt, "owner": self.node}
            self.link.send(room_channel(room.code), payload)

    def presence(self, room: Room) -> None:
        """A follower tells the owner which seats are connected here (a heartbeat, too)."""
        if self.link is not None and not room.owner and room.owner_node is not None:
            seats = sorted({p.seat for p in room.peers.values() if p.seat is not None})
            looking = sorted({p.seat for p in room.peers.values() if p.seat is not None and p.visible})
            payload = {
                "k": ClusterKind.FOLLOW,
                "room": room.code,
                "from": self.node,
                "seats": seats,
                "watchers": len(room.peers),
                "looking": looking,
            }
            self.link.send(node_channel(room.owner_node), payload)

    def forward(self, room: Room, peer: Peer, message: dict[str, Any]) -> None:
        """Send a client's message to the process that owns ``room``; answer ``unavailable``
        if it does not reply in time (it may have died: a takeover follows)."""
        if self.link is None or room.owner_node is None:
            peer.deliver(error("unavailable", "this room is changing hands; try again", message.get("id")))
            return
        self.forwarded += 1
        self.local_peers[peer.conn_id] = peer
        self.link.send(
            node_channel(room.owner_node),
            {
                "k": ClusterKind.FORWARD,
                "from": self.node,
                "room": room.code,
                "conn": peer.conn_id,
                "seat": peer.seat,
                "name": peer.name,
                "client": peer.client,
                "player": peer.player,
                "msg": message,
            },
        )
        key = f"{peer.conn_id}:{message.get('id')}:{time.monotonic()}"

        def expire() -> None:
            if self._pending.pop(key, None) is not None:
                self._waiting.pop(key, None)
                peer.deliver(
                    error("unavailable", "the process that runs this room did not answer; try again", message.get("id"))
                )

        loop = asyncio.get_running_loop()
        self._pending[key] = loop.call_later(FORWARD_TIMEOUT, expire)
        self._waiting[key] = (room.code, peer, message.get("id"))
        loop.call_later(FORWARD_QUIET, self._owner_quiet, room.code, key)
        setattr(peer, "pending_forward", key)  # noqa: B010 - local peers have the attribute

    def _owner_quiet(self, code: str, key: str) -> None:
        """A forwarded message of room ``code`` is still unanswered after :data:`FORWARD_QUIET`:
        try to take the room over now (it succeeds only if its owner is gone), rather than at
        the next sweep."""
        room = self.rooms.get(code)
        if key in self._pending and room is not None and not room.owner and not self.stopping:
            asyncio.get_running_loop().create_task(self._claim_quiet(room))

    async def _claim_quiet(self, room: Room) -> None:
        with contextlib.suppress(SQLAlchemyError):
            if not room.owner and await self._claim(room.code):
                await self._take_over(room, room.owner_node)

    def reply(self, node: str, conn_id: str, message: dict[str, Any]) -> None:
        """Answer a message that process ``node`` forwarded for its connection ``conn_id``."""
        if self.link is not None:
            self.link.send(node_channel(node), {"k": ClusterKind.REPLY, "conn": conn_id, "msg": message})

    async def _follow(self, code: str) -> None:
        """Listen to room ``code``'s announcements (before reading its log, so none is missed)."""
        assert self.link is not None
        await self.link.listen(room_channel(code))

    async def _unfollow(self, room: Room) -> None:
        """Stop following ``room``: tell its owner, stop listening, drop it from memory."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        if self.link is not None:
            if room.owner_node is not None:
                self.link.send(
                    node_channel(room.owner_node), {"k": ClusterKind.UNFOLLOW, "room": room.code, "from": self.node}
                )
            await self.link.unlisten(room_channel(room.code))
        await room.stop()

    def _on_notify(self, channel: str, payload: dict[str, Any]) -> None:
        """A message from another process (:mod:`.cluster`), answered by its kind's entry of
        :data:`NOTIFIED`; one of a kind this process does not know is ignored. It never waits."""
        try:
            kind = ClusterKind(str(payload.get("k")))
        except ValueError:
            return  # a kind this process does not know
        NOTIFIED[kind](self, payload)

    def _notified_room(self, payload: dict[str, Any]) -> Room | None:
        """The room of this process that ``payload`` is about, if any."""
        return self.rooms.get(payload.get("room", ""))

    def _on_log(self, payload: dict[str, Any]) -> None:
        room = self._notified_room(payload)
        if room is not None and not room.owner:
            owner = payload.get("owner")
            if owner is not None and owner != room.owner_node:
                room.owner_node = owner  # a takeover: tell the new owner about this follower
                self.presence(room)
            room.runtime = payload.get("rt", {})
            room.submit(SyncLog(payload["seq"]))

    def _on_chat(self, payload: dict[str, Any]) -> None:
        room = self._notified_room(payload)
        if room is not None and not room.owner:
            room.submit(RemoteChat(payload["m"]))

    def _on_forward(self, payload: dict[str, Any]) -> None:
        room = self._notified_room(payload)
        remote = RemotePeer(self, payload["from"], payload["conn"], payload.get("seat"), payload.get("name"))
        remote.client, remote.player = str(payload.get("client", "")), payload.get("player")
        message = payload["msg"]
        if room is not None and room.owner:
            room.submit(Arrived(remote, message) if message["type"] == "hello" else Said(remote, message))
        else:
            remote.deliver(error("unavailable", "this room moved to another process; try again", message.get("id")))

    def _on_close(self, payload: dict[str, Any]) -> None:
        room = self._notified_room(payload)
        if room is not None and room.owner:
            room.submit(AdminClose())

    def _on_follow(self, payload: dict[str, Any]) -> None:
        """A follower's presence (``follow``), or its leaving (``unfollow``: no seats)."""
        room = self._notified_room(payload)
        if room is not None and room.owner:
            self._heard[(room.code, payload["from"])] = time.monotonic()
            seats = payload.get("seats") if payload["k"] == ClusterKind.FOLLOW else None
            room.submit(RemotePresence(payload["from"], seats, payload.get("watchers", 0), payload.get("looking")))

    def _on_reply(self, payload: dict[str, Any]) -> None:
        peer = self.local_peers.get(payload["conn"])
        if peer is None:
            return
        key = getattr(peer, "pending_forward", None)  # set by forward() on local peers
        handle = self._pending.pop(key, None) if key else None
        if handle is not None:
            handle.cancel()
            self._waiting.pop(key or "", None)
        message = payload["msg"]
        room = getattr(peer, "room", None)
        if room is None:
            return
        if message.get("type") == "welcome":
            # the owner seated this client: follow the room to the join, then seat it here
            room.submit(SeatRemote(peer, message))
        else:  # an ack or an error: follow the room first, so the client's state is current
            room.submit(RemoteReply(peer, message))

    def _gauges(self) -> dict[str, Any]:
        """What the metrics' gauges read at each scrape (:mod:`.metrics`)."""
        rooms = list(self.rooms.values())
        return {
            "rooms": count_rooms((room.state.phase, room.owner) for room in rooms),
            "games": sum(1 for room in rooms if room.owner and room.state.phase in ("playing", "hand_over")),
            "websockets": self.connections,
            "connections": self.open_connections(),
            "ready": int(self.ready),
            **{name: value for feature in self.features for name, value in feature.gauges().items()},
        }

    async def refresh_nodes(self) -> None:
        """Record this process's address in the cluster's list, and read the others' into
        :attr:`node_origins` (what the Origin check accepts: a page of one process may use
        another's websocket, where a redirect sends it). A process unseen for a day is dropped."""
        now = time.time()
        await asyncio.to_thread(self.store.announce, self.node, self.config.own_url)
        await asyncio.to_thread(self.store.forget_node, self.node, before=now - 86400)
        urls = await asyncio.to_thread(self.store.node_urls, now - 86400)
        self.node_origins.clear()
        self.node_origins.update(origin for origin in map(origin_of, urls) if origin is not None)

    async def _sweep_cluster(self, now: float) -> None:
        """Renew this process's leases and its place in the list of processes; forget followers
        that went quiet; for each room this process follows: drop it when no client here uses
        it, take it over when its owner's lease ran out or its owner died, else tell the owner
        it still follows and send the clients that can go there to it (once nothing of theirs
        is on its way)."""
        await self.refresh_nodes()
        owned = [code for code, room in self.rooms.items() if room.owner]
        assert self.writer is not None  # in turn with the writes: see :class:`.storage.Writer`
        held: set[str] = set()
        for start in range(0, len(owned), RENEW_CHUNK):  # the batches waiting go in between
            chunk = owned[start : start + RENEW_CHUNK]
            held |= await self.writer.call(
                functools.partial(self.store.renew, self.node, chunk, self.config.lease_seconds)
            )
        for code in owned:
            room = self.rooms.get(code)
            if code not in held and room is not None:
                await self._step_down(room)
        quiet = time.monotonic() - self.config.lease_seconds
        for (code, node), heard in list(self._heard.items()):
            room = self.rooms.get(code)
            if room is None or not room.owner or heard < quiet:
                del self._heard[(code, node)]
                if room is not None and room.owner and node in room.seating.remote_seats:
                    room.submit(RemotePresence(node, None, 0))  # that process died or stopped following
        in_use = {id(getattr(peer, "room", None)) for peer in self.local_peers.values()}
        for code, room in list(self.rooms.items()):
            if room.owner:
                continue
            if id(room) not in in_use and not room.peers and room.queue.empty():
                await self._unfollow(room)
                continue
            row = await asyncio.to_thread(self.store.room, code)
            if row is None or row.closed:
                continue
            if await self._claim(code):
                await self._take_over(room, row.owner)
                continue
            room.owner_node = row.owner
            self.presence(room)
            target = self.redirect_target(row)
            if target is None or not room.queue.empty():
                continue
            for peer in list(room.peers.values()):
                waiting = getattr(peer, "pending_forward", None) in self._pending  # answered first
                if getattr(peer, "redirects", False) and getattr(peer, "unreachable", None) != target and not waiting:
                    send_to_owner(peer, code, target)

    async def _close_stored(self, code: str) -> None:
        row = await asyncio.to_thread(self.store.room, code)
        if row is None or row.closed:
            return
        with contextlib.suppress(Exception):
            await self.writer_append(Append(code, row.seq, [{"type": "close", "reason": "idle"}], close=True))


#: How the hub answers each kind of message from another process (a test checks that each kind
#: has its answer).
NOTIFIED: dict[ClusterKind, Callable[[HubOwnership, dict[str, Any]], None]] = {
    ClusterKind.LOG: HubOwnership._on_log,
    ClusterKind.CHAT: HubOwnership._on_chat,
    ClusterKind.FORWARD: HubOwnership._on_forward,
    ClusterKind.REPLY: HubOwnership._on_reply,
    ClusterKind.CLOSE: HubOwnership._on_close,
    ClusterKind.FOLLOW: HubOwnership._on_follow,
    ClusterKind.UNFOLLOW: HubOwnership._on_follow,
}


class HubModeration(HubOwnership):
    """What the server allows a client address or identity: chat and report rates, the bans in
    force (read from the database every ``BANS_EVERY`` seconds), keeping a report."""

    def chat_limit(self, share: float = 1.0) -> RateLimit:
        return RateLimit(self.config.chat_rate * share, self.config.chat_burst * share)

    def chat_allowed(self, client: str) -> bool:
        return self._chat_by_address.allow(client)

    def report_allowed(self, client: str) -> bool:
        return self._reports.allow(client)

    async def keep_report(self, report: dict[str, Any]) -> None:
        try:
            await asyncio.to_thread(functools.partial(self.store.add_report, **report))
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
        found = await asyncio.to_thread(self.store.bans_list, time.time())
        identities: dict[str, float | None] = {}
        networks = []
        for ban in found:
            if ban["kind"] == "identity":
                identities[ban["value"]] = ban["until"]
            else:
                with contextlib.suppress(ValueError):
                    networks.append((ip_network_of(ban["value"]), ban["until"]))
        self.banned_identities, self.banned_networks = identities, networks
        for peer in list(self.local_peers.values()):
            room = getattr(peer, "room", None)
            if room is not None and room.state.public_room and self.banned(peer.client, peer.player):
                peer.deliver(error("banned", "you are banned from this server's public rooms"))
                peer.close("banned")


class HubRooms(HubModeration):
    """The rooms of this process: loading one (or following it, or redirecting its client to
    its owner), creating one, the lobby's public rooms and "play now", and what a room reads or
    writes through the hub (its log, its chat, its seats' identities): the rooms'
    :class:`~unokit.server.authority.Host`."""

    async def create_room(self, request: dict[str, Any], base_url: str, client: str = "") -> dict[str, Any]:
        """Create a room from an HTTP request body of the address ``client``, with links under
        ``base_url`` (where the client reaches this server); ``bots`` seats a bot of each name
        at its last seats. Raise :class:`RoomError` ``bad_room`` (``bad_bot`` for an unknown
        bot), and for a public room ``banned`` or ``too_many_rooms`` (``--public-rooms``)."""
        unknown = set(request) - {"variant", "players", "options", "settings", "public", "bots", "lang"}
        if unknown:
            raise RoomError("bad_room", f"unknown field(s) {', '.join(sorted(unknown))}")
        spec = await off_loop(
            RoomSpec.build,
            request.get("variant", "classic"),
            request.get("players"),
            request.get("options"),
            request.get("settings"),
            request.get("public", False),
            request.get("lang", DEFAULT_NAMES_LANG),
        )
        bots = request.get("bots", [])
        if not isinstance(bots, list) or not all(isinstance(bot, str) for bot in bots):
            raise RoomError("bad_room", "'bots' must be a list of bot names, one per bot seat")
        if len(bots) > spec.players - 1:
            raise RoomError("bad_room", f"'bots' may fill at most {spec.players - 1} of the {spec.players} seats")
        for bot in bots:
            RoomState.check_bot(bot)
        if spec.public:
            await self.check_public_room(client)
        return await self._new_room(spec, base_url, bots, client)

    async def check_public_room(self, client: str) -> None:
        """Raise :class:`RoomError` unless the address ``client`` may open one more public
        room: it is banned (``banned``), or has ``--public-rooms`` open (``too_many_rooms``)."""
        if self.banned(client, None):
            raise RoomError("banned", "you are banned from this server's public rooms")
        if await asyncio.to_thread(self.store.public_rooms_of, client) >= self.config.public_rooms:
            raise RoomError(
                "too_many_rooms",
                f"your address has {self.config.public_rooms} public rooms open, the most it may: close one first",
                most=self.config.public_rooms,
            )

    async def open_room(
        self, spec: RoomSpec, base_url: str, *, bots: Sequence[str] = (), client: str = "", marks: dict[str, Any]
    ) -> dict[str, Any]:
        """A feature's room (:class:`~.seam.Rooms`): its stored spec carries ``marks``."""
        return await self._new_room(spec, base_url, list(bots), client, marks)

    async def _new_room(
        self,
        spec: RoomSpec,
        base_url: str,
        bots: list[str] | None = None,
        client: str = "",
        marks: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A new room of ``spec`` made by the address ``client``, with links under ``base_url``,
        ``bots`` seated at its last seats; ``marks`` are a feature's, kept in its stored spec
        (:meth:`~.seam.FeatureServer.loaded` reads them back)."""
        host = new_token()
        listing = RoomState("", spec).listing()
        listed = None if listing is None else encode(listing)
        public_json = {**spec.to_json(), **(marks or {})}
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            made = functools.partial(
                self.store.create_room, code, public_json, token_hash(host), listed, client or None, spec.public
            )
            if await asyncio.to_thread(made):
                break
        else:
            raise RoomError("unavailable", "no free room code was found; try again")
        self.metrics.rooms_created.inc()
        log.info("room %s: created (%s, %d seats)", code, spec.variant, spec.players, extra={"room": code})
        if bots:
            room = await self.room(code)
            if room is None:
                raise RoomError("unavailable", "the new room could not be opened; try again")
            seated: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            room.submit(SeatBots(bots, seated))
            await seated
        return {
            "room": code,
            "link": f"{base_url}/r/{code}",
            "websocket": websocket_url(base_url),
            "host_token": host,
            "spec": spec.to_json(),
        }

    async def lobby(self, base_url: str) -> dict[str, list[dict[str, Any]]]:
        """The public rooms (read from the database, so every process lists the same ones):
        those ``waiting`` for players (an open seat before a game or after one) and those
        ``playing``, to watch, with links under ``base_url``. Private rooms are never listed."""
        since = time.time() - self.config.idle_close_seconds
        rows = await asyncio.to_thread(self.store.public_rooms, since, LOBBY_LIMIT)
        waiting, playing = [], []
        for code, listing in rows:
            entry = {"room": code, "link": f"{base_url}/r/{code}", **listing}
            if listing["phase"] in ("playing", "hand_over"):
                playing.append(entry)
            elif listing["open_seats"] > 0:
                waiting.append(entry)
        return {"waiting": waiting, "playing": playing}

    async def play_now(self, request: dict[str, Any], base_url: str, client: str = "") -> dict[str, Any]:
        """A public room of the asked variant with an open seat, or a new one (one hand of the
        variant's rules, :data:`PLAY_NOW_OPTIONS`) that bots fill when nobody else comes within
        ``play_now_wait`` seconds (it has no host), with links under ``base_url``. The answer
        is the room's code and link, and ``created``; the client then joins it with ``hello``.
        A banned address is refused, and one that has ``--public-rooms`` open may only join."""
        unknown = set(request) - {"variant", "players"}
        if unknown:
            raise RoomError("bad_room", f"unknown field(s) {', '.join(sorted(unknown))}")
        settings = {"fill_seconds": self.config.play_now_wait}
        variant, players = request.get("variant", "classic"), request.get("players")
        spec = await off_loop(RoomSpec.build, variant, players, PLAY_NOW_OPTIONS, settings, True, hosted=False)
        if self.banned(client, None):
            raise RoomError("banned", "you are banned from this server's public rooms")
        async with self.seating_lock:
            lobby = await self.lobby(base_url)
            fits = [
                room
                for room in lobby["waiting"]
                if room["variant"] == spec.variant and ("players" not in request or room["players"] == spec.players)
            ]
            if fits:
                best = min(fits, key=lambda room: room["open_seats"])
                return {"room": best["room"], "link": best["link"], "created": False}
            await self.check_public_room(client)
            created = await self._new_room(spec, base_url, client=client)
        return {"room": created["room"], "link": created["link"], "created": True}

    async def room(self, code: str) -> Room | None:
        """The room ``code``, loaded from the database when it is not in memory (``None`` when
        there is no such open room)."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        loading = self._loading.get(code)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            room = await self._load(code)
            future.set_result(room)
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[code]
        return room

    async def _load(self, code: str) -> Room | None:
        """Load room ``code`` from the database: as its owner when its lease is free (or with
        SQLite), else as a follower of the process that holds it."""
        row = await asyncio.to_thread(self.store.room, code)
        if row is None or row.closed:
            return None
        owner = await self._claim(code)
        if not owner:
            await self._follow(code)
            row = await asyncio.to_thread(self.store.room, code) or row  # who holds it, now that it is followed
        state = RoomState(code, RoomSpec.from_json(row.spec))
        for _seq, entry in await self.load_log(code, 0):
            state.apply(entry_of(entry))
        if state.phase == CLOSED:
            if not owner and self.link is not None:
                await self.link.unlisten(room_channel(code))
            return None
        room = Room(self, state, row.host_hash, owner=False)
        for feature in self.features:
            await feature.loaded(room, row.spec)
        for entry in await asyncio.to_thread(self.store.chat, code):
            room.chat.apply(entry)
        room.owner_node = self.node if owner else row.owner
        room.creator = row.creator
        self.rooms[code] = room
        if owner:
            room.submit(BecomeOwner())
        else:
            self.presence(room)
        return room

    async def load_log(self, code: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        return await asyncio.to_thread(self.store.log, code, after)

    async def link_player(self, code: str, token_hash: str, player_hash: str) -> None:
        try:
            await asyncio.to_thread(self.store.link_player, code, token_hash, player_hash)
        except SQLAlchemyError as exc:
            raise StorageError(f"the database refused the write: {exc}") from None

    async def identities(self, code: str) -> dict[str, str]:
        return await asyncio.to_thread(self.store.room_identities, code)

    async def load_chat(self, code: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.store.chat, code)

    def chat_published(self, room: Room, message: dict[str, Any]) -> None:
        if self.link is not None and room.seating.remote_seats:
            self.link.send(room_channel(room.code), {"k": ClusterKind.CHAT, "room": room.code, "m": message})

    def told(self, room: Room, entries: list[dict[str, Any]]) -> None:
        for feature in self.features:
            feature.told(room, entries)

    def looked(self, room: Room) -> None:
        for feature in self.features:
            feature.looked(room)

    def dropped(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.bots.forget(room.code)
            asyncio.get_running_loop().create_task(room.stop())

    async def think(self, room: str, act: Callable[[View], Action], view: View) -> Action:
        return await self.bots.think(room, act, view)

    def think_delay(self, room: str) -> float:
        return self.bots.delay(room)

    async def locate(self, code: str, *, redirects: bool, unreachable: str | None = None) -> Room | str | None:
        """Where a client of room ``code`` is served: the room in this process, the websocket
        address of the process that owns it (for a client that follows redirects and has not
        found ``unreachable`` unreachable), or ``None`` when there is no such open room. A room
        whose owner cannot be reached is taken over here if that owner died."""
        room = self.rooms.get(code)
        if room is not None and (room.owner or room.owner_node == self.node):
            return room
        if redirects and self.clustered:
            row = await asyncio.to_thread(self.store.room, code)
            if row is None or row.closed:
                return None
            target = self.redirect_target(row)
            if target is not None and target != unreachable:
                self.redirected += 1
                return target
            if room is not None and await self._claim(code):
                await self._take_over(room, row.owner)
        return room if room is not None else await self.room(code)


class Hub(HubRooms):
    """The rooms of this process and everything they share: storage, writer, cluster link.
    It is the :class:`~unokit.server.authority.Host` of its rooms. Its jobs are layered, each
    class on the one before: :class:`HubOwnership` (the state, leases and following),
    :class:`HubModeration` (rates and bans), :class:`HubRooms` (loading, creating, listing
    rooms; the rooms' host); here, the life cycle and the sweeper (pruning, and the features'
    own sweeps)."""

    def check_database(self) -> None:
        """Before serving: take the SQLite lock and make sure the database answers; raise
        ``RuntimeError`` with a message for people when it does not."""
        from sqlalchemy import text
        from sqlalchemy.exc import SQLAlchemyError

        if not self.clustered and self._lock_file is None:
            self._lock_sqlite()
        try:
            with self.store.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError as exc:
            original = getattr(exc, "orig", None)
            reason = str(original if original is not None else exc).strip().splitlines()[0]
            raise RuntimeError(f"cannot open the database {self.config.database.split('@')[-1]}: {reason}") from None

    async def start(self) -> None:
        if not self.clustered and self._lock_file is None:
            self._lock_sqlite()
        await asyncio.to_thread(migrate, self.store.engine)
        self.writer = Writer(self.store, self.metrics.commit_latency.observe)
        if self.clustered:
            self.link = Link(libpq_url(sqlalchemy_url(self.config.database)), self.node, self._on_notify)
            await self.link.start()
            if self.config.public_url and not self.config.node_url:
                log.warning(
                    "no --node-url: the other processes cannot send this process's clients to it "
                    "(they serve them by forwarding); with several processes, give each its own --node-url"
                )
            await self.refresh_nodes()
        await self.refresh_bans()
        for feature in self.features:
            await feature.start()
        period = self.config.lease_seconds / 3 if self.clustered else self.config.sweep_seconds
        sweeper = self._every(min(period, self.config.sweep_seconds), self._sweep, "the sweep")
        self._tasks.append(asyncio.create_task(sweeper, name="unokit-sweep"))
        bans = self._every(BANS_EVERY, self.refresh_bans, "reading the bans")
        self._tasks.append(asyncio.create_task(bans, name="unokit-bans"))
        self.ready = True

    async def stop(self) -> None:
        self.ready = False
        self.stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for room in list(self.rooms.values()):
            await room.stop()
        for feature in reversed(self.features):
            with contextlib.suppress(Exception):
                await feature.stop()
        self.bots.shutdown()
        if self.writer is not None:
            await asyncio.to_thread(self.writer.stop)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.release, self.node)
        if self.clustered:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.forget_node, self.node)
        if self.link is not None:
            await self.link.stop()
        self.store.close()
        if self._lock_file is not None:
            self._lock_file.close()

    def _lock_sqlite(self) -> None:
        database = make_url(sqlalchemy_url(self.config.database)).database
        if not database or database == ":memory:":
            return
        path = Path(database).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_name(path.name + ".lock"), "w")  # noqa: SIM115 - held while serving
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise RuntimeError(
                f"another unokit server is using {path}; SQLite serves one process "
                "(use --database postgresql://... for several)"
            ) from None
        handle.write(str(os.getpid()))
        handle.flush()
        self._lock_file = handle

    @staticmethod
    async def _every(seconds: float, work: Callable[[], Awaitable[None]], what: str) -> None:
        """Run ``work`` every ``seconds`` until cancelled; a failure is logged, never fatal."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await work()
            except Exception:
                log.exception("%s failed", what)

    async def _sweep(self) -> None:
        now = time.time()
        if self.clustered:
            await self._sweep_cluster(now)
        idle = self.config.idle_close_seconds
        for room in list(self.rooms.values()):
            if room.owner and not room.watched() and time.monotonic() - room.last_active > idle:
                room.submit(CloseIdle())
        for code in await asyncio.to_thread(self.store.idle_rooms, now - idle):
            if code not in self.rooms:
                await self._close_stored(code)
        for feature in self.features:
            try:
                await feature.sweep(now)
            except Exception:
                log.exception("the sweep of the feature %s failed", type(feature).__name__)
        if time.monotonic() - self._pruned_at >= self.config.sweep_seconds:
            self._pruned_at = time.monotonic()
            await self.prune()
        if time.monotonic() - self._collected_at >= COLLECT_EVERY:
            # ``unokit serve`` makes the automatic collection of reference cycles rare (its
            # pauses would stall every room at once); what rooms and games leave in cycles is
            # collected here, at a time of its own, so that it cannot pile up over weeks.
            self._collected_at = time.monotonic()
            started = time.perf_counter()
            found = gc.collect()
            log.debug("collected %d objects in cycles in %.3f s", found, time.perf_counter() - started)

    async def close_room(self, code: str) -> bool:
        """Close room ``code`` for the host of the server (``unokit admin close``): its owner
        closes it and tells its clients, whichever process of the cluster that is. False when
        there is no such open room."""
        room = await self.room(code)
        if room is None:
            return False
        if room.owner or not self.clustered:
            room.submit(AdminClose())
        else:
            assert self.link is not None and room.owner_node is not None
            self.link.send(node_channel(room.owner_node), {"k": ClusterKind.CLOSE, "room": code})
        return True

    async def prune(
        self, rooms_days: float | None = None, records_days: float | None = None, players_days: float | None = None
    ) -> Pruned:
        """Apply the retention (``--retain-rooms``, ``--retain-records``, ``--retain-players``,
        or the days given), exporting records to ``--export-dir`` first when it is set
        (:mod:`.upkeep`)."""
        config = self.config
        pruned = await asyncio.to_thread(
            upkeep.prune,
            self.store,
            config.retain_rooms_days if rooms_days is None else rooms_days,
            config.retain_records_days if records_days is None else records_days,
            config.retain_players_days if players_days is None else players_days,
            export_dir=config.export_dir,
        )
        if pruned.rooms or pruned.records or pruned.players:
            log.info(
                "retention: pruned %d closed rooms (%d log entries, %d chat lines), %d records, %d player identities",
                pruned.rooms,
                pruned.entries,
                pruned.chat,
                pruned.records,
                pruned.players,
            )
        return pruned


class RemotePeer(RemoteMarker):
    """A client of another process, as the owner of its room sees it: replies go back over
    the notification channel, to be delivered by that process."""

    def __init__(self, hub: HubOwnership, node: str, conn_id: str, seat: int | None, name: str | None = None) -> None:
        self.hub = hub
        self.node = node
        self.conn_id = conn_id
        self.seat = seat
        self.name = name
        self.role = "player" if seat is not None else "spectator"
        self.client = ""  # its address and identity, as the process it connected to knows them
        self.player: str | None = None
        self.holder: str | None = None  # its seat's occupant is checked by the process it connected to
        self.visible = True  # its process tells the owner who looks (``follow``'s ``looking``)

    def deliver(self, message: dict[str, Any] | str) -> None:
        body = decode(message) if isinstance(message, str) else message
        if body.get("type") == "error":
            body = {k: v for k, v in body.items() if k != "state"}  # the client's process adds its own
        elif body.get("type") not in ("welcome", "ack"):
            return  # state updates reach the other process through the room's log
        self.hub.reply(self.node, self.conn_id, body)

    def close(self, reason: str, code: int = 1000) -> None:
        return None


def send_to_owner(peer: Peer, code: str, websocket: str, reply_to: str | int | None = None) -> None:
    """Tell ``peer``'s client that room ``code`` is served at ``websocket``, and close its
    connection here: it says hello there."""
    peer.deliver(Redirect(room=code, websocket=websocket, reply_to=reply_to).to_json())
    peer.close("redirected")


__all__ = ["NOTIFIED", "Hub", "RoomError", "send_to_owner"]
