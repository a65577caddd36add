"""Fixtures of the browser tests: one real ``unokit serve`` process and Debian's Chromium driven
by Playwright (``make test`` installs ``chromium`` with apt-get; Playwright's own browser
download is never used). A missing browser fails the tests; it never skips them."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from ..server.support import GENEROUS, ServerProcess, free_port
from .player import POLICY_VIOLATIONS

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def web_server() -> Iterator[ServerProcess]:
    """One SQLite server for every browser test."""
    folder = Path(tempfile.mkdtemp(prefix="unokit-web-"))
    server = ServerProcess(
        f"sqlite:///{folder / 'server.db'}",
        free_port(),
        ["--rate", "200", "--burst", "400", "--play-now-wait", "1", *GENEROUS],
    )
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright for one module: its event loop runs while the module's tests do, and stops
    before the next module (a later test that calls ``asyncio.run`` must find no running loop:
    ``make test`` spreads the modules over processes in any order)."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: 'make test' installs Debian's chromium package")
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(autouse=True)
def no_policy_violation() -> Iterator[None]:
    """Every browser test runs under the server's Content-Security-Policy, and a page that
    breaks it fails the test (Playwright's own waits are never used: ``player.wait_until``)."""
    POLICY_VIOLATIONS.clear()
    yield
    assert POLICY_VIOLATIONS == [], POLICY_VIOLATIONS
