"""Reviews kept with the records, in the database (``docs/review.md``, "In the browser").

One row of :data:`reviews` per reviewed seat of a finished game and effort: the key
``(room, game_no, seat, effort)`` names the record (a row of ``records``) and what was asked of
it, so a review is computed once, whichever process of a cluster is asked, and then served by
any of them, across restarts.

A row is first a claim, then a result:

* ``working``: the process ``node`` is computing it; it writes its progress (``done`` of
  ``total`` states) and the time (``updated_at``) after every slice of the work. Any process
  answers "working" with that progress. A claim whose process has written nothing for
  :data:`STALE` seconds (the process died, or stopped without saying so) may be *taken over*
  by the next process asked: one conditional update, so only one of several does. A process
  that lost its claim (taken over, or the row deleted: the record or the identity forgotten
  meanwhile) finds out at its next write and stops; what it computed is dropped.
  Its ``review`` holds the part of the review known so far (the seat's decisions marked), which
  every process sends with the progress.
* ``ready``: ``review`` holds the ``unokit-review/1`` JSON. One made under another temperature
  than the one in force now (its ``power``, :mod:`unokit.bots.temper`) is outdated: deleted
  when asked for, and made again.
* ``failed``: ``error`` says why (the record cannot be reviewed); told once, to the next who
  asks, and then deleted, so that asking again tries again.

``player`` is the identity (its hash) that asked first: its reviews in progress and started in
the last hour are its limits, counted here so that every process of a cluster counts the same.
``address`` is the asker's client address as per-client limits count it (an IPv6 one by its /64
network) while the review is in progress: its claims in progress are the address's limit, the
same for every process; it is cleared when the review is kept or fails, so no address stays.
Rows follow their record and their identities: deleted when the record is pruned, and when an
identity is forgotten ("Forget me", ``--retain-players``): the reviews it asked for and the
reviews of the seats it played.

Every function here is synchronous (run it in a worker thread, never on the event loop).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ...storage import metadata, player_games, records

if TYPE_CHECKING:
    from ...storage import Store

#: A claim not written to for this many seconds is abandoned: another process may take it over.
STALE = 120.0

WORKING = "working"
READY = "ready"
FAILED = "failed"

reviews = Table(
    "reviews",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("effort", String(16), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("player", String(64), nullable=True),
    Column("node", String(64), nullable=True),
    Column("started_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=False, default=0),
    Column("review", Text, nullable=True),
    Column("error", Text, nullable=True),
    Column("address", String(64), nullable=True),
    Index("reviews_player", "player", "started_at"),
    Index("reviews_address", "address", "status"),
)


@dataclass(frozen=True)
class ReviewKey:
    """What a review is of: seat ``seat`` of game ``game_no`` of room ``room``, at ``effort``."""

    room: str
    game_no: int
    seat: int
    effort: str

    def where(self) -> Any:
        return and_(
            reviews.c.room == self.room,
            reviews.c.game_no == self.game_no,
            reviews.c.seat == self.seat,
            reviews.c.effort == self.effort,
        )


@dataclass(frozen=True)
class ReviewRow:
    """A row of :data:`reviews` as read."""

    status: str
    player: str | None
    node: str | None
    updated_at: float
    done: int
    total: int
    review: str | None
    error: str | None

    def fresh(self, now: float) -> bool:
        """Whether a ``working`` row's process wrote to it within :data:`STALE` seconds."""
        return self.updated_at >= now - STALE

    def body(self) -> dict[str, Any]:
        """A ``ready`` row's review (the ``unokit-review/1`` JSON); a ``working`` row's part
        known so far (``{"names": ..., "decisions": [...]}``, empty before the first)."""
        return dict(json.loads(self.review or "{}"))


def read(store: Store, key: ReviewKey) -> ReviewRow | None:
    """The row of ``key``, or ``None``."""
    with store.begin() as c:
        row = c.execute(
            select(
                reviews.c.status,
                reviews.c.player,
                reviews.c.node,
                reviews.c.updated_at,
                reviews.c.done,
                reviews.c.total,
                reviews.c.review,
                reviews.c.error,
            ).where(key.where())
        ).first()
    if row is None:
        return None
    return ReviewRow(row.status, row.player, row.node, row.updated_at, row.done, row.total, row.review, row.error)


def claim(
    store: Store, key: ReviewKey, player: str, node: str, seen: ReviewRow | None = None, address: str | None = None
) -> bool:
    """Make ``node`` the process computing ``key``'s review, asked for by ``player`` from
    ``address``: a new row when ``seen`` is ``None``, else the takeover of the stale claim
    ``seen`` (only while the row is still as it was seen; the taker's address counts it now).
    False when another process got there first."""
    now = time.time()
    with store.begin() as c:
        if seen is None:
            try:
                with c.begin_nested():
                    c.execute(
                        insert(reviews).values(
                            room=key.room,
                            game_no=key.game_no,
                            seat=key.seat,
                            effort=key.effort,
                            status=WORKING,
                            player=player,
                            address=address,
                            node=node,
                            started_at=now,
                            updated_at=now,
                            done=0,
                            total=0,
                        )
                    )
            except IntegrityError:
                return False
            return True
        taken = c.execute(
            update(reviews)
            .where(key.where(), reviews.c.status == WORKING, reviews.c.updated_at == seen.updated_at)
            .values(node=node, address=address, updated_at=now, done=0, total=0, review=None)
        ).rowcount
    return bool(taken)


