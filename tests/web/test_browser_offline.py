"""Offline play (docs/offline.md) in Debian's Chromium: the page opened once online keeps what
it needs (``data-offline-ready``); with the server stopped and the browser offline, a link starts
a game against bots on the device, which plays to its end, goes on after a reload, and keeps a
record that the server's engine verifies; axe-core finds nothing on the offline table."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from unokit.record import GameRecord, verify

from ..server.support import GENEROUS, ServerProcess, free_port
from .axe import violations
from .player import Clicker, new_page, play_to_the_end, wait_until

#: Offline games kept short: one hand, bots that answer at once.
QUICK = "rounds=1&bot_seconds=0&catch_seconds=0&hand_pause_seconds=0"
TABLE = "document.querySelector('.table-root .hand-card') !== null"


@pytest.fixture
def server() -> Iterator[ServerProcess]:
    """A server of its own: the test stops it."""
    folder = Path(tempfile.mkdtemp(prefix="unokit-offline-"))
    process = ServerProcess(f"sqlite:///{folder / 'server.db'}", free_port(), list(GENEROUS))
    process.start()
    yield process
    process.stop()


def go_offline(page: Page, server: ServerProcess) -> None:
    """Open the lobby, wait until offline play is ready, then stop the server and the network."""
    page.goto(f"{server.url}/")
    wait_until(page, "document.documentElement.dataset.offlineReady === 'yes'", timeout=180)
    server.stop()
    page.context.set_offline(True)


def kept_records(page: Page) -> list[str]:
    """The records of the games kept on the device, as My games offers them to download."""
    page.goto(page.url.split("#")[0] + "#/games")
    wait_until(page, "document.querySelector('.offline-games-panel') !== null", timeout=30)
    links = page.locator(".offline-games a.download").count()
    records: list[str] = page.evaluate(
        "async () => (await (await import('/static/js/offline-store.js')).keptGames())"
        ".filter((game) => game.kept.record).map((game) => game.kept.record)"
    )
    assert len(records) == links  # each kept record is offered for download
    return records


def test_a_whole_offline_game_on_a_phone_goes_on_after_a_reload_and_its_record_verifies(
    browser: Browser, server: ServerProcess
) -> None:
    page = new_page(browser, "phone", reduced_motion="reduce")
    go_offline(page, server)
    page.goto(f"{server.url}/#/offline/classic/2?{QUICK}")
    wait_until(page, TABLE, timeout=120)
    assert "/#/offline/g/" in page.url  # the address of the kept game: a reload goes on with it
    found = violations(page, "offline table")
    assert found == [], found
    clicker = Clicker(page)
    for _ in range(3):
        wait_until(page, "document.querySelector('.table-root.busy') === null")
        clicker.step()
    version = page.evaluate("performance.getEntriesByName('unokit:state').pop()?.detail ?? 0")
    page.reload()
    wait_until(page, TABLE, timeout=120)
    wait_until(page, f"(performance.getEntriesByName('unokit:state').pop()?.detail ?? 0) >= {version}")
    play_to_the_end([Clicker(page)], timeout=300)
    records = kept_records(page)
    assert len(records) == 1
    record = GameRecord.loads(records[0])
    assert record.variant == "classic" and record.result is not None
    assert verify(record).ok


def test_a_whole_offline_game_sideways_in_russian(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser, "phone-landscape", locale="ru-RU", reduced_motion="reduce")
    go_offline(page, server)
    page.goto(f"{server.url}/#/offline/flip/3?{QUICK}")
    wait_until(page, TABLE, timeout=120)
    assert page.evaluate("document.documentElement.lang") == "ru"
    play_to_the_end([Clicker(page)], timeout=300)
    records = kept_records(page)
    record = GameRecord.loads(records[0])
    assert record.variant == "flip" and verify(record).ok
    assert json.loads(records[0])["players"] == 3
