"""The link between the server processes of a PostgreSQL cluster: ``LISTEN``/``NOTIFY`` on
channels of two kinds, so that a process hears only what concerns it.

* ``unokit.n.NODE``: messages to one process (a client's message forwarded to the owner of its
  room, the owner's reply, a follower's heartbeat). Every process listens to its own.
* ``unokit.r.CODE``: a room's announcements (the owner committed a step). Only the processes
  that follow the room listen to it, and the owner sends them only while it has followers.

Each message is a JSON object whose ``k`` is a :class:`ClusterKind`; the hub answers each kind
by its entry of :data:`~.owners.NOTIFIED` (a test checks that each has one).

In the steady state every client is connected to its room's owner (``docs/server.md``,
"Several processes"), no process follows any room, and nothing is sent at all.

Messages to one channel that queue up while the previous ``pg_notify`` is on its way go
together, as one JSON array per notification (at most :data:`NOTIFY_BYTES`), and the
notifications of all channels of a round go in one statement: one round trip for many rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from .protocol import decode, encode
from .storage import APPLICATION_NAME

log = logging.getLogger("unokit.server")

#: The longest notification text sent (PostgreSQL refuses payloads of 8000 bytes or more).
NOTIFY_BYTES = 7800
#: All the notifications of one round, sent in one statement, in order.
_NOTIFY_ALL = "SELECT pg_notify(c, p) FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS t(c, p, i) ORDER BY i"


class ClusterKind(StrEnum):
    """What a message between the processes is (its ``k``), and the fields it carries."""

    LOG = "log"  # room, seq, rt, owner: the owner committed up to ``seq`` (to the room's followers)
    CHAT = "chat"  # room, m: a chat message the owner committed (to the room's followers)
    FORWARD = "fwd"  # from, room, conn, seat, name, client, player, msg: a client's message, to the owner
    REPLY = "reply"  # conn, msg: the owner's answer to a forwarded message, to the follower
    CLOSE = "close"  # room: an admin closes the room, to its owner
    FOLLOW = "follow"  # room, from, seats, watchers, looking: a follower's presence, to the owner
    UNFOLLOW = "unfollow"  # room, from: a follower no longer follows the room, to the owner


def node_channel(node: str) -> str:
    """The channel of messages to process ``node``."""
    return f"unokit.n.{node}"


def room_channel(code: str) -> str:
    """The channel of room ``code``'s announcements."""
    return f"unokit.r.{code}"


def notification_texts(payloads: list[str]) -> list[str]:
    """``payloads`` (encoded JSON objects), in order, as JSON arrays of at most
    :data:`NOTIFY_BYTES` each (a longer payload goes alone)."""
    texts: list[str] = []
    group: list[str] = []
    size = 2
    for payload in payloads:
        length = len(payload.encode())
        if group and size + length + 1 > NOTIFY_BYTES:
            texts.append("[" + ",".join(group) + "]")
            group, size = [], 2
        group.append(payload)
        size += length + 1
    if group:
        texts.append("[" + ",".join(group) + "]")
    return texts


#: Called for each message received, in order; it must not wait (it runs in the listener).
Handler = Callable[[str, dict[str, Any]], None]


