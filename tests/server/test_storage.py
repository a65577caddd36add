"""The group-commit writer on SQLite and a real PostgreSQL: one transaction writes the steps of
many rooms; a room that moved on (another process wrote that step) is refused on its own and the
others are committed; a committed step is in the database before the writer reports it."""

from __future__ import annotations

import asyncio
import functools
import subprocess
import sys

import psycopg
import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import event

from unokit.server.features.moderation import rows as moderation
from unokit.server.storage import (
    MIGRATIONS,
    SCHEMA_HEAD,
    Append,
    StorageError,
    Store,
    Writer,
    libpq_url,
    migrate,
    schema_revision,
)

from .support import PostgresCluster


def _store(database: str, rooms: int) -> Store:
    store = Store(database)
    migrate(store.engine)
    for i in range(rooms):
        assert store.create_room(f"ROOM{i}", {"variant": "classic"}, "hash")
    return store


def _entry(i: int) -> dict[str, object]:
    return {"type": "action", "seat": i % 4, "action": f"play red {i % 10}"}


def test_a_batch_commits_every_room_but_the_one_that_moved_on(database: str) -> None:
    store = _store(database, 6)
    writer = Writer(store)
    try:
        first = [Append(f"ROOM{i}", 0, [_entry(i)]) for i in range(6)]
        assert writer.commit(first) == [None] * 6
        # ROOM3's writer thinks it is still at step 0: another process wrote step 1 meanwhile
        second = [Append(f"ROOM{i}", 0 if i == 3 else 1, [_entry(10 + i), _entry(20 + i)]) for i in range(6)]
        outcomes = writer.commit(second)
        assert [type(o) for o in outcomes] == [type(None)] * 3 + [StorageError] + [type(None)] * 2
        assert "ROOM3 is no longer at step 0" in str(outcomes[3])
        for i in range(6):
            log = store.log(f"ROOM{i}")
            expected = [_entry(i)] if i == 3 else [_entry(i), _entry(10 + i), _entry(20 + i)]
            assert log == list(enumerate(expected, start=1))
            row = store.room(f"ROOM{i}")
            assert row is not None and row.seq == len(expected) and not row.closed
    finally:
        writer.stop()
        store.close()


def test_a_refused_batch_leaves_nothing_of_it(database: str) -> None:
    """Written together and refused because one room moved on, a batch changes no room: on
    PostgreSQL its one statement fails whole, without a transaction around it."""
    store = _store(database, 2)
    writer = Writer(store)
    try:
        assert writer.commit([Append("ROOM1", 0, [_entry(1)])]) == [None]
        batch = [Append("ROOM0", 0, [_entry(2), _entry(3)]), Append("ROOM1", 0, [_entry(4)])]
        with (
            pytest.raises(StorageError, match="no longer at the step written"),
            writer._transaction(batch) as connection,
        ):
            store.write_many(connection, batch)
        assert store.log("ROOM0") == [] and store.log("ROOM1") == [(1, _entry(1))]
        assert [row.seq for row in (store.room("ROOM0"), store.room("ROOM1")) if row is not None] == [0, 1]
    finally:
        writer.stop()
        store.close()


def test_a_batch_with_a_finished_game_and_a_closed_room(database: str) -> None:
    store = _store(database, 3)
    writer = Writer(store)
    try:
        batch = [
            Append("ROOM0", 0, [_entry(0)]),
            Append("ROOM1", 0, [_entry(1)], record=(1, '{"format": "unokit-record/1"}')),
            Append("ROOM2", 0, [{"type": "close", "reason": "idle"}], close=True),
        ]
        assert writer.commit(batch) == [None, None, None]
        assert store.record("ROOM1", 1) == '{"format": "unokit-record/1"}'
        closed = store.room("ROOM2")
        assert closed is not None and closed.closed and closed.seq == 1
        assert [row.seq for row in (store.room("ROOM0"), store.room("ROOM1")) if row is not None] == [1, 1]
    finally:
        writer.stop()
        store.close()


