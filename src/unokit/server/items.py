"""What a room's queue holds (:mod:`.authority`): one class per kind of item, each handled by
the room's entry in :data:`~unokit.server.authority.ITEMS`.

Clients' messages, closed connections and news of the people following the room from another
process are people's doing (:attr:`Item.PEOPLE`): only they keep a room from being idle. A
timer (:class:`Fired`) carries the state version it was set for, so that one firing after the
room has moved on does nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .authority import Peer
    from .messages import ClientMessage


@dataclass(frozen=True, slots=True)
class Item:
    """One thing a room's queue holds."""

    #: Whether it is people's doing: only that keeps a room from being idle.
    PEOPLE: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Arrived(Item):
    """A client's ``hello``, from this process or forwarded by another one."""

    PEOPLE: ClassVar[bool] = True
    peer: Peer
    message: dict[str, Any]  # as read (what a process that follows the room forwards)
    #: The message as declared (:mod:`.messages`), when the reader made it; else the room does.
    typed: ClientMessage | None = None


@dataclass(frozen=True, slots=True)
class Said(Item):
    """A client's room message (any but ``hello`` and ``ping``), read by :mod:`.messages`."""

    PEOPLE: ClassVar[bool] = True
    peer: Peer
    message: dict[str, Any]  # as read (what a process that follows the room forwards)
    #: The message as declared (:mod:`.messages`), when the reader made it; else the room does.
    typed: ClientMessage | None = None


@dataclass(frozen=True, slots=True)
class Gone(Item):
    """A client's connection closed."""

    PEOPLE: ClassVar[bool] = True
    peer: Peer


@dataclass(frozen=True, slots=True)
class RemotePresence(Item):
    """The owner hears from a process that follows the room: the seats connected there, how many
    connections it has in the room (``seats`` ``None``: it stopped following) and the seats
    whose page shows the table there (``None``: every seat connected there)."""

    PEOPLE: ClassVar[bool] = True
    node: str
    seats: list[int] | None
    watchers: int
    looking: list[int] | None = None


class Timer(StrEnum):
    """The room's timers, each answered by its entry of :data:`~.pacing.TIMERS` (a test checks
    that each has one)."""

    GRACE = "grace"  # a dropped player's grace ran out: a stand-in plays their seat
    HOLD_END = "hold_end"  # an out-of-turn window's hold ended: held in-turn actions go on
    PAUSE_LIMIT = "pause_limit"  # the host's pause used up its allowance
    CONTINUE = "continue"  # the pause between hands ran out: the next hand
    FILL = "fill"  # the lobby's wait ran out (or every seat is taken): the game starts
    REACT = "react"  # a bot's out-of-turn reaction (a catch, a jump-in), one timer per seat
    TURN_TIMEOUT = "turn_timeout"  # a person's turn ran out: a stand-in plays it
    BOT_MOVE = "bot_move"  # a bot's move is due


@dataclass(frozen=True, slots=True)
class Fired(Item):
    """One of the room's timers ran out: ``kind`` names it, ``generation`` is the state version
    it was set for, ``data`` what it is about (a seat, a reaction)."""

    kind: Timer
    generation: int
    data: Any = None


@dataclass(frozen=True, slots=True)
class SyncLog(Item):
    """A replica catches up with the owner's committed entries (up to at least ``seq``; ``-1``:
    whatever is committed)."""

    seq: int


@dataclass(frozen=True, slots=True)
class RemoteChat(Item):
    """A chat message the owner committed, for a replica's clients."""

    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class BecomeOwner(Item):
    """This process took the room over."""


@dataclass(frozen=True, slots=True)
class SeatRemote(Item):
    """The owner (another process) seated this process's client: ``welcome`` is its answer."""

    peer: Peer
    welcome: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RemoteReply(Item):
    """The owner answered a message this process forwarded for its client."""

    peer: Peer
    reply: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatBots(Item):
    """Seat the bots a new room was created with; ``done`` says when (or why not)."""

    bots: list[str]
    done: asyncio.Future[None]


@dataclass(frozen=True, slots=True)
class CloseIdle(Item):
    """The sweeper found the room unused for ``--idle-close`` seconds."""


@dataclass(frozen=True, slots=True)
class AdminClose(Item):
    """The server's admin closes the room."""


@dataclass(frozen=True, slots=True)
class Stop(Item):
    """The room's worker ends (the room is dropped from this process)."""


@dataclass(frozen=True, slots=True)
class Queued(Item):
    """Work a feature hands back to the room's queue (a search it ran beside the queue ended):
    ``run()`` is awaited there, in turn with the room's other items."""

    run: Callable[[], Awaitable[None]]


__all__ = [
    "AdminClose",
    "Arrived",
    "BecomeOwner",
    "CloseIdle",
    "Fired",
    "Gone",
    "Item",
    "Queued",
    "RemoteChat",
    "RemotePresence",
    "RemoteReply",
    "Said",
    "SeatBots",
    "SeatRemote",
    "Stop",
    "SyncLog",
    "Timer",
]
