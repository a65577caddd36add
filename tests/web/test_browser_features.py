"""A server run without some features (``unokit serve --without NAME``, docs/server.md
"Features") in a real browser: the page asks which ones run (``GET /api/features``) and offers
no door to one that is off, where it would only meet a refusal."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from ..server.support import GENEROUS, ServerProcess, free_port
from .player import create_room, join_room, new_page, wait_for, wait_until

#: Drawn once the lobby is on the page (the panels beside the room form).
LOBBY = "div.side-panels"
#: Drawn once "My games" is on the page.
MY_GAMES = "h1#my-games-title"


@pytest.fixture(scope="module")
def server_without() -> Iterator[ServerProcess]:
    folder = Path(tempfile.mkdtemp(prefix="unokit-without-"))
    server = ServerProcess(
        f"sqlite:///{folder / 'server.db'}",
        free_port(),
        [*GENEROUS, "--without", "daily", "--without", "ratings", "--without", "moderation"],
    )
    server.start()
    yield server
    server.stop()


def _doors(page: Page, url: str) -> tuple[int, int]:
    """How many deal-of-the-day panels the lobby has, and ratings panels "My games" has."""
    page.goto(f"{url}/")
    wait_for(page, LOBBY)
    daily = page.locator("[data-region=daily]").count()
    page.goto(f"{url}/#/games")
    wait_for(page, MY_GAMES)
    return daily, page.locator("section.ratings-panel").count()


def test_a_server_with_every_feature_shows_their_doors(browser: Browser, web_server: ServerProcess) -> None:
    page = new_page(browser, "phone")
    try:
        assert _doors(page, web_server.url) == (1, 1)
    finally:
        page.context.close()


def test_a_server_without_the_daily_deal_and_ratings_shows_neither(
    browser: Browser, server_without: ServerProcess
) -> None:
    page = new_page(browser, "phone")
    try:
        assert _doors(page, server_without.url) == (0, 0)
        assert page.locator("p.error, [role=alert]").count() == 0  # no refusal reached the reader
    finally:
        page.context.close()


def _report_doors(ann: Page, ben: Page, url: str) -> tuple[int, int]:
    """Ben says a line in Ann's room; Ann opens its menu and the people at the table: how many
    buttons offer to mute him for her, and how many to report (the line, his name or conduct)."""
    code = create_room(ann, url, name="Ann", variant="classic", players=3, bots=1)
    join_room(ben, url, code, "Ben")
    ben.fill("#chat-text", "hello")
    ben.click("#chat-send")
    line = "[data-region=chat] .chat-line:has-text('Ben: hello')"
    wait_for(ann, line)
    ann.click(f"{line} button.chat-who")
    wait_for(ann, "[data-region=chat] .chat-menu [data-verb=mute-for-me]")
    ann.click(".chat-people summary")
    wait_until(ann, "document.querySelectorAll('.chat-people li[data-seat=\"1\"] [data-verb]').length > 0")
    mutes = ann.locator("[data-region=chat] [data-verb=mute-for-me]").count()
    return mutes, ann.locator("[data-region=chat] .chat-report").count()


def test_a_server_without_moderation_offers_no_report_but_muting_stays(
    browser: Browser, web_server: ServerProcess, server_without: ServerProcess
) -> None:
    """With moderation, the line's menu and the people at the table offer to report the line,
    his name and his conduct (five buttons); without it, none, where a report would only be
    refused (``no_reports``); muting him for herself is the chat's own, there on both."""
    for server, reports in ((web_server, 5), (server_without, 0)):
        ann, ben = new_page(browser, "laptop"), new_page(browser, "laptop")
        try:
            assert _report_doors(ann, ben, server.url) == (2, reports), server.url
        finally:
            ann.context.close()
            ben.context.close()
