"""An arena's rows and what changes them (``docs/arena.md``): the arenas the operator schedules,
each player's line (points, streak, the table they sit at) and each counted game's points. Every
change is one transaction; the rules themselves are :mod:`.rules`' (pure).

A player is **free** while ``free_since`` is set: joined and at no table. Seating a table sets
``room`` and clears ``free_since`` only where ``free_since`` is still set, so that two
processes sweeping at once never seat one player twice. A finished game of a table
(:func:`game_written`, in the transaction that writes its record) counts for each of its
players and frees them; a player who left the table, or never sat at it, loses it and is
withdrawn (no longer free: they join again to play on).
"""

from __future__ import annotations

import json
import math
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from ....bots.levels import LEVELS
from ...room import RoomError, check_name
from ...storage import metadata, room_players, room_spec
from ..ratings.skill import own_cards, ranks
from .rules import MAX_SEATS, MIN_SEATS, Free, Standing, scored, standings

if TYPE_CHECKING:
    from ...storage import Append, Store

#: The arenas the operator scheduled.
arenas = Table(
    "arenas",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", Text, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("starts", Float, nullable=False),
    Column("ends", Float, nullable=False),
    #: The level of the bots that fill a table after ``bot_wait`` seconds.
    Column("bot_level", String(16), nullable=False),
    Column("bot_wait", Float, nullable=False),
    Column("created", Float, nullable=False),
    Column("cancelled", Float, nullable=True),
    Index("arenas_ends", "ends"),
)

