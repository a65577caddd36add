"""The bot ladder's standings page in a real browser (``/#/ladder/VARIANT/SIZE``, its table
``data-region="ladder"``): two bots play a table, and the page lists both, at a desk in English
and on a phone in Russian; an empty one says what the ladder is and how a bot joins, and it and
the leaderboard link to each other."""

from __future__ import annotations

import asyncio
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser

from unokit.server.client import first_legal, ladder_play

from ..server.support import UNOKIT, ServerProcess, free_port, run
from .player import layout_problems, new_page, wait_for

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def test_the_ladder_page_lists_the_bots_that_played(browser: Browser, tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", free_port(), ["--rate", "200", "--burst", "400"])
    server.start()
    names = ("Alpha-bot", "beta.bot")
    tokens = {
        name: subprocess.run(
            [UNOKIT, "admin", "--database", server.database, "ladder-token", name],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout.strip()
        for name in names
    }

    async def one_table_each() -> list[int]:
        return list(
            await asyncio.gather(
                *(ladder_play(server.url, name, tokens[name], first_legal, tables=1, timeout=120) for name in names)
            )
        )

    desk, phone = new_page(browser, "laptop"), new_page(browser, "phone")
    try:
        with ThreadPoolExecutor(1) as pool:  # its own event loop: Playwright's holds this thread's
            assert pool.submit(run, one_table_each).result() == [1, 1]
        desk.goto(f"{server.url}/?lang=en#/ladder/classic/2")
        wait_for(desk, '[data-region="ladder"] tbody tr')
        assert desk.locator("h1").inner_text() == "Bot ladder"
        board = desk.locator('[data-region="ladder"]').inner_text()
        assert all(name in board for name in names)
        assert layout_problems(desk) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        desk.screenshot(path=str(SHOTS / "ladder_en-1280.png"), full_page=True)
        phone.goto(f"{server.url}/?lang=ru#/ladder/classic/2")
        wait_for(phone, '[data-region="ladder"] tbody tr')
        assert phone.locator("h1").inner_text() == "Рейтинг ботов"
        assert phone.locator('[data-region="ladder"] tbody tr').count() == 2
        assert layout_problems(phone) == []
        phone.screenshot(path=str(SHOTS / "ladder_ru-390.png"), full_page=True)
        # another setting: nobody yet, and the page says what it is and how a bot joins; it and
        # the leaderboard link to each other (the ladder was linked from nowhere)
        desk.goto(f"{server.url}/?lang=en#/ladder/flip/4")
        wait_for(desk, "p.none")
        about = desk.locator(".board-about").inner_text()
        assert "Programs, not people" in about and "a token" in about, about
        assert f"unokit ladder join {server.url} --name NAME" in desk.locator(".board-about code").inner_text()
        assert desk.locator('p.links a[href="/#/leaderboard/flip/4"]').count() == 1
        desk.click('p.links a[href="/#/leaderboard/flip/4"]')
        wait_for(desk, "#leaderboard-title ~ p.none")
        assert "in the last 30 days" in desk.locator(".board-about").inner_text()
        assert desk.locator('p.links a[href="/#/ladder/flip/4"]').count() == 1
    finally:
        desk.context.close()
        phone.context.close()
        server.stop()
