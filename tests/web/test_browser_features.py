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
from .player import new_page, wait_for

#: Drawn once the lobby is on the page (the panels beside the room form).
LOBBY = "div.side-panels"
#: Drawn once "My games" is on the page.
MY_GAMES = "h1#my-games-title"


@pytest.fixture(scope="module")
def server_without() -> Iterator[ServerProcess]:
    folder = Path(tempfile.mkdtemp(prefix="unokit-without-"))
    server = ServerProcess(
        f"sqlite:///{folder / 'server.db'}", free_port(), [*GENEROUS, "--without", "daily", "--without", "ratings"]
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
