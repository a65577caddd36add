"""The room authority: one ordered queue per room for client messages, timers and bot moves.

A :class:`Room` owns a :class:`~unokit.server.room.RoomState` and a worker task that takes one
item at a time from the room's queue: a client's hello or message, a timer, a bot's move. Nothing
else changes the room, so two messages can never interleave, and every timer carries the state
version it was set for: when it fires after the room has moved on it does nothing.

Every change is applied to the in-memory state first (the engine refuses an illegal action and
changes nothing), then committed to the database, and only then told to anyone: each seat gets
its own ``observe(seat)`` and ``redact(events, seat)``, spectators the public view. A change the
database refuses is forgotten by rebuilding the room from what was committed.

The room that another process owns (PostgreSQL, ``docs/server.md``) is followed here as a
*replica*: its clients' messages are forwarded to the owner, and committed log entries are
folded in as the owner's notifications announce them.

The room's chat (:mod:`.chat`) goes through the same queue and is committed the same way, to a
log of its own: a message never changes the room's state version.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .. import Event, InvalidActionError, UnokitError, redact
from ..bots import Bot, make_bot
from ..bots.habits import ForgetfulBot
from ..bots.levels import LEVELS, for_people
from ..core.actions import CATCH, UNO, Action
from ..core.observation import View
from ..core.position import exposed_seat, jumps_may_come
from ..narration import Narrator, side_before
from . import PROTOCOL
from .chat import (
    LIVE_PHASES,
    PLAYERS,
    REPORTS,
    SPECTATORS,
    SPECTATORS_SHARE,
    ChatState,
    check_reaction,
    check_text,
    history,
    visible,
)
from .hints import give_hint
from .metrics import Metrics
from .protocol import SEAT_LOST, RateLimit, encode, error, fragment
from .ratings import LEFT_AFTER
from .room import CLOSED, FINISHED, HAND_OVER, LOBBY, PLAYING, RoomError, RoomState, bot_spec, sender
from .storage import Append, StorageError
from .web import round_summary

if TYPE_CHECKING:
    from .daily import DealSeeds

log = logging.getLogger("unokit.server")

#: A bot whose moves take long enough to be thought in the bot pool (:mod:`.botpool`): the
#: searches, and the levels that play them.
SLOW_BOTS = frozenset({"ismcts", "ismcts_fast"}) | {
    name for name, level in LEVELS.items() if level.bot == "ismcts_fast"
}
#: Queue items that are people's doing: only they keep a room from being idle.
PEOPLE = frozenset({"hello", "msg", "gone", "remote_presence"})


def token_hash(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex): tokens themselves are never stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


#: A player identity (a browser's secret, ``hello``'s ``player``) is what the clients make:
#: :data:`IDENTITY_BYTES` random bytes in URL-safe base64 without padding (43 characters).
IDENTITY_BYTES = 32
IDENTITY_LENGTH = 43
#: The fewest different byte values an identity's bytes have: random ones have 30 on average,
#: and fewer than 16 once in more than 10^12; a made-up one ("AAAA...") has one or two.
IDENTITY_VARIETY = 16


def identity_hash(player: object) -> str:
    """The stored form of a player identity; raise :class:`RoomError` ``bad_player`` when it is
    not one of the form the clients make (:data:`IDENTITY_BYTES` random bytes, base64url), or
    plainly not random (:data:`IDENTITY_VARIETY`)."""
    secret = None
    if isinstance(player, str) and len(player) == IDENTITY_LENGTH and player.isascii():
        with contextlib.suppress(ValueError):
            secret = base64.urlsafe_b64decode(player + "=")
    if secret is None or base64.urlsafe_b64encode(secret).rstrip(b"=").decode() != player:
        raise RoomError(
            "bad_player",
            f"a player identity is {IDENTITY_BYTES} random bytes in URL-safe base64 "
            f"({IDENTITY_LENGTH} letters, digits, '-' or '_'): a secret the browser makes",
        )
    if len(set(secret)) < IDENTITY_VARIETY:
        raise RoomError("bad_player", "this player identity is not a random secret: let the browser make one")
    return token_hash(player)


class Peer(Protocol):
    """A client connection: a local websocket, or one that another process forwards.

    ``holder`` is the token hash of the player the connection sits for: a connection is bound
    to its seat's occupant, not to the seat number, so that the moment the seat changes hands
    (a kick, a bot put in, a leave) the connection is ended before it is sent anything more.
    """

    conn_id: str
    seat: int | None
    role: str
    holder: str | None
    name: str | None  # a spectator's name in the chat (players are named by their seat)
    client: str  # the client's address, as per-client limits count it (:func:`~.edge.client_key`)
    player: str | None  # the hash of the identity its hello gave, if any
    visible: bool  # its page shows the table (the page says when it is hidden: ``visibility``)

    def deliver(self, message: dict[str, Any] | str) -> None:
        """Queue a message for the client (never blocks; a client too slow to read is dropped)."""

    def close(self, reason: str, code: int = 1000) -> None:
        """Close the connection after the queued messages, with close ``code`` and ``reason``."""


class Host(Protocol):
    """What a room needs from the process that runs it (:class:`unokit.server.hub.Hub`)."""

    node: str

    async def writer_append(self, job: Append) -> None: ...

    async def load_log(self, code: str, after: int) -> list[tuple[int, dict[str, Any]]]: ...

    async def load_chat(self, code: str) -> list[dict[str, Any]]:
        """Room ``code``'s chat-log entries, in order."""
        ...

    async def link_player(self, code: str, token_hash: str, player_hash: str) -> None:
        """Store that the seat token ``token_hash`` of room ``code`` belongs to an identity."""

    def chat_limit(self, share: float = 1.0) -> RateLimit:
        """A fresh rate limit for one sender's chat messages (``--chat-rate``, ``--chat-burst``),
        or, with ``share``, for a group of senders: that many times as much."""
        ...

    def chat_published(self, room: Room, message: dict[str, Any]) -> None:
        """The owner committed a chat message: let other processes' clients see it."""

    def published(self, room: Room, *, everyone: bool = False) -> None:
        """The owner committed and told its own clients: let the processes that follow the room
        catch up (``everyone``: also those it does not know of yet, after a takeover)."""

    def forward(self, room: Room, peer: Peer, message: dict[str, Any]) -> None: ...

    async def refused(self, room: Room) -> None:
        """A write of ``room``, owned here, was refused: when another process holds the room's
        lease now, this process follows the room from here on (``room.owner`` is false)."""

    def presence(self, room: Room) -> None: ...

    def dropped(self, room: Room) -> None: ...

    def told(self, room: Room, entries: list[dict[str, Any]]) -> None:
        """The owner committed ``entries`` and told its clients: who is notified (:mod:`.notices`)."""

    def looked(self, room: Room) -> None:
        """Who looks at the owner's table may have changed (:mod:`.notices`)."""

    @property
    def metrics(self) -> Metrics:
        """The process's metrics (:mod:`.metrics`)."""
        ...

    async def think(self, room: str, act: Callable[[View], Action], view: View) -> Action:
        """``act(view)`` in the bot pool, charged to ``room``'s CPU budget."""
        ...

    def think_delay(self, room: str) -> float:
        """Seconds ``room``'s next bot move must wait for its CPU budget."""
        ...

    #: The seats one client address may hold at a public table (``--public-seats``).
    public_seats: int

    def banned(self, client: str, player: str | None) -> bool:
        """Whether the address ``client`` or the identity ``player`` is banned (``unokit admin ban``)."""
        ...

    def chat_allowed(self, client: str) -> bool:
        """Take one chat message from the address ``client``'s allowance across every room."""
        ...

    def report_allowed(self, client: str) -> bool:
        """Take one report from the address ``client``'s allowance."""
        ...

    async def keep_report(self, report: dict[str, Any]) -> None:
        """Store a player's report (:meth:`.storage.Store.add_report`'s fields)."""

    async def identities(self, code: str) -> dict[str, str]:
        """The identity (hash) linked to each seat token (hash) of room ``code``."""
        ...

    async def may_list(self, room: Room) -> bool:
        """Whether ``room``'s creator may have one more public room open (``--public-rooms``)."""
        ...


