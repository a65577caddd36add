"""Search bots think in a pool of their own: a server whose rooms are full of thinking ``ismcts``
bots still answers a request that reads the database at once. "At once" is counted in bot moves,
not in seconds, so that a slow or loaded machine changes nothing: while one request is answered,
the bots of twelve rooms finish (nearly) no move. When the bots shared the request's thread pool,
each request waited behind the moves queued before it (six, on 2 cores)."""

from __future__ import annotations

import asyncio
import statistics
import urllib.request
from collections.abc import Callable
from pathlib import Path

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
