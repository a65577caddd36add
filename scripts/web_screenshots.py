"""Screenshots of the browser client for the docs: every variant's table at 1280x800 (Ann, at a
desk) and on a 390x844 phone (Bo), the lobby, the score sheet and the virtual launcher.

    .venv/bin/python scripts/web_screenshots.py [--out docs/screenshots]

Starts its own ``unokit serve`` on a free port with a throwaway SQLite database and drives
Debian's Chromium (``/usr/bin/chromium``) with Playwright.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.support import GENEROUS, ServerProcess, free_port  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

DESK: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
VARIANTS = ("classic", "flip", "attack", "flip_attack")


@contextlib.contextmanager
def server() -> Iterator[str]:
    folder = Path(tempfile.mkdtemp(prefix="unokit-shots-"))
    process = ServerProcess(f"sqlite:///{folder / 's.db'}", free_port(), GENEROUS).start()
    try:
        yield process.url
    finally:
        process.stop()


def settle(page: Page) -> None:
    page.wait_for_timeout(400)


def take_decisions(page: Page, count: int, wait: float = 4.0) -> None:
    """Play up to ``count`` decisions for the page's player (a playable card, else the first
    button), waiting at most ``wait`` seconds for them."""
    done = 0
    end = time.monotonic() + wait
    while done < count and time.monotonic() < end:
        if page.locator(".overlay .game-over").count():
            return
        for selector in (".choices .color-choice", ".hand-card.playable", ".choices [data-action]"):
            target = page.locator(selector).first
            if target.count() and target.is_enabled():
                with contextlib.suppress(Exception):
                    target.click(timeout=1000)
                    done += 1
                break
        page.wait_for_timeout(150)


def table_shots(url: str, out: Path, variant: str, browser: Browser) -> None:
    # bypass_csp: Playwright's wait_for_function compiles its predicate in the page, which the
    # server's Content-Security-Policy forbids.
    desk = browser.new_context(viewport=DESK, bypass_csp=True).new_page()
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True).new_page()
    desk.goto(f"{url}/")
    desk.fill("#your-name", "Ann")
    desk.select_option("#variant", variant)
    desk.select_option("#bot-kind", "heuristic")
    desk.click("details summary:has-text('Timers')")
    desk.fill("#set-bot_seconds", "0.2")
    desk.fill("#set-hand_pause_seconds", "0")
    if variant == "classic":
        desk.screenshot(path=str(out / "lobby-1280.png"))
    desk.click("#create-button")
    desk.wait_for_url("**/r/*")
    code = desk.url.rsplit("/", 1)[-1]
    phone.goto(f"{url}/r/{code}")
    phone.fill("#join-name", "Bo")
    phone.click("#join-player")
    desk.wait_for_selector("#start-game")
    desk.wait_for_function("document.querySelectorAll('.waiting > ol.seat-list li em').length === 0")
    settle(desk)
    if variant == "classic":
        desk.screenshot(path=str(out / "room-1280.png"))
    desk.click("#start-game")
    desk.wait_for_selector(".hand-card")
    phone.wait_for_selector(".hand-card")
    for _ in range(3):
        take_decisions(desk, 1)
        take_decisions(phone, 1)
    settle(desk)
    desk.screenshot(path=str(out / f"{variant}-1280.png"))
    phone.screenshot(path=str(out / f"{variant}-390.png"))
    desk.context.close()
    phone.context.close()


def tool_shots(url: str, out: Path, browser: Browser) -> None:
    phone = browser.new_context(viewport=PHONE, is_mobile=True, bypass_csp=True).new_page()
    phone.goto(f"{url}/#/launcher")
    phone.wait_for_selector("table.stats")
    phone.select_option("#launcher-model", "pattern")
    phone.click("#launcher-press")
    phone.click("#launcher-press")
    settle(phone)
    phone.screenshot(path=str(out / "launcher-390.png"), full_page=True)
    phone.goto(f"{url}/#/sheet")
    phone.select_option("#sheet-variant", "flip")
    phone.fill("#sheet-players", "Ana, Bo, Cy")
    phone.click("#sheet-new button[type=submit]")
    phone.wait_for_selector("#sheet-round")
    phone.fill("#hand-1", "red 5 skip wild_draw_two")
    phone.fill("#points-2", "12")
    phone.click("#sheet-round button[type=submit]")
    phone.wait_for_selector("#sheet-table tbody tr:not(.totals)")
    settle(phone)
    phone.screenshot(path=str(out / "sheet-390.png"), full_page=True)
    phone.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with server() as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for variant in VARIANTS:
            table_shots(url, args.out, variant, browser)
        tool_shots(url, args.out, browser)
        browser.close()
    print(f"screenshots in {args.out}")


if __name__ == "__main__":
    main()