@dataclass
class Automatic:
    """A bot playing a seat: the seat's own bot, or a stand-in for an away player."""

    bot: Bot
    name: str
    game_no: int


class Room:
    """One room in this process: its state, its connected peers and its ordered queue."""

    def __init__(self, host: Host, state: RoomState, host_hash: str, *, owner: bool) -> None:
        self.host = host
        self.state = state
        self.host_hash = host_hash
        self.owner = owner
        self.code = state.code
        self.peers: dict[str, Peer] = {}
        #: Connections let in (their hello is queued or was answered with a seat or a place as a
        #: spectator): what the per-room connection cap counts, at once, as hellos arrive.
        self.admitted: set[str] = set()
        self.remote_watchers: dict[str, int] = {}  # node -> connections there (owner only)
        self.paused = False  # bots and timers wait: nobody is connected
        self._presence_due = False
        self.occupants = self._occupants()
        self.remote_seats: dict[str, set[int]] = {}  # node -> seats connected there (owner only)
        self.remote_looking: dict[str, set[int]] = {}  # node -> seats whose page shows the table there
        self.queue: asyncio.Queue[tuple[float, tuple[Any, ...]]] = asyncio.Queue()
        self.taken_at = 0.0  # when the item being handled entered the queue (monotonic)
        self.away: set[int] = set()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.grace: dict[int, asyncio.TimerHandle] = {}
        self.deferred: list[tuple[Peer, dict[str, Any]]] = []
        self.hold_until: float | None = None  # loop time until which in-turn actions wait
        self.held: frozenset[tuple[Any, ...]] = frozenset()  # the open windows that have had their hold
        self.deadline: float | None = None  # wall-clock deadline of the seat to act
        self.continue_at: float | None = None
        self.catch_until: float | None = None
        self.jump_until: float | None = None
        self.last_accepted: dict[int, tuple[int, str]] = {}
        self.automatic: dict[int, Automatic] = {}
        self.last_active = time.monotonic()
        self.runtime: dict[str, Any] = {}  # a replica's copy of the owner's timers and presence
        self.owner_node: str | None = None  # the process that owns the room
        self.chat = ChatState()
        self.chat_limits: dict[int | str, RateLimit] = {}  # a seat, or a spectator's connection
        #: What the lobby knows of the room as last stored: whether it is public, its listing
        #: and the people seated (``...``: not known, store the next one).
        self.listed: object = ...
        self.fill_at: float | None = None  # loop time when bots take the open seats (fill_seconds)
        self.fill_until: float | None = None  # the same on the wall clock, for the pages
        #: What is known of the person behind each seat token (hash), from their hellos: their
        #: address, their identity (hash) and their marks (:meth:`marks`).
        self.addresses: dict[str, str] = {}
        self.identity_of: dict[str, str] = {}
        self.seat_marks: dict[str, set[str]] = {}
        #: The identity (hash) behind each name messages went by (``from``), for reports.
        self.senders: dict[str, str | None] = {}
        self.creator: str | None = None  # the address that created the room (public rooms' cap)
        #: A daily room's seeds (``docs/daily.md``): its games, bots and bots' decisions are the
        #: deal's; ``None``: fresh random seeds.
        self.seeds: DealSeeds | None = None
        self.task = asyncio.get_running_loop().create_task(self._work(), name=f"room-{self.code}")

    # ------------------------------------------------------------------ the queue
    def submit(self, *item: Any) -> None:
        self.queue.put_nowait((time.monotonic(), item))

    async def _work(self) -> None:
        while True:
            self.taken_at, item = await self.queue.get()
            if item[0] == "stop":
                return
            try:
                await self._handle(item)
            except Exception:  # a bug must not take the room (or the server) down
                log.exception("room %s: failed to handle %s", self.code, item[0], extra={"room": self.code})

    async def stop(self) -> None:
        for handle in [*self.timers.values(), *self.grace.values()]:
            handle.cancel()
        self.submit("stop")
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    async def _handle(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        if kind in PEOPLE:  # bots and timers are not activity: a room nobody uses is idle
            self.last_active = time.monotonic()
        if kind == "hello":
            await self._hello(item[1], item[2])
        elif kind == "msg":
            await self._message(item[1], item[2])
        elif kind == "gone":
            await self._gone(item[1])
        elif kind == "timer":
            await self._timer(item[1], item[2], item[3])
        elif kind == "sync_log":
            await self._sync_log(item[1])
        elif kind == "remote_presence":
            self._remote_presence(item[1], item[2], item[3], *item[4:])
            await self._maybe_play_again()
        elif kind == "remote_chat":
            self.chat.add(item[1])
            self._deliver_chat([item[1]])
        elif kind == "become_owner":
            await self._become_owner()
        elif kind == "seat_remote":
            await self._seat_remote(item[1], item[2])
        elif kind == "remote_reply":
            await self._sync_log(-1)
            reply = item[2]
            if reply.get("type") == "error":
                reply = {**reply, "state": self._state_message(item[1].seat, [])}
            item[1].deliver(reply)
        elif kind == "seat_bots":
            await self._seat_bots(item[1], item[2])
        elif kind == "close_idle" and self.owner and not self.watched() and self.state.phase != CLOSED:
            with contextlib.suppress(RoomError):
                await self._commit([{"type": "close", "reason": "idle"}])
        elif kind == "admin_close" and self.owner and self.state.phase != CLOSED:
            with contextlib.suppress(RoomError):  # the room's clients are told, as for the host's close
                await self._commit([{"type": "close", "reason": "admin"}])

    def _remote_presence(
        self, node: str, seats: list[int] | None, watchers: int, looking: list[int] | None = None
    ) -> None:
        """The owner hears from a process that follows the room: the seats connected there, how
        many connections it has in the room (``None``: it stopped following) and the seats whose
        page shows the table there (a page brought back takes its seat back from the stand-in)."""
        before = self.remote_seats.get(node)
        looked_before = self.remote_looking.get(node, set())
        if seats is None:
            self.remote_seats.pop(node, None)
            self.remote_watchers.pop(node, None)
            self.remote_looking.pop(node, None)
        else:
            self.remote_watchers[node] = watchers
            self.remote_seats[node] = set(seats)
            self.remote_looking[node] = set(seats if looking is None else looking) & set(seats)
            for seat in seats:  # connected there: no grace period runs out for it
                handle = self.grace.pop(seat, None) if 0 <= seat < len(self.state.seats) else None
                if handle is not None:
                    handle.cancel()
            if before is None:
                self.host.published(self)  # a new follower: it catches up from here
        looked = self.remote_looking.get(node, set())
        for seat in looked - looked_before:
            if 0 <= seat < len(self.state.seats):
                self._returned(seat)
        if self.remote_seats.get(node) != before or looked != looked_before:
            self._presence_changed()
            for seat in (before or set()) - set(seats or ()):  # gone there: as a local drop
                if not self._connected(seat) and self.state.phase in (PLAYING, HAND_OVER):
                    self._start_grace(seat)

    async def _seat_remote(self, peer: Peer, welcome: dict[str, Any]) -> None:
        """The owner (another process) seated this process's client: follow the log to its
        join, then serve the client here."""
        await self._sync_log(-1)
        peer.seat = welcome.get("seat")
        peer.role = "player" if peer.seat is not None else "spectator"
        peer.holder = self._occupant(peer.seat)
        self.peers[peer.conn_id] = peer
        peer.deliver(welcome)
        self._presence_changed()
        peer.deliver(self._state_message(peer.seat, [], log=True))
        self._send_history(peer)

    # ------------------------------------------------------------------ messages
    async def _hello(self, peer: Peer, msg: dict[str, Any]) -> None:
        try:
            await self._welcome(peer, msg)
        except RoomError as exc:
            self.admitted.discard(peer.conn_id)  # a refused hello holds no place in the room
            peer.deliver(error(exc.code, exc.message, msg.get("id"), **exc.detail()))

    async def _welcome(self, peer: Peer, msg: dict[str, Any]) -> None:
        """Seat ``peer`` (or let it watch) and send it the room; raise :class:`RoomError`."""
        reply_to = msg.get("id")
        if self.state.phase == CLOSED:
            raise RoomError("room_closed", f"room {self.code} is closed")
        role = msg.get("role", "player")
        token, name = msg.get("token"), msg.get("name")
        is_host = "host_token" in msg and token_hash(msg["host_token"]) == self.host_hash
        if "host_token" in msg and not is_host:
            raise RoomError("bad_token", "the host token does not belong to this room")
        player = identity_hash(msg["player"]) if "player" in msg else None
        peer.player = player
        peer.visible = msg.get("visible", True)
        if self.state.public_room and self.host.banned(peer.client, player):
            raise RoomError("banned", "you are banned from this server's public rooms")
        spectator_name = self.state.check_name(name) if role == "spectator" and name is not None else None
        new_token_text: str | None = None
        if role == "spectator":
            seat = None
            peer.name = spectator_name
        elif role != "player":
            raise RoomError("bad_message", "'role' must be 'player' or 'spectator'")
        elif token is not None:
            found = self._seat_of(token)
            if found is None:
                raise RoomError("bad_token", "this token holds no seat in this room")
            seat = found
        elif not self.owner:
            self.host.forward(self, peer, msg)
            return
        else:
            seat, clean = self.state.check_join(name)
            self._check_newcomer(peer, player)
            new_token_text = new_token()
            entry: dict[str, Any] = {
                "type": "join",
                "seat": seat,
                "name": clean,
                "token_hash": token_hash(new_token_text),
            }
            if is_host:
                entry["host"] = True
            await self._commit([entry])
        if seat is not None:
            self._know(token_hash(new_token_text or token or ""), peer)
        if player is not None and seat is not None:
            # stored at every hello (a reconnect too): an identity forgotten meanwhile is known again
            try:
                await self.host.link_player(self.code, token_hash(new_token_text or token or ""), player)
            except StorageError:
                log.warning("room %s: the player's identity could not be stored", self.code, extra={"room": self.code})
        welcome: dict[str, Any] = {
            "type": "welcome",
            "protocol": PROTOCOL,
            "room": self.code,
            "role": peer.role,
            "seat": seat,
            "host": is_host,
        }
        if new_token_text is not None:
            welcome["token"] = new_token_text
        welcome["from"] = self._from(seat, peer)  # what this reader's chat messages go by
        if reply_to is not None:
            welcome["reply_to"] = reply_to
        if isinstance(peer, RemoteMarker):  # a join forwarded by another process: it seats its client
            peer.deliver(welcome)
            return
        peer.seat = seat
        peer.role = "player" if seat is not None else "spectator"
        peer.holder = self._occupant(seat)
        self.peers[peer.conn_id] = peer
        peer.deliver(welcome)
        if seat is not None:
            self._returned(seat, looking=peer.visible)
        self._presence_changed()
        peer.deliver(self._state_message(seat, [], log=True))
        self._send_history(peer)

    def _check_newcomer(self, peer: Peer, player: str | None) -> None:
        """Raise :class:`RoomError` when ``peer``'s person may not take another seat here: their
        identity holds one already (``already_seated``), or, at a public table, their address
        holds :attr:`Host.public_seats` (``too_many_seats``)."""
        seated = {seat.token_hash for seat in self.state.seats if seat.kind == "human" and seat.token_hash}
        if player is not None and any(self.identity_of.get(held) == player for held in seated):
            raise RoomError("already_seated", "you already hold a seat at this table: use it (or leave it first)")
        if self.state.public_room:
            mine = sum(1 for held in seated if self.addresses.get(held) == peer.client)
            if mine >= self.host.public_seats:
                raise RoomError(
                    "too_many_seats",
                    f"your address holds {mine} seats at this public table, the most it may",
                    most=self.host.public_seats,
                )

    def marks(self, peer: Peer) -> set[str]:
        """The names ``peer``'s person goes by in this room: their address's and, when their
        hello gave one, their identity's (:func:`~.room.sender`)."""
        found = {sender(self.code, f"address:{peer.client}")}
        if peer.player is not None:
            found.add(sender(self.code, peer.player))
        return found

    def _know(self, token: str, peer: Peer) -> None:
        """Remember who said hello for the seat token ``token``."""
        self.addresses[token] = peer.client
        if peer.player is not None:
            self.identity_of[token] = peer.player
        self.seat_marks.setdefault(token, set()).update(self.marks(peer))

    def _from(self, seat: int | None, peer: Peer) -> str:
        """The name the sender of a chat message goes by (``from``): the seat's occupant, or a
        spectator's identity (else address); remembered for reports."""
        if seat is not None:
            occupant = self.state.seats[seat].token_hash or ""
            name, identity = sender(self.code, occupant), self.identity_of.get(occupant)
        else:
            name = sender(self.code, peer.player or f"address:{peer.client}")
            identity = peer.player
        self.senders[name] = identity
        return name

    async def _message(self, peer: Peer, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        reply_to = msg.get("id")
        if peer.conn_id not in self.peers and not isinstance(peer, RemoteMarker):
            peer.deliver(error("not_joined", "say 'hello' first", reply_to))
            return
        if kind == "sync":
            peer.deliver(self._state_message(peer.seat, [], reply_to))
            return
        if kind == "visibility":
            self._visibility(peer, msg["visible"], reply_to)
            return
        if not self.owner:
            self.host.forward(self, peer, msg)
            return
        try:
            if kind == "action":
                if not await self._action(peer, msg):
                    return  # held: answered when the hold ends
                self.host.metrics.action_latency.observe(time.monotonic() - self.taken_at)
            elif kind == "host":
                await self._host_command(msg)
            elif kind == "back":
                self._returned(self._own_seat(peer, msg["token"]))
                self._presence_changed()
            elif kind == "leave":
                seat = self._own_seat(peer, msg["token"])
                entry = self.state.check_leave(seat)
                # This connection stays, as a spectator; every other one of the player's ends.
                peer.seat, peer.role, peer.holder = None, "spectator", None
                try:
                    await self._commit([entry])
                except RoomError:
                    peer.seat, peer.role, peer.holder = seat, "player", self._occupant(seat)
                    raise
            elif kind == "ready":
                seat = self._own_seat(peer, msg["token"])
                await self._commit([self.state.check_ready(seat, msg.get("ready", True))])
            elif kind == "chat":
                await self._chat(peer, msg)
            elif kind == "quiet":
                await self._quiet(peer, msg)
            elif kind == "report":
                await self._report(peer, msg)
            elif kind == "hint":
                await give_hint(self, peer, msg)
            else:
                raise RoomError("unknown_type", f"{kind!r} is not a room message")
        except RoomError as exc:
            peer.deliver(error(exc.code, exc.message, reply_to, self._state_message(peer.seat, []), **exc.detail()))
            return
        if reply_to is not None and kind in ("action", "host", "leave", "back", "ready", "chat", "quiet", "report"):
            peer.deliver({"type": "ack", "reply_to": reply_to, "version": self.state.seq})
        if kind in ("leave", "ready"):
            await self._maybe_play_again()

    def _visibility(self, peer: Peer, visible: bool, reply_to: object) -> None:
        """The connection's page is shown or hidden: who looks at the table (a process that
        follows the room tells its owner). A player whose page is shown again is back."""
        peer.visible = visible
        if visible and peer.seat is not None and self.owner:
            self._returned(peer.seat)
        self._presence_changed()
        if reply_to is not None:
            peer.deliver({"type": "ack", "reply_to": reply_to, "version": self.state.seq})

    def looking(self, seat: int) -> bool:
        """Whether a page of ``seat``'s player shows the table now, here or (for the owner) on
        another process (:mod:`.notices`)."""
        return any(p.seat == seat and p.visible for p in self.peers.values()) or any(
            seat in seats for seats in self.remote_looking.values()
        )

    def _occupant(self, seat: int | None) -> str | None:
        """The token hash of ``seat``'s player (``None``: a spectator's place, or no player)."""
        return None if seat is None else self.state.seats[seat].token_hash

    def _occupants(self) -> list[str | None]:
        """Who holds each seat: a player's token hash, a bot's name and seed, or ``None``."""
        return [seat.occupant() for seat in self.state.seats]

    def _settle_seats(self) -> None:
        """After entries were folded: forget what belonged to a seat's former occupant (its
        grace timer, stand-in, away mark, last action), and end every connection whose player no
        longer holds its seat (kicked, replaced by a bot, left from another connection). Such a
        connection is told ``seat_lost`` and closed with :data:`SEAT_LOST` before the room sends
        anyone anything more, so it never sees what the seat's next occupant may see."""
        occupants = self._occupants()
        for seat, (before, now) in enumerate(zip(self.occupants, occupants, strict=True)):
            if before != now:
                handle = self.grace.pop(seat, None)
                if handle is not None:
                    handle.cancel()
                self.away.discard(seat)
                self.automatic.pop(seat, None)
                self.last_accepted.pop(seat, None)
                for known in (self.addresses, self.identity_of, self.seat_marks):
                    known.pop(before or "", None)
        self.occupants = occupants
        for peer in list(self.peers.values()):
            if peer.seat is None or self._occupant(peer.seat) == peer.holder:
                continue
            del self.peers[peer.conn_id]
            self.admitted.discard(peer.conn_id)
            peer.deliver(error("seat_lost", "this seat is no longer yours: it was freed or given to someone else"))
            peer.close("seat lost", SEAT_LOST)
            peer.seat = None
            self._presence_changed()

    def _seat_of(self, token: str) -> int | None:
        wanted = token_hash(token)
        for index, seat in enumerate(self.state.seats):
            if seat.kind == "human" and seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return index
        return None

    def _own_seat(self, peer: Peer, token: str, claimed: int | None = None) -> int:
        if peer.seat is None:
            raise RoomError("spectator", "spectators cannot act; join as a player")
        seat = self._seat_of(token)
        if seat is None:
            raise RoomError("bad_token", "this token holds no seat in this room")
        if seat != peer.seat or (claimed is not None and claimed != peer.seat):
            raise RoomError("foreign_seat", f"this connection plays seat {peer.seat} and may act only for it")
        return seat

    async def _action(self, peer: Peer, msg: dict[str, Any], *, deferred: bool = False) -> bool:
        """Apply a seat's action, or hold it (return False) while a window's hold lasts: it is
        then applied or refused, and answered, when the hold ends."""
        seat = self._own_seat(peer, msg["token"], msg.get("seat"))
        state = self.state
        version, text = msg["version"], msg["action"]
        if version != state.seq:
            if self.last_accepted.get(seat) == (version, text):
                raise RoomError("duplicate", f"this action was already taken at version {version}")
            raise RoomError("stale", f"the action was decided at version {version}; the room is at {state.seq}")
        entry = state.check_action(seat, text)
        game = state.game
        assert game is not None
        if "decision" in msg and seat == game.to_act and msg["decision"] != game.decision:
            raise RoomError("stale", f"the open decision is {game.decision}, not {msg['decision']}")
        try:
            action = game.parse_action(text, seat)
        except InvalidActionError as exc:
            raise RoomError("invalid_action", str(exc), cause=exc) from None
        except UnokitError as exc:
            raise RoomError("illegal", str(exc), cause=exc) from None
        legal = game.legal_actions(seat)
        if action not in legal and seat != game.to_act:
            raise RoomError("out_of_turn", f"{text!r}: it is seat {game.to_act}'s decision ({game.decision})")
        in_turn = seat == game.to_act and action.kind not in (CATCH, UNO)
        if in_turn and not deferred and self.hold_until is not None:
            loop_now = asyncio.get_running_loop().time()
            if loop_now < self.hold_until:
                self.deferred.append((peer, msg))
                return False
        self._returned(seat)
        await self._commit([{**entry, "action": action.text}])
        self.last_accepted[seat] = (version, text)
        return True

    async def _host_command(self, msg: dict[str, Any]) -> None:
        if not secrets.compare_digest(token_hash(msg["host_token"]), self.host_hash):
            raise RoomError("not_host", "only the room's host may do that (the host token is wrong)")
        entry = self.state.check_host(msg["command"], msg.get("seat"), msg.get("bot"))
        if entry["type"] in ("mute", "unmute"):  # the chat's, not the room's: no version to match
            await self._mute(msg.get("seat"), entry["type"] == "mute")
            return
        if msg["version"] != self.state.seq:
            raise RoomError(
                "stale", f"the command was decided at version {msg['version']}; the room is at {self.state.seq}"
            )
        if entry["type"] == "bot":
            entry["seed"] = self._bot_seed(entry["seat"])
        listing = entry["type"] == "public" and entry["public"] and not self.state.public_room
        if listing and not await self.host.may_list(self):
            raise RoomError("too_many_rooms", "the room's creator has as many public rooms open as it may")
        if entry["type"] == "start":
            await self._commit(self._start_entries())
        else:
            await self._commit([entry])

    async def _seat_bots(self, bots: list[str], done: asyncio.Future[None]) -> None:
        """Seat the bots a new room was created with, at its last seats (the people who join take
        the first ones), one log entry each, before the room's link is handed out."""
        try:
            if not self.owner:
                raise RoomError("unavailable", "the room is served by another process; try again")
            first = len(self.state.seats) - len(bots)
            for index, bot in enumerate(bots, start=first):
                entry = self.state.check_host("add_bot", index, bot)  # named after the seats before it
                entry["seed"] = self._bot_seed(index)
                await self._commit([entry])
        except RoomError as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)

    def _start_entries(self) -> list[dict[str, Any]]:
        """A new game: the stand-in bot in every open seat (after a finished game, or when a
        room's ``fill_seconds`` ran out), then the ``start`` entry with a fresh seed."""
        state = self.state
        seeds = [secrets.randbits(62) for _ in range(state.open_seats())]
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        seed = secrets.randbits(63) if self.seeds is None else self.seeds.start()
        start = {"type": "start", "seed": seed, "at": at}
        return [*state.fill_entries(state.spec.settings.standin_bot, seeds), start]

    def _bot_seed(self, seat: int) -> int:
        """The seed of a bot put in ``seat``: fresh, or in a daily room the deal's."""
        return secrets.randbits(62) if self.seeds is None else self.seeds.bot(seat)

    async def _maybe_play_again(self) -> None:
        """After a game: start the next one once every player present has said "play again"."""
        if not self.owner or self.state.phase != FINISHED:
            return
        present = {seat for seat in range(len(self.state.seats)) if self._connected(seat)}
        if self.state.everyone_ready(present):
            with contextlib.suppress(RoomError):
                await self._commit(self._start_entries())

    async def _gone(self, peer: Peer) -> None:
        self.admitted.discard(peer.conn_id)
        if self.peers.pop(peer.conn_id, None) is None:
            return
        self._presence_changed()
        seat = peer.seat
        if seat is not None and self.owner and not self._connected(seat) and self.state.phase in (PLAYING, HAND_OVER):
            self._start_grace(seat)
        if seat is not None:
            await self._maybe_play_again()  # the one who had not said "play again" went away

    # ------------------------------------------------------------------ chat
    async def _chat(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A line or a reaction from a seat (the message carries its token) or a spectator."""
        state = self.state
        if ("text" in msg) == ("reaction" in msg):
            raise RoomError("bad_chat", "a chat message has either 'text' or 'reaction'")
        if "token" in msg:
            seat: int | None = self._own_seat(peer, msg["token"])
        elif peer.seat is not None:
            raise RoomError("bad_token", "a player's chat message carries the seat's token")
        else:
            seat = None
        if self.host.banned(peer.client, peer.player):
            raise RoomError("banned", "you are banned from this server's chat")
        if seat is None and peer.name is not None:
            state.check_name(peer.name)  # a player may have sat down with that name since
        occupant = state.seats[seat].token_hash if seat is not None else None
        marks = self.marks(peer) | self.seat_marks.get(occupant or "", set())
        if self.chat.is_muted(seat, occupant, marks):
            whom = "your seat" if seat is not None else "spectators"
            raise RoomError("muted", f"{whom} may not write in this room's chat now")
        # A seat's allowance is the seat's; spectators' is their address's (reconnecting does
        # not renew it), and all of a room's spectators share one more; every room shares the
        # address's allowance across the server.
        limits = [self._allowance(seat if seat is not None else f"address:{peer.client}")]
        if seat is None:
            limits.append(self._allowance(SPECTATORS, SPECTATORS_SHARE))
        if not all(limit.allow() for limit in limits) or not self.host.chat_allowed(peer.client):
            raise RoomError("rate_limited", "too many chat messages: wait a moment")
        entry: dict[str, Any] = {
            "type": "say" if "text" in msg else "react",
            "seat": seat,
            "name": state.seats[seat].name if seat is not None else peer.name,
            "channel": PLAYERS if seat is not None else SPECTATORS,
            "game": state.game_no,
            "live": state.phase in LIVE_PHASES,
            "at": round(time.time(), 3),
            "from": self._from(seat, peer),
        }
        if "text" in msg:
            entry["text"] = check_text(msg["text"])
        else:
            entry["reaction"] = check_reaction(msg["reaction"])
        await self._commit_chat([entry])

    def _allowance(self, key: int | str, share: float = 1.0) -> RateLimit:
        """The chat allowance of ``key`` in this room (a seat, ``address:ADDRESS`` for its
        spectators, :data:`SPECTATORS` for all of them, ``share`` times one sender's)."""
        limit = self.chat_limits.get(key)
        if limit is None:
            limit = self.chat_limits[key] = self.host.chat_limit(share)
        return limit

    async def _mute(self, seat: object, muted: bool, by: int | None = None) -> None:
        """Mute or unmute the player at ``seat`` (their seat token and their marks), or every
        spectator (``seat`` ``None``; ``by``: the player of a room with no host who did it)."""
        entry: dict[str, Any] = {"type": "mute", "seat": seat, "who": None, "muted": muted}
        if isinstance(seat, int):
            who = self.state.seats[seat].token_hash
            if self.state.seats[seat].kind != "human" or who is None:
                raise RoomError("bad_seat", f"seat {seat} holds no player to mute")
            marks = self.seat_marks.get(who, set())
            spared = {held for held, known in self.seat_marks.items() if held != who and known & marks}
            entry.update(who=who, marks=sorted(marks), spared=sorted(spared))
        if by is not None:
            entry["by"] = by
        await self._commit_chat([entry])
        self._broadcast_room()
        self.host.published(self)

    async def _quiet(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A player of a room nobody hosts ("play now") quiets its spectators, or lets them talk."""
        seat = self._own_seat(peer, msg["token"])
        if self.state.spec.hosted:
            raise RoomError("not_host", "in a room with a host, only the host may quiet its spectators")
        if self.chat.spectators_muted == msg["quiet"]:
            return  # already so: nothing to write
        # Each change is written to the chat log: it counts as one of the seat's chat messages.
        if not self._allowance(seat).allow() or not self.host.chat_allowed(peer.client):
            raise RoomError("rate_limited", "too many changes: wait a moment")
        await self._mute(None, msg["quiet"], by=seat)

    async def _report(self, peer: Peer, msg: dict[str, Any]) -> None:
        """Keep a report of a chat line (``message``: its number), or of a name or a player's
        conduct (``seat``, or ``from``: a spectator's name in the chat): the room, who reported
        and who is reported (their identities), the name, and the chat lines around it."""
        about = msg["about"]
        if about not in REPORTS:
            raise RoomError("bad_report", f"'about' is one of {', '.join(REPORTS)}")
        if "token" in msg:
            self._own_seat(peer, msg["token"])
        kept = self.chat.messages
        if about == "chat":
            at = next((i for i, m in enumerate(kept) if m["n"] == msg.get("message")), None)
            if at is None:
                raise RoomError("bad_report", "'message' must be the number of a chat line of this room")
            line = kept[at]
            who, name, lines = line.get("from"), line.get("name"), kept[max(0, at - 5) : at + 6]
        elif isinstance(msg.get("seat"), int) and 0 <= msg["seat"] < len(self.state.seats):
            held = self.state.seats[msg["seat"]]
            if held.kind != "human" or held.token_hash is None:
                raise RoomError("bad_report", f"seat {msg['seat']} holds no player")
            who, name, lines = sender(self.code, held.token_hash), held.name, kept[-10:]
        elif msg.get("from") in self.senders:
            who = msg["from"]
            said = [m for m in kept if m.get("from") == who]
            name, lines = (said[-1].get("name") if said else None), kept[-10:]
        else:
            raise RoomError("bad_report", "say whom: 'seat' (a player's) or 'from' (a name in the chat)")
        if not self.host.report_allowed(peer.client):
            raise RoomError("rate_limited", "too many reports: wait a while")
        fields = ("n", "seat", "name", "channel", "text", "reaction", "at", "from")
        await self.host.keep_report(
            {
                "room": self.code,
                "kind": about,
                "reporter": peer.player,
                "reported": self.senders.get(who) if who else None,
                "name": name,
                "lines": [{key: m[key] for key in fields if key in m} for m in lines],
            }
        )

    async def _commit_chat(self, entries: list[dict[str, Any]]) -> None:
        """Write chat-log entries, then show their messages to whoever may see them."""
        await self._write(Append(self.code, self.state.seq, [], chat=entries, chat_after=self.chat.count))
        shown = [message for message in map(self.chat.apply, entries) if message is not None]
        self._deliver_chat(shown)
        for message in shown:
            self.host.chat_published(self, message)

    def _deliver_chat(self, messages: list[dict[str, Any]], *, only_players: bool = False) -> None:
        state = self.state
        for peer in list(self.peers.values()):
            if only_players and peer.seat is None:
                continue
            shown = [m for m in messages if visible(m, peer.seat, state.game_no, state.phase)]
            if shown:
                peer.deliver({"type": "chat", "messages": shown})

    def _send_history(self, peer: Peer) -> None:
        shown = history(self.chat, peer.seat, self.state.game_no, self.state.phase)
        peer.deliver({"type": "chat", "history": True, "messages": shown})

    def _game_ended(self, phase_before: str, game_before: int) -> None:
        """A live game is over: its spectators' messages join the players' chat."""
        if phase_before in LIVE_PHASES and self.state.phase not in LIVE_PHASES:
            kept = [
                m
                for m in self.chat.messages
                if m["channel"] == SPECTATORS and m.get("live") and m.get("game") == game_before
            ]
            if kept:
                self._deliver_chat(kept, only_players=True)

    def _start_grace(self, seat: int) -> None:
        old = self.grace.pop(seat, None)
        if old is not None:
            old.cancel()
        delay = self.state.spec.settings.grace_seconds
        self.grace[seat] = asyncio.get_running_loop().call_later(delay, self.submit, "timer", "grace", -1, seat)

    def _returned(self, seat: int, *, looking: bool = True) -> None:
        """``seat``'s player is here: cancel the grace timer, and when they look at the table
        (not a page reconnecting in the background), take the seat back from the stand-in."""
        handle = self.grace.pop(seat, None)
        if handle is not None:
            handle.cancel()
        if seat in self.away and looking:
            self.away.discard(seat)
            self.automatic.pop(seat, None)
            if self.owner:
                self._schedule()

    def _connected(self, seat: int) -> bool:
        return any(p.seat == seat for p in self.peers.values()) or any(seat in s for s in self.remote_seats.values())

    def watched(self) -> bool:
        """Whether anyone is connected to the room, here or (for its owner) on another process."""
        return bool(self.peers) or any(self.remote_watchers.values())

    def _presence_changed(self) -> None:
        """Someone came or went: tell the room once this burst of changes is over (a thousand
        hellos at once make one ``room`` message, not a thousand), and wake a paused room."""
        if not self._presence_due:
            self._presence_due = True
            asyncio.get_running_loop().call_soon(self._tell_presence)
        if self.owner and self.paused and self.watched():
            self.paused = False
            self._schedule()

    def _tell_presence(self) -> None:
        self._presence_due = False
        if not self.owner:
            self.host.presence(self)
        self._broadcast_room()
        if self.owner:
            self.host.looked(self)

    # ------------------------------------------------------------------ committing
    async def _commit(self, entries: list[dict[str, Any]]) -> None:
        """Fold ``entries`` (the engine judges actions here and refuses without a change), write
        them, and only then tell everyone. Raise :class:`RoomError` for a refusal."""
        state = self.state
        before = state.seq
        phase_before, game_before = state.phase, state.game_no
        events: list[Event] = []
        for i, entry in enumerate(entries):
            try:
                events += state.apply(entry)
            except RoomError:
                if i:  # only single entries are ever refused part-way; rebuild to be safe
                    await self.reload()
                raise
        job = Append(self.code, before, entries, close=state.phase == CLOSED)
        if state.phase == FINISHED and any(e["type"] == "game_end" for e in events):
            record = state.record()
            job.record = (state.game_no, record.dumps())
            job.game_seats = [(i, s.token_hash) for i, s in enumerate(state.seats) if s.token_hash is not None]
            job.left = [i for i, s in enumerate(state.seats) if s.kind == "human" and s.standin_moves >= LEFT_AFTER]
            job.game_summary = encode(
                {
                    "variant": record.variant,
                    "names": record.names,
                    "winners": record.result.winners if record.result else [],
                    "scores": record.result.scores if record.result else [],
                    "actions": len(record.actions),
                }
            )
        listing = state.listing()
        listed = (
            state.public_room and state.phase != CLOSED,
            None if listing is None else encode(listing),
            state.people(),
        )
        if listed != self.listed:
            job.listing = listed
        await self._write(job)
        self._count(entries, events)
        self.listed = listed
        self._settle_seats()  # first: nobody who lost a seat is told what comes next
        self._schedule()  # then: the state message carries the new deadlines
        self._broadcast(events)
        self._game_ended(phase_before, game_before)
        self.host.published(self)
        self.host.told(self, entries)
        if state.phase == CLOSED:
            # After the answer to the request that closed the room (sent once this returns).
            asyncio.get_running_loop().call_soon(self._close_peers)

    def _count(self, entries: list[dict[str, Any]], events: list[Event]) -> None:
        """Count committed ``entries`` and their ``events`` in the metrics."""
        metrics = self.host.metrics
        for entry in entries:
            kind = entry["type"]
            if kind == "action":
                metrics.actions.inc()
            elif kind == "start":
                metrics.games_started.inc()
            elif kind == "close":
                reason = str(entry.get("reason", "host"))
                metrics.rooms_closed.labels(reason=reason).inc()
                log.info("room %s: closed (%s)", self.code, reason, extra={"room": self.code})
        if any(event["type"] == "game_end" for event in events):
            metrics.games_finished.inc()

    async def _write(self, job: Append) -> None:
        """Commit ``job`` as this process, the room's owner; when the database refuses it
        (another process wrote the room's next step, or holds its lease now), follow the
        process that holds the lease if it is another one, rebuild the room from what is
        committed and raise :class:`RoomError`."""
        job.owner = self.host.node
        try:
            await self.host.writer_append(job)
        except StorageError as exc:
            log.warning("room %s: write refused (%s); reloading", self.code, exc, extra={"room": self.code})
            await self.host.refused(self)
            await self.reload()
            raise RoomError("unavailable", "the room could not be saved; nothing was done, try again") from None

    def _close_peers(self) -> None:
        """Tell every connection that the room is closed, close it, and drop the room."""
        for peer in list(self.peers.values()):
            peer.deliver({"type": "closed", "reason": self.state.closed_reason})
            peer.close("room closed")
        self.host.dropped(self)

    async def reload(self) -> None:
        """Rebuild the state from the committed log (after a refused write, or on a takeover)."""
        fresh = RoomState(self.code, self.state.spec)
        for _seq, entry in await self.host.load_log(self.code, 0):
            fresh.apply(entry)
        self.state = fresh
        self.automatic.clear()
        self.listed = ...
        await self._reload_chat()
        self._settle_seats()
        self._broadcast([])

    async def _reload_chat(self) -> None:
        """Fold the chat log again from what is committed (a room that follows another process
        sees its messages, not its other chat entries: the owner's numbering is read here)."""
        chat = ChatState()
        for entry in await self.host.load_chat(self.code):
            chat.apply(entry)
        self.chat = chat

    async def _sync_log(self, seq: int) -> None:
        """A replica catches up with the owner's committed entries (up to at least ``seq``)."""
        if seq <= self.state.seq and seq >= 0:
            self._broadcast_room()
            return
        events: list[Event] = []
        phase_before, game_before = self.state.phase, self.state.game_no
        for _seq, entry in await self.host.load_log(self.code, self.state.seq):
            events += self.state.apply(entry)
        self._settle_seats()
        self._broadcast(events)
        self._game_ended(phase_before, game_before)
        if self.state.phase == CLOSED:
            for peer in list(self.peers.values()):
                peer.deliver({"type": "closed", "reason": self.state.closed_reason})
                peer.close("room closed")
            self.host.dropped(self)

    async def _become_owner(self) -> None:
        """This process took the room over: fold what the old owner committed, then run it."""
        await self._sync_log(-1)
        await self._reload_chat()
        self.identity_of.update(await self.host.identities(self.code))
        self.owner = True
        self.runtime = {}
        self.remote_seats.clear()
        self.remote_watchers.clear()
        for seat in range(len(self.state.seats)):
            if self.state.seats[seat].kind == "human" and not self._connected(seat):
                self._start_grace(seat)
        self._schedule()
        self._broadcast_room()
        self.host.published(self, everyone=True)  # processes that follow the room learn its owner

    # ------------------------------------------------------------------ timers and bots
    def _timer_at(self, kind: str, delay: float, data: Any = None) -> None:
        self.timers[kind] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self.submit, "timer", kind, self.state.seq, data
        )

    def _is_automatic(self, seat: int) -> bool:
        return self.state.seats[seat].kind == "bot" or seat in self.away

    def _bot(self, seat: int, purpose: str = "") -> Automatic:
        """The bot that plays ``seat`` now. In a daily room, its RNG is set for the decision
        ``purpose`` from the deal and the moves so far, so the same history meets the same
        answer however often the room's timers are set again."""
        current = self._seat_bot(seat)
        if self.seeds is not None and purpose:
            current.bot.rng.state = self.seeds.decision(seat, len(self.state.moves), purpose)
        return current

    def _seat_bot(self, seat: int) -> Automatic:
        spec = self.state.seats[seat]
        name = spec.bot if spec.kind == "bot" and spec.bot else self.state.spec.settings.standin_bot
        current = self.automatic.get(seat)
        if current is None or current.name != name or current.game_no != self.state.game_no:
            seed = spec.bot_seed if spec.kind == "bot" else secrets.randbits(62)
            bot = make_bot(bot_spec(name), seed)
            # A level plays with its human habits; engine names (scripts, stand-ins) without.
            current = Automatic(for_people(bot, name) if name in LEVELS else bot, name, self.state.game_no)
            current.bot.reset(seat)
            self.automatic[seat] = current
        return current

    def _schedule(self) -> None:
        """Set the timers of the room's new state: bot moves and reactions, the turn timer,
        the catch window's hold and the pause between hands. Old timers are cancelled; any that
        still fires finds the room at another version and does nothing."""
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        self.deadline = self.continue_at = self.catch_until = self.jump_until = None
        if not self.owner:
            return
        if not self.watched():
            # Nobody is here: bots, turn timers and the pause between hands wait for someone to
            # connect (a room of bots alone would otherwise play and log for ever).
            self.paused = True
            return
        state, settings = self.state, self.state.spec.settings
        loop_now = asyncio.get_running_loop().time()
        self._schedule_fill(loop_now)
        if state.phase == HAND_OVER:
            self._timer_at("continue", settings.hand_pause_seconds)
            self.continue_at = time.time() + settings.hand_pause_seconds
            return
        game = state.game
        if state.phase != PLAYING or game is None or game.is_over:
            self.hold_until = None
            self.held = frozenset()
            return
        to_act = game.to_act
        assert to_act is not None
        offered = {s: game.legal_actions(s) for s in range(game.n) if s != to_act}
        catch_open = any(a.kind == CATCH for actions in offered.values() for a in actions)
        jump_open = settings.jump_seconds > 0 and jumps_may_come(game)
        # Each window is held once, from the moment it opens; its key names the play that
        # opened it (a jump opens a new window on the jumped card). Both facts are public, so
        # a hold tells no one whether anybody holds an identical card.
        opened = (game.round_number, len(game.discard))
        windows: dict[tuple[Any, ...], float] = {}
        if catch_open:
            windows[("catch", *opened, exposed_seat(game))] = settings.catch_seconds
        if jump_open:
            windows[("jump", *opened)] = settings.jump_seconds
        new = [seconds for key, seconds in windows.items() if key not in self.held]
        if new:
            self.hold_until = max(self.hold_until or loop_now, loop_now + max(new))
        elif not windows:
            self.hold_until = None
        self.held = frozenset(windows)
        if self.hold_until is not None:
            until = time.time() + (self.hold_until - loop_now)
            self.catch_until = until if catch_open else None
            self.jump_until = until if jump_open else None
            self._timer_at("hold_end", self.hold_until - loop_now)
        if self.deferred and self.hold_until is None:
            self._timer_at("hold_end", 0.0)
        for seat, actions in offered.items():
            if actions and self._is_automatic(seat):
                bot = self._bot(seat, "react").bot
                view = View(game, seat)
                if isinstance(bot, ForgetfulBot):  # its own chance to react, after its reaction time
                    timed = bot.reaction(view) or bot.jump(view)
                    if timed is not None:
                        self._timer_at(f"react{seat}", timed.after, (seat, timed.action.text))
                    continue
                reaction = bot.react(view)
                if reaction is not None:
                    self._timer_at(f"react{seat}", settings.bot_seconds / 2, (seat, reaction.text))
        hold = 0.0 if self.hold_until is None else self.hold_until - loop_now
        if self._is_automatic(to_act):
            # A room whose bots spent their CPU budget waits until it is repaid (bots.py).
            self._timer_at("bot_move", max(settings.bot_seconds, hold, self.host.think_delay(self.code)), to_act)
        elif settings.turn_seconds > 0:
            self.deadline = time.time() + hold + settings.turn_seconds
            self._timer_at("turn_timeout", hold + settings.turn_seconds, to_act)

    def _schedule_fill(self, loop_now: float) -> None:
        """A room with ``fill_seconds``: once a player sits in its lobby, the game starts when
        every seat is taken, or when the wait runs out, with bots in the open seats."""
        state, wait = self.state, self.state.spec.settings.fill_seconds
        seated = any(seat.kind == "human" for seat in state.seats)
        if wait <= 0 or state.phase != LOBBY or not seated:
            self.fill_at = self.fill_until = None
            return
        if self.fill_at is None:
            self.fill_at = loop_now + wait
            self.fill_until = time.time() + wait
        self._timer_at("fill", 0.0 if state.open_seats() == 0 else self.fill_at - loop_now)

    async def _timer(self, kind: str, generation: int, data: Any) -> None:
        state = self.state
        if kind == "grace":
            seat = data
            self.grace.pop(seat, None)
            if self.owner and not self._connected(seat) and state.seats[seat].kind == "human":
                self.away.add(seat)
                self._schedule()
                self._broadcast_room()
            return
        if generation != state.seq or not self.owner:
            return  # a stale timer: the room has moved on
        if kind == "hold_end":
            self.hold_until = None
            waiting, self.deferred = self.deferred, []
            for peer, msg in waiting:
                try:
                    await self._action(peer, msg, deferred=True)
                except RoomError as exc:
                    peer.deliver(
                        error(exc.code, exc.message, msg.get("id"), self._state_message(peer.seat, []), **exc.detail())
                    )
                else:
                    if msg.get("id") is not None:
                        peer.deliver({"type": "ack", "reply_to": msg["id"], "version": self.state.seq})
            if self.state.seq == generation:
                self._schedule()
            return
        if kind == "continue":
            with contextlib.suppress(RoomError):
                await self._commit([{"type": "continue"}])
            return
        if kind == "fill":
            if state.phase == LOBBY:
                with contextlib.suppress(RoomError):
                    await self._commit(self._start_entries())
            return
        game = state.game
        if state.phase != PLAYING or game is None:
            return
        if kind.startswith("react"):
            seat, text = data
            with contextlib.suppress(RoomError):
                await self._commit([{"type": "action", "seat": seat, "action": text}])
            return
        if kind == "turn_timeout":
            self.away.add(data)
            self._broadcast_room()
        if kind in ("bot_move", "turn_timeout") and game.to_act == data:
            await self._bot_move(data)

    async def _bot_move(self, seat: int) -> None:
        game = self.state.game
        assert game is not None
        auto = self._bot(seat, "act")
        view = View(game, seat)
        try:
            if auto.name in SLOW_BOTS:
                action = await self.host.think(self.code, auto.bot.act, view)
            else:
                action = auto.bot.act(view)
            text = action.text
        except Exception:
            log.exception(
                "room %s: bot %s failed at seat %d; playing its first legal action",
                self.code,
                auto.name,
                seat,
                extra={"room": self.code},
            )
            text = game.legal_actions(seat)[0].text
        entry: dict[str, Any] = {"type": "action", "seat": seat, "action": text}
        if self.state.seats[seat].kind == "human":
            entry["standin"] = True  # a stand-in played for an away person: the log says so
        try:
            await self._commit([entry])
        except RoomError as exc:
            log.warning(
                "room %s: the move of bot %s was refused: %s",
                self.code,
                auto.name,
                exc.message,
                extra={"room": self.code},
            )

    # ------------------------------------------------------------------ telling
    def room_info(self) -> dict[str, Any]:
        info = self.state.public()
        runtime = self.runtime if not self.owner else self.runtime_info()
        info.update(runtime)
        info["connected"] = [
            self._connected(s) or s in runtime.get("remote_connected", ()) for s in range(len(self.state.seats))
        ]
        info["looking"] = [
            self.looking(s) or s in runtime.get("remote_looking", ()) for s in range(len(self.state.seats))
        ]
        info.pop("remote_connected", None)
        info.pop("remote_looking", None)
        info["spectators"] = sum(1 for p in self.peers.values() if p.seat is None)
        return info

    def runtime_info(self) -> dict[str, Any]:
        """What only the owner knows (timers, away seats, presence): sent to replicas too."""
        return {
            "away": sorted(self.away),
            "deadline": self.deadline,
            "catch_until": self.catch_until,
            "jump_until": self.jump_until,
            "continue_at": self.continue_at,
            "fill_at": self.fill_until,
            "muted": self.chat.muted_seats([seat.token_hash for seat in self.state.seats], self.seat_marks),
            "spectators_muted": self.chat.spectators_muted,
            "remote_connected": [s for s in range(len(self.state.seats)) if self._connected(s)],
            "remote_looking": [s for s in range(len(self.state.seats)) if self.looking(s)],
        }

    def _state_message(
        self, seat: int | None, events: list[Event], reply_to: object = None, info: Any = None, log: bool = False
    ) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator) after ``events``; ``info``
        is the room's :meth:`room_info`, possibly already encoded (:func:`fragment`); ``log``
        adds the whole game's log as that seat saw it (:meth:`_game_log`), for a client that
        has just said hello."""
        game = self.state.game
        seen = redact(events, seat)
        names = self.state.names()
        message: dict[str, Any] = {
            "type": "state",
            "version": self.state.seq,
            "seat": seat,
            "room": info if info is not None else self.room_info(),
            "game_step": len(self.state.moves),
            "observation": self.state.observe(seat),
            "events": seen,
            "lines": self._lines(seen),
        }
        if self.state.last_standin is not None:
            message["standin"] = self.state.last_standin
        if log and game is not None:
            message["log"] = self._game_log(seat)
        summary = round_summary(self.state.spec.variant, names, seen)
        if summary is not None:
            message["summary"] = summary
        if reply_to is not None:
            message["reply_to"] = reply_to
        return message

    def _lines(self, seen: list[Event]) -> list[dict[str, Any]]:
        """The events as one reader saw them, in sentences: codes with parameters, which each
        browser says in its reader's language (:class:`~unokit.narration.Narrator`)."""
        game = self.state.game
        if game is None or not seen:
            return []
        side = side_before(seen, game.side, game.rules.side_names)
        return [line.to_json() for line in Narrator(side, game.rules.double_sided).lines(seen)]

    def _game_log(self, seat: int | None) -> list[dict[str, Any]]:
        """The current game's log as ``seat`` saw it, move by move: the deal, then each move's
        events in sentences (:meth:`_lines`), with ``standin`` naming the seat a stand-in bot
        played the move for. The same lines, in the same groups, as the ``state`` messages
        that a client connected since the deal received."""
        game = self.state.game
        assert game is not None
        narrator = Narrator(0, game.rules.double_sided)
        out: list[dict[str, Any]] = []
        for events, standin in self.state.steps:
            lines = [line.to_json() for line in narrator.lines(redact(events, seat))]
            if lines:
                out.append({"lines": lines} if standin is None else {"lines": lines, "standin": standin})
        return out

    def _broadcast(self, events: list[Event]) -> None:
        if not self.peers:
            return
        info = fragment(self.room_info())  # the same for every seat: encoded once
        texts: dict[int | None, str] = {}
        for peer in list(self.peers.values()):
            text = texts.get(peer.seat)
            if text is None:
                text = texts[peer.seat] = encode(self._state_message(peer.seat, events, info=info))
            peer.deliver(text)

    def _broadcast_room(self) -> None:
        if not self.peers:
            return
        text = encode({"type": "room", "version": self.state.seq, "room": self.room_info()})
        for peer in list(self.peers.values()):
            peer.deliver(text)


class RemoteMarker:
    """Base of peers that stand for a connection on another process (forwarded messages)."""


__all__ = ["Peer", "RemoteMarker", "Room", "new_token", "token_hash"]
