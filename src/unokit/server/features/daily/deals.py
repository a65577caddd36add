"""The deal of the day (``docs/daily.md``): each day, one seeded deal per featured setting, the
same for everyone, played against bots at the normal table.

A deal is a variant, a number of seats, options and the level of the bots in the other seats
(:class:`Deal`). Its day's seeds come from a secret of the server (kept in the database, so every
process of a cluster shares it) and the date: ``HMAC-SHA256(secret, "day|deal|purpose")``, one
for the game's start and one for each bot seat, and, in a daily room, one for each of a bot's
decisions, named by the game's number and the number of moves before it. So the same actions
meet the same answers, whoever plays, and nobody without the secret can compute tomorrow's deal.

A player identity has one *scored* attempt per deal and day (the row of ``daily_attempts``,
whose key makes a second one impossible, whatever process is asked); the room it plays in is an
ordinary room, whose spec names the deal (``daily``). When the room's first game ends, its
result is written into the attempt in the same transaction as the game's record
(:func:`record_written`), so a restart, ``kill -9`` or a takeover by another process counts it
once. Practice games (after the scored one) are the same deal in another room, not counted.

Only the first scored attempt at a deal asked from a client address (an IPv6 /64, as every
per-address limit counts it) ranks on the day's board: a second identity on the same network
cannot play the deal once to learn it and then rank with what it learned. Its attempt is kept and
shown to its own player, unranked. The attempt keeps its address only as :func:`~...vault.address_mark`
(an HMAC of it under the server's secret), so neither the board nor an export holds an address.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    Column,
    ColumnElement,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    and_,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ...room import RoomError, seat_bots
from ...storage import metadata, room_players

if TYPE_CHECKING:
    from ...storage import Append, Store

#: One scored attempt per identity, deal and day: its room, and once its game ended its result.
daily_attempts = Table(
    "daily_attempts",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("deal", String(40), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("room", String(16), nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("name", Text, nullable=True),
    Column("won", Boolean, nullable=True),
    Column("points", Integer, nullable=True),
    Column("actions", Integer, nullable=True),
    #: The client address the attempt was asked from, as :func:`address_mark` keeps it (not the
    #: address itself): only an address's first attempt at a deal ranks (``None``: from before).
    Column("address", String(32), nullable=True),
    Index("daily_attempts_room", "room"),
    Index("daily_attempts_player", "player", "day"),
)

#: The days whose deals were told to the players who asked (``push``'s ``daily`` kind): the
#: process that writes a day's row is the one that sends its messages, so a cluster sends once.
daily_told = Table(
    "daily_told",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("told_at", Float, nullable=False),
)

#: How many results one board lists.
BOARD_LIMIT = 100
#: How long after a day began its deals are still told (a process that starts later, after all
#: were down at the rollover, tells them; one that starts later still does not).
TELL_WITHIN = 3600.0
#: How many days the rows of :data:`daily_told` are kept.
TOLD_DAYS = 7
#: How far back a streak is counted (days).
STREAK_DAYS = 400
#: The settings of a daily room: no turn timer (a daily deal is a puzzle to think about); the
#: game starts as the person sits down; nobody hosts it.
DAILY_SETTINGS: dict[str, Any] = {"turn_seconds": 0, "fill_seconds": 1}


@dataclass(frozen=True)
class Deal:
    """A featured setting: ``variant`` with ``players`` seats and ``options``, the person in
    the first seat and bots of ``level`` in the others."""

    key: str
    variant: str
    players: int
    level: str
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.key,
            "variant": self.variant,
            "players": self.players,
            "bots": self.level,
            "options": dict(self.options),
        }


#: The deals of every day: a duel against the strongest level, and a four-player UNO Flip table.
FIXED_DEALS = (
    Deal("classic-2-expert", "classic", 2, "expert", {"rounds": 1}),
    Deal("flip-4-normal", "flip", 4, "normal", {"rounds": 1}),
)
#: The third deal of a day, one after the other: a variant or house rule that changes each day.
ROTATING_DEALS = (
    Deal("attack-3-normal", "attack", 3, "normal", {"rounds": 1}),
    Deal("classic-4-stacking", "classic", 4, "normal", {"rounds": 1, "stacking": True}),
    Deal("flip_attack-3-normal", "flip_attack", 3, "normal", {"rounds": 1}),
    Deal("classic-4-seven_o", "classic", 4, "normal", {"rounds": 1, "seven_o": True}),
    Deal("flip-3-jump_in", "flip", 3, "normal", {"rounds": 1, "jump_in": True}),
)


def parse_deal(text: str) -> Deal:
    """A deal from ``unokit serve --daily VARIANT:PLAYERS:LEVEL[:OPTION=VALUE,...]``; raise
    :class:`ValueError` naming what is wrong."""
    parts = text.split(":")
    if len(parts) not in (3, 4):
        raise ValueError(f"--daily {text!r}: expected VARIANT:PLAYERS:LEVEL[:OPTION=VALUE,...]")
    variant, players, level = parts[:3]
    if not players.isdigit():
        raise ValueError(f"--daily {text!r}: the number of players must be a whole number")
    if level not in seat_bots():
        raise ValueError(f"--daily {text!r}: the bots must be one of {', '.join(seat_bots())}")
    options: dict[str, Any] = {"rounds": 1}
    for item in parts[3].split(",") if len(parts) == 4 and parts[3] else []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--daily {text!r}: options are OPTION=VALUE")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    key = "-".join([variant, players, level, *(f"{k}={v}" for k, v in options.items() if k != "rounds")])
    return Deal(key[:40], variant, int(players), level, options)


def featured(day: dt.date, deals: tuple[Deal, ...] = ()) -> list[Deal]:
    """The deals of ``day``: the host's own (``--daily``), else :data:`FIXED_DEALS` and the
    day's turn of :data:`ROTATING_DEALS`."""
    if deals:
        return list(deals)
    return [*FIXED_DEALS, ROTATING_DEALS[day.toordinal() % len(ROTATING_DEALS)]]


