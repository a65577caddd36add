"""The allowances of a client address are the cluster's, not each process's (issue 48: chat,
reports and My games were counted per process, so N processes allowed N times as much): on
PostgreSQL each take is counted in the database (:class:`~unokit.server.storage.SharedAllowances`),
and two ``unokit serve`` processes on one database allow an address together what one would."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from unokit.server.client import create_room, new_identity
from unokit.server.storage import SharedAllowances, Store, allowances, migrate

from .support import FAST, PostgresCluster, ServerProcess, run
from .test_cluster import _cluster, _served_by
from .test_strangers import Raw, _code, request


def test_a_shared_allowance_takes_its_burst_then_refuses_and_forgets_buckets_full_again(database: str) -> None:
    store = Store(database)
    migrate(store.engine)
    try:
        shared = SharedAllowances(store)
        takes = [shared.take("lookups", "10.0.0.1", 0.001, 3.0) for _ in range(4)]
        assert takes == [True, True, True, False]
        assert shared.level("lookups", "10.0.0.1", 0.001, 3.0) < 1.0
        assert shared.level("lookups", "10.0.0.2", 0.001, 3.0) == 3.0  # another address: untouched
        assert shared.take("rooms", "10.0.0.1", 0.001, 3.0)  # another allowance: untouched
        with store.begin() as c:
            c.execute(allowances.update().where(allowances.c.key == "10.0.0.1").values(full_at=time.time() - 1))
        assert shared.prune() == 2
        assert shared.take("lookups", "10.0.0.1", 0.001, 3.0)  # a full bucket again
    finally:
        store.close()


def test_takes_from_two_processes_at_once_take_no_more_than_the_burst(postgres: PostgresCluster) -> None:
    """Two stores (two processes' engines) on one PostgreSQL database, twenty threads taking at
    once from a bucket of five: exactly five takes succeed."""
    database = postgres.new_database()
    stores = [Store(database) for _ in range(2)]
    migrate(stores[0].engine)
    try:
        start = threading.Barrier(20)
        results: list[bool] = []

        def take(store: Store) -> None:
            start.wait()
            results.append(store.allowances.take("chat", "10.0.0.9", 0.001, 5.0))

        threads = [threading.Thread(target=take, args=(stores[i % 2],)) for i in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [False] * 15 + [True] * 5
    finally:
        for store in stores:
            store.close()


def test_two_processes_allow_one_address_my_games_and_chat_together_as_one_would(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    """``--lookup-rate 4`` (bursts of 6): My games asked of both processes in turn is answered
    six times in all, not six times by each. Chat: one address writes in four rooms, two owned by
    each process; each room allows its seat 5 at once, the address 10 across the server."""
    database = postgres.new_database()
    # --chat-rate 0.01: the address's chat comes back at 0.03 lines a second, so however slowly a
    # loaded machine sends the sixteen lines below, the burst of 10 is what they meet
    servers = _cluster(make_server, database, "--lookup-rate", "4", "--chat-rate", "0.01")
    asker, player = "127.0.0.71", new_identity()
    asked = time.monotonic()
    statuses = [request(servers[i % 2], "POST", "/api/my-games", {"player": player}, asker)[0] for i in range(12)]
    refilled = int((time.monotonic() - asked) * 4 / 60)  # a token comes back every 15 s
    assert 6 <= statuses.count(200) <= 6 + refilled, statuses  # one process alone allowed 12
    assert refilled or statuses[-2:] == [429, 429], statuses  # both processes refuse now
    assert request(servers[0], "POST", "/api/my-games", {"player": player}, "127.0.0.72")[0] == 200

    async def body() -> list[str]:
        said: list[str] = []
        for i in range(4):
            owner = servers[i % 2]
            room = create_room(owner.url, "classic", 2, settings=FAST)["room"]
            assert _served_by(owner, room) == _served_by(servers[0], room) != ""
            raw = await Raw.open(owner, "127.0.0.73")
            await raw.hello(room, role="spectator")
            said += [_code(await raw.say(f"line {j}")) for j in range(4)]
            await raw.close()
        return said

    started = time.monotonic()
    said = run(body)
    elapsed = time.monotonic() - started
    # 16 lines, each room within its own allowance (4 of a burst of 5): the address's 10 at once
    # across the cluster, and what came back meanwhile (16 went through with a count per process)
    assert 10 <= said.count("ack") <= 10 + math.ceil(0.03 * elapsed) and "rate_limited" in said, (said, elapsed)
