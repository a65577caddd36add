"""The review of a finished game in the browser (``docs/review.md``, "In the browser"): from the
game-over screen and from "My games", the replay with the winning chance under it, from one key
moment to the next, on a phone and at a desk, in English and in Russian."""

from __future__ import annotations

import json
import os
from pathlib import Path

from playwright.sync_api import Browser, Page

from unokit.server.client import create_room

from ..server.support import FAST, ServerProcess
from .player import join_as_host, layout_problems, new_page, wait_until

#: A room whose person is played by the stand-in bot after 0.1 s: the game plays itself out.
SELF_PLAYING = {**FAST, "turn_seconds": 0.1}
#: Where the screenshots go (``UNOKIT_SHOTS`` to keep them; the test's folder otherwise).
SHOTS = os.environ.get("UNOKIT_SHOTS")


def _stops(page: Page) -> int:
    return int(page.evaluate("document.querySelectorAll('.review-graph .mark').length"))


def _check_review(page: Page, shot: Path, title: str, marks: str) -> None:
    """The review is drawn under the replay: its title, the marks, a graph with a line of the
    chance; from the first key moment on, what happened there is said; nothing overflows."""
    page.wait_for_selector("#review .review-graph polyline", timeout=300_000)
    assert title in page.locator("h1").inner_text()
    assert page.locator(".review-marks").inner_text().startswith(marks)
    points = page.get_attribute(".review-graph polyline", "points") or ""
    assert len(points.split()) >= 3
    if not page.locator("#review-next").is_disabled():
        page.click("#review-next")
        wait_until(page, "document.querySelector('.review-said')?.textContent.length > 0")
        assert "%" in page.locator(".review-said").inner_text()
        step = page.locator("#replay-step").inner_text()
        assert step.split()[1] != "0"  # the replay went there
    # The seats are placed by script after a resize or a step: give the layout a moment to
    # settle (a second at most), then nothing may overflow or overlap.
    for _ in range(10):
        if not layout_problems(page):
            break
        page.wait_for_timeout(100)
    assert layout_problems(page) == []
    page.screenshot(path=str(shot))


def test_a_finished_game_is_reviewed_from_the_game_over_screen_and_my_games(
    browser: Browser, web_server: ServerProcess, tmp_path: Path
) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    page = new_page(browser, "phone")
    try:
        room = create_room(web_server.url, "classic", 2, {"rounds": 1}, SELF_PLAYING, bots=["random"])
        join_as_host(page, web_server.url, room)
        page.click("#start-game")
        page.wait_for_selector(".overlay #review-game", timeout=120_000)
        page.click(".overlay #review-game")
        code = room["room"]
        _check_review(page, shots / "review-390.png", f"Review of game 1 in room {code}", "Decisions: ")
        page.set_viewport_size({"width": 1280, "height": 800})
        _check_review(page, shots / "review-1280.png", f"Review of game 1 in room {code}", "Decisions: ")
        # "My games" offers it too; asked again, the review is the one kept (no new one started)
        identity = page.evaluate("localStorage.getItem('unokit.player')") or ""
        page.goto(f"{web_server.url}/#/games")
        page.wait_for_selector("table.games a.review")
        assert page.get_attribute("table.games a.review", "href") == f"/#/review/{code}/1/0"
        # In Russian, on a phone and at a desk, from the kept review.
        russian = new_page(browser, "phone", locale="ru-RU")
        try:
            if identity:
                russian.goto(f"{web_server.url}/")
                russian.evaluate(f"localStorage.setItem('unokit.player', {json.dumps(identity)})")
            russian.goto(f"{web_server.url}/#/review/{code}/1/0")
            _check_review(russian, shots / "review-ru-390.png", f"Разбор игры 1 в комнате {code}", "Решения: ")
            russian.set_viewport_size({"width": 1280, "height": 800})
            _check_review(russian, shots / "review-ru-1280.png", f"Разбор игры 1 в комнате {code}", "Решения: ")
        finally:
            russian.context.close()
    finally:
        page.context.close()
