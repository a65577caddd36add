"""The browser pages beyond the games: keyboard play (with the key map the terminal shares), the
score sheet and the virtual launcher for real cards, reduced motion on the launcher, and WCAG AA
contrast of every text on every page. (Whole games on every screen, with every control in reach,
are in test_browser_games.py.)"""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize

from ..server.support import ServerProcess
from .axe import violations
from .player import (
    answer_the_decision_before_a_turn,
    create_room,
    is_over,
    start_game,
    until_your_turn,
    wait_for,
    wait_until,
    watched,
)

PHONE: ViewportSize = {"width": 390, "height": 844}


#: WCAG 2 contrast of every visible text against what it stands on (the colours of its element
#: and its ancestors, blended; each stop of a gradient counts): those under 4.5:1, or 3:1 for
#: large text, as ``low``; ``unknown`` counts texts over an image, which cannot be judged.
CONTRAST = (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8")


def _page(browser: Browser, **kwargs: object) -> Page:
    return watched(browser.new_context(**kwargs)).new_page()  # type: ignore[arg-type]


def test_keyboard_play(browser: Browser, web_server: ServerProcess) -> None:
    page = _page(browser, viewport={"width": 1280, "height": 800})
    try:
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, rounds=None)
        start_game(page)
        until_your_turn(page)
        hand_before = page.locator(".hand-card").count()
        page.keyboard.press("d")  # draw (or press the launcher)
        wait_until(page, f"document.querySelectorAll('.hand-card').length !== {hand_before}")
        # Arrow keys walk the hand; Enter plays the focused card; digits pick a colour.
        # A bot's Wild Draw Four is accepted with the mouse.
        played = False
        seen: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            page.wait_for_timeout(150)
            if played or is_over(page):
                break
            if page.locator(".table-root.busy").count():
                continue  # the page waits for the server's answer
            message = page.locator("[data-region=prompt] .message").inner_text()
            decision = page.get_attribute("[data-region=prompt]", "data-decision")
            if message not in seen:
                seen.append(message)
            if decision == "play_or_keep":
                page.keyboard.press("k")  # keep it
            elif decision == "turn" and page.locator(".hand-card.playable").count() == 0:
                page.keyboard.press("d")
            elif decision == "turn":
                page.locator(".hand-card").first.focus()
                for _ in range(page.locator(".hand-card").count()):
                    if page.evaluate("document.activeElement.classList.contains('playable')"):
                        break
                    page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
                if page.locator(".color-choice").count():
                    page.keyboard.press("1")
                played = True
            else:
                answer_the_decision_before_a_turn(page)
        assert played, f"no card was ever playable; the prompts seen: {seen}"
        wait_until(page, "[...document.querySelectorAll('.log li')].some(li => li.innerText.includes('You played'))")
        assert any("You played" in line for line in page.locator(".log li").all_inner_texts())  # Ann's own move
    finally:
        page.context.close()


def test_the_score_sheet_page(browser: Browser, web_server: ServerProcess) -> None:
    page = _page(browser, viewport=PHONE, is_mobile=True)
    try:
        page.goto(f"{web_server.url}/#/sheet")
        page.select_option("#sheet-variant", "flip")
        page.fill("#sheet-players", "Ana, Bo, Cy")
        page.select_option("#sheet-scoring", "loser")
        assert page.locator("#sheet-target-hint").inner_text() == "Default: 200."
        page.click("#sheet-new button[type=submit]")
        wait_for(page, "#sheet-round")
        page.select_option("#round-winner", "Ana")
        page.select_option("#round-side", "dark")
        page.fill("#hand-1", "pink 5 skip_everyone")
        page.fill("#points-2", "7")
        page.click("#sheet-round button[type=submit]")
        wait_for(page, "#sheet-table tbody tr:not(.totals)")
        totals = page.locator("#sheet-table tr.totals td").all_inner_texts()
        assert totals == ["0", "35", "7"]  # loser scoring: each keeps their own hand's points
        # A card that does not exist is named in the error, and nothing is scored.
        page.select_option("#round-winner", "Bo")
        page.select_option("#round-side", "dark")
        page.fill("#hand-0", "pink wild_draw_four")
        page.fill("#hand-2", "3")
        page.click("#sheet-round button[type=submit]")
        wait_for(page, ".error")
        assert "draw four" in page.locator(".error").inner_text()  # the word that is not a card, quoted back
        assert page.locator("#sheet-table tr.totals td").all_inner_texts() == ["0", "35", "7"]
        # The sheet survives a reload (it lives in the browser), and a round can be taken back.
        page.reload()
        wait_for(page, "#sheet-table")
        assert page.locator("#sheet-table tr.totals td").all_inner_texts() == ["0", "35", "7"]
        page.click("button:has-text('Take back the last round')")
        wait_until(page, "document.querySelector('#sheet-table tr.totals').textContent.includes('Total000')")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.context.close()