#: Each player's line of an arena.
arena_players = Table(
    "arena_players",
    metadata,
    Column("arena", String(16), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("name", Text, nullable=False),
    #: A mark of the address the player joined from (never the address): two seats never share one.
    Column("address", String(32), nullable=False),
    Column("points", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("streak", Integer, nullable=False),
    #: When the player's points last changed, or they joined (the standings' last tie-break).
    Column("since", Float, nullable=False),
    #: When the player became free; ``NULL`` while seated or withdrawn.
    Column("free_since", Float, nullable=True),
    #: The room of the table the player is seated at, and when they were seated.
    Column("room", String(16), nullable=True),
    Column("seated_at", Float, nullable=True),
    Index("arena_players_room", "room"),
    Index("arena_players_player", "player"),
)

#: Each counted (or lost) game of each arena player.
arena_games = Table(
    "arena_games",
    metadata,
    Column("arena", String(16), primary_key=True),
    Column("room", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("place", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("doubled", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)

#: An arena's length, in minutes, and the wait before bots fill a table, in seconds.
MIN_MINUTES, MAX_MINUTES = 5, 24 * 60
BOT_WAIT = 20.0
MAX_BOT_WAIT = 600.0
#: The most players one arena's standings list.
STANDINGS_LIMIT = 500
#: How long arenas that ended stay listed at ``GET /api/arenas``, in seconds.
LISTED_AFTER_END = 24 * 3600.0
_ID = re.compile(r"^[a-z0-9]{1,16}$")


@dataclass(frozen=True)
class Arena:
    """One arena's row."""

    id: str
    name: str
    variant: str
    players: int
    starts: float
    ends: float
    bot_level: str
    bot_wait: float
    created: float
    cancelled: float | None

    def status(self, now: float) -> str:
        """``cancelled``, ``upcoming``, ``running`` or ``finished`` at ``now``."""
        if self.cancelled is not None:
            return "cancelled"
        return "upcoming" if now < self.starts else "running" if now < self.ends else "finished"

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "variant": self.variant,
            "players": self.players,
            "starts": self.starts,
            "ends": self.ends,
            "bot_level": self.bot_level,
            "bot_wait": self.bot_wait,
            "status": self.status(now),
        }


def check_id(value: object) -> str:
    """An arena's id as a request names it; raise :class:`RoomError` ``bad_request``."""
    if not isinstance(value, str) or not _ID.match(value):
        raise RoomError("bad_request", "an arena's id is 1 to 16 lower-case letters and digits")
    return value


def new_arena(body: dict[str, Any], now: float) -> Arena:
    """The arena a request describes: ``name``, ``variant``, ``players``, ``starts`` (a Unix
    time; now when left out), ``minutes``, optionally ``bot_level`` and ``bot_wait``. Raise
    :class:`RoomError` ``bad_request`` naming what is wrong."""
    from .... import Game, UnokitError

    allowed = {"name", "variant", "players", "starts", "minutes", "bot_level", "bot_wait"}
    unknown = set(body) - allowed
    if unknown:
        raise RoomError("bad_request", f"unknown field(s) {', '.join(sorted(unknown))}")
    name = check_name(body.get("name"))
    players, minutes = body.get("players", 2), body.get("minutes", 60)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_SEATS <= players <= MAX_SEATS:
        raise RoomError("bad_request", f"'players' must be a table size from {MIN_SEATS} to {MAX_SEATS}")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise RoomError("bad_request", f"'minutes' must be from {MIN_MINUTES} to {MAX_MINUTES}")
    try:
        game = Game.new(str(body.get("variant", "classic")), players, 0)[0]
    except UnokitError as exc:
        raise RoomError("bad_request", str(exc)) from None
    starts = body.get("starts", now)
    if isinstance(starts, bool) or not isinstance(starts, int | float) or not math.isfinite(starts):
        raise RoomError("bad_request", "'starts' must be a Unix time")
    level = body.get("bot_level", "normal")
    if level not in LEVELS:
        raise RoomError("bad_request", f"'bot_level' must be one of {', '.join(LEVELS)}")
    wait = body.get("bot_wait", BOT_WAIT)
    if isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 <= wait <= MAX_BOT_WAIT:
        raise RoomError("bad_request", f"'bot_wait' must be from 0 to {MAX_BOT_WAIT:g} seconds")
    ident = secrets.token_hex(4)
    starts = float(starts)
    return Arena(ident, name, game.variant, game.n, starts, starts + 60.0 * minutes, level, float(wait), now, None)


def _arena(row: Any) -> Arena:
    return Arena(
        row.id,
        row.name,
        row.variant,
        row.players,
        row.starts,
        row.ends,
        row.bot_level,
        row.bot_wait,
        row.created,
        row.cancelled,
    )


def create(store: Store, arena: Arena) -> Arena:
    """Schedule ``arena``."""
    with store.begin() as c:
        c.execute(insert(arenas).values(**arena.__dict__))
    return arena


def find(c: Connection, ident: str) -> Arena:
    """The arena ``ident``; raise :class:`RoomError` ``no_arena``."""
    row = c.execute(select(arenas).where(arenas.c.id == ident)).first()
    if row is None:
        raise RoomError("no_arena", f"there is no arena {ident}")
    return _arena(row)


def listed(store: Store, now: float, *, every: bool = False) -> list[Arena]:
    """The arenas upcoming, running, and ended in the last :data:`LISTED_AFTER_END` seconds
    (``every``: all of them, the cancelled too), the soonest first."""
    query = select(arenas).order_by(arenas.c.starts, arenas.c.id)
    if not every:
        query = query.where(arenas.c.cancelled.is_(None), arenas.c.ends >= now - LISTED_AFTER_END)
    with store.begin() as c:
        return [_arena(row) for row in c.execute(query)]


def entrants(store: Store, idents: list[str]) -> dict[str, int]:
    """How many players joined each of the arenas ``idents`` (an arena nobody joined is left out)."""
    if not idents:
        return {}
    query = (
        select(arena_players.c.arena, func.count())
        .where(arena_players.c.arena.in_(idents))
        .group_by(arena_players.c.arena)
    )
    with store.begin() as c:
        return {row[0]: int(row[1]) for row in c.execute(query)}


def listed_json(store: Store, now: float, *, every: bool = False) -> list[dict[str, Any]]:
    """:func:`listed`'s arenas as ``GET /api/arenas`` gives them, each with its ``entrants``."""
    found = listed(store, now, every=every)
    counts = entrants(store, [arena.id for arena in found])
    return [{**arena.to_json(now), "entrants": counts.get(arena.id, 0)} for arena in found]


def cancel(store: Store, ident: str, now: float) -> Arena:
    """Cancel the arena ``ident``: it seats nobody more and its games no longer count; its
    players are freed. Raise :class:`RoomError` ``no_arena``."""
    with store.begin() as c:
        arena = find(c, ident)
        if arena.cancelled is None:
            c.execute(update(arenas).where(arenas.c.id == ident).values(cancelled=now))
            c.execute(update(arena_players).where(arena_players.c.arena == ident).values(free_since=None, room=None))
        return find(c, ident)


def _line(row: Any) -> Standing:
    return Standing(row.player, row.name, row.points, row.wins, row.games, row.streak, row.since)


def lines(c: Connection, ident: str) -> list[Standing]:
    """The arena's standings, in order."""
    return standings(_line(row) for row in c.execute(select(arena_players).where(arena_players.c.arena == ident)))


def standings_json(store: Store, ident: str, now: float) -> dict[str, Any]:
    """``GET /api/arenas/{id}``: the arena and its standings (a ``podium`` of its first three
    once it is finished). Raise :class:`RoomError` ``no_arena``."""
    with store.begin() as c:
        arena = find(c, ident)
        ordered = lines(c, ident)
    table = [
        {
            "place": place,
            "name": line.name,
            "points": line.points,
            "wins": line.wins,
            "games": line.games,
            "on_fire": line.on_fire,
        }
        for place, line in enumerate(ordered[:STANDINGS_LIMIT], start=1)
    ]
    out = {**arena.to_json(now), "standings": table, "entrants": len(ordered)}
    if arena.status(now) == "finished":
        out["podium"] = table[:3]
    return out


def join(store: Store, ident: str, player: str, name: str, address: str, now: float) -> None:
    """``player`` joins the arena ``ident`` under ``name`` from ``address`` (a mark), or comes
    back after they were withdrawn: free from ``now``. Raise :class:`RoomError` ``no_arena``,
    or ``arena_over`` when it was cancelled or has ended."""
    with store.begin() as c:
        arena = find(c, ident)
        if arena.status(now) in ("cancelled", "finished"):
            raise RoomError("arena_over", f"the arena {ident} is over")
        row = c.execute(
            select(arena_players).where(arena_players.c.arena == ident, arena_players.c.player == player)
        ).first()
        if row is None:
            c.execute(
                insert(arena_players).values(
                    arena=ident,
                    player=player,
                    name=name,
                    address=address,
                    points=0,
                    wins=0,
                    games=0,
                    streak=0,
                    since=now,
                    free_since=now,
                )
            )
        elif row.room is None:
            key = and_(arena_players.c.arena == ident, arena_players.c.player == player)
            free = row.free_since if row.free_since is not None else now
            c.execute(update(arena_players).where(key).values(name=name, address=address, free_since=free))


def mine(store: Store, ident: str, player: str, now: float) -> dict[str, Any]:
    """``player``'s line of the arena ``ident``: ``joined``, and when joined its ``place``,
    ``points``, ``streak``, ``on_fire``, ``free`` and the ``room`` of their table (``None``
    while they wait). Raise :class:`RoomError` ``no_arena``."""
    with store.begin() as c:
        arena = find(c, ident)
        row = c.execute(
            select(arena_players).where(arena_players.c.arena == ident, arena_players.c.player == player)
        ).first()
        ordered = lines(c, ident) if row is not None else []
    out: dict[str, Any] = {"arena": ident, "status": arena.status(now), "joined": row is not None}
    if row is not None:
        line = _line(row)
        out.update(
            place=1 + [other.player for other in ordered].index(player),
            name=line.name,
            points=line.points,
            wins=line.wins,
            games=line.games,
            streak=line.streak,
            on_fire=line.on_fire,
            free=row.free_since is not None,
            room=row.room,
        )
    return out


def free_players(store: Store, arena: Arena) -> list[Free]:
    """The arena's free players with their places, none of whom sits at a table of any arena
    (a person is at one arena table at a time)."""
    with store.begin() as c:
        ordered = lines(c, arena.id)
        rank = {line.player: place for place, line in enumerate(ordered, start=1)}
        seated = select(arena_players.c.player).where(arena_players.c.room.is_not(None))
        rows = c.execute(
            select(arena_players).where(
                arena_players.c.arena == arena.id,
                arena_players.c.free_since.is_not(None),
                arena_players.c.player.not_in(seated),
            )
        ).all()
    return [Free(row.player, row.address, row.free_since, rank[row.player]) for row in rows]


def seat(store: Store, arena: Arena, players: tuple[str, ...], room: str, now: float) -> bool:
    """Seat ``players`` at the table of ``room``: each one still free (else nobody is seated and
    the answer is ``False``: another sweep seated one of them first)."""
    try:
        with store.begin() as c:
            for player in players:
                key = and_(
                    arena_players.c.arena == arena.id,
                    arena_players.c.player == player,
                    arena_players.c.free_since.is_not(None),
                )
                changed = c.execute(update(arena_players).where(key).values(free_since=None, room=room, seated_at=now))
                if changed.rowcount != 1:
                    raise _Taken
    except _Taken:
        return False
    return True


class _Taken(Exception):
    """One of a table's players was seated elsewhere first: the transaction is rolled back."""


def stuck(store: Store, before: float) -> list[tuple[str, str]]:
    """``(arena, room)`` of the tables seated before ``before`` whose game has not counted yet."""
    with store.begin() as c:
        rows = c.execute(
            select(arena_players.c.arena, arena_players.c.room)
            .where(arena_players.c.room.is_not(None), arena_players.c.seated_at < before)
            .distinct()
        ).all()
    return [(row.arena, row.room) for row in rows]


def withdraw_table(store: Store, ident: str, room: str) -> None:
    """The table of ``room`` never started (nobody sat at it): its players are withdrawn."""
    with store.begin() as c:
        c.execute(
            update(arena_players)
            .where(arena_players.c.arena == ident, arena_players.c.room == room)
            .values(room=None, free_since=None, seated_at=None)
        )


def game_written(c: Connection, job: Append, now: float) -> None:
    """A game of an arena's table ended (its record is being written in this transaction): it
    counts for each of the table's players when it is fair-play eligible (it ended, from the
    variant's own cards, no two people from one address, no identity in two seats) and the arena
    was running; the players who stayed are freed, those who left (or never sat) lose and are
    withdrawn."""
    game = job.record or job.forfeit
    if game is None:
        return
    mark = room_spec(c, job.room).get("arena")
    if not isinstance(mark, dict) or not isinstance(mark.get("id"), str):
        return
    ident = mark["id"]
    table = c.execute(
        select(arena_players).where(arena_players.c.arena == ident, arena_players.c.room == job.room)
    ).all()
    if not table:
        return  # counted already, or the arena was cancelled
    arena = find(c, ident)
    record = json.loads(game[1])
    seats, result = record.get("seats", []), record.get("result") or {}
    scores, winners = result.get("scores", []), result.get("winners", [])
    tokens = dict(job.game_seats)
    seat_of: dict[str, int] = {}
    for index in range(len(seats)):
        token = tokens.get(index)
        if token is None:
            continue
        player = c.execute(
            select(room_players.c.player).where(room_players.c.room == job.room, room_players.c.token_hash == token)
        ).scalar()
        if player is not None:
            if player in seat_of:
                seat_of = {}  # one identity in two seats: the game does not count
                break
            seat_of[player] = index
    eligible = (
        bool(result.get("over"))
        and len(scores) == len(seats)
        and not job.shared_address
        and bool(seat_of)
        and own_cards(record.get("options") or {})
        and arena.starts <= now < arena.ends
        and arena.cancelled is None
    )
    places = ranks(scores, winners) if eligible else []
    for row in table:
        key = and_(arena_players.c.arena == ident, arena_players.c.player == row.player)
        sat = seat_of.get(row.player)
        left = sat is None or sat in job.left
        if not eligible:
            c.execute(update(arena_players).where(key).values(room=None, seated_at=None, free_since=now))
            continue
        got = scored(_line(row), len(seats) if sat is None else places[sat], len(seats), left=left, at=now)
        line = got.standing
        c.execute(
            update(arena_players)
            .where(key)
            .values(
                points=line.points,
                wins=line.wins,
                games=line.games,
                streak=line.streak,
                since=line.since,
                room=None,
                seated_at=None,
                free_since=None if left else now,
            )
        )
        c.execute(
            insert(arena_games).values(
                arena=ident,
                room=job.room,
                game_no=game[0],
                player=row.player,
                place=len(seats) if sat is None else places[sat],
                points=got.points,
                doubled=got.doubled,
                left=left,
                at=now,
            )
        )


def forget_player(c: Connection, player: str) -> None:
    """ "Forget me": the identity's lines and games of every arena."""
    c.execute(delete(arena_games).where(arena_games.c.player == player))
    c.execute(delete(arena_players).where(arena_players.c.player == player))


def forget_stale(c: Connection, stale: Any) -> None:
    """The identities ``stale`` are forgotten by the retention."""
    c.execute(delete(arena_games).where(arena_games.c.player.in_(stale)))
    c.execute(delete(arena_players).where(arena_players.c.player.in_(stale)))
