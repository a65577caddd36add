"""The room authority: one ordered queue per room for client messages, timers and bot moves.

A :class:`Room` owns a :class:`~unokit.server.room.RoomState` and a worker task that takes one
item at a time from the room's queue (:mod:`.items`: a client's hello or message, a timer, a
bot's move, news from another process) and hands it to its handler (:data:`ITEMS`; a client's
room message through :data:`ROOM_MESSAGES`). Nothing else changes the room, so two messages can
never interleave, and every timer carries the state version it was set for: when it fires after
the room has moved on it does nothing.

The room's jobs around its queue and its commit are each in a module of their own, reached as
``room.seating`` (:mod:`.seating`: hellos, seats, presence, grace), ``room.pacing``
(:mod:`.pacing`: timers, bots, the holds of the out-of-turn windows), ``room.teller``
(:mod:`.telling`: each reader's ``state`` message) and ``room.talk`` (:mod:`.talk`: the chat);
``docs/architecture.md`` follows one action through them.

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
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .. import Event
from ..core.actions import CATCH, UNO
from ..i18n.lines import Line
from . import messages
from .chat import (
    LIVE_PHASES,
    SPECTATORS,
    ChatState,
)
from .entries import Action as Move
from .entries import Close, Entry, Leave, Public, Start, check_host, entry_of, fill_entries
from .entries import Ready as ReadyEntry
from .items import (
    AdminClose,
    Arrived,
    BecomeOwner,
    CloseIdle,
    Fired,
    Gone,
    Item,
    Queued,
    RemoteChat,
    RemotePresence,
    RemoteReply,
    Said,
    SeatBots,
    SeatRemote,
    Stop,
    SyncLog,
)
from .messages import CLIENT, Ack, Closed, error
from .pacing import Pacing
from .peers import Host, Peer, RemoteMarker, identity_hash, new_token, token_hash
from .protocol import encode
from .room import CLOSED, FINISHED, RoomError, RoomState
from .seating import Seating
from .storage import Append, StorageError
from .talk import Talk
from .telling import Teller

if TYPE_CHECKING:
    from .seam import Seeds

log = logging.getLogger("unokit.server")


class Room:
    """One room in this process: its state, its connected peers, its ordered queue and the
    commit every change goes through; its jobs are :attr:`seating`, :attr:`pacing`,
    :attr:`teller` and :attr:`talk`."""

    def __init__(self, host: Host, state: RoomState, host_hash: str, *, owner: bool) -> None:
        self.host = host
        self.state = state
        self.host_hash = host_hash
        self.owner = owner
        self.code = state.code
        #: The room's jobs around its queue and its commit (the timers' state is the pacing's).
        self.seating: Seating = Seating(self)
        self.talk: Talk = Talk(self)
        self.pacing: Pacing = Pacing(self)
        self.teller: Teller = Teller(self)
        self.peers: dict[str, Peer] = {}
        #: Connections let in (their hello is queued or was answered with a seat or a place as a
        #: spectator): what the per-room connection cap counts, at once, as hellos arrive.
        self.admitted: set[str] = set()
        self.queue: asyncio.Queue[tuple[float, Item]] = asyncio.Queue()
        self.taken_at = 0.0  # when the item being handled entered the queue (monotonic)
        self.last_accepted: dict[int, tuple[int, str]] = {}
        self.last_active = time.monotonic()
        self.runtime: dict[str, Any] = {}  # a replica's copy of the owner's timers and presence
        self.owner_node: str | None = None  # the process that owns the room
        self.chat = ChatState()
        #: What the lobby knows of the room as last stored: whether it is public, its listing
        #: and the people seated (``...``: not known, store the next one).
        self.listed: object = ...
        self.creator: str | None = None  # the address that created the room (public rooms' cap)
        #: The seeds a feature gave the room (a daily deal's, ``docs/daily.md``; a ladder
        #: table's): its games, bots and bots' decisions are theirs; ``None``: fresh random seeds.
        self.seeds: Seeds | None = None
        #: Until when its finished games are sealed (a daily deal's while its day runs: their
        #: records and replays open then, ``docs/daily.md``); ``None``: they are not.
        self.sealed_until: float | None = None
        #: What the end of its games says about them (catalogue keys, the features' notes: a
        #: daily deal's, that it is not rated).
        self.notes: tuple[str, ...] = ()
        self.task = asyncio.get_running_loop().create_task(self._work(), name=f"room-{self.code}")

    # ------------------------------------------------------------------ the queue
    def submit(self, item: Item) -> None:
        """Queue ``item`` (:mod:`.items`); the room's worker handles it through :data:`ITEMS`."""
        self.queue.put_nowait((time.monotonic(), item))

    async def _work(self) -> None:
        while True:
            self.taken_at, item = await self.queue.get()
            if isinstance(item, Stop):
                return
            if item.PEOPLE:  # bots and timers are not activity: a room nobody uses is idle
                self.last_active = time.monotonic()
            try:
                await ITEMS[type(item)](self, item)
            except Exception:  # a bug must not take the room (or the server) down
                name = type(item).__name__
                log.exception("room %s: failed to handle %s", self.code, name, extra={"room": self.code})

    async def stop(self) -> None:
        self.pacing.stop()
        self.submit(Stop())
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    # ------------------------------------------------------------------ messages
    async def _message(self, peer: Peer, msg: dict[str, Any], typed: messages.ClientMessage | None) -> None:
        """A client's room message: ``msg`` as read (forwarded as it is to the owner), ``typed``
        the declared message it is (read here when the reader did not)."""
        kind = msg["type"]
        reply_to = msg.get("id")
        if peer.conn_id not in self.peers and not isinstance(peer, RemoteMarker):
            peer.deliver(error("not_joined", "say 'hello' first", reply_to))
            return
        if kind == "sync":
            peer.deliver(self.teller.state_message(peer.seat, [], reply_to))
            return
        if kind == "visibility":
            self.seating.visibility(peer, msg["visible"], reply_to)
            return
        if not self.owner:
            self.host.forward(self, peer, msg)
            return
        kind_class = CLIENT[kind]
        try:
            answer = ROOM_MESSAGES.get(kind_class) or self.host.room_message(kind_class)
            answered = await answer(self, peer, typed or messages.client_message(msg))
        except RoomError as exc:
            peer.deliver(
                error(exc.code, exc.message, reply_to, self.teller.state_message(peer.seat, []), **exc.detail())
            )
            return
        if answered is False:
            return  # held: answered when the hold ends
        if reply_to is not None:
            peer.deliver(Ack(reply_to=reply_to, version=self.state.seq).to_json())
        if kind_class in SEATS_CHANGE:
            await self.maybe_play_again()

    async def _timed_action(self, peer: Peer, msg: messages.Action) -> bool:
        """An ``action`` message: :meth:`take_action`, its latency measured once it is applied."""
        if not await self.take_action(peer, msg):
            return False
        self.host.metrics.action_latency.observe(time.monotonic() - self.taken_at)
        return True

    async def _back(self, peer: Peer, msg: messages.Back) -> None:
        self.seating.returned(self.seating.own_seat(peer, msg.token))
        self.seating.presence_changed()

    async def _leave(self, peer: Peer, msg: messages.Leave) -> None:
        seat = self.seating.own_seat(peer, msg.token)
        entry = Leave.check(self.state, seat)
        # This connection stays, as a spectator; every other one of the player's ends.
        peer.seat, peer.role, peer.holder = None, "spectator", None
        try:
            await self.commit([entry])
        except RoomError:
            peer.seat, peer.role, peer.holder = seat, "player", self.seating.occupant(seat)
            raise

    async def _ready(self, peer: Peer, msg: messages.Ready) -> None:
        seat = self.seating.own_seat(peer, msg.token)
        await self.commit([ReadyEntry.check(self.state, seat, msg.ready)])

    async def take_action(self, peer: Peer, msg: messages.Action, *, deferred: bool = False) -> bool:
        """Apply a seat's action, or hold it (return False) while a window's hold lasts: it is
        then applied or refused, and answered, when the hold ends."""
        seat = self.seating.own_seat(peer, msg.token, msg.seat)
        version, text = msg.version, msg.action
        action = Move.read(self.state, seat, msg, self.last_accepted.get(seat))
        game = self.state.game
        assert game is not None  # read() refused an action in a room with no game
        in_turn = seat == game.to_act and action.kind not in (CATCH, UNO)
        if in_turn and not deferred and self.pacing.holds(peer, msg):
            return False
        self.seating.returned(seat)
        await self.commit([Move(seat=seat, action=action.text, parsed=action)])  # read once, here
        self.last_accepted[seat] = (version, text)
        return True

    async def _host_command(self, peer: Peer, msg: messages.Host) -> None:
        if not secrets.compare_digest(token_hash(msg.host_token), self.host_hash):
            raise RoomError("not_host", "only the room's host may do that (the host token is wrong)")
        command, seat = msg.command, msg.seat
        bot_seed = self.bot_seed(seat) if seat is not None else secrets.randbits(62)
        entry = check_host(self.state, command, seat, msg.bot, bot_seed)
        if command in ("mute", "unmute"):  # the chat's, not the room's: no version to match
            await self.talk.mute(seat, command == "mute")
            return
        # "Pause now" means now, whatever moved meanwhile: no version to match.
        if msg.version != self.state.seq and command not in ("pause", "resume"):
            raise RoomError(
                "stale", f"the command was decided at version {msg.version}; the room is at {self.state.seq}"
            )
        listing = isinstance(entry, Public) and entry.public and not self.state.public_room
        if listing and not await self.host.may_list(self):
            raise RoomError("too_many_rooms", "the room's creator has as many public rooms open as it may")
        if entry is None:  # start: the room makes it, seating the stand-ins first
            await self.commit(self.start_entries())
        else:
            await self.commit([entry], closer=self.closer(peer) if isinstance(entry, Close) else None)

    def closer(self, peer: Peer) -> int | None:
        """The seat of the person who closes the room from ``peer`` (``docs/ratings.md``: they
        lose a live rated game): the connection's seat, else the seat its identity holds, else
        the host's seat; ``None`` when none is known."""
        if peer.seat is not None:
            return peer.seat
        identity_of = self.seating.identity_of
        for index, seat in enumerate(self.state.seats):
            if peer.player is not None and seat.token_hash and identity_of.get(seat.token_hash) == peer.player:
                return index
        return self.state.host_seat

    async def _seat_bots(self, bots: list[str], done: asyncio.Future[None]) -> None:
        """Seat the bots a new room was created with, at its last seats (the people who join take
        the first ones), one log entry each, before the room's link is handed out."""
        try:
            if not self.owner:
                raise RoomError("unavailable", "the room is served by another process; try again")
            first = len(self.state.seats) - len(bots)
            for index, bot in enumerate(bots, start=first):
                entry = check_host(self.state, "add_bot", index, bot, self.bot_seed(index))  # named after those before
                assert entry is not None
                await self.commit([entry])
        except RoomError as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)

    def start_entries(self) -> list[Entry]:
        """A new game: the stand-in bot in every open seat (after a finished game, or when a
        room's ``fill_seconds`` ran out), then the ``start`` entry with a fresh seed."""
        state = self.state
        seeds = [secrets.randbits(62) for _ in range(state.open_seats())]
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        start = Start(seed=secrets.randbits(63) if self.seeds is None else self.seeds.start(), at=at)
        return [*fill_entries(state, state.spec.settings.standin_bot, seeds), start]

    def bot_seed(self, seat: int) -> int:
        """The seed of a bot put in ``seat``: fresh, or in a daily room the deal's."""
        return secrets.randbits(62) if self.seeds is None else self.seeds.bot(seat)

    async def maybe_play_again(self) -> None:
        """After a game: start the next one once every player present has said "play again"."""
        if not self.owner or self.state.phase != FINISHED:
            return
        present = {seat for seat in range(len(self.state.seats)) if self.seating.connected(seat)}
        if self.state.everyone_ready(present):
            with contextlib.suppress(RoomError):
                await self.commit(self.start_entries())

    # ------------------------------------------------------------------ chat
    def _game_ended(self, phase_before: str, game_before: int) -> None:
        """A live game is over: its spectators' messages join the players' chat."""
        if phase_before in LIVE_PHASES and self.state.phase not in LIVE_PHASES:
            kept = [
                m
                for m in self.chat.messages
                if m["channel"] == SPECTATORS and m.get("live") and m.get("game") == game_before
            ]
            if kept:
                self.talk.deliver(kept, only_players=True)

    def connect(self, peer: Peer) -> None:
        """``peer`` is one of the room's connections from now on (it was admitted)."""
        self.peers[peer.conn_id] = peer

    def disconnect(self, peer: Peer) -> bool:
        """``peer`` is no longer one of the room's connections, nor admitted to it; whether it
        was connected."""
        self.admitted.discard(peer.conn_id)
        return self.peers.pop(peer.conn_id, None) is not None

    def forget_accepted(self, seat: int) -> None:
        """``seat`` has a new occupant: the last action accepted from it was the former one's."""
        self.last_accepted.pop(seat, None)

    def watched(self) -> bool:
        """Whether anyone is connected to the room, here or (for its owner) on another process."""
        return bool(self.peers) or any(self.seating.remote_watchers.values())

    # ------------------------------------------------------------------ committing
    async def commit(self, entries: list[Entry], closer: int | None = None) -> None:
        """Fold ``entries`` (the engine judges actions here and refuses without a change), write
        them, and only then tell everyone. Raise :class:`RoomError` for a refusal. ``closer``:
        the seat of the person whose ``close`` this is (a live rated game is their loss)."""
        state = self.state
        before = state.seq
        phase_before, game_before = state.phase, state.game_no
        events: list[Event] = []
        said: list[Line] = []
        for i, entry in enumerate(entries):
            try:
                events += state.apply(entry)
                said += state.said
            except RoomError:
                if i:  # only single entries are ever refused part-way; rebuild to be safe
                    await self.reload()
                raise
        job = Append(self.code, before, [entry.to_json() for entry in entries], close=state.phase == CLOSED)
        if state.phase == FINISHED and any(e["type"] == "game_end" for e in events):
            record = state.record()
            job.record = (state.game_no, record.dumps())
            job.game_seats = [(i, s.token_hash) for i, s in enumerate(state.seats) if s.token_hash is not None]
            job.left = [i for i, s in enumerate(state.seats) if s.left_game()]
            job.game_summary = encode(
                {
                    "variant": record.variant,
                    "names": record.names,
                    "winners": record.result.winners if record.result else [],
                    "scores": record.result.scores if record.result else [],
                    "actions": len(record.actions),
                    "left": job.left,
                }
            )
            job.shared_address = self.shared_address()
            self._seen(job)
        elif (
            state.phase == CLOSED
            and phase_before in LIVE_PHASES
            and state.public_room
            and closer is not None
            and state.seats[closer].kind == "human"
        ):
            # A host who closes a live game loses it (docs/ratings.md): rated without a record.
            job.forfeit = (state.game_no, encode(state.forfeit(closer)))
            job.game_seats = [(i, s.token_hash) for i, s in enumerate(state.seats) if s.token_hash is not None]
            job.left = [closer]
            job.shared_address = self.shared_address()
            self._seen(job)
        listing = state.listing()
        listed = (
            state.public_room and state.phase != CLOSED,
            None if listing is None else encode(listing),
            state.people(),
        )
        if listed != self.listed:
            job.listing = listed
        await self.write(job)
        self._count(entries, events)
        self.listed = listed
        self.seating.settle()  # first: nobody who lost a seat is told what comes next
        self.pacing.schedule()  # then: the state message carries the new deadlines
        self.teller.broadcast(events, said)
        self._game_ended(phase_before, game_before)
        self.host.published(self)
        self.host.told(self, job.entries)
        if state.phase == CLOSED:
            # After the answer to the request that closed the room (sent once this returns).
            asyncio.get_running_loop().call_soon(self._close_peers)

    def _count(self, entries: list[Entry], events: list[Event]) -> None:
        """Count committed ``entries`` and their ``events`` in the metrics."""
        metrics = self.host.metrics
        for entry in entries:
            if entry.MOVE:
                metrics.actions.inc()
            elif isinstance(entry, Start):
                metrics.games_started.inc()
            elif isinstance(entry, Close):
                reason = entry.reason
                metrics.rooms_closed.labels(reason=reason).inc()
                log.info("room %s: closed (%s)", self.code, reason, extra={"room": self.code})
        if any(event["type"] == "game_end" for event in events):
            metrics.games_finished.inc()

    def _seen(self, job: Append) -> None:
        """Note in ``job`` (a game's end) what the ratings keep of each person's seat: the
        address this process saw it from (:attr:`Append.addresses`, never written as such) and
        its moves and stand-in moves (:attr:`Append.standins`)."""
        addresses = self.seating.addresses
        for index, seat in enumerate(self.state.seats):
            if seat.kind != "human" or seat.token_hash is None:
                continue
            if seat.token_hash in addresses:
                job.addresses[index] = addresses[seat.token_hash]
            job.standins[index] = (seat.game_moves, seat.game_standins)

    def shared_address(self) -> bool:
        """Whether two of the people seated said hello from one address (as per-client limits
        count it, :func:`~.edge.client_key`: IPv4, IPv6 /64); a person whose address this
        process never saw (seated before a restart and not back since) shares none."""
        tokens = [s.token_hash for s in self.state.seats if s.kind == "human" and s.token_hash is not None]
        addresses = self.seating.addresses
        seen = [addresses[token] for token in tokens if token in addresses]
        return len(set(seen)) < len(seen)

    async def write(self, job: Append) -> None:
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
            peer.deliver(Closed(reason=self.state.closed_reason).to_json())
            peer.close("room closed")
        self.host.dropped(self)

    async def reload(self) -> None:
        """Rebuild the state from the committed log (after a refused write, or on a takeover)."""
        fresh = RoomState(self.code, self.state.spec)
        for _seq, entry in await self.host.load_log(self.code, 0):
            fresh.apply(entry_of(entry))
        self.state = fresh
        self.pacing.automatic.clear()
        self.listed = ...
        await self._reload_chat()
        self.seating.settle()
        self.teller.broadcast([])

    async def _reload_chat(self) -> None:
        """Fold the chat log again from what is committed (a room that follows another process
        sees its messages, not its other chat entries: the owner's numbering is read here)."""
        chat = ChatState()
        for entry in await self.host.load_chat(self.code):
            chat.apply(entry)
        self.chat = chat

    async def sync_log(self, seq: int) -> None:
        """A replica catches up with the owner's committed entries (up to at least ``seq``)."""
        if seq <= self.state.seq and seq >= 0:
            self.teller.broadcast_room()
            return
        events: list[Event] = []
        phase_before, game_before = self.state.phase, self.state.game_no
        said: list[Line] = []
        for _seq, entry in await self.host.load_log(self.code, self.state.seq):
            events += self.state.apply(entry_of(entry))
            said += self.state.said
        self.seating.settle()
        self.teller.broadcast(events, said)
        self._game_ended(phase_before, game_before)
        if self.state.phase == CLOSED:
            for peer in list(self.peers.values()):
                peer.deliver(Closed(reason=self.state.closed_reason).to_json())
                peer.close("room closed")
            self.host.dropped(self)

    async def _become_owner(self) -> None:
        """This process took the room over: fold what the old owner committed, then run it."""
        await self.sync_log(-1)
        await self._reload_chat()
        self.seating.became_owner(await self.host.identities(self.code))
        self.owner = True
        self.runtime = {}
        for seat in range(len(self.state.seats)):
            if self.state.seats[seat].kind == "human" and not self.seating.connected(seat):
                self.pacing.start_grace(seat)
        self.pacing.schedule()
        self.teller.broadcast_room()
        self.host.published(self, everyone=True)  # processes that follow the room learn its owner

    # ------------------------------------------------------------------ telling
    def room_info(self) -> dict[str, Any]:
        info = self.state.public()
        runtime = self.runtime if not self.owner else self.runtime_info()
        info.update(runtime)
        info["connected"] = [
            self.seating.connected(s) or s in runtime.get("remote_connected", ()) for s in range(len(self.state.seats))
        ]
        info["looking"] = [
            self.looking(s) or s in runtime.get("remote_looking", ()) for s in range(len(self.state.seats))
        ]
        info.pop("remote_connected", None)
        info.pop("remote_looking", None)
        info["spectators"] = sum(1 for p in self.peers.values() if p.seat is None)
        info["sealed_until"] = self.sealed_until
        info["notes"] = list(self.notes)
        return info

    def looking(self, seat: int) -> bool:
        """Whether a page of ``seat``'s player shows the table now, here or (for the owner) on
        another process (:mod:`.notices`)."""
        return any(p.seat == seat and p.visible for p in self.peers.values()) or any(
            seat in seats for seats in self.seating.remote_looking.values()
        )

    def runtime_info(self) -> dict[str, Any]:
        """What only the owner knows (timers, away seats, presence): sent to replicas too."""
        return {
            **self.pacing.told(),
            "muted": self.chat.muted_seats([seat.token_hash for seat in self.state.seats], self.seating.seat_marks),
            "spectators_muted": self.chat.spectators_muted,
            "remote_connected": [s for s in range(len(self.state.seats)) if self.seating.connected(s)],
            "remote_looking": [s for s in range(len(self.state.seats)) if self.looking(s)],
        }


