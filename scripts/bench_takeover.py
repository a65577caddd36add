"""How long a room's players wait when the process that runs it dies, and how long a lease
renewal holds the writer: a cluster of two ``unokit serve`` processes on one PostgreSQL database.

**Takeover.** Each kill: a room of two seats (a player and a bot) whose owner is process X; the
player is connected to process Y, which forwards its messages to X (a client that cannot follow
redirects, or one whose hello came during a change of owner), or, with ``--scenario
reconnecting``, to X itself (it reconnects when X dies and follows Y's redirects). At the
player's turn X is killed (``kill -9``); the player keeps sending its action (again at once when
it is answered ``unavailable`` or its connection drops) and the time from the kill to the first
``ack`` is measured; the room must then be served by Y. X is started again for the next kill.

``--before SRC`` runs another checkout's ``src`` folder (this environment's packages) as a
second setup, alternating with this one kill by kill, so both are measured under the same load:

    mkdir -p /tmp/unokit-before && git archive main src | tar -x -C /tmp/unokit-before
    nice -n 19 .venv/bin/python scripts/bench_takeover.py --kills 20 --before /tmp/unokit-before/src

**Renewal.** ``--renewal N`` times the lease renewal of N rooms (PostgreSQL): one statement for
all of them, as the sweeper did, against the longest of the chunks it renews now
(:data:`unokit.server.owners.RENEW_CHUNK`), the median of 20 renewals of each, in one run.

Prints one line per kill, then for each setup the median and the worst over its kills.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.support import PostgresCluster, ServerProcess, free_port  # noqa: E402

from unokit.server.client import RoomClient, ServerError, create_room, get_json  # noqa: E402

#: Runs ``unokit`` from whichever ``src`` folder is first on ``PYTHONPATH`` (the word after
#: ``-c CODE`` stands for the program's name).
LAUNCH = "import sys; from unokit.cli import main; sys.argv = ['unokit', *sys.argv[2:]]; main()"
SETTINGS = {"bot_seconds": 0.0, "turn_seconds": 0.0, "catch_seconds": 0.0, "hand_pause_seconds": 0.0}


@dataclass
class Setup:
    """One build of the server under test: its name, how to run it, its database and processes."""

    name: str
    prefix: list[str]
    database: str
    processes: list[ServerProcess] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)

    def start(self) -> None:
        for _ in range(2):
            process = ServerProcess(
                self.database,
                free_port(),
                ["--rate", "5000", "--burst", "5000", "--room-rate", "100000", "--client-connections", "5000"],
                executable="unokit" if self.prefix else ServerProcess.executable,
                prefix=self.prefix,
            )
            self.processes.append(process.launch())
        for process in self.processes:
            warm(process.wait())


def warm(process: ServerProcess) -> None:
    """Seat a bot once in a new process: a build that imports its bots at the first one seated
    (seconds of CPU) does it now, not in the room measured."""
    end = time.monotonic() + 120
    while True:
        try:
            create_room(process.url, "classic", 2, settings=SETTINGS, bots=["heuristic"])
            return
        except (OSError, ServerError):
            if time.monotonic() > end:
                raise


async def one_kill(setup: Setup, owner_index: int, scenario: str) -> float:
    """Kill the owner of a fresh room at its player's turn; the seconds until the player's
    action is acknowledged by the other process."""
    owner, other = setup.processes[owner_index], setup.processes[1 - owner_index]
    room = create_room(owner.url, "classic", 2, settings=SETTINGS, bots=["heuristic"])  # loaded, so owned, there
    servers = [other.url, owner.url] if scenario == "forwarded" else [owner.url, other.url]
    player = await RoomClient.join(
        servers, room["room"], name="Ann", host_token=room["host_token"], follow_redirects=scenario != "forwarded"
    )
    await player.host("start", room["host_token"])
    await player.wait_for(lambda _state: player.my_turn, 30)
    owner.kill()
    killed = time.monotonic()
    while True:
        if time.monotonic() - killed > 60:
            raise RuntimeError(f"{setup.name}: no action was served 60 s after the kill")
        try:
            state = await player.wait_for(lambda _state: player.my_turn, 30)
            await asyncio.wait_for(player.act(state["observation"]["legal_actions"][0], state["version"]), 10)
            break
        except (ServerError, ConnectionError, TimeoutError):
            await asyncio.sleep(0.01)
    waited = time.monotonic() - killed
    other_node = get_json(other.url, "/api/health")["node"]
    served = get_json(other.url, f"/api/rooms/{room['room']}")["served_by"]
    await player.close()
    if served != other_node:
        raise RuntimeError(f"{setup.name}: the room is served by {served}, not by the live process")
    warm(owner.start())  # a new process at the same address, for the next kill
    return waited


def renewal(cluster: PostgresCluster, rooms: int) -> tuple[float, float]:
    """The median over 20 renewals of ``rooms`` leases in one statement, and of the longest of
    the chunks the sweeper renews them in now, in milliseconds."""
    from unokit.server.owners import RENEW_CHUNK
    from unokit.server.storage import Store, migrate

    store = Store(cluster.new_database())
    migrate(store.engine)
    codes = [f"R{i:05d}" for i in range(rooms)]
    for code in codes:
        store.create_room(code, {"variant": "classic"}, "h" * 64)
        store.leases.claim(code, "node", "http://node", 10.0)
    whole, chunked = [], []
    for _ in range(20):
        started = time.perf_counter()
        store.leases.renew("node", codes, 10.0)
        whole.append(time.perf_counter() - started)
        longest = 0.0
        for start in range(0, rooms, RENEW_CHUNK):
            started = time.perf_counter()
            store.leases.renew("node", codes[start : start + RENEW_CHUNK], 10.0)
            longest = max(longest, time.perf_counter() - started)
        chunked.append(longest)
    store.close()
    return statistics.median(whole) * 1000, statistics.median(chunked) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20, help="kills per setup")
    parser.add_argument("--before", default=None, help="another checkout's src folder, measured in turn")
    parser.add_argument("--scenario", choices=["forwarded", "reconnecting"], default="forwarded")
    parser.add_argument("--renewal", type=int, default=0, metavar="N", help="also time renewing N leases")
    args = parser.parse_args()
    cluster = PostgresCluster().start()
    setups = [Setup("this", [], cluster.new_database())]
    if args.before:
        src = str(Path(args.before).resolve())
        launch = ["env", f"PYTHONPATH={src}", sys.executable, "-c", LAUNCH]
        setups.append(Setup("before", launch, cluster.new_database()))
    try:
        if args.renewal:
            whole, chunk = renewal(cluster, args.renewal)
            print(f"renewing {args.renewal} leases: one statement {whole:.1f} ms, longest chunk {chunk:.1f} ms")
        for setup in setups:
            setup.start()
        for kill in range(args.kills):
            for setup in setups:
                waited = asyncio.run(one_kill(setup, kill % 2, args.scenario))
                setup.waits.append(waited)
                print(f"kill {kill + 1:2d} {setup.name:7s} {args.scenario}: first action served after {waited:.2f} s")
        for setup in setups:
            waits = setup.waits
            print(
                f"{setup.name:7s}: median {statistics.median(waits):.2f} s, worst {max(waits):.2f} s "
                f"over {len(waits)} kills ({args.scenario})"
            )
    finally:
        for setup in setups:
            for process in setup.processes:
                process.stop()
        cluster.stop()


if __name__ == "__main__":
    main()
