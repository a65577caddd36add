"""Storage: rooms and their logs in SQLite or PostgreSQL (SQLAlchemy 2, Alembic migrations).

A room is a row of ``rooms`` (its spec, the host's token hash, its lease) and an append-only
log in ``room_log``: every change to the room (a seat taken, a bot added, a game started, every
action, a hand continued, the room closed) is one entry with a sequence number. The room's
state is the fold of its log (:mod:`unokit.server.room`), so a crash loses nothing that was
committed: the room is rebuilt from the seed and the committed actions, as a game record is.
Finished games are also kept whole in ``records`` as ``unokit-record/1`` JSON.

A room's chat has a log of its own, ``room_chat`` (:mod:`unokit.server.chat`): it never changes
the room's sequence number and never enters a record. A public room's row carries its lobby
listing (``public``, ``listing``), so that every process lists the same rooms. Players who give
an identity (a secret of their browser) are known by its hash in ``players``; ``room_players``
links a seat's token to it and ``player_games`` lists the finished games each identity played.

Writes go through :class:`Writer`, one thread that commits the queued entries of every room in
one transaction (group commit) and only then resolves the futures the rooms wait on: an entry
is durable before anyone is told about it. The process's other writes to many rooms' rows at
once (the lease renewal) run on that thread too, between two batches: two transactions of one
process that lock rows of ``rooms`` in different orders would deadlock, and PostgreSQL breaks a
deadlock only after ``deadlock_timeout`` (a second), stalling every room's write meanwhile.

Each entry carries the sequence number it follows, and the room's row is updated only while it
still holds that number, so two processes can never both append the same step (the loser's
write fails and it reloads the room).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    Select,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    literal,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError

from .protocol import decode, encode

if TYPE_CHECKING:
    from .seam import StoreHooks

#: The Alembic migrations (``env.py`` and ``versions/``).
MIGRATIONS = Path(__file__).parent / "migrations"

#: Environment variable naming the database URL (``--database`` overrides it).
DATABASE_ENV = "UNOKIT_DATABASE"

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("last_activity", Float, nullable=False),
    Column("spec", Text, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("seq", Integer, nullable=False, default=0),
    Column("closed", Boolean, nullable=False, default=False),
    Column("owner", String(64), nullable=True),
    Column("owner_url", String(200), nullable=True),
    Column("lease_until", Float, nullable=False, default=0.0),
    Column("public", Boolean, nullable=False, default=False),
    Column("listing", Text, nullable=True),
    Column("closed_at", Float, nullable=True),
    #: The address that created an open public room (the cap per address); ``NULL`` once closed.
    Column("creator", String(64), nullable=True),
    #: The people seated in a public room: the lobby lists the fullest first.
    Column("people", Integer, nullable=False, default=0, server_default="0"),
    Index("rooms_open_activity", "closed", "last_activity"),
    Index("rooms_public", "public", "closed"),
    Index("rooms_closed_at", "closed", "closed_at"),
    Index("rooms_creator", "creator", "closed"),
)

room_log = Table(
    "room_log",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("entry", Text, nullable=False),
)

records = Table(
    "records",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("record", Text, nullable=False),
    Index("records_created", "created_at"),
)

#: The processes of a cluster and the addresses clients reach them at (``--node-url``): each
#: records itself at start and at every sweep; the Origin check accepts their addresses.
nodes = Table(
    "nodes",
    metadata,
    Column("node", String(64), primary_key=True),
    Column("url", String(200), nullable=False),
    Column("seen", Float, nullable=False),
)

#: The allowances of client addresses a cluster's processes share (:class:`SharedAllowances`):
#: one token bucket per allowance ``name`` and address ``key``, its ``tokens`` at ``stamp``, full
#: again at ``full_at`` (then it is the same as no row, and pruned).
allowances = Table(
    "allowances",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("key", String(64), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("stamp", Float, nullable=False),
    Column("full_at", Float, nullable=False, index=True),
)

room_chat = Table(
    "room_chat",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("entry", Text, nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Index("players_last_seen", "last_seen"),
)

room_players = Table(
    "room_players",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("token_hash", String(64), primary_key=True),
    Column("player", String(64), nullable=False),
    Index("room_players_player", "player"),
)

player_games = Table(
    "player_games",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("room", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("summary", Text, nullable=False),
)


#: The writer's statements, built once (SQLAlchemy then reuses their compiled form): advance a
#: room's row from the step its new entries follow (only while the writing process holds the
#: room's lease, when the write names it: see :attr:`Append.owner`), and append entries to its log.
ADVANCE = (
    update(rooms)
    .where(
        rooms.c.code == bindparam("b_room"),
        rooms.c.seq == bindparam("b_after"),
        or_(bindparam("b_owner").is_(None), rooms.c.owner == bindparam("b_owner")),
    )
    .values(seq=bindparam("b_seq"), last_activity=bindparam("b_now"))
)
APPEND = insert(room_log)
#: Both at once on PostgreSQL, for a whole batch in one statement: its rooms' rows advanced
#: from the steps they follow (by the lease holder a write names), and the entries of those
#: that did appended. Unless every room advanced, the statement fails (a text that is not a
#: number, cast to one, names how many did), so nothing of it stays: it needs no transaction
#: around it.
POSTGRES_WRITE = """
WITH batch AS (
    SELECT * FROM unnest(%(rooms)s::text[], %(afters)s::int[], %(seqs)s::int[], %(owners)s::text[])
        AS b(room, after, seq, owner)
), moved AS (
    UPDATE rooms SET seq = batch.seq, last_activity = %(now)s
    FROM batch WHERE rooms.code = batch.room AND rooms.seq = batch.after
        AND (batch.owner IS NULL OR rooms.owner = batch.owner)
    RETURNING rooms.code
), added AS (
    INSERT INTO room_log (room, seq, at, entry)
    SELECT e.room, e.seq, %(now)s, e.entry
    FROM unnest(%(log_rooms)s::text[], %(log_seqs)s::int[], %(entries)s::text[]) AS e(room, seq, entry)
    JOIN moved ON moved.code = e.room
)
SELECT CASE WHEN count(*) = %(count)s THEN count(*)
            ELSE (%(refusal)s || count(*) || ' of ' || %(count)s)::int END