# ---------------------------------------------------------------------- the dispatch tables
#: A room's handler of a room message: ``(room, peer, message)``, the message as declared in
#: :mod:`.messages` (each handler takes its own class, and mypy checks what it reads of it); it
#: raises :class:`RoomError` to refuse, and returns ``False`` when the answer comes later (an
#: action held by a window's hold), anything else when the request is done (then acknowledged).
MessageHandler = Callable[[Room, Peer, Any], Awaitable[bool | None]]


async def _chat(room: Room, peer: Peer, msg: messages.Chat) -> None:
    await room.talk.say(peer, msg)


async def _quiet(room: Room, peer: Peer, msg: messages.Quiet) -> None:
    await room.talk.quiet(peer, msg)


async def _more_time(room: Room, peer: Peer, msg: messages.MoreTime) -> None:
    await room.pacing.more_time(peer, msg)


#: The room's handler of each client message it answers. ``hello`` is an :class:`Arrived`
#: item, ``ping`` is answered by the connection and ``sync`` by whichever process holds it; the
#: features answer theirs (:meth:`Host.room_message`).
ROOM_MESSAGES: dict[type[messages.ClientMessage], MessageHandler] = {
    messages.Action: Room._timed_action,
    messages.Host: Room._host_command,
    messages.Back: Room._back,
    messages.Leave: Room._leave,
    messages.Ready: Room._ready,
    messages.Chat: _chat,
    messages.Quiet: _quiet,
    messages.MoreTime: _more_time,
}
#: The client messages answered before a room's queue, or without a handler of the room's.
NOT_ROOM_MESSAGES = (messages.Hello, messages.Ping, messages.Sync, messages.Visibility)
#: Messages after which the room looks whether everyone present wants to play again.
SEATS_CHANGE = frozenset({messages.Leave, messages.Ready})