class Link:
    """Two connections to PostgreSQL: one that listens (to this process's channel and to the
    channels of the rooms it follows) and one that sends. ``handler(channel, payload)`` is
    called for every message received, in order; it must not wait for anything."""

    def __init__(self, url: str, node: str, handler: Handler) -> None:
        self.url = url
        self.node = node
        self.own = node_channel(node)
        self.handler = handler
        self.channels: set[str] = set()  # those listened to now (besides the own channel)
        self.sent = 0  # notifications sent (texts), for the health report
        self._listen: Any = None
        self._send: Any = None
        self._outgoing: dict[str, list[str]] = {}  # channel -> encoded payloads, in order
        self._wake_sender = asyncio.Event()
        self._changes: list[tuple[str, str, asyncio.Future[None]]] = []  # (LISTEN|UNLISTEN, channel, done)
        self._changing: dict[str, asyncio.Future[None]] = {}  # channel -> its latest change, until made
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        import psycopg

        # Named after the process: while they are open, the other processes know it lives.
        name = APPLICATION_NAME.format(node=self.node)
        self._listen = await psycopg.AsyncConnection.connect(self.url, autocommit=True, application_name=name)
        self._send = await psycopg.AsyncConnection.connect(self.url, autocommit=True, application_name=name)
        await self._execute_listen("LISTEN", self.own)
        self._tasks.append(asyncio.create_task(self._listener(), name="unokit-listen"))
        self._tasks.append(asyncio.create_task(self._sender(), name="unokit-notify"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conn in (self._listen, self._send):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # ------------------------------------------------------------------ sending
    def send(self, channel: str, payload: dict[str, Any]) -> None:
        """Send ``payload`` on ``channel``, after every payload sent before it."""
        self._outgoing.setdefault(channel, []).append(encode(payload))
        self._wake_sender.set()

    async def _sender(self) -> None:
        while True:
            await self._wake_sender.wait()
            self._wake_sender.clear()
            while self._outgoing:
                waiting, self._outgoing = self._outgoing, {}
                channels: list[str] = []
                texts: list[str] = []
                for channel, payloads in waiting.items():
                    for text in notification_texts(payloads):
                        channels.append(channel)
                        texts.append(text)
                try:
                    await self._send.execute(_NOTIFY_ALL, (channels, texts))
                    self.sent += len(texts)
                except Exception:
                    log.exception("cannot notify the other processes")

    # ------------------------------------------------------------------ listening
    async def listen(self, channel: str) -> None:
        """Listen to ``channel`` from now on; returns once PostgreSQL has it."""
        await self._change("LISTEN", channel)

    async def unlisten(self, channel: str) -> None:
        await self._change("UNLISTEN", channel)

    async def _change(self, verb: str, channel: str) -> None:
        done = self._changing.get(channel)
        if (channel in self.channels) != (verb == "LISTEN"):
            if verb == "LISTEN":
                self.channels.add(channel)
            else:
                self.channels.discard(channel)
            done = self._changing[channel] = asyncio.get_running_loop().create_future()
            self._changes.append((verb, channel, done))
            # The listening connection is busy waiting for notifications: an empty one to
            # this process wakes its listener, which then makes the change between two waits.
            self.send(self.own, {})
        if done is not None:  # the change asked for here, or an earlier one still on its way
            await asyncio.shield(done)

    async def _execute_listen(self, verb: str, channel: str) -> None:
        from psycopg import sql

        await self._listen.execute(sql.SQL(verb + " {}").format(sql.Identifier(channel)))

    async def _listener(self) -> None:
        while True:
            # One packet of notifications at a time (``stop_after=1`` ends the generator only
            # once it has handed over every notification that came with the first): leaving it
            # in the middle of a packet would drop the rest of that packet. Notifications that
            # arrive while the generator is off wait in the connection's backlog.
            async with contextlib.aclosing(self._listen.notifies(stop_after=1)) as notes:
                async for note in notes:
                    self._dispatch(note.channel, note.payload)
            if not self._changes:
                continue
            changes, self._changes = self._changes, []
            for verb, channel, done in changes:
                try:
                    await self._execute_listen(verb, channel)
                except Exception as exc:
                    log.exception("cannot %s %s", verb, channel)
                    done.set_exception(exc)
                else:
                    done.set_result(None)
                if self._changing.get(channel) is done:
                    del self._changing[channel]

    def _dispatch(self, channel: str, text: str) -> None:
        try:
            payloads = decode(text)
        except ValueError:
            log.exception("bad notification %r", text[:200])
            return
        for payload in payloads if isinstance(payloads, list) else [payloads]:
            if not payload:
                continue  # a wake-up
            try:
                self.handler(channel, payload)
            except Exception:
                log.exception("bad notification %r", encode(payload)[:200])


__all__ = ["NOTIFY_BYTES", "ClusterKind", "Link", "node_channel", "notification_texts", "room_channel"]
