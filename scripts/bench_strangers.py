"""One stranger's attacks on the rooms' CPU, all at once, on loopback: ten reviews asked with
fresh identities, a hint flood at one decision, a chat burst against a 10,000-entry prefix word
filter and a pause storm, while a person plays a ``hard`` bot in another room (the bot's reply
is timed) and a pinger in a third room measures its round trips.

    nice -n 19 .venv/bin/python scripts/bench_strangers.py

Prints the ``hard`` bot's median reply idle and under the attacks (and their ratio), and the
pinger's worst round trip under them, from one run. Bounded: 10 reviews, 200 hints, 5 chat
lines, 20 pauses; the attacks last ``--seconds`` (default 60).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.support import FAST, ServerProcess, free_port  # noqa: E402

from unokit.server.client import RoomClient, create_room, new_identity  # noqa: E402


def _replied(ann: RoomClient, version: int) -> Callable[[dict[str, Any]], bool]:
    """Whether ``ann`` has a decision again after the move made at ``version`` (her own next
    one, after a draw, or the bot's reply)."""
    return lambda _state: ann.my_turn and ann.version > version


async def _bot_replies(ann: RoomClient, moves: int) -> list[float]:
    """Seconds from each of ``ann``'s moves to her next turn (the ``hard`` bot's reply)."""
    replies: list[float] = []
    while len(replies) < moves:
        await ann.wait_for(lambda _s: ann.my_turn, 120)
        start = time.monotonic()
        version = ann.version
        await ann.act(ann.legal_actions[0])
        await ann.wait_for(_replied(ann, version), 300)
        if ann.version > version + 1:  # the bot moved between her two decisions: its reply
            replies.append(time.monotonic() - start)
    return replies


async def _pinger(client: RoomClient, stop: asyncio.Event, seen: list[float]) -> None:
    while not stop.is_set():
        start = time.monotonic()
        await client.request({"type": "ping"})
        seen.append(time.monotonic() - start)
        await asyncio.sleep(0.05)


def _post(url: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


async def main(seconds: float) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-strangers-"))
    (folder / "words.txt").write_text("\n".join(f"qz{i}x*" for i in range(10_000)), encoding="utf-8")
    server = ServerProcess(
        f"sqlite:///{folder / 's.db'}",
        free_port(),
        ["--warm-engine", "--rate", "5000", "--burst", "5000", "--word-filter", str(folder / "words.txt")],
    )
    server.start(timeout=600)
    try:
        # A finished 10-seat game of random bots, to review.
        done = create_room(server.url, "classic", 10, {"rounds": 1}, FAST, bots=["random"] * 9)
        watcher = await RoomClient.join(server.url, done["room"], role="spectator")
        await watcher.host("add_bot", done["host_token"], seat=0, bot="random")
        await watcher.host("start", done["host_token"])
        await watcher.wait_for(lambda s: watcher.phase == "finished", 300)
        await watcher.close()
        # The timed room: a person against a hard bot; the pinger's room.
        timed = create_room(server.url, "classic", 2, {"target": 100000}, FAST, bots=["hard"])
        ann = await RoomClient.join(server.url, timed["room"], name="Ann")
        await ann.host("start", timed["host_token"])
        idle = await _bot_replies(ann, 8)
        quiet = create_room(server.url, "classic", 2, {"target": 100000}, FAST)
        pinger = await RoomClient.join(server.url, quiet["room"], name="Pim")
        # The stranger's rooms: hints and chat against a normal bot; a host who pauses.
        flood = create_room(server.url, "classic", 2, {"target": 100000}, FAST, bots=["normal"])
        eve = await RoomClient.join(server.url, flood["room"], name="Eve")
        await eve.host("start", flood["host_token"])
        storm = create_room(server.url, "classic", 2, {"target": 100000}, FAST, bots=["normal"])
        mal = await RoomClient.join(server.url, storm["room"], name="Mal")
        await mal.host("start", storm["host_token"])
        await eve.wait_for(lambda _s: eve.my_turn, 60)
        stop, pings = asyncio.Event(), list[float]()
        ping_task = asyncio.create_task(_pinger(pinger, stop, pings))
        review_url = f"{server.url}/api/rooms/{done['room']}/records/1/review"
        reviews = [asyncio.to_thread(_post, review_url, {"player": new_identity(), "seat": seat}) for seat in range(10)]
        hints = [eve.send({"type": "hint", "token": eve.token, "id": 1000 + i}) for i in range(200)]
        chat = [eve.send({"type": "chat", "token": eve.token, "text": "hello there " * 40}) for _ in range(5)]

        async def pauses() -> None:
            for i in range(20):
                await mal.send(
                    {"type": "host", "command": "resume" if i % 2 else "pause", "host_token": storm["host_token"]}
                )

        started = time.monotonic()
        answers = await asyncio.gather(*reviews, *hints, *chat, pauses())
        loaded = await asyncio.wait_for(_bot_replies(ann, 8), seconds)
        stop.set()
        await ping_task
        print(f"reviews started: {sum(1 for a in answers[:10] if a == 202)} of 10 (others: {answers[:10]})")
        print(f"hard bot reply, idle: median {statistics.median(idle) * 1000:.0f} ms over {len(idle)} moves")
        print(
            f"hard bot reply, under attack: median {statistics.median(loaded) * 1000:.0f} ms over {len(loaded)} moves"
        )
        print(f"ratio: {statistics.median(loaded) / statistics.median(idle):.2f}")
        worst, middle = max(pings) * 1000, statistics.median(pings) * 1000
        print(f"pinger: {len(pings)} pings, worst {worst:.0f} ms, median {middle:.0f} ms")
        print(f"attack phase: {time.monotonic() - started:.1f} s")
        for client in (ann, pinger, eve, mal):
            await client.close()
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="the most the loaded moves may take")
    asyncio.run(main(parser.parse_args().seconds))
