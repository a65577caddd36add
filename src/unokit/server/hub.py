"""The process-wide part of the server: configuration, the rooms in memory, leases, the sweeper,
and, with PostgreSQL, the link to the other server processes (LISTEN/NOTIFY).

With SQLite one process serves every room (a lock file next to the database refuses a second
one). With PostgreSQL several processes share the rooms: each room is owned by one process at a
time through a lease in the ``rooms`` table, renewed every third of ``lease_seconds``. A process
whose client opens a room that another process owns follows it as a replica and forwards the
client's messages to the owner over the ``unokit`` notification channel; the owner announces
every committed step on the same channel. When a lease runs out (its owner died), a process that
follows the room claims it, folds the committed log and runs the room from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sqlalchemy.engine import make_url

from . import DEFAULT_SEND_BUFFER
from .authority import Peer, RemoteMarker, Room, new_token, token_hash
from .protocol import decode, encode, error
from .room import CLOSED, RoomError, RoomSpec, RoomState
from .storage import Append, Store, Writer, libpq_url, migrate, sqlalchemy_url

log = logging.getLogger("unokit.server")

#: Room codes: six characters without look-alikes (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Seconds a process waits for the owner of a room to answer a forwarded message.
FORWARD_TIMEOUT = 5.0


@dataclass
class ServerConfig:
    """Everything ``unokit serve`` can be told (``docs/server.md``, "Options")."""

    database: str
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    lease_seconds: float = 10.0
    idle_close_seconds: float = 1800.0
    sweep_seconds: float = 30.0
    rate: float = 20.0
    burst: float = 60.0
    room_connections: int = 64
    max_connections: int = 20000
    send_buffer: int = DEFAULT_SEND_BUFFER
    sqlite_synchronous: str = "NORMAL"
    node: str = field(default_factory=lambda: secrets.token_hex(8))

    @property
    def base_url(self) -> str:
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")


class Hub:
    """The rooms of this process and everything they share: storage, writer, cluster link.
    It is the :class:`~unokit.server.authority.Host` of its rooms."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.node = config.node
        self.store = Store(config.database, synchronous=config.sqlite_synchronous)
        self.writer: Writer | None = None
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.connections = 0
        self.local_peers: dict[str, Peer] = {}  # conn_id -> peer, for replies to forwarded messages
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._lock_file: IO[str] | None = None
        self._listen: Any = None
        self._send: Any = None
        self._outgoing: list[str] = []  # notifications waiting for the sender task
        self._wake_sender = asyncio.Event()
        self.ready = False

    @property
    def clustered(self) -> bool:
        return self.store.postgres

    # ------------------------------------------------------------------ life cycle
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
        self.writer = Writer(self.store)
        if self.clustered:
            import psycopg

            url = libpq_url(sqlalchemy_url(self.config.database))
            self._listen = await psycopg.AsyncConnection.connect(url, autocommit=True)
            self._send = await psycopg.AsyncConnection.connect(url, autocommit=True)
            await self._listen.execute("LISTEN unokit")
            self._tasks.append(asyncio.create_task(self._listener(), name="unokit-listen"))
            self._tasks.append(asyncio.create_task(self._sender(), name="unokit-notify"))
        self._tasks.append(asyncio.create_task(self._sweeper(), name="unokit-sweep"))
        self.ready = True

    async def stop(self) -> None:
        self.ready = False
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for room in list(self.rooms.values()):
            await room.stop()
        if self.writer is not None:
            await asyncio.to_thread(self.writer.stop)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.release, self.node)
        for conn in (self._listen, self._send):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
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

    # ------------------------------------------------------------------ rooms
    async def create_room(self, request: dict[str, Any]) -> dict[str, Any]:
        """Create a room from an HTTP request body; raise :class:`RoomError` ``bad_room``."""
        unknown = set(request) - {"variant", "players", "options", "settings", "bots"}
        if unknown:
            raise RoomError("bad_room", f"unknown field(s) {', '.join(sorted(unknown))}")
        spec = RoomSpec.build(
            request.get("variant", "classic"), request.get("players"), request.get("options"), request.get("settings")
        )
        bots = request.get("bots", [])
        if not isinstance(bots, list) or not all(isinstance(bot, str) for bot in bots):
            raise RoomError("bad_room", "'bots' must be a list of bot names, one per bot seat")
        if len(bots) > spec.players - 1:
            raise RoomError("bad_room", f"'bots' may fill at most {spec.players - 1} of the {spec.players} seats")
        for bot in bots:
            RoomState.check_bot(bot)
        host = new_token()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if await asyncio.to_thread(self.store.create_room, code, spec.to_json(), token_hash(host)):
                break
        else:
            raise RoomError("unavailable", "no free room code was found; try again")
        if bots:
            room = await self.room(code)
            if room is None:
                raise RoomError("unavailable", "the new room could not be opened; try again")
            seated: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            room.submit("seat_bots", bots, seated)
            await seated
        return {
            "room": code,
            "link": f"{self.config.base_url}/r/{code}",
            "websocket": f"{self.config.base_url.replace('http', 'ws', 1)}/ws",
            "host_token": host,
            "spec": spec.to_json(),
        }

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
        row = await asyncio.to_thread(self.store.room, code)
        if row is None or row.closed:
            return None
        state = RoomState(code, RoomSpec.from_json(row.spec))
        for _seq, entry in await self.load_log(code, 0):
            state.apply(entry)
        if state.phase == CLOSED:
            return None
        owner = await asyncio.to_thread(
            self.store.claim, code, self.node, self.config.base_url, self.config.lease_seconds, force=not self.clustered
        )
        room = Room(self, state, row.host_hash, owner=False)
        room.owner_node = self.node if owner else row.owner
        self.rooms[code] = room
        if owner:
            room.submit("become_owner")
        return room

    async def load_log(self, code: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        return await asyncio.to_thread(self.store.log, code, after)

    async def writer_append(self, job: Append) -> None:
        assert self.writer is not None
        await self.writer.append(job)

    def dropped(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            asyncio.get_running_loop().create_task(room.stop())

    # ------------------------------------------------------------------ the cluster
    def published(self, room: Room) -> None:
        if self.clustered:
            self._notify({"k": "log", "room": room.code, "seq": room.state.seq, "rt": room.runtime_info()})

    def presence(self, room: Room) -> None:
        if self.clustered and not room.owner:
            seats = sorted({p.seat for p in room.peers.values() if p.seat is not None})
            owner = room.owner_node
            self._notify({"k": "presence", "to": owner, "room": room.code, "from": self.node, "seats": seats})

    def forward(self, room: Room, peer: Peer, message: dict[str, Any]) -> None:
        """Send a client's message to the process that owns ``room``; answer ``unavailable``
        if it does not reply in time (it may have died: a takeover follows)."""
        owner = room.owner_node
        self.local_peers[peer.conn_id] = peer
        self._notify(
            {
                "k": "fwd",
                "to": owner,
                "from": self.node,
                "room": room.code,
                "conn": peer.conn_id,
                "seat": peer.seat,
                "msg": message,
            }
        )
        key = f"{peer.conn_id}:{message.get('id')}:{time.monotonic()}"

        def expire() -> None:
            if self._pending.pop(key, None) is not None:
                peer.deliver(
                    error("unavailable", "the process that runs this room did not answer; try again", message.get("id"))
                )

        self._pending[key] = asyncio.get_running_loop().call_later(FORWARD_TIMEOUT, expire)
        setattr(peer, "pending_forward", key)  # noqa: B010 - local peers have the attribute

    def _notify(self, payload: dict[str, Any]) -> None:
        """Send ``payload`` to the other processes, after every payload sent before it."""
        self._outgoing.append(encode(payload))
        self._wake_sender.set()

    async def _sender(self) -> None:
        """Send the queued notifications in order. All that queue up while one ``pg_notify``
        is on its way go together in the next one, as a JSON array (at most
        :data:`NOTIFY_BYTES` a notification): one round trip for many rooms' steps."""
        while True:
            await self._wake_sender.wait()
            self._wake_sender.clear()
            while self._outgoing:
                waiting, self._outgoing = self._outgoing, []
                for text in _notification_texts(waiting):
                    try:
                        await self._send.execute("SELECT pg_notify('unokit', %s)", (text,))
                    except Exception:
                        log.exception("cannot notify the other processes")

    async def _listener(self) -> None:
        async for note in self._listen.notifies():
            try:
                payloads = decode(note.payload)
            except ValueError:
                log.exception("bad notification %r", note.payload[:200])
                continue
            for payload in payloads if isinstance(payloads, list) else [payloads]:
                try:
                    await self._on_notify(payload)
                except Exception:
                    log.exception("bad notification %r", encode(payload)[:200])

    async def _on_notify(self, payload: dict[str, Any]) -> None:
        kind = payload.get("k")
        code = payload.get("room", "")
        if kind == "log":
            room = self.rooms.get(code)
            if room is not None and not room.owner:
                room.runtime = payload.get("rt", {})
                room.submit("sync_log", payload["seq"])
            return
        if payload.get("to") != self.node:
            return
        if kind == "fwd":
            room = await self.room(code)
            remote = RemotePeer(self, payload["from"], payload["conn"], payload.get("seat"))
            if room is None or not room.owner:
                remote.deliver(
                    error("unavailable", "this room moved to another process; try again", payload["msg"].get("id"))
                )
                return
            message = payload["msg"]
            room.submit("hello" if message["type"] == "hello" else "msg", remote, message)
        elif kind == "reply":
            self._on_reply(payload)
        elif kind == "presence":
            room = self.rooms.get(code)
            if room is not None and room.owner:
                room.submit("remote_presence", payload["from"], payload["seats"])

    def _on_reply(self, payload: dict[str, Any]) -> None:
        peer = self.local_peers.get(payload["conn"])
        if peer is None:
            return
        key = getattr(peer, "pending_forward", None)  # set by forward() on local peers
        handle = self._pending.pop(key, None) if key else None
        if handle is not None:
            handle.cancel()
        message = payload["msg"]
        room = getattr(peer, "room", None)
        if room is None:
            return
        if message.get("type") == "welcome":
            # the owner seated this client: follow the room to the join, then seat it here
            room.submit("seat_remote", peer, message)
        else:  # an ack or an error: follow the room first, so the client's state is current
            room.submit("remote_reply", peer, message)

    # ------------------------------------------------------------------ the sweeper
    async def _sweeper(self) -> None:
        period = self.config.lease_seconds / 3 if self.clustered else self.config.sweep_seconds
        period = min(period, self.config.sweep_seconds)
        while True:
            await asyncio.sleep(period)
            try:
                await self._sweep()
            except Exception:
                log.exception("the sweep failed")

    async def _sweep(self) -> None:
        now = time.time()
        owned = [code for code, room in self.rooms.items() if room.owner]
        if self.clustered:
            held = await asyncio.to_thread(self.store.renew, self.node, owned, self.config.lease_seconds)
            for code in owned:
                if code not in held:  # another process took it: follow it from now on
                    room = self.rooms.get(code)
                    if room is not None:
                        room.owner = False
            for code, room in list(self.rooms.items()):
                if room.owner:
                    continue
                row = await asyncio.to_thread(self.store.room, code)
                if row is None or row.closed:
                    continue
                room.owner_node = row.owner
                if row.lease_until < now and await asyncio.to_thread(
                    self.store.claim, code, self.node, self.config.base_url, self.config.lease_seconds
                ):
                    log.info("room %s: taking over from %s", code, row.owner)
                    room.owner_node = self.node
                    room.submit("become_owner")
        idle = self.config.idle_close_seconds
        for room in list(self.rooms.values()):
            if room.owner and not room.peers and time.monotonic() - room.last_active > idle:
                room.submit("close_idle")
        for code in await asyncio.to_thread(self.store.idle_rooms, now - idle):
            if code not in self.rooms:
                await self._close_stored(code)

    async def _close_stored(self, code: str) -> None:
        row = await asyncio.to_thread(self.store.room, code)
        if row is None or row.closed:
            return
        with contextlib.suppress(Exception):
            await self.writer_append(Append(code, row.seq, [{"type": "close", "reason": "idle"}], close=True))


#: The longest notification text sent (PostgreSQL refuses payloads of 8000 bytes or more).
NOTIFY_BYTES = 7800


def _notification_texts(payloads: list[str]) -> list[str]:
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


class RemotePeer(RemoteMarker):
    """A client of another process, as the owner of its room sees it: replies go back over
    the notification channel, to be delivered by that process."""

    def __init__(self, hub: Hub, node: str, conn_id: str, seat: int | None) -> None:
        self.hub = hub
        self.node = node
        self.conn_id = conn_id
        self.seat = seat
        self.role = "player" if seat is not None else "spectator"

    def deliver(self, message: dict[str, Any] | str) -> None:
        body = decode(message) if isinstance(message, str) else message
        if body.get("type") == "error":
            body = {k: v for k, v in body.items() if k != "state"}  # the client's process adds its own
        elif body.get("type") not in ("welcome", "ack"):
            return  # state updates reach the other process through the room's log
        self.hub._notify({"k": "reply", "to": self.node, "conn": self.conn_id, "msg": body})

    def close(self, reason: str) -> None:
        return None


__all__ = ["Hub", "RoomError", "ServerConfig"]