def test_the_writer_reports_a_step_only_once_another_connection_can_read_it(database: str) -> None:
    store = _store(database, 20)
    reader = Store(database)  # its own connections: it sees only what is committed

    async def body() -> list[int]:
        writer = Writer(store)
        try:

            async def one(i: int) -> int:
                await writer.append(Append(f"ROOM{i}", 0, [_entry(i)]))
                return len(await asyncio.to_thread(reader.log, f"ROOM{i}"))

            return await asyncio.gather(*(one(i) for i in range(20)))
        finally:
            await asyncio.to_thread(writer.stop)

    try:
        assert asyncio.run(body()) == [1] * 20
    finally:
        reader.close()
        store.close()


def test_the_schema_head_is_alembics_and_a_current_database_is_not_migrated_again(database: str) -> None:
    """A start that finds the schema current imports neither Alembic (half its start-up on a
    cold start) nor numpy (policy bots only); ``SCHEMA_HEAD`` must name the newest migration
    for that to be right."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == SCHEMA_HEAD
    store = Store(database)
    try:
        with store.engine.connect() as connection:
            assert schema_revision(connection) is None
        migrate(store.engine)
        with store.engine.connect() as connection:
            assert schema_revision(connection) == SCHEMA_HEAD
    finally:
        store.close()
    # a server starting on it: its app built, the database checked and migrated
    again = (
        "import sys\n"
        "from unokit.server.app import create_app\n"
        "from unokit.server.config import ServerConfig\n"
        "from unokit.server.storage import migrate\n"
        f"app = create_app(ServerConfig(database={database!r}, host='127.0.0.1', port=1))\n"
        "app.state.hub.check_database()\n"
        "migrate(app.state.hub.store.engine)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'numpy')))\n"
    )
    done = subprocess.run([sys.executable, "-c", again], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]", done.stdout[:300]


def test_lease_renewals_run_between_the_writers_batches_and_never_deadlock(postgres: PostgresCluster) -> None:
    """A lease renewal updates the row of every room the process owns in one transaction. Beside
    the writer it would lock those rows in another order than a batch does: the two deadlock, and
    PostgreSQL breaks the deadlock only after ``deadlock_timeout`` (a second by default, every
    room's write waiting meanwhile). Run through :meth:`Writer.call`, it waits for the batch
    being committed, and the next batch waits for it."""
    database = postgres.new_database()
    with psycopg.connect(libpq_url(database), autocommit=True) as connection:  # found in 20 ms, not 1 s
        connection.execute(f"ALTER DATABASE {database.rsplit('/', 1)[1]} SET deadlock_timeout = '20ms'")
    rooms = 300
    store = _store(database, rooms)
    codes = [f"ROOM{i}" for i in range(rooms)]
    for code in codes:
        assert store.leases.claim(code, "node", "http://node", 60)
    errors: list[str] = []
    event.listen(store.engine, "handle_error", lambda context: errors.append(str(context.original_exception)))

    async def body() -> tuple[list[set[str]], list[int]]:
        writer = Writer(store)
        renewing = True
        try:

            async def play(i: int) -> int:
                seq = 0
                while renewing:
                    await writer.append(Append(f"ROOM{i}", seq, [_entry(seq)], owner="node"))
                    seq += 1
                return seq

            players = [asyncio.create_task(play(i)) for i in range(rooms)]
            held = [await writer.call(functools.partial(store.leases.renew, "node", codes, 60)) for _ in range(40)]
            renewing = False
            return held, await asyncio.gather(*players)
        finally:
            await asyncio.to_thread(writer.stop)

    try:
        held, written = asyncio.run(body())
        assert errors == []
        assert held == [set(codes)] * 40
        assert min(written) > 0
        assert [len(store.log(code)) for code in codes] == written
    finally:
        store.close()


def test_a_lifted_bans_number_is_never_given_again(database: str) -> None:
    """Ban, lift the newest, ban again: the new ban has a new number, on SQLite as on
    PostgreSQL, so an ``unban N`` read from an old list cannot lift another ban. SQLite gave the
    lifted number (the highest) to the next ban."""
    store = Store(database)
    try:
        migrate(store.engine)
        first = moderation.add_ban(store, "address", "203.0.113.1/32", None, None)
        second = moderation.add_ban(store, "address", "203.0.113.2/32", None, None)
        assert moderation.lift_ban(store, second)
        third = moderation.add_ban(store, "address", "203.0.113.3/32", None, None)
        assert third not in (first, second) and third > second
    finally:
        store.close()
