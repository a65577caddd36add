"""The websocket at ``/ws`` (``docs/protocol.md``): each connection's checks (how many per client
address and per process, ``hello`` within ``--hello-timeout``), its outbox, and every message
read and checked here (size, JSON, rate, type) before its room sees it."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import Counter
from typing import TYPE_CHECKING, Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from . import PROTOCOL
from .edge import client_key
from .items import Arrived, Gone, Said
from .messages import MessageError, Pong, error, read_message
from .owners import send_to_owner
from .peers import identity_hash
from .protocol import NO_HELLO, RateLimit, encode
from .room import RoomError
from .webapi import CODE_ALPHABET

if TYPE_CHECKING:
    from .allowances import Allowance
    from .authority import Room
    from .config import ServerConfig
    from .hub import Hub
    from .metrics import Metrics

#: Refused messages (bad JSON, over the rate, ...) after which a connection is closed.
STRIKES_LIMIT = 200


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


def websocket_route(hub: Hub, misses: Allowance) -> WebSocketRoute:
    """``WS /ws`` over ``hub``; a client that names too many rooms that do not exist spends ``misses``."""
    config = hub.config
    by_client: Counter[str] = Counter()  # open websockets per client address

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

    return WebSocketRoute("/ws", websocket_endpoint)


def _no_hello(peer: WsPeer, seconds: float) -> None:
    """``--hello-timeout`` ran out: a connection that is in no room is closed (4008)."""
    if peer.room is None or peer.conn_id not in peer.room.admitted:
        peer.deliver(error("no_hello", f"no 'hello' within {seconds:g} s: closing the connection"))
        peer.close("no hello", NO_HELLO)


async def _serve(hub: Hub, peer: WsPeer, misses: Allowance) -> None:
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


async def _hello(hub: Hub, peer: WsPeer, message: dict[str, Any], misses: Allowance) -> None:
    if peer.room is not None and peer.conn_id in peer.room.admitted:
        peer.deliver(error("bad_message", "this connection is already in a room", message.get("id")))
        return
    protocol = message.get("protocol", PROTOCOL)
    if protocol != PROTOCOL:
        peer.deliver(error("bad_protocol", f"this server speaks {PROTOCOL}, not {protocol[:40]!r}", message.get("id")))
        return
    if await misses.spent(peer.client):
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
        await misses.allow(peer.client)
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


__all__ = ["STRIKES_LIMIT", "WsPeer", "websocket_route"]