async def _arrived(room: Room, item: Arrived) -> None:
    await room.seating.hello(item.peer, item.message)


async def _said(room: Room, item: Said) -> None:
    await room._message(item.peer, item.message, item.typed)


async def _gone(room: Room, item: Gone) -> None:
    await room.seating.gone(item.peer)


async def _fired(room: Room, item: Fired) -> None:
    await room.pacing.fired(item.kind, item.generation, item.data)


async def _sync_log(room: Room, item: SyncLog) -> None:
    await room.sync_log(item.seq)


async def _remote_presence(room: Room, item: RemotePresence) -> None:
    room.seating.remote_presence(item.node, item.seats, item.watchers, item.looking)
    await room.maybe_play_again()


async def _remote_chat(room: Room, item: RemoteChat) -> None:
    room.chat.add(item.message)
    room.talk.deliver([item.message])


async def _become_owner(room: Room, _item: BecomeOwner) -> None:
    await room._become_owner()


async def _seat_remote(room: Room, item: SeatRemote) -> None:
    await room.seating.seat_remote(item.peer, item.welcome)


async def _remote_reply(room: Room, item: RemoteReply) -> None:
    await room.sync_log(-1)
    reply = item.reply
    if reply.get("type") == "error":
        reply = {**reply, "state": room.teller.state_message(item.peer.seat, [])}
    item.peer.deliver(reply)


