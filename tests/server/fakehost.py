"""A room in this process, through a fake of its host interface (:class:`~unokit.server.peers.Host`):
the real :class:`~unokit.server.authority.Room` (its queue, its commit, its seating, pacing and
telling) over a log kept in a list, with no database, no hub and no websocket. For a room's
rules of seating, turns, timers and what each seat is told; what needs the hub, the store or
the network stays with the in-process application (:mod:`.inprocess`) and the real server.

Everything here runs on the test's event loop (:func:`.support.run`); a peer's messages are
awaited (:meth:`FakePeer.wait_for`), never a fixed time.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unokit.core.actions import Action
from unokit.core.observation import View
from unokit.server.authority import Room
from unokit.server.entries import entry_of
from unokit.server.items import Arrived, BecomeOwner, Said
from unokit.server.messages import ClientMessage
from unokit.server.metrics import Metrics
from unokit.server.peers import token_hash
from unokit.server.protocol import RateLimit
from unokit.server.room import RoomError, RoomSpec, RoomState
from unokit.server.seam import RoomMessage
from unokit.server.storage import Append

_conn_ids = itertools.count(1)


@dataclass
class FakePeer:
    """A client connection whose messages are kept in :attr:`received` as they are delivered."""

    name: str | None = None
    client: str = "127.0.0.1"
    player: str | None = None
    conn_id: str = field(default_factory=lambda: f"fake-{next(_conn_ids)}")
    seat: int | None = None
    role: str = "player"
    holder: str | None = None
    visible: bool = True
    #: The seat's token, from its welcome (:meth:`FakeRoom.hello`).
    token: str | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    closed: str | None = None
    #: The latest ``state`` delivered (a refusal's state included).
    state: dict[str, Any] | None = None
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def deliver(self, message: dict[str, Any] | str) -> None:
        # A room encodes a message told to many once, and delivers the text.
        told: dict[str, Any] = json.loads(message) if isinstance(message, str) else message
        self.received.append(told)
        if told.get("type") == "state":
            self.state = told
        elif told.get("type") == "error" and told.get("state") is not None:
            self.state = told["state"]
        self._arrived.set()

    def close(self, reason: str, code: int = 1000) -> None:
        self.closed = reason

    async def _until(self, found: Callable[[], dict[str, Any] | None], timeout: float) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                self._arrived.clear()
                answer = found()
                if answer is not None:
                    return answer
                await self._arrived.wait()

    async def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
        """The latest state, once ``predicate`` holds for it (the state in hand, or a later one)."""
        return await self._until(
            lambda: self.state if self.state is not None and predicate(self.state) else None, timeout
        )

    async def answered(self, which: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
        """The first message delivered, so far or from now on, that is ``which``."""
        return await self._until(lambda: next((m for m in self.received if which(m)), None), timeout)

    async def answer_to(self, ident: int, timeout: float = 30.0) -> dict[str, Any]:
        """The message that replies to request ``ident`` (its ``ack``, ``error`` or state)."""
        return await self.answered(lambda m: m.get("reply_to") == ident, timeout)


@dataclass
class FakeHost:
    """The host interface of a room over lists: what the room wrote (:attr:`jobs`), its log,
    its chat and its seats' identities; a bot thinks on the test's event loop at once."""

    node: str = "fake-node"
    public_seats: int = 2
    message_rate: tuple[float, float] = (20.0, 60.0)
    jobs: list[Append] = field(default_factory=list)
    log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    links: dict[tuple[str, str], str] = field(default_factory=dict)
    banned_clients: set[str] = field(default_factory=set)
    told_entries: list[dict[str, Any]] = field(default_factory=list)
    _metrics: Metrics = field(default_factory=Metrics)

    async def writer_append(self, job: Append) -> None:
        self.jobs.append(job)
        self.log += [(job.after + i + 1, entry) for i, entry in enumerate(job.entries)]
        if job.chat:
            self.chat += job.chat

    async def load_log(self, code: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        return [(seq, entry) for seq, entry in self.log if seq > after]

    async def load_chat(self, code: str) -> list[dict[str, Any]]:
        return list(self.chat)

    async def link_player(self, code: str, token_hash: str, player_hash: str) -> None:
        self.links[(code, token_hash)] = player_hash

    def chat_limit(self, share: float = 1.0) -> RateLimit:
        return RateLimit(100.0 * share, 100.0 * share)

    def chat_published(self, room: Room, message: dict[str, Any]) -> None:
        pass

    def published(self, room: Room, *, everyone: bool = False) -> None:
        pass

    def forward(self, room: Room, peer: Any, message: dict[str, Any]) -> None:
        raise AssertionError("a room of one process forwards nothing")

    async def refused(self, room: Room) -> None:
        raise AssertionError("the fake's writes are never refused")

    def presence(self, room: Room) -> None:
        pass

    def dropped(self, room: Room) -> None:
        pass

    def told(self, room: Room, entries: list[dict[str, Any]]) -> None:
        self.told_entries += entries

    def looked(self, room: Room) -> None:
        pass

    def admit(self, room: Room, name: str, player: str | None) -> None:
        pass

    def room_message(self, kind: type[ClientMessage]) -> RoomMessage:
        raise RoomError("no_route", f"no feature answers {kind.__name__} in a fake host")

    @property
    def metrics(self) -> Metrics:
        return self._metrics

    async def think(self, room: str, act: Callable[[View], Action], view: View) -> Action:
        return act(view)

    def think_delay(self, room: str) -> float:
        return 0.0

    def banned(self, client: str, player: str | None) -> bool:
        return client in self.banned_clients

    async def chat_allowed(self, client: str) -> bool:
        return True

    async def identities(self, code: str) -> dict[str, str]:
        return {token: player for (room, token), player in self.links.items() if room == code}

    async def may_list(self, room: Room) -> bool:
        return True


@dataclass
class FakeRoom:
    """A room over a :class:`FakeHost`, owned, with ``host_token`` its host's token."""

    room: Room
    host: FakeHost
    host_token: str
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def hello(self, peer: FakePeer, **message: Any) -> dict[str, Any]:
        """Say hello for ``peer``: its first state, or the ``error`` that refused it."""
        self.room.submit(Arrived(peer, {"type": "hello", "room": self.room.code, **message}))
        answer = await peer.answered(lambda m: m["type"] in ("welcome", "error"))
        if answer["type"] == "error":
            return answer
        peer.token = answer.get("token")
        return await peer.wait_for(lambda _state: True)

    async def say(self, peer: FakePeer, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``peer``'s room message and return the answer to it."""
        ident = next(self._ids)
        self.room.submit(Said(peer, {**message, "id": ident}))
        return await peer.answer_to(ident)

    def rebuilt(self) -> RoomState:
        """The room's state folded again from the log it wrote (as a process loading it would)."""
        state = RoomState(self.room.code, self.room.state.spec)
        for _seq, entry in self.host.log:
            state.apply(entry_of(entry))
        return state


async def fake_room(spec: RoomSpec, code: str = "FAKE01", host: FakeHost | None = None) -> FakeRoom:
    """A new room of ``spec`` on ``host`` (a new :class:`FakeHost` by default) that takes itself
    over as its owner first in its queue (as a loaded room does), so whatever is submitted next
    finds it owned."""
    host = host or FakeHost()
    host_token = f"host-token-of-{code}"
    room = Room(host, RoomState(code, spec), token_hash(host_token), owner=False)
    room.submit(BecomeOwner())
    return FakeRoom(room, host, host_token)


__all__ = ["FakeHost", "FakePeer", "FakeRoom", "fake_room"]