def test_the_virtual_launcher_page(browser: Browser, web_server: ServerProcess) -> None:
    page = _page(browser, viewport=PHONE, is_mobile=True, reduced_motion="reduce")
    try:
        page.goto(f"{web_server.url}/#/launcher")
        wait_for(page, "table.stats tbody tr")
        assert page.locator("table.stats tbody tr").count() == 3
        page.select_option("#launcher-model", "pattern")
        results = []
        for press in range(1, 7):
            page.click("#launcher-press")
            wait_until(page, f"document.querySelector('#launcher-result').dataset.cards !== '' && {press} > 0")
            wait_until(page, "!document.querySelector('#launcher-press').disabled")
            cards = int(page.get_attribute("#launcher-result", "data-cards") or "-1")
            text = page.locator("#launcher-result").inner_text()
            assert ("Nothing" in text) if cards == 0 else (f"Take {cards} card" in text)
            # Reduced motion: the launcher does not shake.
            assert "anim-" not in (page.get_attribute("#launcher-press", "class") or "")
            results.append(cards)
        # The pattern model fires on presses 2 and 6 of its cycle.
        assert [bool(x) for x in results] == [False, True, False, False, False, True]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.click("#launcher-restart")
        wait_until(page, "document.querySelector('#launcher-result').textContent.includes('Press it')")
    finally:
        page.context.close()


def _contrast(page: Page, where: str) -> None:
    found = page.evaluate(CONTRAST)
    assert found["checked"] >= 10, f"{where}: only {found['checked']} texts found"
    assert found["unknown"] == 0, f"{where}: {found['unknown']} texts stand on an image"
    assert found["low"] == [], f"{where}: {found['low']}"


def test_every_text_passes_wcag_aa_contrast(browser: Browser, web_server: ServerProcess) -> None:
    """WCAG AA on the lobby, the waiting room, the invite page, a table of each side (light, and
    dark by turning the table over) with the log and the scores, the help, the score sheet and
    the launcher."""
    page = _page(browser, viewport={"width": 1280, "height": 800})
    guest = _page(browser, viewport=PHONE)
    try:
        page.goto(web_server.url)
        wait_for(page, "#create-room")
        _contrast(page, "lobby")
        code = create_room(page, web_server.url, name="Ann", variant="flip", players=2, bots=1, rounds=None)
        _contrast(page, "waiting room")
        guest.goto(f"{web_server.url}/r/{code}")
        wait_for(guest, "#join-form")
        _contrast(guest, "invite page")
        start_game(page)
        # Ann's decision: nothing changes on the table until she acts.
        wait_for(page, ".choices [data-action], .hand-card.playable")
        _contrast(page, "light side")
        page.click("#tab-scores")
        _contrast(page, "scores")
        page.evaluate("document.querySelector('.table').classList.replace('side-0', 'side-1')")
        assert page.locator(".table.side-1").count() == 1
        _contrast(page, "dark table")
        page.click("[data-command=help]")
        wait_for(page, "dialog#help[open] .rules-text p")
        _contrast(page, "help")
        page.keyboard.press("Escape")
        for route in ("#/sheet", "#/launcher"):
            page.goto(f"{web_server.url}/{route}")
            wait_for(page, "main h1, main h2")
            _contrast(page, route)
    finally:
        page.context.close()
        guest.context.close()


#: The box of the name field's error, and whether the field is invalid and described by it.
NAME_ERROR = """(() => {
  const note = document.querySelector('#your-name-error');
  const field = document.querySelector('#your-name');
  if (!note) return null;
  const r = note.getBoundingClientRect();
  return {inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
    invalid: field.getAttribute('aria-invalid'), described: (field.getAttribute('aria-describedby') || '').split(' '),
    focused: document.activeElement === field, text: note.textContent};
})()"""


def test_a_missing_name_is_said_by_the_name_field(browser: Browser, web_server: ServerProcess) -> None:
    """Create a room, Play now or the deal of the day without a name: "Write your name first."
    is said under the name field, in the screen with it (it was said under the button pressed,
    a screen or more away from the field the focus went to), read with the field, and gone once
    a name is typed; on a phone upright and sideways."""
    for size in (PHONE, {"width": 844, "height": 390}):
        page = _page(browser, viewport=size, is_mobile=True, has_touch=True, reduced_motion="reduce")
        try:
            for button in ("#create-button", "#play-now", ".daily-panel button.primary"):
                page.goto(f"{web_server.url}/")
                page.fill("#your-name", "")
                page.locator(button).first.click()
                wait_for(page, "#your-name-error")
                shown = page.evaluate(NAME_ERROR)
                assert shown["inside"] and shown["focused"] and shown["invalid"] == "true", (size, button, shown)
                assert "your-name-error" in shown["described"] and shown["text"] == "Write your name first."
            assert violations(page, f"the lobby's name error at {size}") == []
            page.keyboard.type("Ann")
            wait_for(page, "#your-name-error", state="detached")
            assert page.get_attribute("#your-name", "aria-invalid") is None
        finally:
            page.context.close()
