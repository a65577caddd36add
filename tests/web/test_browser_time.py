"""Time for everyone in two browsers (WCAG 2.2.1, ``docs/accessibility.md``): the player whose
turn it is asks for more time with one key, and both tables say so in their own language in the
live region; the host pauses the table with one key, both tables say who paused and offer no
move, the turn's clock stands still, and the host's **Go on** lets the game go on."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page

from unokit.server.room import MORE_TIMES

from ..server.support import ServerProcess
from .axe import violations
from .player import create_room, join_room, layout_problems, new_page, start_game, until_your_turn, wait_for, wait_until

TIMED = {"bot_seconds": "0.5", "catch_seconds": "0", "hand_pause_seconds": "0", "turn_seconds": "60"}
MORE_TIME = "document.querySelector('#more-time')"
POLITE = "document.querySelector('#announce-polite')?.textContent || ''"


def _seconds_left(page: Page) -> int:
    found = re.search(r"\d+", page.locator(".timer").inner_text())
    assert found, page.locator(".timer").inner_text()
    return int(found.group())


def _press_in_table(page: Page, key: str) -> None:
    """Press ``key`` with the focus inside the table (where the table's keys act)."""
    page.locator("[data-region=prompt]").focus()
    page.keyboard.press(key)


def test_more_time_and_the_host_pause_over_two_browsers(
    browser: Browser, web_server: ServerProcess, tmp_path: Path
) -> None:
    ann = new_page(browser, "laptop", locale="en-US")
    bo = new_page(browser, "phone", locale="ru-RU")
    try:
        code = create_room(ann, web_server.url, name="Ann", variant="classic", players=3, bots=1, timers=TIMED)
        join_room(bo, web_server.url, code, "Бо")
        start_game(ann)
        wait_for(bo, ".table-root .table")
        # whoever's timed turn comes first (the bot plays its own): the More time button shows there
        for _ in range(600):
            if ann.evaluate(f"!!{MORE_TIME}") or bo.evaluate(f"!!{MORE_TIME}"):
                break
            ann.wait_for_timeout(50)
        player, other = (ann, bo) if ann.evaluate(f"!!{MORE_TIME}") else (bo, ann)
        assert other.locator("#more-time").count() == 0  # only at your own turn
        before = _seconds_left(player)
        player.screenshot(path=str(tmp_path / "more-time.png"))
        assert layout_problems(player) == [] and violations(player, "a timed turn with More time") == []
        _press_in_table(player, "e")
        wait_until(player, f"{MORE_TIME}?.textContent.includes('{MORE_TIMES - 1}')")
        assert _seconds_left(player) >= before + 25  # 30 s more on the same clock
        wait_until(ann, f"{POLITE}.includes('asked for more time: 30 s more ({MORE_TIMES - 1} left)')")
        said = f"больше времени — ещё 30 с (осталось: {MORE_TIMES - 1})"  # noqa: RUF001 (Russian "s")
        wait_until(bo, f"{POLITE}.includes('{said}')")

        # the host pauses with one key: both tables say who, and offer no move
        _press_in_table(ann, "b")
        wait_until(ann, "document.querySelector('[data-region=prompt]')?.classList.contains('paused')")
        wait_until(bo, "document.querySelector('[data-region=prompt]')?.classList.contains('paused')")
        assert "You paused the game." in ann.locator("#prompt-message").inner_text()
        assert "Ann: игра на паузе." in bo.locator("#prompt-message").inner_text()
        # and when the pause ends by itself (R7), as each device's clock reads it
        assert re.search(r"It goes on by itself at \d{1,2}:\d{2}", ann.locator("#prompt-message").inner_text())
        assert re.search(r"Игра продолжится сама в \d{1,2}:\d{2}", bo.locator("#prompt-message").inner_text())
        wait_until(bo, f"{POLITE}.includes('Ann: игра на паузе.')")
        for page in (ann, bo):
            assert page.locator("#more-time").count() == 0
            assert page.locator(".hand-card.playable").count() == 0
            # nothing out of turn either (the room has no Jump-In; the turn's plays are held)
            assert page.locator("button.jump, button.catch").count() == 0
        assert bo.locator("#pause-table").count() == 0  # only the host may let it go on
        bo.screenshot(path=str(tmp_path / "paused-ru-390.png"))
        assert layout_problems(bo) == [] and layout_problems(ann) == []
        found = violations(bo, "paused table (ru, phone)") + violations(ann, "paused table, host (en, desk)")
        assert found == [], "\n".join(found)
        ann.wait_for_timeout(3000)
        # the host's Go on: the turn goes on with the time it had left, not 3 s less
        ann.locator("#pause-table").click()
        wait_until(player, f"!!{MORE_TIME}")
        assert _seconds_left(player) >= before + 25 - 2
        wait_until(bo, f"{POLITE}.includes('Ann: пауза окончена, игра продолжается.')")
        wait_until(ann, f"{POLITE}.includes('Ann let the game go on.')")
    finally:
        ann.context.close()
        bo.context.close()


#: How many lines the More time button's words take, as drawn.
MORE_TIME_LINES = f"""(() => {{
  const range = document.createRange();
  range.selectNodeContents({MORE_TIME});
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}})()"""


def test_more_time_fits_a_small_phone_held_sideways(browser: Browser, web_server: ServerProcess) -> None:
    """At 740x360, in Russian (the longest words), More time takes at most two lines (it took
    five in half a row, and the decision ran over the player's own name) and the table keeps
    its layout promises."""
    page = new_page(browser, "small-landscape", locale="ru-RU", reduced_motion="reduce")
    try:
        create_room(page, web_server.url, name="Аня", variant="classic", players=2, bots=1, timers=TIMED)
        start_game(page)
        until_your_turn(page)
        wait_for(page, "#more-time")
        assert page.evaluate(MORE_TIME_LINES) <= 2
        assert layout_problems(page) == []
    finally:
        page.context.close()
