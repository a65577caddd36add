"""The offline room: one person and bots at a table that runs where the page runs (in the
browser, the engine in Pyodide in a Web Worker: ``docs/offline.md``), with no server.

It is a room as the server's (:class:`~.authority.Room`) is, made of the same parts, so that the
same table code plays it: the room's state is the fold of the same log entries (:mod:`.entries`),
the bots, their reactions, the holds of the out-of-turn windows and the pause between hands are
the server's :class:`~.pacing.Pacing`, and the ``state`` messages are the server's
(:class:`~.stating.StateTeller`). What it leaves out is what a table of one person needs no
server for: storage (the page keeps the log, :attr:`LocalRoom.saved`), other connections,
spectators, the chat, a host's commands and the cluster. It imports nothing beyond the standard
library (a test holds it to that).

The page sends the client messages as text (:meth:`LocalRoom.receive`) and gets the server's
messages as text (``send``); after every change the room hands the page its log
(``saved``), from which :meth:`LocalRoom.restore` rebuilds it after the tab was closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from .. import Event
from ..i18n.lines import Line
from . import PROTOCOL, messages
from .entries import Action as Move
from .entries import Entry, Join, Leave, Start, entry_of, fill_entries
from .entries import Ready as ReadyEntry
from .items import Fired, Item
from .limits import MAX_MESSAGE_BYTES
from .messages import Ack, RoomUpdate, Welcome, error
from .pacing import Pacing
from .room import CLOSED, FINISHED, RoomError, RoomSpec, RoomState
from .stating import StateTeller

if TYPE_CHECKING:
    from .authority import Room

#: The timing of an offline room unless its link says otherwise: no turn timer (nobody waits
#: for this player), bots that think for a moment, a short pause between hands.
OFFLINE_SETTINGS: dict[str, Any] = {"turn_seconds": 0.0, "hand_pause_seconds": 4.0, "bot_seconds": 0.8}

#: The client messages an offline room answers; any other is refused ``not_offline`` (the chat,
#: reports, a host's commands, hints: what needs other people or the server).
OFFLINE_MESSAGES = frozenset({"hello", "action", "ready", "sync", "visibility", "back", "leave"})


def token_hash(token: str) -> str:
    """The hash a seat's token is kept as (as the server keeps it)."""
    return hashlib.sha256(token.encode()).hexdigest()


class LocalPeer:
    """The page: the one connection of an offline room."""

    def __init__(self, send: Callable[[str], None]) -> None:
        self.send = send
        self.seat: int | None = None
        self.conn_id = 1

    def deliver(self, message: dict[str, Any] | str) -> None:
        self.send(message if isinstance(message, str) else json.dumps(message, separators=(",", ":")))


class LocalHost:
    """What :class:`~.pacing.Pacing` asks of the rooms' host: a bot thinks here, at once."""

    def think_delay(self, _code: str) -> float:
        return 0.0

    async def think(self, _code: str, act: Callable[[Any], Any], view: Any) -> Any:
        return act(view)


class LocalTeller(StateTeller):
    """The room's ``state`` and ``room`` messages, told to the page."""

    room: LocalRoom

    def broadcast(self, events: list[Event], said: list[Line] | tuple[Line, ...] = ()) -> None:
        peer = self.room.peer
        if peer.seat is not None:
            peer.deliver(self.state_message(peer.seat, events, said=said))

    def broadcast_room(self) -> None:
        if self.room.peer.seat is not None:
            self.room.peer.deliver(RoomUpdate(version=self.room.state.seq, room=self.room.room_info()).to_json())


class LocalSeating:
    """The seat of the one person: what :class:`~.pacing.Pacing` asks of the room's seating."""

    def __init__(self, room: LocalRoom) -> None:
        self.room = room

    def connected(self, seat: int) -> bool:
        return seat == self.room.peer.seat

    def own_seat(self, peer: LocalPeer, token: str, claimed: int | None = None) -> int:
        seat = self.room.seat_of(token)
        if seat is None or peer.seat is None:
            raise RoomError("bad_token", "this token holds no seat in this room")
        if claimed is not None and claimed != seat:
            raise RoomError("foreign_seat", f"this connection plays seat {seat} and may act only for it")
        return seat


