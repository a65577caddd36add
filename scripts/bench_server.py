"""Load benchmark of ``unokit serve``: many concurrent 4-seat games at human pace.

For each database and each number of games, fresh servers are started (SQLite in a temporary
folder; a database of a throwaway PostgreSQL cluster, served by ``--processes`` server processes
that share the rooms; or a database URL), every game gets a room with four seats played by four
websocket clients of this script, and each game takes about one action a second (the seat to act
waits ``--pace`` seconds, jittered, then plays). Every message a client receives is parsed.

The script reports the actions per second the servers committed; the time from an action being
sent to *every* seat of the game having received its update (p50, p99, maximum); errors and
refused actions; and the CPU time the server processes (and, for PostgreSQL, the database server)
and this generator spent per action. After each ladder it names the number of games at which p99
first passed ``--target-ms``. The generator runs on the same machine as the servers.

``--unokit`` (repeatable) runs the same ladder against other ``unokit`` programs, alternating
with this checkout's at every level, for a comparison taken in one run on the same machine.

    .venv/bin/python scripts/bench_server.py --db sqlite,postgres --games 100,250,500,750,1000 --processes 2
    .venv/bin/python scripts/bench_server.py --games 300 --unokit .venv/bin/unokit --unokit ../main/.venv/bin/unokit
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvloop
import websockets
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.support import GENEROUS, UNOKIT, PostgresCluster, ServerProcess, free_port  # noqa: E402

from unokit.core.rng import Rng  # noqa: E402
from unokit.server.client import create_room, get_json, ws_url  # noqa: E402

SETTINGS = {"turn_seconds": 0.0, "catch_seconds": 0.0, "bot_seconds": 0.0, "hand_pause_seconds": 0.0}
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    refused: int = 0
    actions: int = 0
    redirects: int = 0
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


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of the processes ``pids`` so far (Linux ``/proc``)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def postgres_pids(cluster: PostgresCluster) -> list[int]:
    """The postmaster of ``cluster`` and every process it started (backends, writers)."""
    master = int((cluster.data / "postmaster.pid").read_text().split()[0])
    pids = [master]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                    pids.append(int(entry.name))
    return pids


async def _join(url: str, code: str, name: str, stats: Stats) -> tuple[ClientConnection, str]:
    """Join room ``code`` at the server ``url`` as the browser does: following a redirect to
    the process that owns the room."""
    address = ws_url(url)
    hello: dict[str, Any] = {"type": "hello", "room": code, "name": name, "redirects": True}
    for _ in range(3):
        ws = await connect(address, max_size=2**24, ping_interval=None, open_timeout=60, compression=None)
        await ws.send(orjson.dumps(hello).decode())
        welcome = orjson.loads(await ws.recv())
        if welcome["type"] == "error" and welcome["code"] == "bad_message" and "redirects" in hello:
            del hello["redirects"]  # a build of the server from before redirects: it forwards
            await ws.close()
            continue
        if welcome["type"] == "redirect":
            stats.redirects += 1
            address = welcome["websocket"]
            await ws.close()
            continue
        if welcome["type"] != "welcome":
            raise RuntimeError(f"join refused: {welcome}")
        return ws, str(welcome["token"])
    raise RuntimeError(f"join of {code} redirected three times")


def _choose(observation: dict[str, Any]) -> str:
    legal: list[str] = observation["legal_actions"]
    first = legal[0]
    return f"{first} uno" if f"{first} uno" in legal else first


async def _seat_loop(table: Table, seat: int, stats: Stats, pace: float, rng: Rng, stop: asyncio.Event) -> None:
    ws = table.seats[seat]
    try:
        async for raw in ws:
            message = orjson.loads(raw)
            kind = message["type"]
            if kind != "state":
                if kind == "error":
                    if message["code"] in ("stale", "duplicate", "out_of_turn"):
                        stats.refused += 1
                    else:
                        stats.errors += 1
                    table.acting = False
                continue
            version = message["version"]
            pending = table.pending
            if pending is not None and version > pending[0]:
                pending[2].discard(seat)
                if not pending[2]:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - pending[1])
                        stats.actions += 1
                    table.pending = None
            if stop.is_set():
                continue
            phase = message["room"]["phase"]
            if phase == "finished":
                if seat == 0:
                    start = {"type": "host", "command": "start", "host_token": table.host, "version": version}
                    await ws.send(orjson.dumps(start).decode())
                continue
            observation = message["observation"]
            if (
                phase != "playing"
                or table.acting
                or observation is None
                or observation["to_act"] != seat
                or not observation["legal_actions"]
            ):
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
        text = orjson.dumps({"type": "action", "action": action, "version": version, "token": table.tokens[seat]})
        await table.seats[seat].send(text.decode())


async def run_level(
    urls: list[str],
    games: int,
    seconds: float,
    warmup: float,
    pace: float,
    variant: str,
    server_pids: list[int],
    database_pids: Callable[[], list[int]],
) -> dict[str, Any]:
    """Play ``games`` games spread over the servers at ``urls``; measure ``seconds`` after
    ``warmup``, and the CPU time of the server processes and of the database server's.

    Game ``g`` is created at server ``g mod N`` and its seat ``s`` says hello to server
    ``(g + s) mod N``, as a load balancer that knows nothing of rooms would spread them: the
    first hello makes that server the room's owner, and the seats that reach another server
    follow its redirect to the owner."""
    stats = Stats()
    stop = asyncio.Event()
    count = len(urls)
    created = await asyncio.gather(
        *(asyncio.to_thread(create_room, urls[g % count], variant, 4, {}, SETTINGS) for g in range(games))
    )
    semaphore = asyncio.Semaphore(64)

    async def seat_table(g: int, room: dict[str, Any]) -> Table:
        table = Table(room["room"], room["host_token"])
        async with semaphore:
            for seat in range(4):
                ws, token = await _join(urls[(g + seat) % count], table.code, f"p{seat}", stats)
                table.seats.append(ws)
                table.tokens.append(token)
        return table

    tables = list(await asyncio.gather(*(seat_table(g, room) for g, room in enumerate(created))))
    loops = []
    for index, table in enumerate(tables):
        for seat in range(4):
            loops.append(asyncio.create_task(_seat_loop(table, seat, stats, pace, Rng(index * 4 + seat), stop)))
    for table in tables:
        start = {"type": "host", "command": "start", "host_token": table.host, "version": 4}
        await table.seats[0].send(orjson.dumps(start).decode())
    await asyncio.sleep(warmup)
    stats.measuring = True
    started = time.perf_counter()
    database = database_pids()  # now: the backends of every connection the servers opened
    cpu_before, server_before, database_before = os.times(), cpu_seconds(server_pids), cpu_seconds(database)
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - started
    cpu, server_cpu = os.times(), cpu_seconds(server_pids) - server_before
    database_cpu = cpu_seconds(database) - database_before
    generator_cpu = (cpu.user - cpu_before.user) + (cpu.system - cpu_before.system)
    stop.set()
    for table in tables:
        for ws in table.seats:
            ws.transport.abort()
    await asyncio.gather(*loops, return_exceptions=True)
    ordered = sorted(stats.latencies)

    def percentile(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")

    actions = max(stats.actions, 1)
    return {
        "games": games,
        "actions_per_s": stats.actions / elapsed,
        "p50_ms": percentile(0.50),
        "p99_ms": percentile(0.99),
        "max_ms": ordered[-1] * 1000 if ordered else float("nan"),
        "errors": stats.errors,
        "refused": stats.refused,
        "redirects": stats.redirects,
        "server_cpu_ms_per_action": 1000 * server_cpu / actions,
        "database_cpu_ms_per_action": 1000 * database_cpu / actions,
        "generator_cpu_ms_per_action": 1000 * generator_cpu / actions,
        "seconds": elapsed,
    }


def _serve_args(program: str) -> list[str]:
    """The arguments the ladder serves with: one generator on loopback makes every room and
    connection, so the per-client limits are raised where ``program`` has them."""
    args = ["--rate", "100", "--burst", "100", "--room-connections", "16"]
    import subprocess

    usage = subprocess.run([program, "serve", "--help"], capture_output=True, text=True, check=False).stdout
    # every connection of the ladder comes from this one address (8,000 at 2,000 games)
    return [*args, *GENEROUS, "--client-connections", "100000"] if "--client-connections" in usage else args


class Namespaces:
    """Network namespaces on this machine standing for separate machines (root only): one for
    the database and one per server process, each with its own address on a bridge that the
    load generator (in the machine's own namespace) reaches them through: 10.78.0.1 for the
    generator, 10.78.0.2 for PostgreSQL, 10.78.0.11, .12, ... for the servers. Their traffic
    crosses veth pairs and the bridge instead of the loopback interface."""

    def __init__(self, servers: int) -> None:
        tag = f"{os.getpid() % 100000}"
        self.bridge = f"ukb{tag}"
        self.names = [f"ukdb{tag}", *(f"uks{i}x{tag}" for i in range(1, servers + 1))]
        self.addresses = ["10.78.0.2", *(f"10.78.0.{10 + i}" for i in range(1, servers + 1))]

    @staticmethod
    def _ip(*args: str) -> None:
        subprocess.run(["ip", *args], check=True, capture_output=True)

    def __enter__(self) -> Namespaces:
        if os.geteuid() != 0:
            raise SystemExit("--netns needs root (it creates network namespaces with 'ip netns')")
        self._ip("link", "add", self.bridge, "type", "bridge")
        self._ip("addr", "add", "10.78.0.1/24", "dev", self.bridge)
        self._ip("link", "set", self.bridge, "up")
        for index, (name, address) in enumerate(zip(self.names, self.addresses, strict=True)):
            outside = f"{self.bridge}v{index}"
            self._ip("netns", "add", name)
            self._ip("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", name)
            self._ip("link", "set", outside, "master", self.bridge, "up")
            self._ip("-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
            self._ip("-n", name, "link", "set", "eth0", "up")
            self._ip("-n", name, "link", "set", "lo", "up")
        return self

    def __exit__(self, *exc: object) -> None:
        for name in self.names:
            with contextlib.suppress(subprocess.CalledProcessError):
                self._ip("netns", "del", name)
        with contextlib.suppress(subprocess.CalledProcessError):
            self._ip("link", "del", self.bridge)

    def prefix(self, index: int) -> list[str]:
        """The command prefix that runs a program in namespace ``index`` (0: the database's)."""
        return ["ip", "netns", "exec", self.names[index]]


def _setups(args: argparse.Namespace) -> list[tuple[str, int]]:
    """(database, server processes) to measure: SQLite with one process, every other database
    with each of ``--processes``."""
    names = [name.strip() for name in args.db.split(",") if name.strip()]
    if args.postgres and "postgres" not in names:
        names.append("postgres")
    counts = [int(n) for n in str(args.processes).split(",") if n.strip()]
    return [(name, count) for name in names for count in ([1] if name == "sqlite" else counts)]


def _cluster_report(urls: list[str]) -> dict[str, int]:
    """What the servers say they forwarded and follow (``/api/health``), summed."""
    total = {"forwarded": 0, "followed": 0}
    for url in urls:
        with contextlib.suppress(Exception):
            health = get_json(url, "/api/health")
            total["forwarded"] += int(health.get("forwarded", 0))
            total["followed"] += int(health.get("rooms", {}).get("followed", 0))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="100,250,500,750,1000", help="comma-separated numbers of concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring")
    parser.add_argument("--pace", type=float, default=1.0, help="mean seconds between two actions of a game")
    parser.add_argument("--variant", default="classic")
    parser.add_argument(
        "--db",
        default="sqlite",
        help="comma-separated: sqlite (a temporary file), postgres (a throwaway cluster), or a database URL",
    )
    parser.add_argument("--postgres", action="store_true", help="the same as adding postgres to --db")
    parser.add_argument(
        "--processes",
        default="1",
        help="comma-separated numbers of server processes sharing a PostgreSQL database (each is measured)",
    )
    parser.add_argument(
        "--unokit",
        action="append",
        default=None,
        help="a unokit program to serve with (repeat to compare several; default: this checkout's)",
    )
    parser.add_argument("--target-ms", type=float, default=50.0, help="the p99 whose crossing is reported")
    parser.add_argument(
        "--whole-ladder", action="store_true", help="measure every level, not only up to the first past --target-ms"
    )
    parser.add_argument(
        "--netns",
        action="store_true",
        help="run PostgreSQL and each server process in a network namespace of its own (root only)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per level")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        most = max(processes for _db, processes in _setups(args))
        spaces = stack.enter_context(Namespaces(most)) if args.netns else None
        _bench(args, spaces)


def _bench(args: argparse.Namespace, spaces: Namespaces | None) -> None:
    """Measure every setup of ``args`` over the ladder, level by level (each level measures
    every setup in turn, so that they share what else the machine is doing at that time);
    print a line per measurement and the summary."""
    gc.set_threshold(100_000, 50, 1000)  # the generator too: no long pauses of the collector
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    programs = [str(Path(p).absolute()) for p in args.unokit] if args.unokit else [UNOKIT]
    levels = [int(g) for g in args.games.split(",")]
    setups = _setups(args)
    cluster = None
    if any(db == "postgres" for db, _n in setups):
        if spaces is None:
            cluster = PostgresCluster().start()
        else:
            cluster = PostgresCluster(spaces.addresses[0], spaces.prefix(0)).start()
    print(
        f"{args.variant}, 4 seats, pace {args.pace} s, {args.seconds:g} s measured per level; "
        f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the start"
        + ("; PostgreSQL and each server in a network namespace of its own" if spaces is not None else ""),
        flush=True,
    )
    print(
        "\nload   database   processes  server     games  actions/s  p50 ms  p99 ms  max ms  errors  refused"
        "  redirects  forwarded  CPU ms/action: server  database  generator",
        flush=True,
    )
    results: list[dict[str, Any]] = []
    crossed: dict[tuple[str, int, str], int | None] = {
        (db, processes, program): None for db, processes in setups for program in programs
    }
    try:
        for games in levels:
            for (db, processes, program), first in crossed.items():
                if first is not None and not args.whole_ladder:
                    continue
                result = _measure(args, spaces, cluster, db, processes, program, games)
                results.append(result)
                if result["p99_ms"] > args.target_ms and first is None:
                    crossed[(db, processes, program)] = games
                if args.json:
                    print(orjson.dumps(result).decode(), flush=True)
                else:
                    print(
                        f"{result['load_before']:5.2f}  {db:10s} {processes:9d}  {_short(program):9s} {games:5d}"
                        f"  {result['actions_per_s']:9.1f}"
                        f"  {result['p50_ms']:6.1f}  {result['p99_ms']:6.1f}  {result['max_ms']:6.0f}"
                        f"  {result['errors']:6d}  {result['refused']:7d}"
                        f"  {result['redirects']:9d}  {result['forwarded']:9d}"
                        f"  {result['server_cpu_ms_per_action']:21.2f}"
                        f"  {result['database_cpu_ms_per_action']:8.2f}"
                        f"  {result['generator_cpu_ms_per_action']:9.2f}",
                        flush=True,
                    )
    finally:
        if cluster is not None:
            cluster.stop()
    crossings = []
    for (db, processes, program), first in crossed.items():
        passed = f"first passed {args.target_ms:g} ms at {first} games" if first else "stayed within it"
        crossings.append(f"{db}, {processes} process(es), {_short(program)}: p99 {passed} (levels {args.games})")
    _summary(results, crossings)


def _measure(
    args: argparse.Namespace,
    spaces: Namespaces | None,
    cluster: PostgresCluster | None,
    db: str,
    processes: int,
    program: str,
    games: int,
) -> dict[str, Any]:
    """One level of one setup: fresh servers on a fresh database, ``games`` games played."""
    if db == "postgres":
        assert cluster is not None
        database = cluster.new_database()
    elif db == "sqlite":
        database = f"sqlite:///{tempfile.mkdtemp(prefix='unokit-bench-')}/server.db"
    else:
        database = db
    load = os.getloadavg()[0]
    args_ = _serve_args(program)
    servers = []
    try:
        for index in range(1, processes + 1):
            if spaces is None:
                server = ServerProcess(database, free_port(), args_, executable=program)
            else:
                host, prefix = spaces.addresses[index], spaces.prefix(index)
                server = ServerProcess(database, 8000, args_, executable=program, host=host, prefix=prefix)
            servers.append(server)
            server.start()
        pids = [s.proc.pid for s in servers if s.proc is not None]
        measured = cluster if db == "postgres" else None
        db_pids = functools.partial(postgres_pids, measured) if measured is not None else list
        urls = [s.url for s in servers]
        result = uvloop.run(run_level(urls, games, args.seconds, args.warmup, args.pace, args.variant, pids, db_pids))
        result.update(_cluster_report(urls))
    finally:
        for server in servers:
            server.stop()
    result.update(load_before=load, database=db, processes=processes, unokit=program)
    return result


def _summary(results: list[dict[str, Any]], crossings: list[str]) -> None:
    """Each setup's server CPU per action as a ratio to one SQLite process's at the same
    number of games (the first setup measured is the reference), and where p99 crossed."""
    if not results:
        return
    first = results[0]
    reference = {
        (r["games"], r["unokit"]): r for r in results if (r["database"], r["processes"]) == (first["database"], 1)
    }
    print(f"\nserver CPU per action against {first['database']}, 1 process, at the same number of games:")
    for r in results:
        base = reference.get((r["games"], r["unokit"]))
        if base is None or r is base:
            continue
        ratio = r["server_cpu_ms_per_action"] / base["server_cpu_ms_per_action"]
        both = (r["server_cpu_ms_per_action"] + r["database_cpu_ms_per_action"]) / (
            base["server_cpu_ms_per_action"] + base["database_cpu_ms_per_action"]
        )
        print(
            f"  {r['database']}, {r['processes']} process(es), {_short(r['unokit'])}, {r['games']} games: "
            f"{ratio:.2f}x (with the database server's CPU: {both:.2f}x)",
            flush=True,
        )
    for line in crossings:
        print(f"  {line}", flush=True)


def _short(program: str) -> str:
    """A program's path, shortened to its checkout's folder (``CHECKOUT/.venv/bin/unokit``)."""
    path = Path(program)
    return path.parents[2].name if len(path.parts) >= 4 and path.parent.parent.name == ".venv" else path.name


if __name__ == "__main__":
    main()