async def _seat_bots(room: Room, item: SeatBots) -> None:
    await room._seat_bots(item.bots, item.done)


async def _close_idle(room: Room, _item: CloseIdle) -> None:
    if room.owner and not room.watched() and room.state.phase != CLOSED:
        with contextlib.suppress(RoomError):
            await room.commit([Close(reason="idle")])


async def _queued(_room: Room, item: Queued) -> None:
    await item.run()


async def _admin_close(room: Room, _item: AdminClose) -> None:
    if room.owner and room.state.phase != CLOSED:
        with contextlib.suppress(RoomError):  # the room's clients are told, as for the host's close
            await room.commit([Close(reason="admin")])


#: The room's handler of each kind of queue item (:mod:`.items`; :class:`Stop` ends the worker).
ITEMS: dict[type[Item], Callable[[Room, Any], Awaitable[None]]] = {
    Arrived: _arrived,
    Said: _said,
    Gone: _gone,
    Fired: _fired,
    SyncLog: _sync_log,
    RemotePresence: _remote_presence,
    RemoteChat: _remote_chat,
    BecomeOwner: _become_owner,
    SeatRemote: _seat_remote,
    RemoteReply: _remote_reply,
    SeatBots: _seat_bots,
    CloseIdle: _close_idle,
    AdminClose: _admin_close,
    Queued: _queued,
}

__all__ = [
    "ITEMS",
    "ROOM_MESSAGES",
    "Host",
    "Peer",
    "RemoteMarker",
    "Room",
    "identity_hash",
    "new_token",
    "token_hash",
]