def progress(
    store: Store, key: ReviewKey, node: str, done: int, total: int, partial: dict[str, Any] | None = None
) -> bool:
    """Write ``node``'s progress on ``key`` (with ``partial``, what is known of the review so
    far: kept in ``review`` until the review replaces it); False when the claim is no longer
    ``node``'s."""
    values: dict[str, Any] = {"done": done, "total": total, "updated_at": time.time()}
    if partial is not None:
        values["review"] = json.dumps(partial, separators=(",", ":"), ensure_ascii=False)
    with store.begin() as c:
        moved = c.execute(
            update(reviews).where(key.where(), reviews.c.status == WORKING, reviews.c.node == node).values(**values)
        ).rowcount
    return bool(moved)


def finish(store: Store, key: ReviewKey, node: str, review: dict[str, Any]) -> bool:
    """Keep ``node``'s finished review of ``key``; False (nothing kept) when the claim is no
    longer ``node``'s."""
    text = json.dumps(review, separators=(",", ":"), ensure_ascii=False)
    with store.begin() as c:
        kept = c.execute(
            update(reviews)
            .where(key.where(), reviews.c.status == WORKING, reviews.c.node == node)
            .values(status=READY, review=text, node=None, address=None, updated_at=time.time())
        ).rowcount
    return bool(kept)


def fail(store: Store, key: ReviewKey, node: str, error: str) -> None:
    """Mark ``node``'s claim of ``key`` failed, with ``error`` for the next who asks."""
    with store.begin() as c:
        c.execute(
            update(reviews)
            .where(key.where(), reviews.c.status == WORKING, reviews.c.node == node)
            .values(status=FAILED, error=error, node=None, address=None, updated_at=time.time())
        )


def drop_outdated(store: Store, key: ReviewKey, seen: ReviewRow) -> bool:
    """Delete ``key``'s review ``seen``, made by an older method (another temperature), while it
    is still as seen; False when another process replaced it first."""
    with store.begin() as c:
        gone = c.execute(
            delete(reviews).where(key.where(), reviews.c.status == READY, reviews.c.updated_at == seen.updated_at)
        ).rowcount
    return bool(gone)


def drop_failed(store: Store, key: ReviewKey) -> bool:
    """Delete ``key``'s failed row (its error told); False when another process did first."""
    with store.begin() as c:
        return bool(c.execute(delete(reviews).where(key.where(), reviews.c.status == FAILED)).rowcount)


def abandon(store: Store, node: str) -> int:
    """Delete the claims of ``node`` (it stops): the next who asks starts them again at once."""
    with store.begin() as c:
        return int(c.execute(delete(reviews).where(reviews.c.status == WORKING, reviews.c.node == node)).rowcount)


@dataclass(frozen=True)
class Asked:
    """What an asker has asked for: whether its identity has a review in progress, how many it
    started lately, and how many reviews are in progress from its address."""

    busy: bool
    started: int
    from_address: int


def asked(store: Store, player: str, address: str, since: float) -> Asked:
    """Whether ``player`` has a review in progress (a fresh claim), how many reviews it has
    started since ``since``, and how many fresh claims ``address`` has."""
    now = time.time()
    fresh = and_(reviews.c.status == WORKING, reviews.c.updated_at >= now - STALE)
    with store.begin() as c:
        working = c.scalar(select(func.count()).where(reviews.c.player == player, fresh))
        started = c.scalar(select(func.count()).where(reviews.c.player == player, reviews.c.started_at >= since))
        from_address = c.scalar(select(func.count()).where(reviews.c.address == address, fresh))
    return Asked(bool(working), int(started or 0), int(from_address or 0))


def _played(whose: Any) -> Any:
    """The reviews of seats played by the identities that ``whose`` (a condition on
    ``player_games.c.player``) selects."""
    return (
        select(player_games.c.room)
        .where(
            whose,
            player_games.c.room == reviews.c.room,
            player_games.c.game_no == reviews.c.game_no,
            player_games.c.seat == reviews.c.seat,
        )
        .exists()
    )


def forget_player(c: Connection, player: str) -> int:
    """Delete the reviews ``player`` asked for and those of the seats it played (before its list
    of games is deleted); returns how many."""
    gone = delete(reviews).where((reviews.c.player == player) | _played(player_games.c.player == player))
    return int(c.execute(gone).rowcount)


def forget_stale(c: Connection, stale: Any) -> None:
    """:func:`forget_player` for the identities ``stale`` (a subquery of ``--retain-players``)."""
    c.execute(delete(reviews).where(reviews.c.player.in_(stale) | _played(player_games.c.player.in_(stale))))


def prune(c: Connection) -> int:
    """Delete the reviews whose record is gone (after the records' retention deleted them)."""
    kept = select(records.c.room).where(records.c.room == reviews.c.room, records.c.game_no == reviews.c.game_no)
    return int(c.execute(delete(reviews).where(~kept.exists())).rowcount)


__all__ = [
    "FAILED",
    "READY",
    "STALE",
    "WORKING",
    "Asked",
    "ReviewKey",
    "ReviewRow",
    "abandon",
    "asked",
    "claim",
    "drop_failed",
    "drop_outdated",
    "fail",
    "finish",
    "forget_player",
    "forget_stale",
    "progress",
    "prune",
    "read",
    "reviews",
]