FROM moved
"""
#: The start of the text the statement fails with when a room of the batch has moved on.
POSTGRES_REFUSAL = "unokit: rooms advanced: "


#: The application name of a server process's sessions with PostgreSQL (``unokit/NODE``), and
#: the nodes that have one now: a process whose sessions are gone has died, whatever its leases say.
APPLICATION_NAME = "unokit/{node}"
LIVE_NODES: Select[Any] = (
    select(literal_column("substr(application_name, 8)"))
    .select_from(text("pg_stat_activity"))
    .where(literal_column("application_name").like("unokit/%"))
)


class StorageError(RuntimeError):
    """The database refused or failed a write; the room must be reloaded from what is committed."""


def default_database_url() -> str:
    """``$UNOKIT_DATABASE``, else SQLite in the user's data folder:
    ``$XDG_DATA_HOME/unokit/server.db`` or ``~/.local/share/unokit/server.db``."""
    explicit = os.environ.get(DATABASE_ENV)
    if explicit:
        return explicit
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(data) / 'unokit' / 'server.db'}"


def sqlalchemy_url(url: str) -> str:
    """The URL SQLAlchemy should use: ``postgresql://`` means psycopg 3 here. Raise
    ``ValueError`` naming the URL when it is not an SQLite or PostgreSQL database URL."""
    full = url
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            full = "postgresql+psycopg://" + url[len(prefix) :]
            break
    try:
        backend = make_url(full).get_backend_name()
    except ArgumentError:
        backend = None
    if backend not in ("sqlite", "postgresql"):
        raise ValueError(
            f"{url!r} is not a database URL unokit can use: give sqlite:///PATH or postgresql://USER@HOST/DB"
        )
    return full


def libpq_url(url: str) -> str:
    """The plain ``postgresql://`` URL for psycopg itself (LISTEN/NOTIFY)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def is_postgres(url: str) -> bool:
    return make_url(sqlalchemy_url(url)).get_backend_name() == "postgresql"


