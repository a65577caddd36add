"""Search bots think in a pool of their own: a server whose rooms are full of thinking ``ismcts``
bots still answers a request that reads the database at once. "At once" is counted in bot moves,
not in seconds, so that a slow or loaded machine changes nothing: while one request is answered,
the bots of twelve rooms finish (nearly) no move. When the bots shared the request's thread pool,
each request waited behind the moves queued before it (six, on 2 cores)."""

from __future__ import annotations

import asyncio
import statistics
import threading
import urllib.request
from collections.abc import Callable
from pathlib import Path

from unokit.server.botpool import BotPool
from unokit.server.client import RoomClient, create_room

from .support import FAST, ServerProcess, run

ROOMS = 12


def _read(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:
        return bytes(response.read())


def test_thinking_bots_do_not_hold_up_requests(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'bots.db'}", "--bot-threads", "1")

    async def room() -> tuple[RoomClient, str]:
        """Two search bots thinking without a pause, watched (a room nobody watches pauses)."""
        made = create_room(server.url, "classic", 2, options={"target": 100000}, settings=FAST)
        watcher = await RoomClient.join(server.url, made["room"], role="spectator")
        for seat in (0, 1):
            await watcher.host("add_bot", made["host_token"], seat=seat, bot="ismcts")
        await watcher.host("start", made["host_token"])
        return watcher, made["room"]

    async def body() -> list[int]:
        rooms = await asyncio.gather(*(room() for _ in range(ROOMS)))
        watchers, codes = [w for w, _code in rooms], [code for _w, code in rooms]
        await watchers[-1].wait_for(lambda s: s["game_step"] >= 1, 60)  # the bots are busy
        moves_during = []
        for i in range(11):
            before = sum(w.version for w in watchers)
            await asyncio.to_thread(_read, f"{server.url}/api/rooms/{codes[i]}/records")  # a database read
            moves_during.append(sum(w.version for w in watchers) - before)
            await asyncio.sleep(0.1)
        for watcher in watchers:
            await watcher.close()
        return moves_during

    moves_during = run(body)
    assert statistics.median(moves_during) <= 1, moves_during


def test_rooms_work_goes_before_spare_work_and_spare_owners_take_turns() -> None:
    """One thread, held by a first piece of spare work while more is queued: ten pieces of
    one owner's (ten reviews from one address), then one of another owner's, then a room's
    bot move. When the thread is free the room's move goes first, then the second owner's
    piece, then the first owner's others. A first-come pool ran the room's move last."""
    pool = BotPool(1, 1.0)
    order: list[str] = []
    hold = threading.Event()

    def work(name: str) -> str:
        if name == "first":
            hold.wait(60)
        order.append(name)
        return name

    async def body() -> None:
        first = asyncio.create_task(pool.spare("review:198.51.100.1", work, "first"))
        while pool.waiting() != (0, 0):  # the first piece has the thread
            await asyncio.sleep(0.01)
        queued = [asyncio.create_task(pool.spare("review:198.51.100.1", work, f"many {i}")) for i in range(10)]
        other = asyncio.create_task(pool.spare("review:203.0.113.5", work, "other"))
        while pool.waiting() != (0, 11):
            await asyncio.sleep(0.01)
        move = asyncio.create_task(pool.think("ROOM", work, "move"))
        while pool.waiting() != (1, 11):
            await asyncio.sleep(0.01)
        queued[3].cancel()  # its asker left: dropped without running
        hold.set()
        assert await move == "move"
        await asyncio.gather(first, other, *queued, return_exceptions=True)

    try:
        asyncio.run(body())
    finally:
        hold.set()
        pool.shutdown()
    assert order[:3] == ["first", "move", "other"], order
    assert order[3:] == [f"many {i}" for i in range(10) if i != 3], order
    assert pool.delay("ROOM") == 0.0  # a room's account is its own