def day_of(now: float, rollover_hours: float = 0.0) -> dt.date:
    """The daily deals' day at the time ``now``: days begin at ``rollover_hours`` past midnight UTC."""
    return (dt.datetime.fromtimestamp(now, dt.UTC) - dt.timedelta(hours=rollover_hours)).date()


def day_start(day: dt.date, rollover_hours: float = 0.0) -> float:
    """When ``day`` begins (a Unix time)."""
    return (dt.datetime.combine(day, dt.time(), dt.UTC) + dt.timedelta(hours=rollover_hours)).timestamp()


def next_rollover(now: float, rollover_hours: float = 0.0) -> float:
    """When the day of ``now`` ends (a Unix time)."""
    day = day_of(now, rollover_hours)
    start = dt.datetime.combine(day, dt.time(), dt.UTC) + dt.timedelta(hours=rollover_hours)
    return (start + dt.timedelta(days=1)).timestamp()


def parse_day(value: object, today: dt.date) -> dt.date:
    """A board's day (``YYYY-MM-DD``, not after ``today``; default ``today``); raise
    :class:`RoomError` ``bad_request``."""
    if value is None:
        return today
    try:
        day = dt.date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise RoomError("bad_request", "'day' must be a date written YYYY-MM-DD")
    if day > today:
        raise RoomError("bad_request", f"the deals of {day.isoformat()} are not played yet")
    return day


