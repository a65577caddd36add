"""The process-wide part of the server: configuration, the rooms in memory, leases, the sweeper,
and, with PostgreSQL, the link to the other server processes (:mod:`.cluster`).

With SQLite one process serves every room (a lock file next to the database refuses a second
one). With PostgreSQL several processes share the rooms: each room is owned by one process at a
time through a lease in the ``rooms`` table, renewed every third of ``lease_seconds``, and its
clients are served by that process. A client that says hello to another process is sent to the
owner's own address (a ``redirect``) when it can follow one; otherwise that process *follows*
the room as a replica: it forwards the client's messages to the owner and folds the steps the
owner commits, as the owner announces them on the room's channel. When a lease runs out (its
owner died), the next process to need the room claims it, folds the committed log and runs the
room from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import gc
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from ..core.actions import Action
from ..core.observation import View
from . import (
    upkeep,
)
from .allowances import Allowances
from .authority import Room
from .botpool import BotPool
from .config import ServerConfig
from .entries import entry_of
from .items import (
    AdminClose,
    BecomeOwner,
    CloseIdle,
    SeatBots,
)
from .messages import ClientMessage
from .metrics import Metrics, count_rooms
from .owners import Ownership
from .peers import Peer, new_token, token_hash
from .protocol import RateLimit, encode, websocket_url
from .room import CLOSED, DEFAULT_NAMES_LANG, RoomError, RoomSpec, RoomState
from .seam import Feature, FeatureServer, RoomMessage, StoreHooks
from .storage import Append, Pruned, StorageError, Store, Writer, migrate, sqlalchemy_url
from .webapi import CODE_ALPHABET
from .work import off_loop

log = logging.getLogger("unokit.server")

CODE_LENGTH = 6
#: How many rooms' seal ends a process remembers (:meth:`Hub.sealed`).
SEALS_KEPT = 4096
#: Seconds between two collections of reference cycles (see :meth:`Hub._sweep`).
COLLECT_EVERY = 60.0
#: The most public rooms a lobby list reads.
LOBBY_LIMIT = 200
#: The rules of a room that "play now" opens: the variant's own, for one hand (a quick game
#: among strangers; a host who wants a game to 500 creates a public room).
PLAY_NOW_OPTIONS = {"rounds": 1}


class Hub:
    """The rooms of this process and everything they share: storage, writer, the bot pool, the
    features' running parts. It is the :class:`~unokit.server.authority.Host` of its rooms: it
    loads a room (or follows it, or sends its client to its owner), creates one, lists the
    lobby's public rooms and "play now", and is what a room reads or writes through (its log, its
    chat, its seats' identities). The rooms' ownership across processes is its
    :class:`~.owners.Ownership` (``cluster``); what a client address may do across its rooms,
    its :class:`~.allowances.Allowances` (``allowances``). Here too: the life cycle and the
    sweeper."""

    def __init__(self, config: ServerConfig, hooks: Sequence[StoreHooks] = ()) -> None:
        self.config = config
        self.node = config.node
        self.store = Store(config.database, synchronous=config.sqlite_synchronous, hooks=hooks)
        #: The running part of each feature this server runs (:mod:`.seam`), set by the app
        #: (:meth:`serve_features`), with the room messages they answer and those refused.
        self.features: list[FeatureServer] = []
        #: When each room asked about lately has its games' seal end (``None``: never sealed).
        self._seal_ends: dict[str, float | None] = {}
        self.feature_answers: dict[type[ClientMessage], RoomMessage] = {}
        self.refusals: dict[type[ClientMessage], tuple[str, str]] = {}
        self.writer: Writer | None = None
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.connections = 0
        self.local_peers: dict[str, Peer] = {}  # conn_id -> peer, for replies to forwarded messages
        self._tasks: list[asyncio.Task[None]] = []
        self._lock_file: IO[str] | None = None
        #: Held while a public table is chosen or made (:class:`~.seam.Rooms`).
        self.seating_lock = asyncio.Lock()
        self.ready = False
        self.stopping = False
        self._pruned_at = 0.0
        self._collected_at = time.monotonic()
        self.metrics = Metrics()
        self.metrics.watch(self._gauges)
        self.bots = BotPool(config.bot_threads, config.bot_cpu, self.metrics.bot_thinking.observe)
        self.open_connections: Callable[[], int] = lambda: self.connections  # the TCP guard's count, when there is one
        self.public_seats = config.public_seats
        self.message_rate = (config.rate, config.burst)
        self.cluster = Ownership(self)
        self.allowances = Allowances(config, self.store)

    @property
    def clustered(self) -> bool:
        return self.store.postgres

    async def writer_append(self, job: Append) -> None:
        assert self.writer is not None
        await self.writer.append(job)

    def _gauges(self) -> dict[str, Any]:
        """What the metrics' gauges read at each scrape (:mod:`.metrics`)."""
        rooms = list(self.rooms.values())
        return {
            "rooms": count_rooms((room.state.phase, room.owner) for room in rooms),
            "games": sum(1 for room in rooms if room.owner and room.state.phase in ("playing", "hand_over")),
            "websockets": self.connections,
            "connections": self.open_connections(),
            "ready": int(self.ready),
            **{name: value for feature in self.features for name, value in feature.gauges().items()},
        }

    async def create_room(self, request: dict[str, Any], base_url: str, client: str = "") -> dict[str, Any]:
        """Create a room from an HTTP request body of the address ``client``, with links under
        ``base_url`` (where the client reaches this server); ``bots`` seats a bot of each name
        at its last seats. Raise :class:`RoomError` ``bad_room`` (``bad_bot`` for an unknown
        bot), and for a public room ``banned`` or ``too_many_rooms`` (``--public-rooms``)."""
        unknown = set(request) - {"variant", "players", "options", "settings", "public", "bots", "lang"}
        if unknown:
            raise RoomError("bad_room", f"unknown field(s) {', '.join(sorted(unknown))}")
        spec = await off_loop(
            RoomSpec.build,
            request.get("variant", "classic"),
            request.get("players"),
            request.get("options"),
            request.get("settings"),
            request.get("public", False),
            request.get("lang", DEFAULT_NAMES_LANG),
        )
        bots = request.get("bots", [])
        if not isinstance(bots, list) or not all(isinstance(bot, str) for bot in bots):
            raise RoomError("bad_room", "'bots' must be a list of bot names, one per bot seat")
        if len(bots) > spec.players - 1:
            raise RoomError("bad_room", f"'bots' may fill at most {spec.players - 1} of the {spec.players} seats")
        for bot in bots:
            RoomState.check_bot(bot)
        if spec.public:
            await self.check_public_room(client)
        return await self._new_room(spec, base_url, bots, client)

    async def check_public_room(self, client: str) -> None:
        """Raise :class:`RoomError` unless the address ``client`` may open one more public
        room: it is banned (``banned``), or has ``--public-rooms`` open (``too_many_rooms``)."""
        if self.banned(client, None):
            raise RoomError("banned", "you are banned from this server's public rooms")
        if await asyncio.to_thread(self.store.public_rooms_of, client) >= self.config.public_rooms:
            raise RoomError(
                "too_many_rooms",
                f"your address has {self.config.public_rooms} public rooms open, the most it may: close one first",
                most=self.config.public_rooms,
            )

    async def open_room(
        self, spec: RoomSpec, base_url: str, *, bots: Sequence[str] = (), client: str = "", marks: dict[str, Any]
    ) -> dict[str, Any]:
        """A feature's room (:class:`~.seam.Rooms`): its stored spec carries ``marks``."""
        return await self._new_room(spec, base_url, list(bots), client, marks)

    async def _new_room(
        self,
        spec: RoomSpec,
        base_url: str,
        bots: list[str] | None = None,
        client: str = "",
        marks: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A new room of ``spec`` made by the address ``client``, with links under ``base_url``,
        ``bots`` seated at its last seats; ``marks`` are a feature's, kept in its stored spec
        (:meth:`~.seam.FeatureServer.loaded` reads them back)."""
        host = new_token()
        listing = RoomState("", spec).listing()
        listed = None if listing is None else encode(listing)
        public_json = {**spec.to_json(), **(marks or {})}
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            made = functools.partial(
                self.store.create_room, code, public_json, token_hash(host), listed, client or None, spec.public
            )
            if await asyncio.to_thread(made):
                break
        else:
            raise RoomError("unavailable", "no free room code was found; try again")
        self.metrics.rooms_created.inc()
        log.info("room %s: created (%s, %d seats)", code, spec.variant, spec.players, extra={"room": code})
        if bots:
            room = await self.room(code)
            if room is None:
                raise RoomError("unavailable", "the new room could not be opened; try again")
            seated: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            room.submit(SeatBots(bots, seated))
            await seated
        return {
            "room": code,
            "link": f"{base_url}/r/{code}",
            "websocket": websocket_url(base_url),
            "host_token": host,
            "spec": spec.to_json(),
        }

    async def lobby(self, base_url: str) -> dict[str, list[dict[str, Any]]]:
        """The public rooms (read from the database, so every process lists the same ones):
        those ``waiting`` for players (an open seat before a game or after one) and those
        ``playing``, to watch, with links under ``base_url``. Private rooms are never listed."""
        since = time.time() - self.config.idle_close_seconds
        rows = await asyncio.to_thread(self.store.public_rooms, since, LOBBY_LIMIT)
        waiting, playing = [], []
        for code, listing in rows:
            entry = {"room": code, "link": f"{base_url}/r/{code}", **listing}
            if listing["phase"] in ("playing", "hand_over"):
                playing.append(entry)
            elif listing["open_seats"] > 0:
                waiting.append(entry)
        return {"waiting": waiting, "playing": playing}

    async def play_now(self, request: dict[str, Any], base_url: str, client: str = "") -> dict[str, Any]:
        """A public room of the asked variant with an open seat, or a new one (one hand of the
        variant's rules, :data:`PLAY_NOW_OPTIONS`) that bots fill when nobody else comes within
        ``play_now_wait`` seconds (it has no host), with links under ``base_url``. A room it
        opens names its bots in the asker's ``lang``, and of the waiting rooms it picks one of
        that language first (people first, though: a room of another language is joined rather
        than a new one opened). The answer is the room's code and link, and ``created``; the
        client then joins it with ``hello``. A banned address is refused, and one that has
        ``--public-rooms`` open may only join."""
        unknown = set(request) - {"variant", "players", "lang"}
        if unknown:
            raise RoomError("bad_room", f"unknown field(s) {', '.join(sorted(unknown))}")
        settings = {"fill_seconds": self.config.play_now_wait}
        variant, players = request.get("variant", "classic"), request.get("players")
        lang = request.get("lang", DEFAULT_NAMES_LANG)
        spec = await off_loop(RoomSpec.build, variant, players, PLAY_NOW_OPTIONS, settings, True, lang, hosted=False)
        if self.banned(client, None):
            raise RoomError("banned", "you are banned from this server's public rooms")
        async with self.seating_lock:
            lobby = await self.lobby(base_url)
            fits = [
                room
                for room in lobby["waiting"]
                if room["variant"] == spec.variant and ("players" not in request or room["players"] == spec.players)
            ]
            if fits:
                best = min(fits, key=lambda room: (room.get("lang") != spec.lang, room["open_seats"]))
                return {"room": best["room"], "link": best["link"], "created": False}
            await self.check_public_room(client)
            created = await self._new_room(spec, base_url, client=client)
        return {"room": created["room"], "link": created["link"], "created": True}

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
        """Load room ``code`` from the database: as its owner when its lease is free (or with
        SQLite), else as a follower of the process that holds it."""
        row = await asyncio.to_thread(self.store.room, code)
        if row is None or row.closed:
            return None
        owner = await self.cluster.claim(code)
        if not owner:
            await self.cluster.follow(code)
            row = await asyncio.to_thread(self.store.room, code) or row  # who holds it, now that it is followed
        state = RoomState(code, RoomSpec.from_json(row.spec))
        for _seq, entry in await self.load_log(code, 0):
            state.apply(entry_of(entry))
        if state.phase == CLOSED:
            if not owner:
                await self.cluster.unlisten(code)
            return None
        room = Room(self, state, row.host_hash, owner=False)
        for feature in self.features:
            await feature.loaded(room, row.spec)
        room.sealed_until = self.seal_of(row.spec, time.time())
        room.notes = tuple(note for feature in self.features for note in feature.notes(row.spec))
        for entry in await asyncio.to_thread(self.store.chat, code):
            room.chat.apply(entry)
        room.owner_node = self.node if owner else row.owner
        room.creator = row.creator
        self.rooms[code] = room
        if owner:
            room.submit(BecomeOwner())
        else:
            self.cluster.presence(room)
        return room

    async def load_log(self, code: str, after: int) -> list[tuple[int, dict[str, Any]]]:
        return await asyncio.to_thread(self.store.log, code, after)

    async def link_player(self, code: str, token_hash: str, player_hash: str) -> None:
        try:
            await asyncio.to_thread(self.store.link_player, code, token_hash, player_hash)
        except SQLAlchemyError as exc:
            raise StorageError(f"the database refused the write: {exc}") from None

    async def identities(self, code: str) -> dict[str, str]:
        return await asyncio.to_thread(self.store.room_identities, code)

    async def load_chat(self, code: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.store.chat, code)

    # ------------------------------------------------------------------ the rooms' host: the cluster's part
    def chat_published(self, room: Room, message: dict[str, Any]) -> None:
        self.cluster.chat_published(room, message)

    def published(self, room: Room, *, everyone: bool = False) -> None:
        self.cluster.published(room, everyone=everyone)

    def presence(self, room: Room) -> None:
        self.cluster.presence(room)

    def forward(self, room: Room, peer: Peer, message: dict[str, Any]) -> None:
        self.cluster.forward(room, peer, message)

    async def refused(self, room: Room) -> None:
        await self.cluster.refused(room)

    # ------------------------------------------------------------------ the rooms' host: allowances and bans
    def chat_limit(self, share: float = 1.0) -> RateLimit:
        return self.allowances.chat_limit(share)

    async def chat_allowed(self, client: str) -> bool:
        return await self.allowances.chat_allowed(client)

    async def may_list(self, room: Room) -> bool:
        return await self.allowances.may_list(room)

    def banned(self, client: str, player: str | None) -> bool:
        return any(feature.bars(client, player) for feature in self.features)

    def clients(self) -> Iterable[Peer]:
        return self.local_peers.values()

    def seal_of(self, spec: dict[str, Any], now: float) -> float | None:
        """Until when the games of a room of stored ``spec`` are sealed at the time ``now``: the
        latest time a feature says (:meth:`~.seam.FeatureServer.sealed`), ``None`` once it is past."""
        until = max((t for feature in self.features if (t := feature.sealed(spec)) is not None), default=None)
        return until if until is not None and until > now else None

    async def sealed(self, code: str) -> float | None:
        # A room's stored spec never changes, so neither does when its seal ends: read once per
        # room (the replay viewer asks at every step, a review's page at every poll).
        if code not in self._seal_ends:
            row = await asyncio.to_thread(self.store.room, code)
            if row is None:
                return None
            if len(self._seal_ends) >= SEALS_KEPT:
                del self._seal_ends[next(iter(self._seal_ends))]  # the oldest asked
            self._seal_ends[code] = self.seal_of(row.spec, float("-inf"))
        until = self._seal_ends[code]
        return until if until is not None and until > time.time() else None

    def serve_features(self, running: Sequence[FeatureServer], off: Sequence[Feature]) -> None:
        """Run the features ``running``, and refuse the room messages of those ``off``. Raise
        ``ValueError`` when two features answer one message."""
        self.features = list(running)
        for feature in running:
            for kind, answer in feature.room_messages().items():
                if kind in self.feature_answers:
                    raise ValueError(f"two features answer the message {kind.__name__}")
                self.feature_answers[kind] = answer
        self.refusals = {kind: refusal for feature in off for kind, refusal in feature.refusals.items()}

    def room_message(self, kind: type[ClientMessage]) -> RoomMessage:
        answer = self.feature_answers.get(kind)
        if answer is None:
            code, text = self.refusals.get(kind, ("bad_request", "this server does not answer that message"))
            raise RoomError(code, text)
        return answer

    def told(self, room: Room, entries: list[dict[str, Any]]) -> None:
        for feature in self.features:
            feature.told(room, entries)

    def looked(self, room: Room) -> None:
        for feature in self.features:
            feature.looked(room)

    def admit(self, room: Room, name: str, player: str | None) -> None:
        for feature in self.features:
            feature.admit(room, name, player)

    def dropped(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.bots.forget(room.code)
            asyncio.get_running_loop().create_task(room.stop())

    async def think(self, room: str, act: Callable[[View], Action], view: View) -> Action:
        return await self.bots.think(room, act, view)

    def think_delay(self, room: str) -> float:
        return self.bots.delay(room)

    async def locate(self, code: str, *, redirects: bool, unreachable: str | None = None) -> Room | str | None:
        """Where a client of room ``code`` is served: the room in this process, the websocket
        address of the process that owns it (for a client that follows redirects and has not
        found ``unreachable`` unreachable), or ``None`` when there is no such open room. A room
        whose owner cannot be reached is taken over here if that owner died."""
        room = self.rooms.get(code)
        if room is not None and (room.owner or room.owner_node == self.node):
            return room
        if redirects and self.clustered:
            row = await asyncio.to_thread(self.store.room, code)
            if row is None or row.closed:
                return None
            target = self.cluster.redirect_target(row)
            if target is not None and target != unreachable:
                self.cluster.redirected += 1
                return target
            if room is not None and await self.cluster.claim(code):
                await self.cluster.take_over(room, row.owner)
        return room if room is not None else await self.room(code)

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
        self.writer = Writer(self.store, self.metrics.commit_latency.observe)
        if self.clustered:
            await self.cluster.start()
        for feature in self.features:
            await feature.start()
        period = self.config.lease_seconds / 3 if self.clustered else self.config.sweep_seconds
        sweeper = self._every(min(period, self.config.sweep_seconds), self._sweep, "the sweep")
        self._tasks.append(asyncio.create_task(sweeper, name="unokit-sweep"))
        for feature in self.features:
            for periodic in feature.periodic():
                work = self._every(periodic.seconds, periodic.work, periodic.what)
                self._tasks.append(asyncio.create_task(work, name=f"unokit-{periodic.what}"))
        self.ready = True

    async def stop(self) -> None:
        self.ready = False
        self.stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for room in list(self.rooms.values()):
            await room.stop()
        for feature in reversed(self.features):
            with contextlib.suppress(Exception):
                await feature.stop()
        self.bots.shutdown()
        if self.writer is not None:
            await asyncio.to_thread(self.writer.stop)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.leases.release, self.node)
        if self.clustered:
            await self.cluster.stop()
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

    @staticmethod
    async def _every(seconds: float, work: Callable[[], Awaitable[None]], what: str) -> None:
        """Run ``work`` every ``seconds`` until cancelled; a failure is logged, never fatal."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await work()
            except Exception:
                log.exception("%s failed", what)

    async def _sweep(self) -> None:
        now = time.time()
        if self.clustered:
            await self.cluster.sweep(now)
        idle = self.config.idle_close_seconds
        for room in list(self.rooms.values()):
            if room.owner and not room.watched() and time.monotonic() - room.last_active > idle:
                room.submit(CloseIdle())
        for code in await asyncio.to_thread(self.store.leases.idle_rooms, now - idle):
            if code not in self.rooms:
                await self.cluster.close_stored(code)
        for feature in self.features:
            try:
                await feature.sweep(now)
            except Exception:
                log.exception("the sweep of the feature %s failed", type(feature).__name__)
        if time.monotonic() - self._pruned_at >= self.config.sweep_seconds:
            self._pruned_at = time.monotonic()
            await self.prune()
        if time.monotonic() - self._collected_at >= COLLECT_EVERY:
            # ``unokit serve`` makes the automatic collection of reference cycles rare (its
            # pauses would stall every room at once); what rooms and games leave in cycles is
            # collected here, at a time of its own, so that it cannot pile up over weeks.
            self._collected_at = time.monotonic()
            started = time.perf_counter()
            found = gc.collect()
            log.debug("collected %d objects in cycles in %.3f s", found, time.perf_counter() - started)

    async def close_room(self, code: str) -> bool:
        """Close room ``code`` for the host of the server (``unokit admin close``): its owner
        closes it and tells its clients, whichever process of the cluster that is. False when
        there is no such open room."""
        room = await self.room(code)
        if room is None:
            return False
        if room.owner or not self.clustered:
            room.submit(AdminClose())
        else:
            self.cluster.close_elsewhere(room)
        return True

    async def prune(
        self, rooms_days: float | None = None, records_days: float | None = None, players_days: float | None = None
    ) -> Pruned:
        """Apply the retention (``--retain-rooms``, ``--retain-records``, ``--retain-players``,
        or the days given), exporting records to ``--export-dir`` first when it is set
        (:mod:`.upkeep`)."""
        config = self.config
        pruned = await asyncio.to_thread(
            upkeep.prune,
            self.store,
            config.retain_rooms_days if rooms_days is None else rooms_days,
            config.retain_records_days if records_days is None else records_days,
            config.retain_players_days if players_days is None else players_days,
            export_dir=config.export_dir,
        )
        if pruned.rooms or pruned.records or pruned.players:
            log.info(
                "retention: pruned %d closed rooms (%d log entries, %d chat lines), %d records, %d player identities",
                pruned.rooms,
                pruned.entries,
                pruned.chat,
                pruned.records,
                pruned.players,
            )
        return pruned


__all__ = ["Hub", "RoomError"]
