"""Who is told what by Web Push, and when (``docs/server.md``, "Notifications when the page is
closed"). Only the process that owns a room decides, from what it commits and from who looks at
the table, so each event is told once however many processes serve the room.

A player is told, when no page of theirs shows the room's table (closed, or in the background):

* **turn**: a decision is theirs, and they have been away from the table for
  :data:`AWAY_SECONDS` (a player who switched tabs a moment ago is left alone; if the turn is
  still theirs when that time is up, they are told then). Once per absence: a player who does
  not come back is not told again at every turn while their stand-in plays;
* **start**: the game they were seated for has started (that counts as their turn's message);
* **again**: someone at their table asks to play again after a game (once a game);
* **joined**: someone sat down at their table.

What is said, in which language, and to which browsers is the sender's business
(:mod:`.pushsend`); the player switches each kind on or off on the page.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ... import AWAY_SECONDS
from ...room import FINISHED, PLAYING, RoomState
from .send import Notice


class Standins(Protocol):
    """What :class:`Notices` reads of a room's pacing (:class:`~.pacing.Pacing`)."""

    away: set[int]  # seats a stand-in bot plays


class Known(Protocol):
    """What :class:`Notices` reads of a room's seating (:class:`~.seating.Seating`)."""

    identity_of: dict[str, str]  # seat token (hash) -> the identity (hash) its player gave


class Table(Protocol):
    """What :class:`Notices` reads of a room (:class:`~.authority.Room`)."""

    code: str
    owner: bool
    state: RoomState

    @property
    def pacing(self) -> Standins:
        """The room's timers and stand-ins."""
        ...

    @property
    def seating(self) -> Known:
        """Who is known behind the room's seats."""
        ...

    def looking(self, seat: int) -> bool:
        """Whether a page of ``seat``'s player shows the table now."""
        ...


@dataclass
class Attention:
    """What the owner knows of who looks at one room's table, by seat token (hash): when its
    player was last seen looking (monotonic seconds), who looks now, who was told of their turn
    in their current absence, who was told that someone asks to play again (game, token)."""

    seen: dict[str, float] = field(default_factory=dict)
    looking: set[str] = field(default_factory=set)
    told: set[str] = field(default_factory=set)
    asked: set[tuple[int, str]] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None


class Notices:
    """The process's notifications (see the module docstring); ``submit`` queues a
    :class:`~.pushsend.Notice` (``None``: push is off, nobody is told anything)."""

    def __init__(self, submit: Callable[[Notice], object] | None, away_seconds: float = AWAY_SECONDS) -> None:
        self.submit = submit
        self.away_seconds = away_seconds
        self._rooms: weakref.WeakKeyDictionary[Any, Attention] = weakref.WeakKeyDictionary()

    def _attention(self, room: Table) -> Attention:
        found = self._rooms.get(room)
        if found is None:
            found = self._rooms[room] = Attention()
        return found

    # ------------------------------------------------------------------ the room's hooks
    def committed(self, room: Table, entries: list[dict[str, Any]]) -> None:
        """The owner of ``room`` committed ``entries`` and told its clients."""
        if self.submit is None or not room.owner:
            return
        attention = self._attention(room)
        self._look(room, attention)
        state = room.state
        for entry in entries:
            kind = entry["type"]
            if kind == "join":
                self._tell_others(room, entry["seat"], "joined", entry.get("name"))
            elif kind == "ready" and entry.get("ready", True) and state.phase == FINISHED:
                asker = state.seats[entry["seat"]]
                for seat, held in enumerate(state.seats):
                    key = (state.game_no, held.token_hash or "")
                    fresh = seat != entry["seat"] and not held.ready and key not in attention.asked
                    if fresh and self._tell(room, seat, "again", name=asker.name):
                        attention.asked.add(key)
            elif kind == "start":
                for seat, held in enumerate(state.seats):
                    if self._tell(room, seat, "start") and held.token_hash is not None:
                        attention.told.add(held.token_hash)  # no "your turn" on top of it
        self._turn(room, attention)

    def looked(self, room: Table) -> None:
        """Who looks at ``room``'s table may have changed (the owner's presence)."""
        if self.submit is None or not room.owner:
            return
        attention = self._attention(room)
        self._look(room, attention)
        self._turn(room, attention)

    # ------------------------------------------------------------------ deciding
    def _look(self, room: Table, attention: Attention) -> None:
        """Bring ``attention`` up to date: who looks now, since when the others are away."""
        now = time.monotonic()
        holders = {
            held.token_hash: seat
            for seat, held in enumerate(room.state.seats)
            if held.kind == "human" and held.token_hash is not None
        }
        for holder, seat in holders.items():
            if room.looking(seat):
                attention.seen[holder] = now
                attention.looking.add(holder)
                attention.told.discard(holder)  # back: a later absence is told again
            elif holder in attention.looking:
                attention.looking.discard(holder)
                attention.seen[holder] = now  # away from now on
        for gone in [holder for holder in attention.seen if holder not in holders]:
            del attention.seen[gone]
        attention.looking &= set(holders)
        attention.told &= set(holders)

    def _turn(self, room: Table, attention: Attention) -> None:
        """Tell the player whose decision it is, if they have been away long enough; if not
        yet, look again when they will have been."""
        state = room.state
        game = state.game
        if state.phase != PLAYING or game is None or game.is_over or game.to_act is None:
            return
        seat = game.to_act
        holder = state.seats[seat].token_hash
        if state.seats[seat].kind != "human" or holder is None or holder in attention.told:
            return
        if room.seating.identity_of.get(holder) is None or room.looking(seat):
            return
        since = attention.seen.get(holder)
        wait = 0.0 if since is None else since + self.away_seconds - time.monotonic()
        if wait > 0:
            if attention.timer is not None:
                attention.timer.cancel()
            attention.timer = asyncio.get_running_loop().call_later(wait + 0.05, self.looked, room)
            return
        if self._tell(room, seat, "turn", standin=seat in room.pacing.away):
            attention.told.add(holder)

    def _tell_others(self, room: Table, seat: int, kind: str, name: str | None) -> None:
        for other in range(len(room.state.seats)):
            if other != seat:
                self._tell(room, other, kind, name=name)

    def _tell(self, room: Table, seat: int, kind: str, *, name: str | None = None, standin: bool = False) -> bool:
        """Queue ``kind`` for ``seat``'s player when they gave an identity and do not look at
        the table now; whether it was queued."""
        held = room.state.seats[seat]
        player = room.seating.identity_of.get(held.token_hash or "") if held.kind == "human" else None
        if player is None or self.submit is None or room.looking(seat):
            return False
        notice = Notice(player, kind, room.code, room.state.spec.variant, name=name, standin=standin)
        return self.submit(notice) is not False


__all__ = ["AWAY_SECONDS", "Attention", "Notices", "Table"]