class LocalRoom:
    """An offline room of ``spec``: a person (who joins with the first ``hello``) against bots
    of level ``bot``, which take the other seats when the game starts. ``send`` gets each
    message for the page, ``saved`` the room's log after each change (the entries as JSON
    objects, the first being the spec's), and ``record`` each finished game's record text."""

    owner = True
    seeds = None

    def __init__(
        self,
        code: str,
        spec: RoomSpec,
        send: Callable[[str], None],
        saved: Callable[[str], None] | None = None,
        bot: str = "normal",
    ) -> None:
        self.code = code
        self.state = RoomState(code, spec)
        self.bot = bot
        self.peer = LocalPeer(send)
        self.peers = {self.peer.conn_id: self.peer}
        self.saved = saved
        self.log: list[dict[str, Any]] = []
        self.last_accepted: dict[int, tuple[int, str]] = {}
        self.host = LocalHost()
        self.seating = LocalSeating(self)
        self.teller = LocalTeller(self)
        # Pacing is the server's, asking of this room only what LocalRoom offers (the timers'
        # queue, commit, the teller, the seating's connected and own_seat, the host's think).
        self.pacing = Pacing(cast("Room", self))
        self.tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ making and keeping
    @staticmethod
    def create(
        variant: str,
        players: int,
        send: Callable[[str], None],
        saved: Callable[[str], None] | None = None,
        *,
        bot: str = "normal",
        options: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
        lang: str = "en",
        code: str | None = None,
    ) -> LocalRoom:
        """A new offline room; raise :class:`RoomError` ``bad_room`` or ``bad_settings`` for a
        variant, a number of players, an option or a setting the server would refuse, and
        ``bad_bot`` for a bot that is not a level."""
        from ..bots.levels import LEVELS

        if bot not in LEVELS:
            raise RoomError("bad_bot", f"offline bots are the levels: {', '.join(LEVELS)}")
        spec = RoomSpec.build(variant, players, options, {**OFFLINE_SETTINGS, **(settings or {})}, lang=lang)
        return LocalRoom(code or "L" + secrets.token_hex(5).upper(), spec, send, saved, bot)

    @staticmethod
    def restore(text: str, send: Callable[[str], None], saved: Callable[[str], None] | None = None) -> LocalRoom:
        """The room the page kept (:meth:`kept`: its code, spec, bot and log), rebuilt by
        folding its log; raise :class:`RoomError` ``corrupt`` for a log that does not fold."""
        try:
            kept = json.loads(text)
            room = LocalRoom(kept["code"], RoomSpec.from_json(kept["spec"]), send, saved, kept["bot"])
            for obj in kept["log"]:
                room.state.apply(entry_of(obj))
                room.log.append(obj)
        except (ValueError, KeyError, TypeError) as exc:
            raise RoomError("corrupt", f"the kept offline game cannot be read: {exc}") from None
        return room

    def kept(self) -> str:
        """What the page keeps of the room (:meth:`restore` reads it back), with the game's
        record and a summary for the list of games."""
        state = self.state
        out: dict[str, Any] = {
            "code": self.code,
            "spec": state.spec.to_json(),
            "bot": self.bot,
            "log": self.log,
            "phase": state.phase,
            "game_no": state.game_no,
            "variant": state.spec.variant,
            "names": state.names(),
            "started": state.started_at,
        }
        if state.game is not None:
            out["record"] = state.record().dumps()
        return json.dumps(out, separators=(",", ":"))

    def seat_of(self, token: str) -> int | None:
        wanted = token_hash(token)
        return next((i for i, seat in enumerate(self.state.seats) if seat.token_hash == wanted), None)

    # ------------------------------------------------------------------ what Pacing asks
    def watched(self) -> bool:
        return self.peer.seat is not None

    def submit(self, item: Item) -> None:
        """A timer ran out: its answer runs on the event loop."""
        if isinstance(item, Fired):
            task = asyncio.ensure_future(self.pacing.fired(item.kind, item.generation, item.data))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def start_entries(self) -> list[Entry]:
        """A new game: bots of the room's level in the open seats, then the ``start`` entry."""
        seeds = [secrets.randbits(62) for _ in range(self.state.open_seats())]
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        return [*fill_entries(self.state, self.bot, seeds), Start(seed=secrets.randbits(63), at=at)]

    def room_info(self) -> dict[str, Any]:
        info = self.state.public()
        info.update(self.pacing.told())
        seats = range(len(self.state.seats))
        info["connected"] = [self.seating.connected(s) for s in seats]
        info["looking"] = [self.seating.connected(s) for s in seats]
        info["muted"] = []
        info["spectators_muted"] = False
        info["spectators"] = 0
        info["offline"] = True
        return info

    async def commit(self, entries: list[Entry]) -> None:
        """Fold ``entries`` (the engine judges an action and refuses it unchanged), hand the log
        to the page, then set the timers and tell the page. Raise :class:`RoomError`."""
        state = self.state
        events: list[Event] = []
        said: list[Line] = []
        for entry in entries:
            events += state.apply(entry)
            said += state.said
            self.log.append(entry.to_json())
        if self.saved is not None:
            self.saved(self.kept())
        self.pacing.schedule()
        self.teller.broadcast(events, said)

    async def take_action(self, peer: LocalPeer, msg: messages.Action, *, deferred: bool = False) -> bool:
        """The person's action (as the server's room takes it: :meth:`~.entries.Action.read`),
        held while a window's hold lasts."""
        seat = self.seating.own_seat(peer, msg.token, msg.seat)
        action = Move.read(self.state, seat, msg, self.last_accepted.get(seat))
        game = self.state.game
        assert game is not None
        in_turn = seat == game.to_act and action.kind not in ("catch", "uno")
        if in_turn and not deferred and self.pacing.holds(cast("Any", peer), msg):
            return False
        await self.commit([Move(seat=seat, action=action.text, parsed=action)])
        self.last_accepted[seat] = (msg.version, msg.action)
        return True

    # ------------------------------------------------------------------ the page's messages
    async def receive(self, text: str) -> None:
        """One client message from the page, answered as the server answers it (an ``error``
        naming what is wrong with a message the room refuses)."""
        reply_to: str | int | None = None
        try:
            if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
                raise RoomError("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes")
            try:
                obj = json.loads(text)
            except ValueError:
                raise RoomError("bad_json", "the message is not valid JSON") from None
            if not isinstance(obj, dict):
                raise RoomError("bad_message", "a message must be a JSON object with a 'type'")
            reply_to = obj.get("id")
            typed = messages.client_message(obj)
            if obj["type"] not in OFFLINE_MESSAGES:
                raise RoomError("not_offline", f"an offline game has no {obj['type']!r}")
            answered = await self._answer(obj, typed)
        except RoomError as exc:
            state = self.teller.state_message(self.peer.seat, []) if self.peer.seat is not None else None
            self.peer.deliver(error(exc.code, exc.message, reply_to, state, **exc.detail()))
            return
        if answered and reply_to is not None:
            self.peer.deliver(Ack(reply_to=reply_to, version=self.state.seq).to_json())

    async def _answer(self, obj: dict[str, Any], typed: messages.ClientMessage) -> bool:
        """Answer one message; whether to acknowledge it now."""
        peer = self.peer
        if isinstance(typed, messages.Hello):
            await self._hello(typed)
            return False
        if peer.seat is None:
            raise RoomError("not_joined", "say 'hello' first")
        if obj["type"] == "sync":
            peer.deliver(self.teller.state_message(peer.seat, [], obj.get("id")))
            return False
        if isinstance(typed, messages.Action):
            return await self.take_action(peer, typed)
        if isinstance(typed, messages.Ready):
            seat = self.seating.own_seat(peer, typed.token)
            await self.commit([ReadyEntry.check(self.state, seat, typed.ready)])
            if self.state.phase == FINISHED and self.state.everyone_ready({seat}):
                await self.commit(self.start_entries())
            return True
        if isinstance(typed, messages.Back):
            self.pacing.back(self.seating.own_seat(peer, typed.token))
            return True
        if isinstance(typed, messages.Leave):
            seat = self.seating.own_seat(peer, typed.token)
            await self.commit([Leave.check(self.state, seat)])
            peer.seat = None
            return True
        return True  # visibility: the page is the only reader; nothing changes

    async def _hello(self, msg: messages.Hello) -> None:
        """Seat the person (a new one joins and the game starts at once, bots in the other
        seats; a returning one names their token) and send the room and the game so far."""
        state = self.state
        if state.phase == CLOSED:
            raise RoomError("room_closed", f"room {self.code} is closed")
        token = msg.token
        new_token: str | None = None
        if token is not None:
            seat = self.seat_of(token)
            if seat is None:
                raise RoomError("bad_token", "this token holds no seat in this room")
        else:
            seat, name = Join.check(state, msg.name)
            new_token = secrets.token_urlsafe(24)
            joined = Join(seat=seat, name=name, token_hash=token_hash(new_token), host=True)
            await self.commit([joined])
            await self.commit(self.start_entries())  # the bots take the other seats once the person sits
        self.peer.seat = seat
        welcome = Welcome(
            protocol=PROTOCOL,
            room=self.code,
            role="player",
            seat=seat,
            host=False,
            token=new_token,
            sender=None,  # an offline room has no chat
            reply_to=msg.id,
        )
        self.peer.deliver(welcome.to_json())
        self.pacing.back(seat)
        self.pacing.schedule()
        self.peer.deliver(self.teller.state_message(seat, [], log=True))

    def stop(self) -> None:
        """Cancel every timer (the page closed the game)."""
        self.pacing.stop()
        for task in list(self.tasks):
            with contextlib.suppress(Exception):
                task.cancel()


