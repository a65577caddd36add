"""Load benchmark of ``unokit serve``: many concurrent 4-seat games at human pace.

For each number of games, a fresh server is started (SQLite in a temporary folder, or the
``--database`` given, or a throwaway PostgreSQL cluster with ``--postgres``), every game gets a
room with four seats played by four websocket clients of this script, and each game takes about
one action a second (the seat to act waits ``--pace`` seconds, jittered, then plays). The script
reports the actions per second the server committed and the time from an action being sent to
*every* seat of the game having received its update: p50, p99 and the maximum, and the number of
errors and refused actions. The generator runs on the same machine as the server.

    .venv/bin/python scripts/bench_server.py --games 100,250,500,1000 --seconds 30
    .venv/bin/python scripts/bench_server.py --games 250,500 --postgres
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import re
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvloop
import websockets
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.support import PostgresCluster, ServerProcess, free_port  # noqa: E402

from unokit.core.rng import Rng  # noqa: E402
from unokit.server.client import create_room, ws_url  # noqa: E402

VERSION = re.compile(r'"version": (\d+)')
SETTINGS = {"turn_seconds": 0.0, "catch_seconds": 0.0, "bot_seconds": 0.0, "hand_pause_seconds": 0.0}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    refused: int = 0
    actions: int = 0
    measuring: bool = False


@dataclass
class Table:
    """One game: its room, four connections, and the action in flight."""

    code: str
    host: str
    seats: list[ClientConnection] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    pending: tuple[int, float, set[int]] | None = None
    acting: bool = False


async def _join(url: str, code: str, name: str) -> tuple[ClientConnection, str]:
    ws = await connect(ws_url(url), max_size=2**24, ping_interval=None, open_timeout=60, compression=None)
    await ws.send(json.dumps({"type": "hello", "room": code, "name": name}))
    welcome = json.loads(await ws.recv())
    if welcome["type"] != "welcome":
        raise RuntimeError(f"join refused: {welcome}")
    return ws, str(welcome["token"])


def _choose(observation: dict[str, Any]) -> str:
    legal: list[str] = observation["legal_actions"]
    first = legal[0]
    return f"{first} uno" if f"{first} uno" in legal else first


async def _seat_loop(table: Table, seat: int, stats: Stats, pace: float, rng: Rng, stop: asyncio.Event) -> None:
    ws = table.seats[seat]
    try:
        async for raw in ws:
            text = raw if isinstance(raw, str) else raw.decode()
            if '"type": "state"' not in text[:30]:
                if '"type": "error"' in text[:30]:
                    message = json.loads(text)
                    if message["code"] in ("stale", "duplicate", "out_of_turn"):
                        stats.refused += 1
                    else:
                        stats.errors += 1
                    table.acting = False
                continue
            found = VERSION.search(text)
            version = int(found.group(1)) if found else 0
            pending = table.pending
            if pending is not None and version > pending[0]:
                pending[2].discard(seat)
                if not pending[2]:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - pending[1])
                        stats.actions += 1
                    table.pending = None
            if f'"to_act": {seat},' not in text or stop.is_set() or table.acting:
                if '"phase": "finished"' in text[:300] and seat == 0 and not stop.is_set():
                    await ws.send(
                        json.dumps({"type": "host", "command": "start", "host_token": table.host, "version": version})
                    )
                continue
            message = json.loads(text)
            if message["room"]["phase"] != "playing" or not message["observation"]["legal_actions"]:
                continue
            table.acting = True
            asyncio.get_running_loop().create_task(_act(table, seat, message, pace, rng))
    except websockets.exceptions.ConnectionClosed:
        if not stop.is_set():
            stats.errors += 1


async def _act(table: Table, seat: int, message: dict[str, Any], pace: float, rng: Rng) -> None:
    await asyncio.sleep(pace * (0.5 + rng.below(1000) / 1000))
    version = message["version"]
    action = _choose(message["observation"])
    table.pending = (version, time.perf_counter(), set(range(4)))
    table.acting = False
    with contextlib.suppress(websockets.exceptions.ConnectionClosed):  # the run is over
        await table.seats[seat].send(
            json.dumps({"type": "action", "action": action, "version": version, "token": table.tokens[seat]})
        )


async def run_level(url: str, games: int, seconds: float, warmup: float, pace: float, variant: str) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    tables: list[Table] = []
    created = await asyncio.gather(
        *(asyncio.to_thread(create_room, url, variant, 4, {}, SETTINGS) for _ in range(games))
    )
    semaphore = asyncio.Semaphore(64)

    async def seat_table(room: dict[str, Any]) -> Table:
        table = Table(room["room"], room["host_token"])
        async with semaphore:
            for seat in range(4):
                ws, token = await _join(url, table.code, f"p{seat}")
                table.seats.append(ws)
                table.tokens.append(token)
        return table

    tables = list(await asyncio.gather(*(seat_table(room) for room in created)))
    loops = []
    for index, table in enumerate(tables):
        for seat in range(4):
            loops.append(asyncio.create_task(_seat_loop(table, seat, stats, pace, Rng(index * 4 + seat), stop)))
    for table in tables:
        await table.seats[0].send(
            json.dumps({"type": "host", "command": "start", "host_token": table.host, "version": 4})
        )
    await asyncio.sleep(warmup)
    stats.measuring = True
    started = time.perf_counter()
    cpu_before = os.times()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - started
    cpu = os.times()
    stop.set()
    for table in tables:
        for ws in table.seats:
            ws.transport.abort()
    await asyncio.gather(*loops, return_exceptions=True)
    ordered = sorted(stats.latencies)

    def percentile(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")

    return {
        "games": games,
        "actions_per_s": stats.actions / elapsed,
        "p50_ms": percentile(0.50),
        "p99_ms": percentile(0.99),
        "max_ms": ordered[-1] * 1000 if ordered else float("nan"),
        "errors": stats.errors,
        "refused": stats.refused,
        "generator_cpu_s": (cpu.user - cpu_before.user) + (cpu.system - cpu_before.system),
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="100,250,500,1000", help="comma-separated numbers of concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring")
    parser.add_argument("--pace", type=float, default=1.0, help="mean seconds between two actions of a game")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--database", default=None, help="a database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL cluster and use it")
    parser.add_argument("--json", action="store_true", help="print one JSON object per level")
    args = parser.parse_args()
    gc.set_threshold(100_000, 50, 1000)  # the generator too: no long pauses of the collector
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    cluster = PostgresCluster().start() if args.postgres else None
    try:
        print(f"load average before: {os.getloadavg()[0]:.2f}; {args.variant}, 4 seats, pace {args.pace} s", flush=True)
        print("games  actions/s  p50 ms  p99 ms  max ms  errors  refused  generator CPU %", flush=True)
        for games in (int(g) for g in args.games.split(",")):
            if cluster is not None:
                database = cluster.new_database()
            elif args.database:
                database = args.database
            else:
                database = f"sqlite:///{tempfile.mkdtemp(prefix='unokit-bench-')}/server.db"
            server = ServerProcess(
                database,
                free_port(),
                ["--rate", "100", "--burst", "100", "--room-connections", "16"],
            ).start()
            try:
                result = uvloop.run(run_level(server.url, games, args.seconds, args.warmup, args.pace, args.variant))
            finally:
                server.stop()
            if args.json:
                print(json.dumps(result), flush=True)
            else:
                print(
                    f"{games:5d}  {result['actions_per_s']:9.1f}  {result['p50_ms']:6.1f}  {result['p99_ms']:6.1f}"
                    f"  {result['max_ms']:6.0f}  {result['errors']:6d}  {result['refused']:7d}"
                    f"  {100 * result['generator_cpu_s'] / result['seconds']:5.0f}",
                    flush=True,
                )
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
