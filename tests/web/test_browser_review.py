"""The review of a finished game in the browser (``docs/review.md``, "In the browser"): from the
game-over screen and from "My games", the replay with the winning chance under it, from one key
moment to the next, on every screen the table is made for (its layout promises, axe-core's
rules), in English and in Russian; its graph's axes named, its key moments numbered, and the
graph's table as a screen reader reads it. One finished game serves every check."""

from __future__ import annotations

import json
import os
from pathlib import Path

from playwright.sync_api import Browser, Page

from unokit.server.client import create_room

from ..server.support import FAST, ServerProcess
from .axe import violations
from .player import VIEWPORTS, join_as_host, layout_problems, new_page, resized, wait_for, wait_until

#: The screens the review must fit (the issue's five).
SCREENS = ("phone", "phone-landscape", "small-landscape", "tablet", "laptop")

#: A room whose person is played by the stand-in bot after 0.1 s: the game plays itself out.
SELF_PLAYING = {**FAST, "turn_seconds": 0.1}
#: Where the screenshots go (``UNOKIT_SHOTS`` to keep them; the test's folder otherwise).
SHOTS = os.environ.get("UNOKIT_SHOTS")


def _stops(page: Page) -> int:
    return int(page.evaluate("document.querySelectorAll('.review-graph .mark').length"))


def _check_review(
    page: Page,
    shot: Path,
    title: str,
    marks: str,
    axis: str = "Your chance to win the hand",
    ticks: tuple[str, ...] = ("100%", "50%", "0%"),
) -> None:
    """The review is drawn under the replay: its title, the marks, a graph with a line of the
    chance and its axes named; from the first key moment on, what happened there is said as a
    player would say it; nothing overflows."""
    wait_for(page, "#review .review-graph polyline", timeout=300_000)
    assert title in page.locator("h1").inner_text()
    assert page.locator(".review-marks").inner_text().startswith(marks)
    points = page.get_attribute(".review-graph polyline", "points") or ""
    assert len(points.split()) >= 3
    # the axes are named and scaled
    assert page.locator(".review-axis-y").inner_text() == axis
    assert tuple(t.strip() for t in page.locator(".review-ticks").inner_text().split("\n")) == ticks
    if not page.locator("#review-next").is_disabled():
        page.click("#review-next")
        wait_until(page, "document.querySelector('.review-said')?.textContent.length > 0")
        said = page.locator(".review-said").inner_text()
        assert "%" in said and "Action" not in said and "Play it" not in said, said
        step = page.locator("#replay-step").inner_text()
        assert step.split()[1] != "0"  # the replay went there
    # The seats are placed by script after a resize or a step: give the layout a moment to
    # settle (a second at most), then nothing may overflow or overlap.
    for _ in range(10):
        if not layout_problems(page):
            break
        page.wait_for_timeout(100)
    page.screenshot(path=str(shot))
    assert layout_problems(page) == [], shot.name
    # The graph scrolled to within the review's own panel (a phone held sideways has room for
    # the replay's controls and a part of the review): seen whole, nothing of it under another
    # region.
    page.evaluate("document.querySelector('.review-chart').scrollIntoView({block: 'nearest'})")
    page.screenshot(path=str(shot.with_name(shot.stem + "-graph.png")))
    assert layout_problems(page) == [], shot.name + ", its graph scrolled to"


def _read_table(page: Page) -> str:
    """The graph's table opened, as the accessibility tree gives it to a screen reader."""
    page.click("#review-table summary")
    wait_for(page, "#review-table table", state="visible")
    return page.locator("#review-table table").aria_snapshot()


def test_a_finished_game_is_reviewed_from_the_game_over_screen_and_my_games(
    browser: Browser, web_server: ServerProcess, tmp_path: Path
) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    page = new_page(browser, "phone")
    try:
        room = create_room(web_server.url, "classic", 2, {"rounds": 1}, SELF_PLAYING, bots=["random"])
        join_as_host(page, web_server.url, room)
        page.click("#start-game")
        wait_for(page, ".overlay #review-game", timeout=120_000)
        page.click(".overlay #review-game")
        code = room["room"]
        for screen in SCREENS:
            size = VIEWPORTS[screen]
            page.set_viewport_size(size)
            page.goto(f"{web_server.url}/#/review/{code}/1/0")
            _check_review(
                page,
                shots / f"review-{size['width']}x{size['height']}.png",
                f"Review of game 1 in room {code}",
                "Decisions: ",
            )
            assert violations(page, f"the review at {screen}") == []
        # the graph's text alternative: a table with its caption, named columns and a row a moment
        read = _read_table(page)
        assert "table" in read and "Your chance to win the hand at the key moments" in read, read
        assert 'columnheader "When"' in read and 'columnheader "What happened"' in read, read
        assert 'rowheader "Move ' in read and "%" in read, read
        assert violations(page, "the review's table, open") == []
        page.screenshot(path=str(shots / "review-table-1280.png"))
        # "My games" offers it too; asked again, the review is the one kept (no new one started)
        identity = page.evaluate("localStorage.getItem('unokit.player')") or ""
        page.goto(f"{web_server.url}/#/games")
        wait_for(page, "table.games a.review")
        assert page.get_attribute("table.games a.review", "href") == f"/#/review/{code}/1/0"
        # In Russian, on a phone and at a desk, from the kept review.
        russian = new_page(browser, "phone", locale="ru-RU")
        try:
            if identity:
                russian.goto(f"{web_server.url}/")
                russian.evaluate(f"localStorage.setItem('unokit.player', {json.dumps(identity)})")
            russian.goto(f"{web_server.url}/#/review/{code}/1/0")
            ticks = ("100\u00a0%", "50\u00a0%", "0\u00a0%")  # number.percent: a no-break space before the sign
            ru = ("Разбор игры 1 в комнате " + code, "Решения: ", "Ваш шанс выиграть раздачу", ticks)
            _check_review(russian, shots / "review-ru-390.png", *ru)
            resized(russian, {"width": 844, "height": 390})
            _check_review(russian, shots / "review-ru-844x390.png", *ru)
            read = _read_table(russian)
            assert 'columnheader "Что произошло"' in read and "%" in read, read
        finally:
            russian.context.close()
    finally:
        page.context.close()
