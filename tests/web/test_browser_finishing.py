"""Finishing games in a real browser: the invite page of a public room tells each seated
person's share of finished games (``docs/server.md``, "Finishing games"), and a room with a
finished game links its standings among its tools; at a desk in English and on a phone in
Russian."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser

from unokit.server.client import RoomClient, create_room, new_identity, play

from ..server.support import FAST, ServerProcess, choose, free_port, run
from .player import layout_problems, new_page, wait_for

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def test_a_public_room_shows_who_finishes_their_games(browser: Browser, tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", free_port(), ["--rate", "200", "--burst", "400"])
    server.start()
    ann = new_identity()
    stop = asyncio.Event()
    rooms: list[str] = []

    async def ann_plays_then_waits() -> None:
        """Ann finishes one public game, then sits in a second public room until told to stop."""
        first = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST, public=True, bots=["easy"])
        me = await RoomClient.join(server.url, first["room"], name="Ann", player=ann)
        await me.host("start", first["host_token"])
        await play(me, choose, timeout=120)
        await me.close()
        second = create_room(server.url, "classic", 3, options={"rounds": 1}, settings=FAST, public=True, bots=["easy"])
        waiting = await RoomClient.join(server.url, second["room"], name="Ann", player=ann)
        rooms.extend([first["room"], second["room"]])
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await waiting.close()

    pool = ThreadPoolExecutor(1)  # its own event loop: Playwright's holds this thread's
    loop_holder: list[asyncio.AbstractEventLoop] = []

    async def body() -> None:
        loop_holder.append(asyncio.get_running_loop())
        await ann_plays_then_waits()

    running = pool.submit(run, body)
    desk, phone = new_page(browser, "laptop"), new_page(browser, "phone")
    try:
        for _ in range(600):
            if rooms or running.done():
                break
            desk.wait_for_timeout(100)
        assert rooms, running.result()
        first, second = rooms
        desk.goto(f"{server.url}/r/{second}?lang=en")
        wait_for(desk, "#join-seats .finish-share")
        assert "stayed to the end of 100% of 1 game in 30 days" in desk.locator("#join-seats").inner_text()
        assert layout_problems(desk) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        desk.screenshot(path=str(SHOTS / "finishing_en-1280.png"), full_page=True)
        phone.goto(f"{server.url}/r/{second}?lang=ru")
        wait_for(phone, "#join-seats .finish-share")
        assert "до конца 100% из 1 игры за 30 дн." in phone.locator("#join-seats").inner_text()
        assert layout_problems(phone) == []
        phone.screenshot(path=str(SHOTS / "finishing_ru-390.png"), full_page=True)
        # watching the first room (a game finished): its standings among the room's tools
        desk.goto(f"{server.url}/r/{first}?lang=en#watch")
        wait_for(desk, "#standings-tool")
        assert desk.locator("#standings-tool").get_attribute("href") == f"/#/standings/{first}"
    finally:
        if loop_holder:
            loop_holder[0].call_soon_threadsafe(stop.set)
        running.result(timeout=60)
        pool.shutdown()
        desk.context.close()
        phone.context.close()
        server.stop()