def open_engine(url: str, *, synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``. SQLite gets its folder created, WAL journaling and a busy timeout;
    ``synchronous`` is SQLite's setting (NORMAL survives a killed process; FULL also a power cut)."""
    full = sqlalchemy_url(url)
    parsed = make_url(full)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(full, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.close()

        return engine
    if backend == "postgresql":
        return create_engine(full, pool_size=5, max_overflow=5, pool_pre_ping=True)
    raise ValueError(f"unsupported database {parsed.drivername!r}: use sqlite:///PATH or postgresql://...")


#: The revision of the newest migration in ``migrations/versions`` (a test checks that it is
#: Alembic's head). A database already at it is not migrated, so a start that finds its schema
#: current never imports Alembic (a third of the server's start-up time).
SCHEMA_HEAD = "0015"


def room_spec(connection: Connection, code: str) -> dict[str, Any]:
    """Room ``code``'s stored spec, with the marks a feature gave it (``{}`` for no such room):
    how a feature's store hook tells its own rooms (the ladder's, an arena's tables)."""
    spec = connection.execute(select(rooms.c.spec).where(rooms.c.code == code)).scalar()
    found: dict[str, Any] = json.loads(spec) if spec is not None else {}
    return found


def schema_revision(connection: Connection) -> str | None:
    """The Alembic revision the database is at (``None`` before its first migration)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if revision is None else str(revision)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (several processes may call it at once
    on PostgreSQL: an advisory lock lets one migrate while the others wait)."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(7243001)"))
        if schema_revision(connection) == SCHEMA_HEAD:
            return
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass
class RoomRow:
    """A room as stored: its code, spec, host token hash, last sequence number and lease."""

    code: str
    spec: dict[str, Any]
    host_hash: str
    seq: int
    closed: bool
    owner: str | None
    owner_url: str | None
    lease_until: float
    last_activity: float
    creator: str | None = None


@dataclass
class Pruned:
    """What one :meth:`Store.prune` deleted."""

    rooms: int = 0
    entries: int = 0
    chat: int = 0
    records: int = 0
    players: int = 0  # identities forgotten (:meth:`Store.prune_players`)
    #: Features' rows kept as long as the rooms (:attr:`~.seam.StoreHooks.prune_with_rooms`):
    #: players' reports, and bans that ran out.
    reports: int = 0
    #: Client addresses' shared allowances that were full again (:class:`SharedAllowances`).
    allowances: int = 0


@dataclass
class Append:
    """One write: log ``entries`` of ``room`` following sequence number ``after``; optionally a
    finished game's record, whether the room is now closed, and what else the change touched:

    * ``chat``: chat-log entries, numbered from ``chat_after + 1``;
    * ``listing``: the room's new ``(public, listing JSON or None, people seated)`` for the
      lobby list;
    * ``game_seats``: with a record, the ``(seat, token hash)`` of its players and the game's
      ``game_summary`` JSON, so that each identity linked to one of them gets the game.
    """

    room: str
    after: int
    entries: list[dict[str, Any]]
    record: tuple[int, str] | None = None
    close: bool = False
    chat: list[dict[str, Any]] = field(default_factory=list)
    chat_after: int = 0
    listing: tuple[bool, str | None, int] | None = None
    game_seats: list[tuple[int, str]] = field(default_factory=list)
    game_summary: str = "{}"
    #: With a record, the seats whose player had left it: a stand-in bot played their last
    #: moves (``docs/ratings.md``: a rated player who leaves loses).
    left: list[int] = field(default_factory=list)
    #: A live game the host closed: its number and what rates it (the seats, a result that
    #: puts the closer, ``left``, below everyone else; ``docs/ratings.md``). No record is written.
    forfeit: tuple[int, str] | None = None
    #: With a record or a forfeit, whether two of its people played from one address (IPv4,
    #: IPv6 /64): such a game is not rated (``docs/ratings.md``).
    shared_address: bool = False
    #: With a record or a forfeit, the client address (:func:`~.edge.client_key`) each person's
    #: seat said hello from, as this process saw it: a feature may keep a mark of it (an HMAC
    #: under a secret, ``docs/ratings.md``), never the address itself. Not written by the core.
    addresses: dict[int, str] = field(default_factory=dict)
    #: With a record or a forfeit, each person's seat's ``(moves, stand-in moves)`` in the game.
    standins: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: The process writing as the room's owner: the write is refused unless that process holds
    #: the room's lease (a process whose lease ran out and was taken cannot write any more,
    #: however late it learns it). ``None`` for writes of rooms nobody serves.
    owner: str | None = None
    future: asyncio.Future[None] | None = field(default=None, repr=False)
    loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)

    @property
    def plain(self) -> bool:
        """Only log entries: written with the batch's shared statements."""
        return not (self.close or self.record is not None or self.chat or self.listing is not None)


def _held(job: Append) -> str:
    """What else a refused write of ``job`` may mean: its room's lease is another process's."""
    return "" if job.owner is None else ", or another process holds its lease"


class Database:
    """Synchronous access to the database (run from worker threads, never the event loop): its
    engine and transactions on it. Each part of :class:`Store` below works on one job's tables
    through it."""

    def __init__(self, url: str, *, synchronous: str = "NORMAL", hooks: Sequence[StoreHooks] = ()) -> None:
        self.url = url
        self.postgres = is_postgres(url)
        self.engine = open_engine(url, synchronous=synchronous)
        #: The features' rows in the writes below (:class:`~.seam.StoreHooks`), each run in the
        #: write's own transaction; a store opened without them writes the core's rows only.
        self.hooks = tuple(hooks)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database something; raise ``SQLAlchemyError`` when it does not answer."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection


class Store(Database):
    """Synchronous access to the database (run from worker threads, never the event loop): rooms
    (their rows, logs, finished games' records and chat, the lobby's listing), players'
    identities and their games, and the writes of the rooms' logs; and, each a part of its own
    on the same engine, :attr:`leases` (the cluster's), :attr:`allowances` (the client
    addresses' allowances a cluster shares) and :attr:`upkeep` (pruning and the admin's lists)."""

    def __init__(self, url: str, *, synchronous: str = "NORMAL", hooks: Sequence[StoreHooks] = ()) -> None:
        super().__init__(url, synchronous=synchronous, hooks=hooks)
        self.leases = Leases(self)
        self.upkeep = UpkeepRows(self)
        self.allowances = SharedAllowances(self)

    def create_room(
        self,
        code: str,
        spec: dict[str, Any],
        host_hash: str,
        listing: str | None = None,
        creator: str | None = None,
        public: bool | None = None,
    ) -> bool:
        """Insert a new room (``public``, by default when it has a ``listing``, which lists it in
        the lobby; made by the client address ``creator``, counted while it is open); False
        when ``code`` is taken."""
        now = time.time()
        try:
            with self.begin() as c:
                if c.execute(select(rooms.c.code).where(rooms.c.code == code)).first() is not None:
                    return False
                c.execute(
                    insert(rooms).values(
                        code=code,
                        created_at=now,
                        last_activity=now,
                        spec=json.dumps(spec),
                        host_hash=host_hash,
                        seq=0,
                        closed=False,
                        lease_until=0.0,
                        public=listing is not None if public is None else public,
                        listing=listing,
                        creator=creator,
                        people=0,
                    )
                )
        except SQLAlchemyError:
            return False
        return True

    def room(self, code: str) -> RoomRow | None:
        with self.begin() as c:
            row = c.execute(select(rooms).where(rooms.c.code == code)).first()
        if row is None:
            return None
        return RoomRow(
            code=row.code,
            spec=json.loads(row.spec),
            host_hash=row.host_hash,
            seq=row.seq,
            closed=row.closed,
            owner=row.owner,
            owner_url=row.owner_url,
            lease_until=row.lease_until,
            last_activity=row.last_activity,
            creator=row.creator,
        )

    def log(self, code: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """The room's log entries with a sequence number above ``after``, in order."""
        with self.begin() as c:
            rows = c.execute(
                select(room_log.c.seq, room_log.c.entry)
                .where(room_log.c.room == code, room_log.c.seq > after)
                .order_by(room_log.c.seq)
            ).all()
        return [(seq, decode(entry)) for seq, entry in rows]

    def record(self, code: str, game_no: int) -> str | None:
        with self.begin() as c:
            row = c.execute(
                select(records.c.record).where(records.c.room == code, records.c.game_no == game_no)
            ).first()
        return None if row is None else str(row.record)

    def chat(self, code: str) -> list[dict[str, Any]]:
        """The room's chat-log entries, in order."""
        with self.begin() as c:
            rows = c.execute(select(room_chat.c.entry).where(room_chat.c.room == code).order_by(room_chat.c.n)).all()
        return [decode(row.entry) for row in rows]

    def public_rooms(self, since: float, limit: int) -> list[tuple[str, dict[str, Any]]]:
        """The open public rooms active since ``since``, with their listings: the most people
        seated first, then the most recently active."""
        with self.begin() as c:
            rows = c.execute(
                select(rooms.c.code, rooms.c.listing)
                .where(
                    rooms.c.public.is_(True),
                    rooms.c.closed.is_(False),
                    rooms.c.listing.is_not(None),
                    rooms.c.last_activity >= since,
                )
                .order_by(rooms.c.people.desc(), rooms.c.last_activity.desc())
                .limit(limit)
            ).all()
        return [(row.code, decode(row.listing)) for row in rows]

    def public_rooms_of(self, creator: str) -> int:
        """How many open public rooms the client address ``creator`` made."""
        with self.begin() as c:
            count = c.scalar(
                select(func.count()).where(
                    rooms.c.creator == creator, rooms.c.closed.is_(False), rooms.c.public.is_(True)
                )
            )
        return int(count or 0)

    def room_specs(self, codes: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The stored specs of the rooms ``codes`` that are still kept, by code."""
        wanted = sorted(set(codes))
        if not wanted:
            return {}
        with self.begin() as c:
            rows = c.execute(select(rooms.c.code, rooms.c.spec).where(rooms.c.code.in_(wanted))).all()
        return {row.code: json.loads(row.spec) for row in rows}

    def played(self, player: str, code: str, game_no: int, seat: int) -> bool:
        """Whether the identity (hash) ``player`` played ``seat`` in game ``game_no`` of room ``code``."""
        with self.begin() as c:
            row = c.execute(
                select(player_games.c.seat).where(
                    player_games.c.player == player, player_games.c.room == code, player_games.c.game_no == game_no
                )
            ).first()
        return row is not None and row.seat == seat

    def player_games(self, player: str, limit: int) -> list[dict[str, Any]]:
        """The finished games of the identity whose hash is ``player`` (newest first) whose
        records are still kept; seen now (its retention starts again)."""
        now = time.time()
        with self.begin() as c:
            rows = c.execute(
                select(
                    player_games.c.room,
                    player_games.c.game_no,
                    player_games.c.seat,
                    player_games.c.at,
                    player_games.c.summary,
                )
                .where(
                    player_games.c.player == player,
                    select(records.c.game_no)
                    .where(records.c.room == player_games.c.room, records.c.game_no == player_games.c.game_no)
                    .exists(),
                )
                .order_by(player_games.c.at.desc())
                .limit(limit)
            ).all()
            c.execute(update(players).where(players.c.player == player).values(last_seen=now))
        return [
            {"room": row.room, "game": row.game_no, "seat": row.seat, "at": row.at, **decode(row.summary)}
            for row in rows
        ]

    def forget_player(self, player: str) -> int:
        """Forget the identity whose hash is ``player``: its links to seats, its list of games,
        the reviews of its seats and those it asked for, and its push subscriptions (the games'
        records stay, they name no identity). Returns the games forgotten."""
        with self.begin() as c:
            for hook in self.hooks:  # before its games: what a feature keeps of them goes too
                if hook.forget_player is not None:
                    hook.forget_player(c, player)
            games = c.execute(delete(player_games).where(player_games.c.player == player)).rowcount
            c.execute(delete(room_players).where(room_players.c.player == player))
            c.execute(delete(players).where(players.c.player == player))
        return int(games)

    def prune_players(self, before: float) -> int:
        """Forget every identity not seen since ``before`` (the retention the host sets), with
        its links, games, reviews and push subscriptions."""
        with self.begin() as c:
            stale = select(players.c.player).where(players.c.last_seen < before).scalar_subquery()
            for hook in self.hooks:
                if hook.forget_stale is not None:
                    hook.forget_stale(c, stale)
            c.execute(delete(player_games).where(player_games.c.player.in_(stale)))
            c.execute(delete(room_players).where(room_players.c.player.in_(stale)))
            return int(c.execute(delete(players).where(players.c.last_seen < before)).rowcount)

    def record_numbers(self, code: str) -> list[int]:
        with self.begin() as c:
            rows = c.execute(select(records.c.game_no).where(records.c.room == code).order_by(records.c.game_no)).all()
        return [row.game_no for row in rows]

    def write(self, c: Connection, job: Append) -> None:
        """Append ``job`` inside transaction ``c``; raise :class:`StorageError` when the room
        has moved on (another process wrote that step) or is gone."""
        if job.plain:
            self.write_many(c, [job])
        else:
            self._write_one(c, job)

    def write_many(self, c: Connection, jobs: list[Append]) -> None:
        """Append ``jobs`` (of different rooms, all :attr:`Append.plain`) inside
        transaction ``c`` with one statement for the rooms and one for the log; raise
        :class:`StorageError` when any of their rooms has moved on or is gone (then nothing of
        this transaction may be committed)."""
        now = time.time()
        if self.postgres:
            moved = self._write_many_postgres(c, jobs, now)
        else:
            moved = c.execute(
                ADVANCE,
                [
                    {
                        "b_room": j.room,
                        "b_after": j.after,
                        "b_seq": j.after + len(j.entries),
                        "b_now": now,
                        "b_owner": j.owner,
                    }
                    for j in jobs
                ],
            ).rowcount
        if moved != len(jobs):
            if len(jobs) == 1:
                raise StorageError(f"room {jobs[0].room} is no longer at step {jobs[0].after}{_held(jobs[0])}")
            raise StorageError(f"some of {len(jobs)} rooms are no longer at the step written")
        if not self.postgres:
            rows = [
                {"room": j.room, "seq": j.after + i + 1, "at": now, "entry": encode(entry)}
                for j in jobs
                for i, entry in enumerate(j.entries)
            ]
            if rows:
                c.execute(APPEND, rows)

    @staticmethod
    def _write_many_postgres(c: Connection, jobs: list[Append], now: float) -> int:
        """:meth:`write_many` on PostgreSQL, in one statement whatever the batch's size (its
        rows as arrays), which commits by itself outside a transaction; returns how many of the
        rooms advanced: all of them, or -1 when the statement refused the batch."""
        entries = [(j.room, j.after + i + 1, encode(entry)) for j in jobs for i, entry in enumerate(j.entries)]
        params = {
            "rooms": [j.room for j in jobs],
            "afters": [j.after for j in jobs],
            "seqs": [j.after + len(j.entries) for j in jobs],
            "owners": [j.owner for j in jobs],
            "log_rooms": [room for room, _seq, _text in entries],
            "log_seqs": [seq for _room, seq, _text in entries],
            "entries": [text for _room, _seq, text in entries],
            "now": now,
            "count": len(jobs),
            "refusal": POSTGRES_REFUSAL,
        }
        try:
            return int(c.exec_driver_sql(POSTGRES_WRITE, params).scalar_one())
        except DBAPIError as exc:
            if POSTGRES_REFUSAL not in str(exc.orig):
                raise
            return -1  # not all of them: the caller refuses the batch (the statement left nothing)

    def _write_one(self, c: Connection, job: Append) -> None:
        now = time.time()
        seq = job.after + len(job.entries)
        values: dict[str, Any] = {"seq": seq, "last_activity": now}
        if job.close:
            values["closed"] = True
            values["closed_at"] = now
            values["creator"] = None  # the address is kept only while it counts
        condition = (rooms.c.code == job.room) & (rooms.c.seq == job.after)
        if job.owner is not None:
            condition = condition & (rooms.c.owner == job.owner)
        moved = c.execute(update(rooms).where(condition).values(**values))
        if moved.rowcount != 1:
            raise StorageError(f"room {job.room} is no longer at step {job.after}{_held(job)}")
        if job.entries:
            c.execute(
                APPEND,
                [
                    {"room": job.room, "seq": job.after + i + 1, "at": now, "entry": encode(entry)}
                    for i, entry in enumerate(job.entries)
                ],
            )
        if job.record is not None:
            c.execute(
                insert(records).values(room=job.room, game_no=job.record[0], created_at=now, record=job.record[1])
            )
        if job.chat:
            c.execute(
                insert(room_chat),
                [
                    {"room": job.room, "n": job.chat_after + i + 1, "at": now, "entry": encode(entry)}
                    for i, entry in enumerate(job.chat)
                ],
            )
        if job.forfeit is not None:  # while the room is still listed as public
            self._game_written(c, job, now)
        if job.listing is not None:
            public, listing, people = job.listing
            c.execute(
                update(rooms).where(rooms.c.code == job.room).values(public=public, listing=listing, people=people)
            )
        if job.record is not None:
            self._game_written(c, job, now)
            for seat, token in job.game_seats:
                linked = select(
                    room_players.c.player,
                    literal(job.room),
                    literal(job.record[0]),
                    literal(seat),
                    literal(now),
                    literal(job.game_summary),
                ).where(room_players.c.room == job.room, room_players.c.token_hash == token)
                c.execute(
                    insert(player_games).from_select(["player", "room", "game_no", "seat", "at", "summary"], linked)
                )
                c.execute(
                    update(players)
                    .where(players.c.player.in_(linked.with_only_columns(room_players.c.player).scalar_subquery()))
                    .values(last_seen=now)
                )

    def _game_written(self, c: Connection, job: Append, now: float) -> None:
        for hook in self.hooks:
            if hook.game_written is not None:
                hook.game_written(c, job, now)

    def room_identities(self, room: str) -> dict[str, str]:
        """The identity (hash) linked to each seat token (hash) of ``room``."""
        with self.begin() as c:
            rows = c.execute(
                select(room_players.c.token_hash, room_players.c.player).where(room_players.c.room == room)
            ).all()
        return {row.token_hash: row.player for row in rows}

    def link_player(self, room: str, token: str, player: str) -> None:
        """Link the seat token ``token`` of ``room`` to the identity ``player`` (both hashes)."""
        with self.begin() as c:
            self._link(c, room, token, player, time.time())

    @staticmethod
    def _link(c: Connection, room: str, token: str, player: str, now: float) -> None:
        """Link the seat token ``token`` of ``room`` to the identity ``player`` (both hashes)."""
        c.execute(delete(room_players).where(room_players.c.room == room, room_players.c.token_hash == token))
        c.execute(insert(room_players).values(room=room, token_hash=token, player=player))
        if c.execute(update(players).where(players.c.player == player).values(last_seen=now)).rowcount == 0:
            c.execute(insert(players).values(player=player, created_at=now, last_seen=now))

    def close_unserved(self, code: str, reason: str) -> bool:
        """Close room ``code`` from outside the server (``unokit admin`` on the database): only
        when no process serves it (its lease ran out), by appending its ``close`` entry; False
        when it is closed or missing. Raise :class:`StorageError` when a process serves it."""
        row = self.room(code)
        if row is None or row.closed:
            return False
        if row.owner is not None and row.lease_until > time.time():
            raise StorageError(f"room {code} is being served by a process: close it through that server")
        with self.begin() as c:
            self._write_one(c, Append(code, row.seq, [{"type": "close", "reason": reason}], close=True))
        return True


T = TypeVar("T")


class Leases:
    """The cluster's processes and the rooms' leases, on the store's database (``store.leases``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def announce(self, node: str, url: str) -> None:
        """Record that process ``node`` is alive and reached at ``url``."""
        with self.db.begin() as c:
            c.execute(delete(nodes).where(nodes.c.node == node))
            c.execute(insert(nodes).values(node=node, url=url, seen=time.time()))

    def node_urls(self, since: float) -> set[str]:
        """The addresses of the processes seen since ``since``."""
        with self.db.begin() as c:
            rows = c.execute(select(nodes.c.url).where(nodes.c.seen >= since)).all()
        return {str(row.url) for row in rows}

    def forget_node(self, node: str, *, before: float | None = None) -> None:
        """Forget process ``node`` (it stops), or every process not seen since ``before``."""
        with self.db.begin() as c:
            if before is None:
                c.execute(delete(nodes).where(nodes.c.node == node))
            else:
                c.execute(delete(nodes).where(nodes.c.seen < before))

    def claim(self, code: str, owner: str, owner_url: str, ttl: float, *, force: bool = False) -> bool:
        """Take or renew the lease of room ``code`` for ``owner``: succeeds when the lease is
        free, expired or already ``owner``'s, or (PostgreSQL) when the process that holds it
        has no session in the database any more: it died (or always with ``force``, for a
        single process)."""
        now = time.time()
        condition = rooms.c.code == code
        if not force:
            free = (rooms.c.owner == owner) | (rooms.c.owner.is_(None)) | (rooms.c.lease_until < now)
            if self.db.postgres:
                free = free | rooms.c.owner.not_in(LIVE_NODES)
            condition = condition & free
        with self.db.begin() as c:
            result = c.execute(
                update(rooms)
                .where(condition, rooms.c.closed.is_(False))
                .values(owner=owner, owner_url=owner_url, lease_until=now + ttl)
            )
        return result.rowcount == 1

    def renew(self, owner: str, codes: list[str], ttl: float) -> set[str]:
        """Renew ``owner``'s leases on ``codes``; return the codes it still holds."""
        if not codes:
            return set()
        now = time.time()
        with self.db.begin() as c:
            c.execute(
                update(rooms).where(rooms.c.owner == owner, rooms.c.code.in_(codes)).values(lease_until=now + ttl)
            )
            rows = c.execute(select(rooms.c.code).where(rooms.c.owner == owner, rooms.c.code.in_(codes))).all()
        return {row.code for row in rows}

    def release(self, owner: str) -> None:
        """Give up every lease of ``owner`` (a clean shutdown)."""
        with self.db.begin() as c:
            c.execute(update(rooms).where(rooms.c.owner == owner).values(owner=None, lease_until=0.0))

    def idle_rooms(self, before: float) -> list[str]:
        """Open rooms with no activity since ``before`` and no live lease."""
        with self.db.begin() as c:
            rows = c.execute(
                select(rooms.c.code).where(
                    rooms.c.closed.is_(False), rooms.c.last_activity < before, rooms.c.lease_until < time.time()
                )
            ).all()
        return [row.code for row in rows]


class SharedAllowances:
    """Token buckets of client addresses in the database, so that every process of a cluster
    counts the same figure (``store.allowances``; :class:`~.allowances.Allowance` uses them on
    PostgreSQL). A bucket holds ``burst`` tokens when it has no row; it fills at ``rate`` a
    second. Each take is one transaction that locks its row: takes from several processes at once
    follow each other.
    Clocks are the processes' own: a stamp ahead of a process's clock adds nothing."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def take(self, name: str, key: str, rate: float, burst: float, cost: float = 1.0) -> bool:
        """Take ``cost`` from the bucket ``name``/``key`` if it holds that much; whether it did."""
        now = time.time()
        insert_of = postgres_insert if self.db.postgres else sqlite_insert
        # A missing row is made full; an existing one is locked until the commit (an update that
        # changes nothing) and read, so that two processes' takes follow each other.
        hold = (
            insert_of(allowances)
            .values(name=name, key=key, tokens=burst, stamp=now, full_at=now)
            .on_conflict_do_update(
                index_elements=[allowances.c.name, allowances.c.key], set_={"tokens": allowances.c.tokens}
            )
            .returning(allowances.c.tokens, allowances.c.stamp)
        )
        with self.db.begin() as c:
            row = c.execute(hold).one()
            level = _level(row.tokens, row.stamp, now, rate, burst)
            taken = level >= cost
            tokens = level - cost if taken else level
            c.execute(
                update(allowances)
                .where(allowances.c.name == name, allowances.c.key == key)
                .values(tokens=tokens, stamp=now, full_at=now + (burst - tokens) / rate)
            )
        return taken

    def level(self, name: str, key: str, rate: float, burst: float) -> float:
        """The tokens the bucket ``name``/``key`` holds now."""
        now = time.time()
        with self.db.begin() as c:
            row = c.execute(
                select(allowances.c.tokens, allowances.c.stamp).where(
                    allowances.c.name == name, allowances.c.key == key
                )
            ).first()
        return burst if row is None else _level(row.tokens, row.stamp, now, rate, burst)

    def prune(self) -> int:
        """Forget the buckets that are full again; how many."""
        with self.db.begin() as c:
            return int(c.execute(delete(allowances).where(allowances.c.full_at < time.time())).rowcount)


def _level(tokens: float, stamp: float, now: float, rate: float, burst: float) -> float:
    """A bucket's tokens at ``now``, from ``tokens`` at ``stamp`` (the statement's own sum)."""
    return min(burst, tokens + max(0.0, now - stamp) * rate)


class UpkeepRows:
    """Upkeep (pruning old rows) and the admin's lists, on the store's database (``store.upkeep``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def prune(
        self,
        rooms_before: float,
        records_before: float,
        *,
        limit: int = 500,
        export: Callable[[str, int, str], None] | None = None,
    ) -> Pruned:
        """Delete up to ``limit`` rooms closed before ``rooms_before`` (with their log, chat
        and players' links) and up to ``limit`` finished games' records written before
        ``records_before`` (with their places in players' lists and their reviews);
        ``export(room, game, text)`` is given each record first. Run again until it prunes nothing."""
        pruned = Pruned()
        with self.db.begin() as c:
            closed_at = func.coalesce(rooms.c.closed_at, rooms.c.last_activity)
            codes = [
                row.code
                for row in c.execute(
                    select(rooms.c.code).where(rooms.c.closed.is_(True), closed_at < rooms_before).limit(limit)
                )
            ]
            if codes:
                pruned.entries = int(c.execute(delete(room_log).where(room_log.c.room.in_(codes))).rowcount)
                pruned.chat = int(c.execute(delete(room_chat).where(room_chat.c.room.in_(codes))).rowcount)
                c.execute(delete(room_players).where(room_players.c.room.in_(codes)))
                pruned.rooms = int(c.execute(delete(rooms).where(rooms.c.code.in_(codes))).rowcount)
        with self.db.begin() as c:
            old = c.execute(
                select(records.c.room, records.c.game_no, records.c.record)
                .where(records.c.created_at < records_before)
                .order_by(records.c.created_at)
                .limit(limit)
            ).all()
            for row in old:
                if export is not None:
                    export(row.room, row.game_no, row.record)  # before anything is deleted
                c.execute(
                    delete(player_games).where(player_games.c.room == row.room, player_games.c.game_no == row.game_no)
                )
                c.execute(delete(records).where(records.c.room == row.room, records.c.game_no == row.game_no))
            pruned.records = len(old)
            for hook in self.db.hooks:
                if hook.prune is not None:
                    hook.prune(c, records_before)
        with self.db.begin() as c:
            for hook in self.db.hooks:
                if hook.prune_with_rooms is not None:
                    pruned.reports += hook.prune_with_rooms(c, rooms_before)
        return pruned

    def rooms_list(self, which: str = "open", limit: int = 1000) -> list[dict[str, Any]]:
        """Rooms (``open``, ``closed`` or ``all``), the latest first: code, variant, seats,
        created, last activity, closed, state version, games recorded, owning process."""
        games = select(func.count()).where(records.c.room == rooms.c.code).scalar_subquery()
        query = select(rooms, games.label("games")).order_by(rooms.c.last_activity.desc()).limit(limit)
        if which == "open":
            query = query.where(rooms.c.closed.is_(False))
        elif which == "closed":
            query = query.where(rooms.c.closed.is_(True))
        with self.db.begin() as c:
            rows = c.execute(query).all()
        out = []
        for row in rows:
            spec = json.loads(row.spec)
            out.append(
                {
                    "room": row.code,
                    "variant": spec["variant"],
                    "players": spec["players"],
                    "public": bool(row.public),
                    "created": row.created_at,
                    "last_activity": row.last_activity,
                    "closed": row.closed_at if row.closed else None,
                    "version": row.seq,
                    "games": int(row.games),
                    "served_by": row.owner if row.lease_until > time.time() else None,
                }
            )
        return out

    def records_since(self, since: float, room: str | None = None) -> Iterator[tuple[str, int, float, str]]:
        """Finished games written since ``since`` (of ``room`` only, if given), oldest first:
        (room, game number, when, record text)."""
        query = select(records).where(records.c.created_at >= since).order_by(records.c.created_at)
        if room is not None:
            query = query.where(records.c.room == room)
        with self.db.engine.connect() as c:
            for row in c.execution_options(yield_per=200).execute(query):
                yield row.room, row.game_no, row.created_at, row.record

    def totals(self) -> dict[str, int]:
        """How much the database holds: rooms open and closed, log entries, chat lines, records."""
        with self.db.begin() as c:
            return {
                "rooms_open": int(c.scalar(select(func.count()).where(rooms.c.closed.is_(False))) or 0),
                "rooms_closed": int(c.scalar(select(func.count()).where(rooms.c.closed.is_(True))) or 0),
                "log_entries": int(c.scalar(select(func.count()).select_from(room_log)) or 0),
                "chat_lines": int(c.scalar(select(func.count()).select_from(room_chat)) or 0),
                "records": int(c.scalar(select(func.count()).select_from(records)) or 0),
            }


@dataclass
class Call:
    """Work for the writer thread other than an append (:meth:`Writer.call`): ``work()``, its
    result or exception handed to ``future`` on ``loop``."""

    work: Callable[[], Any]
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


class Writer:
    """The group-commit writer: one thread commits every queued :class:`Append` of all rooms in
    one transaction, then resolves their futures on the event loop. A job that fails on its
    own (its room moved on) is retried alone so that it cannot fail the others. Other writes
    of the process that touch many rooms' rows (:meth:`call`) run on the same thread, between
    two batches, so that they never wait for a batch's rows while holding rows it waits for."""

    def __init__(self, store: Store, observe: Callable[[float], None] | None = None) -> None:
        self.store = store
        self.observe = observe  # told each batch's commit time, in seconds
        self._queue: queue.SimpleQueue[Append | Call | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="unokit-writer", daemon=True)
        self._thread.start()
        self.batches = 0
        self.jobs = 0
        self._connection: Connection | None = None  # the writer thread's own, kept between batches
        self._autocommit: Connection | None = None  # the same, without transactions (PostgreSQL)

    async def append(self, job: Append) -> None:
        """Queue ``job`` and wait until it is committed; raise :class:`StorageError` if not."""
        loop = asyncio.get_running_loop()
        job.loop = loop
        job.future = loop.create_future()
        self._queue.put(job)
        await job.future

    async def call(self, work: Callable[[], T]) -> T:
        """Run ``work()`` on the writer thread, after the batch being committed and before the
        next one; return its result or raise its exception."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(Call(work, future, loop))
        return await future

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    @contextmanager
    def _transaction(self, jobs: list[Append]) -> Iterator[Connection]:
        """Where ``jobs`` are written: a transaction on the writer's connection (opened once,
        not checked out of the pool for every batch), or on PostgreSQL, for log entries alone,
        a connection of the writer's without one (their one statement commits by itself, or
        fails whole). After a database error the connection is dropped and the next batch opens
        a new one."""
        alone = self.store.postgres and all(job.plain for job in jobs)
        key = "_autocommit" if alone else "_connection"
        connection: Connection | None = getattr(self, key)
        if connection is None:
            connection = self.store.engine.connect()
            if alone:
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
            setattr(self, key, connection)
        try:
            if alone:
                yield connection
            else:
                with connection.begin():
                    yield connection
        except SQLAlchemyError:
            setattr(self, key, None)
            with contextlib.suppress(SQLAlchemyError):
                connection.close()
            raise

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                self._close()
                return
            if isinstance(first, Call):
                self._call(first)
                continue
            batch = [first]
            after: Call | bool | None = False  # what ended the batch: a call, the stop, or nothing
            while True:
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None or isinstance(job, Call):
                    after = job
                    break
                batch.append(job)
            self._commit(batch)
            if after is None:
                self._close()
                return
            if isinstance(after, Call):
                self._call(after)

    @staticmethod
    def _call(call: Call) -> None:
        """Run ``call`` here and hand its outcome to its event loop."""
        try:
            result, error = call.work(), None
        except Exception as exc:
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            call.loop.call_soon_threadsafe(Writer._resolve, call.future, result, error)

    @staticmethod
    def _resolve(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)

    def _close(self) -> None:
        for connection in (self._connection, self._autocommit):
            if connection is not None:
                with contextlib.suppress(SQLAlchemyError):
                    connection.close()
        self._connection = self._autocommit = None

    def _commit(self, batch: list[Append]) -> None:
        started = time.perf_counter()
        outcomes = self.commit(batch)
        if self.observe is not None:
            self.observe(time.perf_counter() - started)
        loops = {job.loop for job in batch if job.loop is not None}
        for loop in loops:  # one wake-up of each event loop per batch, not one per job
            mine = [(job, outcome) for job, outcome in zip(batch, outcomes, strict=True) if job.loop is loop]
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(self._settle, mine)

    def commit(self, batch: list[Append]) -> list[BaseException | None]:
        """Commit ``batch`` (jobs of different rooms) in one transaction; return each job's
        outcome, ``None`` when it is committed. Only when the transaction fails (a room moved on)
        is each job retried in a transaction of its own, so that one cannot fail the others."""
        self.batches += 1
        self.jobs += len(batch)
        plain = [job for job in batch if job.plain]
        try:
            with self._transaction(batch) as c:
                if plain:
                    self.store.write_many(c, plain)
                for job in batch:
                    if not job.plain:
                        self.store.write(c, job)
        except (StorageError, SQLAlchemyError) as exc:
            if len(batch) == 1:
                return [exc]
            outcomes: list[BaseException | None] = []
            for job in batch:
                try:
                    with self._transaction([job]) as c:
                        self.store.write(c, job)
                except (StorageError, SQLAlchemyError) as single:
                    outcomes.append(single)
                else:
                    outcomes.append(None)
            return outcomes
        return [None] * len(batch)

    @staticmethod
    def _settle(settled: list[tuple[Append, BaseException | None]]) -> None:
        """Resolve the futures of committed (or refused) jobs, on their event loop."""
        for job, error in settled:
            future = job.future
            if future is None or future.done():
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(StorageError(f"the database refused the write: {error}"))
