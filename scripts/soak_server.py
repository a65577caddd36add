"""Soak: thousands of games through one ``unokit serve`` process, to see that its memory stays
flat and that retention bounds its database (``docs/server.md``, "Memory and the database over a
long run").

Each game is a room of its own, as people make them: a host creates it, joins, seats a bot,
starts, plays one hand (a scripted player: catch, UNO, else the first legal action) and closes
the room. ``--parallel`` rooms are played at once. The server runs with a short retention
(closed rooms pruned ``--retain-rooms`` seconds after closing, records after ``--retain-records``)
so that a run of minutes shows what days of traffic would. Every ``--every`` games the script
prints the server's resident memory, the database's size on disk and what it holds.

    python scripts/soak_server.py --games 3000               # SQLite in a temporary folder
    python scripts/soak_server.py --games 3000 --postgres    # a throwaway PostgreSQL cluster
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.support import (
    FAST,
    GENEROUS,
    PostgresCluster,
    ServerProcess,
    choose,
    free_port,
)

from unokit.server.client import RoomClient, create_room, play
from unokit.server.storage import Store

DAY = 86400.0


async def one_game(url: str) -> int:
    """Play one room's one game and close the room; return the game's actions."""
    room = await asyncio.to_thread(create_room, url, "classic", 2, {"target": 1}, FAST)
    me = await RoomClient.join(url, room["room"], name="Host")
    try:
        await me.host("add_bot", room["host_token"], seat=1, bot="random")
        await me.host("start", room["host_token"])
        final = await play(me, choose, timeout=60)  # a game of one hand (target 1)
        steps = int(final["game_step"])
        await me.host("close", room["host_token"])
        return steps
    finally:
        await me.close()


def database_bytes(database: str, cluster: PostgresCluster | None) -> int:
    """The database's size on disk: the SQLite file and its write-ahead log, or PostgreSQL's
    ``pg_database_size``."""
    if cluster is None:
        path = Path(database.removeprefix("sqlite:///"))
        return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.suffix != ".lock")
    import psycopg

    with psycopg.connect(database) as connection:
        row = connection.execute("SELECT pg_database_size(current_database())").fetchone()
    return int(row[0]) if row else 0


def sample(server: ServerProcess, store: Store, database: str, cluster: PostgresCluster | None) -> dict[str, Any]:
    totals = store.upkeep.totals()
    return {"rss": server.memory()["VmRSS"], "db": database_bytes(database, cluster), **totals}


async def soak(args: argparse.Namespace, server: ServerProcess, database: str, cluster: PostgresCluster | None) -> None:
    store = Store(database)
    started = time.monotonic()
    done = actions = 0
    rows: list[dict[str, Any]] = []
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(args.games):
        queue.put_nowait(n)

    async def worker() -> None:
        nonlocal done, actions
        while not queue.empty():
            queue.get_nowait()
            actions += await one_game(server.url)
            done += 1
            if done % args.every == 0:
                row = {"games": done, "seconds": time.monotonic() - started, **sample(server, store, database, cluster)}
                rows.append(row)
                print(
                    f"{row['games']:6d} {row['seconds']:8.0f} {row['rss'] / 2**20:8.1f} {row['db'] / 2**20:8.2f} "
                    f"{row['rooms_open']:6d} {row['rooms_closed']:7d} {row['log_entries']:8d} {row['records']:8d}",
                    flush=True,
                )

    print(" games  seconds  RSS MiB   DB MiB  open  closed  log rows  records", flush=True)
    await asyncio.gather(*(worker() for _ in range(args.parallel)))
    elapsed = time.monotonic() - started
    first, last = rows[0], rows[-1]
    middle = rows[len(rows) // 2]
    print(
        f"\n{done} games ({actions} actions) in {elapsed:.0f} s, {done / elapsed:.1f} games/s; "
        f"resident memory {first['rss'] / 2**20:.1f} MiB after {first['games']} games, "
        f"{middle['rss'] / 2**20:.1f} after {middle['games']}, {last['rss'] / 2**20:.1f} after {last['games']} "
        f"(last/first {last['rss'] / first['rss']:.2f}); database {last['db'] / 2**20:.2f} MiB, "
        f"largest {max(r['db'] for r in rows) / 2**20:.2f} MiB",
        flush=True,
    )
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--parallel", type=int, default=8, help="rooms played at once")
    parser.add_argument("--every", type=int, default=250, help="print a line every this many games")
    parser.add_argument("--retain-rooms", type=float, default=60.0, help="seconds a closed room is kept")
    parser.add_argument("--retain-records", type=float, default=120.0, help="seconds a record is kept")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster, not SQLite")
    args = parser.parse_args()
    cluster = PostgresCluster().start() if args.postgres else None
    database = cluster.new_database() if cluster else f"sqlite:///{tempfile.mkdtemp(prefix='unokit-soak-')}/s.db"
    retention = [
        "--retain-rooms",
        str(args.retain_rooms / DAY),
        "--retain-records",
        str(args.retain_records / DAY),
        "--sweep",
        "5",
    ]
    server = ServerProcess(database, free_port(), ["--rate", "1000", "--burst", "1000", *GENEROUS, *retention])
    print(
        f"{args.games} games of classic (2 seats, one hand), {args.parallel} at a time, on "
        f"{'PostgreSQL' if cluster else 'SQLite'}; closed rooms kept {args.retain_rooms:g} s, "
        f"records {args.retain_records:g} s",
        flush=True,
    )
    try:
        server.start()
        asyncio.run(soak(args, server, database, cluster))
    finally:
        server.stop()
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
