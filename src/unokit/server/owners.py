"""The rooms' ownership across the processes of a cluster (PostgreSQL; :mod:`.hub` describes
it): claiming a room's lease, taking a room over or stepping down, following a room another
process owns (forwarding its clients' messages, folding what its owner announces), the link to
the other processes and the cluster's sweep. One :class:`Ownership` a process, held by its hub."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from .cluster import ClusterKind, Link, node_channel, room_channel
from .edge import origin_of
from .items import AdminClose, Arrived, BecomeOwner, RemoteChat, RemotePresence, RemoteReply, Said, SeatRemote, SyncLog
from .messages import Redirect, error
from .peers import Peer, RemoteMarker
from .protocol import decode, websocket_url
from .storage import Append, RoomRow, libpq_url, sqlalchemy_url

if TYPE_CHECKING:
    from .authority import Room
    from .hub import Hub

log = logging.getLogger("unokit.server")

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


class Ownership:
    """Which process runs each room, and what the others do meanwhile (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.link: Link | None = None  # with PostgreSQL: the other processes
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._waiting: dict[str, tuple[str, Peer, str | int | None]] = {}  # key -> (room, peer, id) of a forward
        self._heard: dict[tuple[str, str], float] = {}  # (room, node) -> when that follower last said so
        self.forwarded = 0  # client messages sent on to another process (health report)
        self.redirected = 0  # clients sent to another process
        #: The origins of the cluster's processes (``--node-url``), kept by :meth:`refresh_nodes`.
        self.node_origins: set[str] = set()

    @property
    def clustered(self) -> bool:
        return self.hub.store.postgres

    async def start(self) -> None:
        """Link this process to the others (a cluster only)."""
        config = self.hub.config
        self.link = Link(libpq_url(sqlalchemy_url(config.database)), self.hub.node, self._on_notify)
        await self.link.start()
        if config.public_url and not config.node_url:
            log.warning(
                "no --node-url: the other processes cannot send this process's clients to it "
                "(they serve them by forwarding); with several processes, give each its own --node-url"
            )
        await self.refresh_nodes()

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.hub.store.leases.forget_node, self.hub.node)
        if self.link is not None:
            await self.link.stop()

    def chat_published(self, room: Room, message: dict[str, Any]) -> None:
        """The owner committed a chat message: the processes with clients of the room see it."""
        if self.link is not None and room.seating.remote_seats:
            self.link.send(room_channel(room.code), {"k": ClusterKind.CHAT, "room": room.code, "m": message})

    def close_elsewhere(self, room: Room) -> None:
        """Ask the owner of ``room``, another process, to close it (``unokit admin close``)."""
        assert self.link is not None and room.owner_node is not None
        self.link.send(node_channel(room.owner_node), {"k": ClusterKind.CLOSE, "room": room.code})

    async def unlisten(self, code: str) -> None:
        """Stop hearing of room ``code`` (it was found closed as it was followed)."""
        if self.link is not None:
            await self.link.unlisten(room_channel(code))

    async def claim(self, code: str) -> bool:
        """Take room ``code``'s lease when it is free, run out, or held by a dead process."""
        config = self.hub.config
        return await asyncio.to_thread(
            self.hub.store.leases.claim,
            code,
            self.hub.node,
            config.own_url,
            config.lease_seconds,
            force=not self.clustered,
        )

    def redirect_target(self, row: RoomRow) -> str | None:
        """The websocket address of the live process that owns the room of ``row``, when
        clients can be sent there (another process, with an address of its own); else None."""
        if not self.clustered or row.owner is None or row.owner == self.hub.node or row.lease_until <= time.time():
            return None
        if not row.owner_url or row.owner_url == self.hub.config.own_url:
            return None  # the processes share one address: serve here, forwarding
        return websocket_url(row.owner_url)

    async def take_over(self, room: Room, previous: str | None) -> None:
        """This process holds the lease of ``room``, which it followed: run it from now on."""
        if room.owner or room.owner_node == self.hub.node:
            return  # already done, or on its way
        log.info("room %s: taking over from %s", room.code, previous)
        room.owner_node = self.hub.node
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
            row = await asyncio.to_thread(self.hub.store.room, room.code)
        except SQLAlchemyError:
            return  # the database is out of reach: the room's reload says so
        if row is not None and row.owner is not None and row.owner != self.hub.node:
            await self._step_down(room)

    async def _step_down(self, room: Room) -> None:
        """Another process holds ``room``'s lease: this one follows the room from now on (its
        writes would be refused) and tells that process which of the room's clients are here."""
        if not room.owner:
            return
        log.warning("room %s: another process holds its lease now; following it", room.code, extra={"room": room.code})
        room.owner = False
        row = await asyncio.to_thread(self.hub.store.room, room.code)
        room.owner_node = row.owner if row is not None else None
        await self.follow(room.code)
        self.presence(room)

    def published(self, room: Room, *, everyone: bool = False) -> None:
        if self.link is not None and (room.seating.remote_seats or everyone):
            rt = room.runtime_info()
            payload = {"k": ClusterKind.LOG, "room": room.code, "seq": room.state.seq, "rt": rt, "owner": self.hub.node}
            self.link.send(room_channel(room.code), payload)

    def presence(self, room: Room) -> None:
        """A follower tells the owner which seats are connected here (a heartbeat, too)."""
        if self.link is not None and not room.owner and room.owner_node is not None:
            seats = sorted({p.seat for p in room.peers.values() if p.seat is not None})
            looking = sorted({p.seat for p in room.peers.values() if p.seat is not None and p.visible})
            payload = {
                "k": ClusterKind.FOLLOW,
                "room": room.code,
                "from": self.hub.node,
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
        self.hub.local_peers[peer.conn_id] = peer
        self.link.send(
            node_channel(room.owner_node),
            {
                "k": ClusterKind.FORWARD,
                "from": self.hub.node,
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
        room = self.hub.rooms.get(code)
        if key in self._pending and room is not None and not room.owner and not self.hub.stopping:
            asyncio.get_running_loop().create_task(self._claim_quiet(room))

    async def _claim_quiet(self, room: Room) -> None:
        with contextlib.suppress(SQLAlchemyError):
            if not room.owner and await self.claim(room.code):
                await self.take_over(room, room.owner_node)

    def reply(self, node: str, conn_id: str, message: dict[str, Any]) -> None:
        """Answer a message that process ``node`` forwarded for its connection ``conn_id``."""
        if self.link is not None:
            self.link.send(node_channel(node), {"k": ClusterKind.REPLY, "conn": conn_id, "msg": message})

    async def follow(self, code: str) -> None:
        """Listen to room ``code``'s announcements (before reading its log, so none is missed)."""
        assert self.link is not None
        await self.link.listen(room_channel(code))

    async def unfollow(self, room: Room) -> None:
        """Stop following ``room``: tell its owner, stop listening, drop it from memory."""
        if self.hub.rooms.get(room.code) is room:
            del self.hub.rooms[room.code]
        if self.link is not None:
            if room.owner_node is not None:
                self.link.send(
                    node_channel(room.owner_node), {"k": ClusterKind.UNFOLLOW, "room": room.code, "from": self.hub.node}
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
        return self.hub.rooms.get(payload.get("room", ""))

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
        peer = self.hub.local_peers.get(payload["conn"])
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

    async def refresh_nodes(self) -> None:
        """Record this process's address in the cluster's list, and read the others' into
        :attr:`node_origins` (what the Origin check accepts: a page of one process may use
        another's websocket, where a redirect sends it). A process unseen for a day is dropped."""
        now = time.time()
        await asyncio.to_thread(self.hub.store.leases.announce, self.hub.node, self.hub.config.own_url)
        await asyncio.to_thread(self.hub.store.leases.forget_node, self.hub.node, before=now - 86400)
        urls = await asyncio.to_thread(self.hub.store.leases.node_urls, now - 86400)
        self.node_origins.clear()
        self.node_origins.update(origin for origin in map(origin_of, urls) if origin is not None)

    async def sweep(self, now: float) -> None:
        """Renew this process's leases and its place in the list of processes; forget followers
        that went quiet; for each room this process follows: drop it when no client here uses
        it, take it over when its owner's lease ran out or its owner died, else tell the owner
        it still follows and send the clients that can go there to it (once nothing of theirs
        is on its way)."""
        await self.refresh_nodes()
        owned = [code for code, room in self.hub.rooms.items() if room.owner]
        assert self.hub.writer is not None  # in turn with the writes: see :class:`.storage.Writer`
        held: set[str] = set()
        for start in range(0, len(owned), RENEW_CHUNK):  # the batches waiting go in between
            chunk = owned[start : start + RENEW_CHUNK]
            held |= await self.hub.writer.call(
                functools.partial(self.hub.store.leases.renew, self.hub.node, chunk, self.hub.config.lease_seconds)
            )
        for code in owned:
            room = self.hub.rooms.get(code)
            if code not in held and room is not None:
                await self._step_down(room)
        quiet = time.monotonic() - self.hub.config.lease_seconds
        for (code, node), heard in list(self._heard.items()):
            room = self.hub.rooms.get(code)
            if room is None or not room.owner or heard < quiet:
                del self._heard[(code, node)]
                if room is not None and room.owner and node in room.seating.remote_seats:
                    room.submit(RemotePresence(node, None, 0))  # that process died or stopped following
        in_use = {id(getattr(peer, "room", None)) for peer in self.hub.local_peers.values()}
        for code, room in list(self.hub.rooms.items()):
            if room.owner:
                continue
            if id(room) not in in_use and not room.peers and room.queue.empty():
                await self.unfollow(room)
                continue
            row = await asyncio.to_thread(self.hub.store.room, code)
            if row is None or row.closed:
                continue
            if await self.claim(code):
                await self.take_over(room, row.owner)
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

    async def close_stored(self, code: str) -> None:
        row = await asyncio.to_thread(self.hub.store.room, code)
        if row is None or row.closed:
            return
        with contextlib.suppress(Exception):
            await self.hub.writer_append(Append(code, row.seq, [{"type": "close", "reason": "idle"}], close=True))


#: How a process answers each kind of message from another process (a test checks that each kind
#: has its answer).
NOTIFIED: dict[ClusterKind, Callable[[Ownership, dict[str, Any]], None]] = {
    ClusterKind.LOG: Ownership._on_log,
    ClusterKind.CHAT: Ownership._on_chat,
    ClusterKind.FORWARD: Ownership._on_forward,
    ClusterKind.REPLY: Ownership._on_reply,
    ClusterKind.CLOSE: Ownership._on_close,
    ClusterKind.FOLLOW: Ownership._on_follow,
    ClusterKind.UNFOLLOW: Ownership._on_follow,
}


class RemotePeer(RemoteMarker):
    """A client of another process, as the owner of its room sees it: replies go back over
    the notification channel, to be delivered by that process."""

    def __init__(self, owners: Ownership, node: str, conn_id: str, seat: int | None, name: str | None = None) -> None:
        self.owners = owners
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
        self.owners.reply(self.node, self.conn_id, body)

    def close(self, reason: str, code: int = 1000) -> None:
        return None


def send_to_owner(peer: Peer, code: str, websocket: str, reply_to: str | int | None = None) -> None:
    """Tell ``peer``'s client that room ``code`` is served at ``websocket``, and close its
    connection here: it says hello there."""
    peer.deliver(Redirect(room=code, websocket=websocket, reply_to=reply_to).to_json())
    peer.close("redirected")


__all__ = ["NOTIFIED", "Ownership", "RemotePeer", "send_to_owner"]
