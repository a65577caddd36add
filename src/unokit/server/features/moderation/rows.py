"""Players' reports and the bans, in the database (``docs/server.md``, "Moderation for public
rooms"). Both are kept as long as the rooms are (``--retain-rooms``): a report that old, and a
ban that ran out that long ago, are pruned with them; every process of a cluster reads the
same bans.

Every function here is synchronous (run it in a worker thread, never on the event loop).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, delete, insert, or_, select
from sqlalchemy.engine import Connection

from ...protocol import decode, encode
from ...storage import metadata

if TYPE_CHECKING:
    from ...storage import Database

#: What players reported (a chat line, a name, a player's conduct): the room, the identities
#: (hashes) of who reported and who was reported, the reported name and the chat lines around
#: it (JSON), nothing else.
reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("room", String(16), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("reporter", String(64), nullable=True),
    Column("reported", String(64), nullable=True),
    Column("name", Text, nullable=True),
    Column("lines", Text, nullable=False),
    Index("reports_at", "at"),
)

#: Identities (their hashes) and addresses (networks) banned from public rooms and chat, until
#: ``until`` (``NULL``: for good).
bans = Table(
    "bans",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    Column("value", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Column("until", Float, nullable=True),
    Column("reason", Text, nullable=True),
    # A ban's number is never given again after a lift (SQLite's AUTOINCREMENT; PostgreSQL's
    # sequence never goes back): an ``unban N`` read from an old list cannot lift another ban.
    sqlite_autoincrement=True,
)


def add_report(
    db: Database,
    room: str,
    kind: str,
    reporter: str | None,
    reported: str | None,
    name: str | None,
    lines: list[dict[str, Any]],
) -> int:
    """Keep a player's report (see :data:`reports`); returns its number."""
    with db.begin() as c:
        result = c.execute(
            insert(reports).values(
                at=time.time(),
                room=room,
                kind=kind,
                reporter=reporter,
                reported=reported,
                name=name,
                lines=encode(lines),
            )
        )
        return int(result.inserted_primary_key[0])  # type: ignore[index]


def reports_list(db: Database, limit: int = 200, room: str | None = None) -> list[dict[str, Any]]:
    """The newest reports (of ``room`` only, if given), newest first."""
    query = select(reports).order_by(reports.c.id.desc()).limit(limit)
    if room is not None:
        query = query.where(reports.c.room == room)
    with db.begin() as c:
        rows = c.execute(query).all()
    return [
        {
            "id": row.id,
            "at": row.at,
            "room": row.room,
            "kind": row.kind,
            "reporter": row.reporter,
            "reported": row.reported,
            "name": row.name,
            "lines": decode(row.lines),
        }
        for row in rows
    ]


def add_ban(db: Database, kind: str, value: str, until: float | None, reason: str | None) -> int:
    """Ban an identity (``kind`` ``identity``, its hash) or an address (``address``, a
    network) until ``until`` (``None``: for good); returns the ban's number."""
    with db.begin() as c:
        result = c.execute(insert(bans).values(kind=kind, value=value, at=time.time(), until=until, reason=reason))
        return int(result.inserted_primary_key[0])  # type: ignore[index]


def bans_list(db: Database, now: float | None = None) -> list[dict[str, Any]]:
    """The bans in force at ``now`` (every ban kept, with ``now`` ``None``), oldest first."""
    query = select(bans).order_by(bans.c.id)
    if now is not None:
        query = query.where(or_(bans.c.until.is_(None), bans.c.until > now))
    with db.begin() as c:
        rows = c.execute(query).all()
    return [
        {"id": row.id, "kind": row.kind, "value": row.value, "at": row.at, "until": row.until, "reason": row.reason}
        for row in rows
    ]


def lift_ban(db: Database, number: int) -> bool:
    """End ban ``number`` now; False when there is no such ban."""
    with db.begin() as c:
        return bool(c.execute(delete(bans).where(bans.c.id == number)).rowcount)


def prune_with_rooms(c: Connection, rooms_before: float) -> int:
    """Delete the reports made before ``rooms_before`` and the bans that ran out by then;
    returns how many."""
    done = int(c.execute(delete(reports).where(reports.c.at < rooms_before)).rowcount)
    return done + int(c.execute(delete(bans).where(bans.c.until < rooms_before)).rowcount)


__all__ = ["add_ban", "add_report", "bans", "bans_list", "lift_ban", "prune_with_rooms", "reports", "reports_list"]
