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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any, Protocol

from .. import Event, InvalidActionError, UnokitError, redact
from ..bots import Bot, make_bot
from ..core.actions import CATCH, UNO
from ..core.observation import View
from ..core.position import exposed_seat, jumps_may_come
from ..narration import describe
from . import PROTOCOL
from .protocol import encode, error, fragment
from .room import CLOSED, FINISHED, HAND_OVER, LOBBY, PLAYING, RoomError, RoomState
from .storage import Append, StorageError
from .web import round_summary

log = logging.getLogger("unokit.server")

#: A bot whose moves take long enough to be thought in a worker thread.
SLOW_BOTS = frozenset({"ismcts", "ismcts_fast"})


def token_hash(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex): tokens themselves are never stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Peer(Protocol):
    """A client connection: a local websocket, or one that another process forwards."""

    conn_id: str
    seat: int | None
    role: str

    def deliver(self, message: dict[str, Any] | str) -> None:
        """Queue a message for the client (never blocks; a client too slow to read is dropped)."""

    def close(self, reason: str) -> None:
        """Close the connection after the queued messages."""


class Host(Protocol):
    """What a room needs from the process that runs it (:class:`unokit.server.hub.Hub`)."""

    node: str

    async def writer_append(self, job: Append) -> None: ...

    async def load_log(self, code: str, after: int) -> list[tuple[int, dict[str, Any]]]: ...

    def published(self, room: Room) -> None:
        """The owner committed and told its own clients: let other processes follow."""

    def forward(self, room: Room, peer: Peer, message: dict[str, Any]) -> None: ...

    def presence(self, room: Room) -> None: ...

    def dropped(self, room: Room) -> None: ...


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
        self.remote_seats: dict[str, set[int]] = {}  # node -> seats connected there (owner only)
        self.queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
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
        self.task = asyncio.get_running_loop().create_task(self._work(), name=f"room-{self.code}")

    # ------------------------------------------------------------------ the queue
    def submit(self, *item: Any) -> None:
        self.queue.put_nowait(item)

    async def _work(self) -> None:
        while True:
            item = await self.queue.get()
            if item[0] == "stop":
                return
            try:
                await self._handle(item)
            except Exception:  # a bug must not take the room (or the server) down
                log.exception("room %s: failed to handle %s", self.code, item[0])

    async def stop(self) -> None:
        for handle in [*self.timers.values(), *self.grace.values()]:
            handle.cancel()
        self.submit("stop")
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    async def _handle(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        self.last_active = time.monotonic()
        if kind == "hello":
            await self._hello(item[1], item[2])
        elif kind == "msg":
            await self._message(item[1], item[2])
        elif kind == "gone":
            self._gone(item[1])
        elif kind == "timer":
            await self._timer(item[1], item[2], item[3])
        elif kind == "sync_log":
            await self._sync_log(item[1])
        elif kind == "remote_presence":
            self.remote_seats[item[1]] = set(item[2])
            self._presence_changed()
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
        elif kind == "close_idle" and self.owner and not self.peers and self.state.phase != CLOSED:
            with contextlib.suppress(RoomError):
                await self._commit([{"type": "close", "reason": "nobody used the room for a while"}])

    async def _seat_remote(self, peer: Peer, welcome: dict[str, Any]) -> None:
        """The owner (another process) seated this process's client: follow the log to its
        join, then serve the client here."""
        await self._sync_log(-1)
        peer.seat = welcome.get("seat")
        peer.role = "player" if peer.seat is not None else "spectator"
        self.peers[peer.conn_id] = peer
        peer.deliver(welcome)
        self._presence_changed()
        peer.deliver(self._state_message(peer.seat, []))

    # ------------------------------------------------------------------ messages
    async def _hello(self, peer: Peer, msg: dict[str, Any]) -> None:
        reply_to = msg.get("id")
        if self.state.phase == CLOSED:
            peer.deliver(error("room_closed", f"room {self.code} is closed", reply_to))
            return
        role = msg.get("role", "player")
        token, name = msg.get("token"), msg.get("name")
        is_host = "host_token" in msg and token_hash(msg["host_token"]) == self.host_hash
        if "host_token" in msg and not is_host:
            peer.deliver(error("bad_token", "the host token does not belong to this room", reply_to))
            return
        new_token_text: str | None = None
        if role == "spectator":
            seat = None
        elif role != "player":
            peer.deliver(error("bad_message", "'role' must be 'player' or 'spectator'", reply_to))
            return
        elif token is not None:
            found = self._seat_of(token)
            if found is None:
                peer.deliver(error("bad_token", "this token holds no seat in this room", reply_to))
                return
            seat = found
        elif not self.owner:
            self.host.forward(self, peer, msg)
            return
        else:
            try:
                seat = self.state.check_join(name)
            except RoomError as exc:
                peer.deliver(error(exc.code, exc.message, reply_to))
                return
            new_token_text = new_token()
            assert isinstance(name, str)
            entry = {"type": "join", "seat": seat, "name": name.strip(), "token_hash": token_hash(new_token_text)}
            if is_host:
                entry["host"] = True
            try:
                await self._commit([entry])
            except RoomError as exc:
                peer.deliver(error(exc.code, exc.message, reply_to))
                return
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
        if reply_to is not None:
            welcome["reply_to"] = reply_to
        if isinstance(peer, RemoteMarker):  # a join forwarded by another process: it seats its client
            peer.deliver(welcome)
            return
        peer.seat = seat
        peer.role = "player" if seat is not None else "spectator"
        self.peers[peer.conn_id] = peer
        peer.deliver(welcome)
        if seat is not None:
            self._returned(seat)
        self._presence_changed()
        peer.deliver(self._state_message(seat, []))

    async def _message(self, peer: Peer, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        reply_to = msg.get("id")
        if kind == "sync":
            peer.deliver(self._state_message(peer.seat, [], reply_to))
            return
        if peer.conn_id not in self.peers and not isinstance(peer, RemoteMarker):
            peer.deliver(error("not_joined", "say 'hello' first", reply_to))
            return
        if not self.owner:
            self.host.forward(self, peer, msg)
            return
        try:
            if kind == "action":
                if not await self._action(peer, msg):
                    return  # held: answered when the hold ends
            elif kind == "host":
                await self._host_command(msg)
            elif kind == "back":
                self._returned(self._own_seat(peer, msg["token"]))
                self._presence_changed()
            elif kind == "leave":
                seat = self._own_seat(peer, msg["token"])
                if self.state.phase != LOBBY:
                    raise RoomError("phase", "a seat can be left only in the lobby; during a game a bot plays it")
                await self._commit([{"type": "leave", "seat": seat}])
                peer.seat = None
                peer.role = "spectator"
            else:
                raise RoomError("unknown_type", f"{kind!r} is not a room message")
        except RoomError as exc:
            peer.deliver(error(exc.code, exc.message, reply_to, self._state_message(peer.seat, [])))
            return
        if reply_to is not None and kind in ("action", "host", "leave", "back"):
            peer.deliver({"type": "ack", "reply_to": reply_to, "version": self.state.seq})

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
            raise RoomError("invalid_action", str(exc)) from None
        except UnokitError as exc:
            raise RoomError("illegal", str(exc)) from None
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
        if msg["version"] != self.state.seq:
            raise RoomError(
                "stale", f"the command was decided at version {msg['version']}; the room is at {self.state.seq}"
            )
        if entry["type"] == "bot":
            entry["seed"] = secrets.randbits(62)
        elif entry["type"] == "start":
            entry["seed"] = secrets.randbits(63)
            entry["at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
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
                entry["seed"] = secrets.randbits(62)
                await self._commit([entry])
        except RoomError as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)

    def _gone(self, peer: Peer) -> None:
        if self.peers.pop(peer.conn_id, None) is None:
            return
        self._presence_changed()
        seat = peer.seat
        if seat is not None and self.owner and not self._connected(seat) and self.state.phase in (PLAYING, HAND_OVER):
            self._start_grace(seat)

    def _start_grace(self, seat: int) -> None:
        old = self.grace.pop(seat, None)
        if old is not None:
            old.cancel()
        delay = self.state.spec.settings.grace_seconds
        self.grace[seat] = asyncio.get_running_loop().call_later(delay, self.submit, "timer", "grace", -1, seat)

    def _returned(self, seat: int) -> None:
        """``seat``'s player is here: cancel the grace timer, take the seat back from the stand-in."""
        handle = self.grace.pop(seat, None)
        if handle is not None:
            handle.cancel()
        if seat in self.away:
            self.away.discard(seat)
            self.automatic.pop(seat, None)
            if self.owner:
                self._schedule()

    def _connected(self, seat: int) -> bool:
        return any(p.seat == seat for p in self.peers.values()) or any(seat in s for s in self.remote_seats.values())

    def _presence_changed(self) -> None:
        if not self.owner:
            self.host.presence(self)
        self._broadcast_room()

    # ------------------------------------------------------------------ committing
    async def _commit(self, entries: list[dict[str, Any]]) -> None:
        """Fold ``entries`` (the engine judges actions here and refuses without a change), write
        them, and only then tell everyone. Raise :class:`RoomError` for a refusal."""
        state = self.state
        before = state.seq
        events: list[Event] = []
        for i, entry in enumerate(entries):
            try:
                events += state.apply(entry)
            except RoomError:
                if i:  # only single entries are ever refused part-way; rebuild to be safe
                    await self.reload()
                raise
        record = None
        if state.phase == FINISHED and any(e["type"] == "game_end" for e in events):
            record = (state.game_no, state.record().dumps())
        job = Append(self.code, before, entries, record=record, close=state.phase == CLOSED)
        try:
            await self.host.writer_append(job)
        except StorageError as exc:
            log.warning("room %s: write refused (%s); reloading", self.code, exc)
            await self.reload()
            raise RoomError("unavailable", "the room could not be saved; the action was not taken, try again") from None
        self._schedule()  # first: the state message carries the new deadlines
        self._broadcast(events)
        self.host.published(self)
        if state.phase == CLOSED:
            # After the answer to the request that closed the room (sent once this returns).
            asyncio.get_running_loop().call_soon(self._close_peers)

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
        self._broadcast([])

    async def _sync_log(self, seq: int) -> None:
        """A replica catches up with the owner's committed entries (up to at least ``seq``)."""
        if seq <= self.state.seq and seq >= 0:
            self._broadcast_room()
            return
        events: list[Event] = []
        for _seq, entry in await self.host.load_log(self.code, self.state.seq):
            events += self.state.apply(entry)
        self._broadcast(events)
        if self.state.phase == CLOSED:
            for peer in list(self.peers.values()):
                peer.deliver({"type": "closed", "reason": self.state.closed_reason})
                peer.close("room closed")
            self.host.dropped(self)

    async def _become_owner(self) -> None:
        """This process took the room over: fold what the old owner committed, then run it."""
        await self._sync_log(-1)
        self.owner = True
        self.runtime = {}
        self.remote_seats.clear()
        for seat in range(len(self.state.seats)):
            if self.state.seats[seat].kind == "human" and not self._connected(seat):
                self._start_grace(seat)
        self._schedule()
        self._broadcast_room()

    # ------------------------------------------------------------------ timers and bots
    def _timer_at(self, kind: str, delay: float, data: Any = None) -> None:
        self.timers[kind] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self.submit, "timer", kind, self.state.seq, data
        )

    def _is_automatic(self, seat: int) -> bool:
        return self.state.seats[seat].kind == "bot" or seat in self.away

    def _bot(self, seat: int) -> Automatic:
        spec = self.state.seats[seat]
        name = spec.bot if spec.kind == "bot" and spec.bot else self.state.spec.settings.standin_bot
        current = self.automatic.get(seat)
        if current is None or current.name != name or current.game_no != self.state.game_no:
            seed = spec.bot_seed if spec.kind == "bot" else secrets.randbits(62)
            current = Automatic(make_bot(name, seed), name, self.state.game_no)
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
        state, settings = self.state, self.state.spec.settings
        loop_now = asyncio.get_running_loop().time()
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
                reaction = self._bot(seat).bot.react(View(game, seat))
                if reaction is not None:
                    self._timer_at(f"react{seat}", settings.bot_seconds / 2, (seat, reaction.text))
        hold = 0.0 if self.hold_until is None else self.hold_until - loop_now
        if self._is_automatic(to_act):
            self._timer_at("bot_move", max(settings.bot_seconds, hold), to_act)
        elif settings.turn_seconds > 0:
            self.deadline = time.time() + hold + settings.turn_seconds
            self._timer_at("turn_timeout", hold + settings.turn_seconds, to_act)

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
                    peer.deliver(error(exc.code, exc.message, msg.get("id"), self._state_message(peer.seat, [])))
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
        auto = self._bot(seat)
        view = View(game, seat)
        try:
            if auto.name in SLOW_BOTS:
                action = await asyncio.to_thread(auto.bot.act, view)
            else:
                action = auto.bot.act(view)
            text = action.text
        except Exception:
            log.exception(
                "room %s: bot %s failed at seat %d; playing its first legal action", self.code, auto.name, seat
            )
            text = game.legal_actions(seat)[0].text
        entry: dict[str, Any] = {"type": "action", "seat": seat, "action": text}
        if self.state.seats[seat].kind == "human":
            entry["standin"] = True  # a stand-in played for an away person: the log says so
        try:
            await self._commit([entry])
        except RoomError as exc:
            log.warning("room %s: the move of bot %s was refused: %s", self.code, auto.name, exc.message)

    # ------------------------------------------------------------------ telling
    def room_info(self) -> dict[str, Any]:
        info = self.state.public()
        runtime = self.runtime if not self.owner else self.runtime_info()
        info.update(runtime)
        info["connected"] = [
            self._connected(s) or s in runtime.get("remote_connected", ()) for s in range(len(self.state.seats))
        ]
        info.pop("remote_connected", None)
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
            "remote_connected": [s for s in range(len(self.state.seats)) if self._connected(s)],
        }

    def _state_message(
        self, seat: int | None, events: list[Event], reply_to: object = None, info: Any = None
    ) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator) after ``events``; ``info``
        is the room's :meth:`room_info`, possibly already encoded (:func:`fragment`)."""
        game = self.state.game
        seen = redact(events, seat)
        names = self.state.names()
        message: dict[str, Any] = {
            "type": "state",
            "version": self.state.seq,
            "seat": seat,
            "room": info if info is not None else self.room_info(),
            "game_step": len(self.state.moves),
            "observation": game.observe(seat) if game is not None else None,
            "events": seen,
            "narration": [line for line in (describe(e, names) for e in seen) if line],
        }
        if self.state.last_standin is not None:
            message["standin"] = self.state.last_standin
        summary = round_summary(self.state.spec.variant, names, seen)
        if summary is not None:
            message["summary"] = summary
        if reply_to is not None:
            message["reply_to"] = reply_to
        return message

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