#: The rooms a worker runs, by code (the page plays one at a time).
ROOMS: dict[str, LocalRoom] = {}


def open_room(text: str, kind: str, send: Callable[[str], None], saved: Callable[[str], None]) -> str:
    """The worker's door: ``kind`` ``create`` makes a room of the request ``text`` (a JSON
    object: ``variant``, ``players``, and optionally ``bot``, ``options``, ``settings``, ``lang``,
    ``code``), ``open`` rebuilds the room the page kept (``text``, :meth:`LocalRoom.kept`).
    Answer ``{"code": ...}`` (the room is in :data:`ROOMS`) or ``{"error": CODE, "message": ...}``;
    a refused request changes nothing."""
    try:
        if kind == "open":
            room = LocalRoom.restore(text, send, saved)
        else:
            try:
                request = json.loads(text)
                variant, players = request["variant"], request["players"]
            except (ValueError, KeyError, TypeError):
                raise RoomError("bad_room", "the request names no variant and number of players") from None
            keys = ("bot", "options", "settings", "lang")
            room = LocalRoom.create(variant, players, send, saved, **{k: request[k] for k in keys if k in request})
    except RoomError as exc:
        return json.dumps({"error": exc.code, "message": exc.message})
    for old in ROOMS.values():
        old.stop()
    ROOMS.clear()
    ROOMS[room.code] = room
    return json.dumps({"code": room.code})


__all__ = ["OFFLINE_MESSAGES", "OFFLINE_SETTINGS", "ROOMS", "LocalRoom", "open_room"]
