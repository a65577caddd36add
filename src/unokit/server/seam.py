"""The seam between the server's core and its features (``docs/architecture.md``, "Adding a
server feature").

The core is a room and what serves it: the log, the hub, the websocket, the core routes. A
*feature* is one module under :mod:`.features` that declares a :class:`Feature`: its rows' part
in the core's writes (:class:`StoreHooks`, run by :class:`~.storage.Store` inside the write's
own transaction), and what it brings to a running server (:class:`FeatureServer`: routes, work
at start, stop and each sweep, what it hears of the rooms). A feature is handed a
:class:`FeatureContext`, never the hub: the store, the writer, the metrics, the configuration
and the narrow :class:`Rooms` look-up. :mod:`.features` lists every feature once; a deployment
turns one off with ``unokit serve --without NAME``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import click

if TYPE_CHECKING:
    import asyncio

    from sqlalchemy import Table
    from sqlalchemy.engine import Connection
    from starlette.routing import BaseRoute

    from .allowances import Allowance
    from .authority import Room
    from .botpool import BotPool
    from .config import ServerConfig
    from .messages import ClientMessage
    from .metrics import Metrics
    from .peers import Peer
    from .room import RoomSpec
    from .storage import Append, Store

#: ``hook(connection, job, now)`` inside the transaction that writes ``job``.
WriteHook = Callable[["Connection", "Append", float], None]
#: ``answer(room, peer, message)``: a client's room message a feature answers, in the room's
#: queue at its owner. Raise :class:`~.room.RoomError` to refuse it (the client gets that error
#: and the state); return ``False`` when the answer comes later (the feature sends the ``ack``),
#: anything else to have the room ``ack`` it now.
RoomMessage = Callable[["Room", "Peer", Any], Awaitable["bool | None"]]


@dataclass(frozen=True)
class StoreHooks:
    """A feature's rows in the core's writes, each run inside the core's own transaction:

    * ``game_written``: a game ended (``job.record``, written after the room's listing) or the
      host closed one (``job.forfeit``, before the listing changes);
    * ``forget_player(connection, player)``: "Forget me" of the identity (hash) ``player``;
    * ``forget_stale(connection, stale)``: the identities of the subquery ``stale`` are forgotten
      by the retention;
    * ``prune(connection, records_before)``: records written before that time were pruned;
    * ``prune_with_rooms(connection, rooms_before)``: rooms closed before that time were pruned:
      delete the rows kept as long as the rooms, and say how many;
    * ``exported``: the tables ``unokit admin export`` writes beside the records.
    """

    game_written: WriteHook | None = None
    forget_player: Callable[[Connection, str], object] | None = None
    forget_stale: Callable[[Connection, Any], object] | None = None
    prune: Callable[[Connection, float], object] | None = None
    prune_with_rooms: Callable[[Connection, float], int] | None = None
    exported: tuple[Table, ...] = ()


class Seeds(Protocol):
    """The seeds a feature gives a room in place of random ones (:attr:`~.authority.Room.seeds`:
    the deal of the day's, a ladder table's), so that its games are dealt and played the same
    wherever and whenever they are played."""

    def start(self) -> int:
        """The seed of each game the room starts."""
        ...

    def bot(self, seat: int) -> int:
        """The seed of the bot seated at ``seat``."""
        ...

    def decision(self, seat: int, moves: int, purpose: str) -> int:
        """The RNG state of the bot at ``seat`` for its decision ``purpose`` after ``moves``
        moves of the game."""
        ...


class Rooms(Protocol):
    """What a feature may ask of the rooms (the hub implements it)."""

    async def room(self, code: str) -> Room | None:
        """The open room ``code`` (loaded when it is not in memory), or ``None``."""
        ...

    async def open_room(
        self, spec: RoomSpec, base_url: str, *, bots: Sequence[str] = (), client: str = "", marks: dict[str, Any]
    ) -> dict[str, Any]:
        """A new room of ``spec`` whose stored spec carries ``marks`` (what the feature reads
        back when the room is loaded: a daily deal, a ladder table), with ``bots`` seated."""
        ...

    def banned(self, client: str, player: str | None) -> bool:
        """Whether the address ``client`` or the identity ``player`` is banned (a feature
        :meth:`~FeatureServer.bars` them)."""
        ...

    def clients(self) -> Iterable[Peer]:
        """The clients connected to this process."""
        ...

    async def sealed(self, code: str) -> float | None:
        """Until when (a Unix time) the finished games of room ``code`` are sealed
        (:meth:`FeatureServer.sealed`); ``None``: they are not, or there is no such room."""
        ...

    #: Held while a public table is chosen or made (one at a time in a process).
    seating_lock: asyncio.Lock


@dataclass
class Limits:
    """The per-address allowances the core's routes and the features' share: new rooms, room
    codes looked up in vain, and identity look-ups (a player's games, boards, ratings); each
    counted by the whole cluster on PostgreSQL (:class:`~.allowances.Allowance`)."""

    rooms_made: Allowance
    misses: Allowance
    identity_lookups: Allowance
    #: Makes an allowance ``name`` of ``rate`` a second and bursts of ``burst``.
    make: Callable[[str, float, float], Allowance]
    #: The rate and burst of identity look-ups, further allowances' by default.
    lookup: tuple[float, float]
    #: Further allowances made on demand, each of its own (:meth:`own`).
    others: dict[str, Allowance] = field(default_factory=dict)

    def own(self, name: str, rate: tuple[float, float] | None = None) -> Allowance:
        """The feature's allowance ``name``: ``rate`` (a second, and the burst), else as many a
        minute as room codes may be looked up."""
        if name not in self.others:
            self.others[name] = self.make(name, *(rate or self.lookup))
        return self.others[name]


@dataclass
class FeatureContext:
    """What a feature is handed: never the hub."""

    config: ServerConfig
    store: Store
    metrics: Metrics
    node: str
    bots: BotPool
    rooms: Rooms
    limits: Limits
    #: The running part of every feature this server runs, by name (filled as they are made).
    running: dict[str, FeatureServer] = field(default_factory=dict)


@dataclass(frozen=True)
class Periodic:
    """Work a feature has the hub run every ``seconds`` (a failure is logged, never fatal)."""

    seconds: float
    work: Callable[[], Awaitable[None]]
    #: What it is, for the log of a failure ("reading the bans").
    what: str


class FeatureServer:
    """A feature's part in one running server; every method's default does nothing. The
    feature's state lives in its instance."""

    def __init__(self, context: FeatureContext) -> None:
        self.context = context

    def routes(self) -> list[BaseRoute]:
        """The routes it serves (under ``/api``, as the core's)."""
        return []

    async def start(self) -> None:
        """Once the database is migrated, before the server says it is ready."""

    async def stop(self) -> None:
        """As the server stops, after its rooms."""

    async def sweep(self, now: float) -> None:
        """At each sweep of the hub (``--sweep-seconds``); a failure is logged, never fatal."""

    def periodic(self) -> Sequence[Periodic]:
        """Work of its own that the hub runs every so often once the server has started."""
        return ()

    def bars(self, client: str, player: str | None) -> bool:
        """Whether the address ``client`` or the identity (hash) ``player`` is kept out of
        public rooms and of every chat now (a ban); the core asks every feature."""
        return False

    def gauges(self) -> dict[str, float]:
        """Its gauges' readings at a scrape of the metrics, by the names :mod:`.metrics` gives."""
        return {}

    def told(self, room: Room, entries: list[dict[str, Any]]) -> None:
        """The owner of ``room`` committed ``entries`` and told its clients."""

    def looked(self, room: Room) -> None:
        """Who looks at ``room``'s table may have changed."""

    def admit(self, room: Room, name: str, player: str | None) -> None:
        """Raise :class:`~.room.RoomError` to refuse ``room``'s owner seating the newcomer
        ``name`` (identity hash ``player``, ``None`` without one); a seat's holder coming back is
        not asked."""

    async def loaded(self, room: Room, spec: dict[str, Any]) -> None:
        """``room`` was loaded from its stored ``spec`` (what :meth:`Rooms.open_room` marked)."""

    def sealed(self, spec: dict[str, Any]) -> float | None:
        """Until when (a Unix time) the finished games of a room of stored ``spec`` are sealed:
        their records and replays are refused, and their reviews are given only to the seat's
        own player (a deal of the day's while its day runs, ``docs/daily.md``); ``None``: not
        by this feature. The core asks every feature and keeps the latest time."""
        return None

    def notes(self, spec: dict[str, Any]) -> tuple[str, ...]:
        """The catalogue keys of what the end of a game in a room of stored ``spec`` says about
        it, beside the standings (a deal of the day's: that it is not rated); none by default.
        The core joins every feature's, in the room's ``notes``."""
        return ()

    def room_messages(self) -> Mapping[type[ClientMessage], RoomMessage]:
        """The client messages it answers in a room (declared in :mod:`.messages` like every
        other, so that the wire is one), each with its answer; no two features answer one."""
        return {}


@dataclass(frozen=True)
class FeatureCommands:
    """A feature's part of the command line, declared in its ``cli`` module (which imports
    no server extra, so that ``unokit serve --help`` lists it): the options it adds to
    ``unokit serve``, how their values become its settings, and its ``unokit admin`` commands.
    The core's commands name no feature: they add what :func:`.features.commands` finds."""

    #: Its options of ``unokit serve``, each a :class:`click.Option` whose name is unique.
    serve_options: tuple[click.Option, ...] = ()
    #: Its settings (kept in :attr:`.config.ServerConfig.settings` under its name) from the values
    #: of its options, by parameter name; raise :class:`click.BadParameter` naming a bad one.
    settings: Callable[[Mapping[str, Any]], object] | None = None
    #: Whether those values turn the feature off (an option such as ``--no-push``).
    turned_off: Callable[[Mapping[str, Any]], bool] | None = None
    #: Its commands under ``unokit admin`` (each receives the admin's target as its object).
    admin: tuple[click.Command, ...] = ()


@dataclass(frozen=True)
class Feature:
    """One server feature, as :mod:`.features` lists it."""

    #: The name ``--without`` takes, lower case.
    name: str
    #: What it is, in a few words (``unokit serve --help``).
    summary: str
    store: StoreHooks = StoreHooks()
    #: Its part in a running server; ``None``: rows only.
    server: Callable[[FeatureContext], FeatureServer] | None = None
    #: The features it reads the rows or the running part of (turned off with them).
    needs: tuple[str, ...] = ()
    #: What a server without it still answers, so that its clients can tell it is off.
    off: Callable[[], list[BaseRoute]] | None = None
    #: The catalogue keys of its own closed sets (``docs/i18n.md``): what the catalogue tools
    #: and the tests read beside the core's (:func:`.words.registry_keys`).
    catalogue_keys: Callable[[], Iterable[str]] | None = None
    #: Its options of ``unokit serve`` and its ``unokit admin`` commands.
    commands: FeatureCommands = FeatureCommands()
    #: How a room refuses the client messages it answers (:meth:`FeatureServer.room_messages`)
    #: when it is off: by message, the error's code and text.
    refusals: Mapping[type[ClientMessage], tuple[str, str]] = field(default_factory=dict, hash=False)


__all__ = [
    "Feature",
    "FeatureCommands",
    "FeatureContext",
    "FeatureServer",
    "Limits",
    "Periodic",
    "RoomMessage",
    "Rooms",
    "Seeds",
    "StoreHooks",
    "WriteHook",
]