class DealSeeds:
    """The seeds of one deal on one day, from the server's secret (:func:`deal_seed`)."""

    def __init__(self, secret: bytes, day: str, deal: str) -> None:
        self._secret = secret
        self.day = day
        self.deal = deal

    def seed(self, purpose: str, bits: int = 62) -> int:
        digest = hmac.new(self._secret, f"{self.day}|{self.deal}|{purpose}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> (64 - bits)

    def start(self) -> int:
        """The seed of every game of the deal (a practice game is the same deal)."""
        return self.seed("start", 63)

    def bot(self, seat: int) -> int:
        """The seed of the bot at ``seat``."""
        return self.seed(f"bot {seat}")

    def decision(self, seat: int, moves: int, purpose: str) -> int:
        """The RNG state of the bot at ``seat`` for its decision ``purpose`` (``act``, ``react``)
        after ``moves`` moves of the game: the same history gives the same answer."""
        return self.seed(f"{purpose} {seat} {moves}", 64)


def deal_seed(secret: bytes, day: dt.date, deal: str) -> int:
    """The start seed of ``deal`` on ``day`` under ``secret``."""
    return DealSeeds(secret, day.isoformat(), deal).start()


# ---------------------------------------------------------------------- the database
def claim_telling(store: Store, day: dt.date, now: float) -> bool:
    """Whether this process is the one to tell ``day``'s deals: it wrote the day's row of
    :data:`daily_told` (False: another did, whatever process asks). Rows older than
    :data:`TOLD_DAYS` go."""
    try:
        with store.begin() as c:
            c.execute(insert(daily_told).values(day=day.isoformat(), told_at=now))
            old = (day - dt.timedelta(days=TOLD_DAYS)).isoformat()
            c.execute(delete(daily_told).where(daily_told.c.day < old))
    except IntegrityError:
        return False
    return True


def attempt(store: Store, day: str, deal: str, player: str) -> dict[str, Any] | None:
    """The scored attempt of ``player`` at ``deal`` on ``day``, if any."""
    with store.begin() as c:
        row = c.execute(
            select(daily_attempts).where(
                daily_attempts.c.day == day, daily_attempts.c.deal == deal, daily_attempts.c.player == player
            )
        ).first()
    return None if row is None else dict(row._mapping)


def claim_attempt(store: Store, day: str, deal: str, player: str, room: str, address: str | None = None) -> bool:
    """Make ``room`` the scored attempt of ``player`` at ``deal`` on ``day``, asked from
    ``address`` (:func:`address_mark`); False when the identity already has one (the table's key
    decides, whichever process asks)."""
    try:
        with store.begin() as c:
            c.execute(
                insert(daily_attempts).values(
                    day=day, deal=deal, player=player, room=room, started_at=time.time(), address=address
                )
            )
    except IntegrityError:
        return False
    return True


def record_written(c: Connection, job: Append, now: float) -> None:
    """The first game of a scored attempt's room ended (its record is being written in this
    transaction): keep its result in the attempt, once. The seat counted is the first, and only
    when the identity linked to its token is the attempt's."""
    if job.record is None or job.record[0] != 1:
        return
    first = [token for seat, token in job.game_seats if seat == 0]
    if not first:
        return
    waiting = select(daily_attempts.c.room).where(
        daily_attempts.c.room == job.room, daily_attempts.c.finished_at.is_(None)
    )
    if c.execute(waiting).first() is None:
        return  # not a scored attempt's room (the record is read only for one)
    record = json.loads(job.record[1])
    result, seats = record.get("result") or {}, record.get("seats") or [{}]
    winners, scores = result.get("winners", []), result.get("scores", [])
    linked = select(room_players.c.player).where(room_players.c.room == job.room, room_players.c.token_hash == first[0])
    c.execute(
        update(daily_attempts)
        .where(
            daily_attempts.c.room == job.room,
            daily_attempts.c.finished_at.is_(None),
            daily_attempts.c.player.in_(linked.scalar_subquery()),
        )
        .values(
            finished_at=now,
            name=seats[0].get("name"),
            won=0 in winners,
            points=int(scores[0]) if scores else 0,
            actions=len(record.get("actions", [])),
        )
    )


def _ranks(day: str, deal: str) -> ColumnElement[bool]:
    """The condition on a row of ``daily_attempts`` at ``deal`` on ``day`` that it ranks: no
    attempt was asked from its address before it (one with no address kept, from before, ranks)."""
    earlier = daily_attempts.alias("earlier")
    before = (earlier.c.started_at < daily_attempts.c.started_at) | (
        (earlier.c.started_at == daily_attempts.c.started_at) & (earlier.c.player < daily_attempts.c.player)
    )
    same_address = and_(earlier.c.day == day, earlier.c.deal == deal, earlier.c.address == daily_attempts.c.address)
    return daily_attempts.c.address.is_(None) | ~select(earlier.c.player).where(same_address, before).exists()


def board(store: Store, day: str, deal: str, limit: int = BOARD_LIMIT) -> list[dict[str, Any]]:
    """The finished scored attempts of ``deal`` on ``day`` that rank (:func:`_ranks`: an
    address's first), best first: the winners before the others, then more points, then less
    time, then fewer moves."""
    seconds = daily_attempts.c.finished_at - daily_attempts.c.started_at
    with store.begin() as c:
        rows = c.execute(
            select(daily_attempts, seconds.label("seconds"))
            .where(daily_attempts.c.day == day, daily_attempts.c.deal == deal)
            .where(daily_attempts.c.finished_at.is_not(None), _ranks(day, deal))
            .order_by(
                daily_attempts.c.won.desc(),
                daily_attempts.c.points.desc(),
                seconds,
                daily_attempts.c.actions,
                daily_attempts.c.finished_at,
            )
            .limit(limit)
        ).all()
    return [dict(row._mapping) for row in rows]


def ranks(store: Store, day: str, deal: str, player: str) -> bool:
    """Whether ``player``'s scored attempt at ``deal`` on ``day`` ranks (:func:`_ranks`); False
    when it has none."""
    mine = (daily_attempts.c.day == day, daily_attempts.c.deal == deal, daily_attempts.c.player == player)
    with store.begin() as c:
        return c.execute(select(daily_attempts.c.player).where(*mine, _ranks(day, deal))).first() is not None


def finished_days(store: Store, player: str, since: str) -> list[str]:
    """The days since ``since`` on which ``player`` finished a scored attempt, newest first."""
    with store.begin() as c:
        rows = c.execute(
            select(daily_attempts.c.day)
            .where(
                and_(
                    daily_attempts.c.player == player,
                    daily_attempts.c.day >= since,
                    daily_attempts.c.finished_at.is_not(None),
                )
            )
            .distinct()
            .order_by(daily_attempts.c.day.desc())
        ).all()
    return [row.day for row in rows]


def streak(days: list[str], today: dt.date) -> int:
    """Consecutive days with a finished attempt, ending today (or yesterday, while today's deal
    is still to play)."""
    done = set(days)
    day = today if today.isoformat() in done else today - dt.timedelta(days=1)
    count = 0
    while day.isoformat() in done:
        count += 1
        day -= dt.timedelta(days=1)
    return count


def prune(c: Connection, before: float) -> int:
    """Forget attempts started before ``before`` (``--retain-records``, with the records)."""
    return int(c.execute(delete(daily_attempts).where(daily_attempts.c.started_at < before)).rowcount)


def forget_player(c: Connection, player: str) -> int:
    """Forget ``player``'s attempts (``POST /api/my-games/forget``, and identities retention forgets)."""
    return int(c.execute(delete(daily_attempts).where(daily_attempts.c.player == player)).rowcount)


def forget_stale(c: Connection, stale: Any) -> None:
    """Forget the attempts of the identities ``stale`` (a subquery of ``--retain-players``)."""
    c.execute(delete(daily_attempts).where(daily_attempts.c.player.in_(stale)))
