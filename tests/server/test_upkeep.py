"""Tidy with its data, on each database: retention prunes closed rooms and old records (exported
first when asked), ``unokit admin`` lists, closes, exports and prunes (on the database, and
through a running server with the admin token), and a backup taken while the server runs is a
real copy (opened by SQLite, restored by ``pg_restore``)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from unokit.record import GameRecord, verify
from unokit.server.client import RoomClient, create_room, daily_deals, daily_start, new_identity, play
from unokit.server.upkeep import pg_dump_program

from .support import FAST, UNOKIT, PostgresCluster, ServerProcess, choose, run

TOKEN = "the-admin-token-of-this-test"


def admin(*args: str, where: list[str]) -> str:
    """Run ``unokit admin WHERE ARGS``; return its output (it must succeed, without a traceback)."""
    done = subprocess.run([UNOKIT, "admin", *where, *args], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


async def _finished_room(server: ServerProcess) -> tuple[str, RoomClient, str]:
    """A room with one finished game, its host still connected."""
    room = create_room(server.url, "classic", 2, options={"target": 1}, settings=FAST)
    ann = await RoomClient.join(server.url, room["room"], name="Ann", keep=True)
    await ann.host("add_bot", room["host_token"], seat=1, bot="random")
    await ann.host("start", room["host_token"])
    await play(ann, choose, timeout=120)
    return str(room["room"]), ann, str(room["host_token"])


async def _two_rooms(server: ServerProcess) -> tuple[str, str, RoomClient]:
    """A room whose host closed it after a game, and a room open after a game (its host still there)."""
    closed, host, host_token = await _finished_room(server)
    await host.host("close", host_token)
    await host.close()
    kept, ann, _token = await _finished_room(server)
    return closed, kept, ann


async def _two_rooms_left(server: ServerProcess) -> tuple[str, str]:
    """:func:`_two_rooms`, everyone gone."""
    closed, kept, ann = await _two_rooms(server)
    await ann.close()
    return closed, kept


def _verified(path: Path) -> bool:
    return verify(GameRecord.loads(path.read_text(encoding="utf-8"))).ok


def test_admin_through_the_server_lists_exports_and_closes(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    (tmp_path / "token").write_text(TOKEN)
    server = make_server(f"sqlite:///{tmp_path / 'admin.db'}", "--admin-token-file", str(tmp_path / "token"))
    where = ["--server", server.url, "--token-file", str(tmp_path / "token")]

    async def body() -> tuple[str, str, list[dict[str, object]]]:
        closed, kept, ann = await _two_rooms(server)
        listing = await asyncio.to_thread(admin, "list", "--all", "--json", where=where)
        listed = json.loads(listing)
        assert {r["room"] for r in listed["rooms"]} >= {closed, kept}
        assert listed["totals"]["records"] == 2 and listed["totals"]["rooms_closed"] == 1
        deal = daily_deals(server.url)["deals"][0]["deal"]
        attempt = daily_start(server.url, new_identity(), deal)
        exported = await asyncio.to_thread(admin, "export", str(tmp_path / "out"), "--room", kept, where=where)
        assert exported.startswith("1 finished games written")
        # Beside the records, the tables of the daily attempts and of ratings, as JSON lines.
        assert "1 rows of daily_attempts written" in exported, exported
        attempts = [json.loads(line) for line in (tmp_path / "out" / "daily_attempts.jsonl").read_text().splitlines()]
        assert [(a["room"], a["deal"], a["finished_at"]) for a in attempts] == [(attempt["room"], deal, None)]
        for name in ("rated_players", "ratings", "rating_history"):
            assert (tmp_path / "out" / f"{name}.jsonl").exists()
        await asyncio.to_thread(admin, "close", kept, where=where)
        await ann.wait_for(lambda s: s["room"]["phase"] == "closed" or ann._closed, 20)
        await ann.close()
        return closed, kept, ann.received

    _closed, kept, received = run(body)
    assert {"type": "closed", "reason": "admin"} in received  # the player was told, as by the host
    assert _verified(tmp_path / "out" / f"unokit-{kept}-1.json")
    wrong = subprocess.run(
        [UNOKIT, "admin", "--server", server.url, "--token-file", str(tmp_path / "nope"), "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr
    (tmp_path / "bad").write_text("a-token-that-is-wrong-here")
    refused = subprocess.run(
        [UNOKIT, "admin", "--server", server.url, "--token-file", str(tmp_path / "bad"), "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0 and "the admin token is missing or wrong" in refused.stderr


def _copy_counts(database: str, backup: Path, request: pytest.FixtureRequest) -> tuple[int, int]:
    """The rooms and records of the backup ``backup`` of ``database``, read back: SQLite opens
    the file, PostgreSQL's ``pg_restore`` loads it into a new database."""
    if database.startswith("sqlite"):
        with sqlite3.connect(backup) as copy:
            return copy.execute("SELECT count(*) FROM rooms").fetchone()[0], copy.execute(
                "SELECT count(*) FROM records"
            ).fetchone()[0]
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    restored = cluster.new_database()
    restore = Path(pg_dump_program()).with_name("pg_restore")
    load = [str(restore), "--no-owner", "-d", restored, str(backup)]
    done = subprocess.run(load, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    with psycopg.connect(restored) as copy:
        rooms = copy.execute("SELECT count(*) FROM rooms").fetchone()
        records = copy.execute("SELECT count(*) FROM records").fetchone()
    assert rooms is not None and records is not None
    return int(rooms[0]), int(records[0])


def test_backup_and_retention_on_each_database(
    database: str, make_server: Callable[..., ServerProcess], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    server = make_server(database)
    closed, kept = run(lambda: _two_rooms_left(server))
    where = ["--database", database]
    # A backup taken while the server runs, and read back.
    said = admin("backup", str(tmp_path / "backup.db"), where=where)
    assert said.startswith(f"backed up to {tmp_path / 'backup.db'}")
    assert _copy_counts(database, tmp_path / "backup.db", request) == (2, 2)
    # Retention: the closed room goes with its log; both records are exported first, then go.
    now = ["--rooms-days", "0", "--records-days", "0"]
    pruned = admin("prune", *now, "--export-dir", str(tmp_path / "kept"), where=where)
    assert pruned.startswith("pruned 1 closed rooms")
    assert pruned.rstrip().endswith("2 finished games and 0 player identities")
    assert _verified(tmp_path / "kept" / f"unokit-{closed}-1.json")
    assert _verified(tmp_path / "kept" / f"unokit-{kept}-1.json")
    listed = json.loads(admin("list", "--all", "--json", where=where))
    assert [r["room"] for r in listed["rooms"]] == [kept]  # the open room stays, whatever its age
    totals = listed["totals"]
    assert (totals["rooms_open"], totals["rooms_closed"], totals["records"]) == (1, 0, 0)
    assert admin("prune", *now, where=where).startswith("pruned 0 closed rooms")


def test_the_server_applies_the_retention_by_itself(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'retained.db'}"
    server = make_server(database, "--retain-rooms", "0.00001", "--sweep", "0.2")  # a closed room goes after ~1 s
    closed, kept = run(lambda: _two_rooms_left(server))
    deadline = time.monotonic() + 30
    rooms: list[str] = [closed]
    while closed in rooms and time.monotonic() < deadline:
        listed = json.loads(admin("list", "--all", "--json", where=["--database", database]))
        rooms = [r["room"] for r in listed["rooms"]]
        time.sleep(0.3)
    assert closed not in rooms and kept in rooms
