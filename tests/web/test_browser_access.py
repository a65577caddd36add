"""Everyone at the table (docs/accessibility.md): a whole game played through the accessibility
tree only (role and name to act, the live regions to read), a whole game with the keyboard only
(focus shown at every step), single-character keys that cannot misfire (WCAG 2.1.4), and text
mode. axe-core's rules on every page: ``test_browser_axe.py``."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from ..server.support import ServerProcess
from .player import (
    YOUR_TURN,
    Clicker,
    close_drawer,
    create_room,
    hand,
    is_over,
    new_page,
    open_drawer,
    play_to_the_end,
    start_game,
    until_your_turn,
    wait_for,
    wait_until,
)

STATIC = Path(__file__).resolve().parents[2] / "src" / "unokit" / "server" / "static"


def words(code: str) -> dict[str, Any]:
    """The browser catalogue of a language."""
    return dict(json.loads((STATIC / "i18n" / f"{code}.json").read_text(encoding="utf-8"))["messages"])


# ----------------------------------------------------------------------- the accessibility tree


class Listener:
    """A player who reads only what a screen reader says (the live regions) and acts only by the
    roles and names of the accessibility tree."""

    def __init__(self, page: Page, lang: str) -> None:
        self.page = page
        self.said = words(lang)
        self.heard: list[str] = []  # every line said politely, in order
        self.urgent: list[str] = []  # every urgent announcement
        self.did: list[str] = []

    def listen(self) -> None:
        polite = self.page.locator("#announce-polite p").all_inner_texts()
        # The region keeps its last lines: what is new is what follows what was heard last.
        start = 0
        for size in range(min(len(polite), len(self.heard)), 0, -1):
            if polite[:size] == self.heard[-size:]:
                start = size
                break
        self.heard += polite[start:]
        urgent = self.page.locator("#announce-urgent").inner_text().strip()
        if urgent and (not self.urgent or self.urgent[-1] != urgent):
            self.urgent.append(urgent)

    def press(self, role: str, name: str | re.Pattern[str], what: str) -> bool:
        target = self.page.get_by_role(role, name=name).first  # type: ignore[arg-type]
        try:
            if target.count() == 0 or target.get_attribute("aria-disabled") == "true" or not target.is_enabled():
                return False
            target.click(timeout=1500)
        except PlaywrightError:
            return False
        self.did.append(what)
        return True

    def over(self) -> bool:
        return any(self.said["event.game_end"].split("{")[0] in line for line in self.heard[-3:])

    def step(self) -> bool:
        """One decision taken through the tree, if one is offered."""
        s = self.said
        catch = re.compile("^" + re.escape(s["action.catch"].split("{")[0]))
        if s["action.catch"].split("{")[0] and self.press("button", catch, "catch"):
            return True
        challenge = re.compile("^" + re.escape(s["action.challenge"].split("{")[0]))
        if self.press("button", challenge, "challenge"):
            return True
        if self.press("button", re.compile("^" + re.escape(s["table.name_color"].split("{")[0])), "colour"):
            return True
        if self.press("button", re.compile(", " + re.escape(s["table.playable"]) + "(,|$)"), "card"):
            return True
        decision = self.page.get_by_role("group").filter(has=self.page.locator("button[data-action]"))
        if decision.count():
            button = decision.first.get_by_role("button").first
            try:
                if button.is_enabled():
                    button.click(timeout=1500)
                    self.did.append("decision")
                    return True
            except PlaywrightError:
                return False
        return False


@pytest.mark.parametrize(
    ("variant", "lang", "screen"),
    [
        pytest.param("classic", "en", "phone"),
        pytest.param("flip", "ru", "laptop", marks=pytest.mark.matrix),
        pytest.param("classic", "ru", "laptop", marks=pytest.mark.matrix),
        pytest.param("flip", "en", "phone", marks=pytest.mark.matrix),
    ],
)
def test_a_whole_game_through_the_accessibility_tree(
    browser: Browser, web_server: ServerProcess, variant: str, lang: str, screen: str
) -> None:
    """Every line of the game is said once in the reader's language; each turn is said at once;
    the reader plays by the names of the buttons alone (the hand's cards named with whether they
    may be played, the colours by their words)."""
    page = new_page(browser, screen, locale=lang)
    try:
        page.goto(f"{web_server.url}/?lang={lang}")
        create_room(page, web_server.url, name="Ann", variant=variant, players=2, bots=1)
        start_game(page)
        listener = Listener(page, lang)
        end = time.monotonic() + 240
        while not is_over(page):
            assert time.monotonic() < end, f"the game did not end; heard last: {listener.heard[-3:]}"
            listener.listen()
            if page.locator(".table-root.busy").count() or not listener.step():
                page.wait_for_timeout(60)
        page.wait_for_timeout(300)
        listener.listen()
        texts = page.eval_on_selector_all(".log li", "items => items.map(li => li.textContent)")
        log = [str(line).strip() for line in texts]
    finally:
        page.context.close()
    said = words(lang)
    assert "card" in listener.did
    assert listener.over(), listener.heard[-3:]
    # Each line of the log was said once, in order (the log shows the same words); besides them
    # only the notes (a hand shown by a challenge, with its cards).
    lines = set(log)
    assert [line for line in listener.heard if line in lines] == log
    hows = ("succeeded", "failed", "succeeded.you_player", "failed.you_player")
    notes = tuple(said[f"table.revealed_{how}"].split("{")[0] for how in hows)
    assert [line for line in listener.heard if line not in lines and not line.startswith(notes)] == []
    turn = said["decision.turn"].split("{")[0].split(":")[0]
    assert any(turn in words for words in listener.urgent), listener.urgent[:5]
    # the turn comes with what it is played on: the top card and the colour (it needed the T key)
    top, color = said["read.top"].split("{")[0], said["table.color_in_play"]
    assert any(turn in words and top in words and color in words for words in listener.urgent), listener.urgent[:5]
    if lang == "ru":
        assert not any(re.search(r"[A-Za-z]{4,}", line) for line in listener.heard if "Ann" not in line), listener.heard


# ----------------------------------------------------------------------- keys that cannot misfire


def test_letter_keys_act_only_inside_the_table_and_only_while_on(browser: Browser, web_server: ServerProcess) -> None:
    """WCAG 2.1.4: "d" typed in the chat, pressed with the focus outside the table, or pressed with
    the single-character keys turned off draws nothing; with them on, inside the table, it draws."""
    page = new_page(browser, "laptop")
    try:
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, timers={"bot_seconds": "0"})
        start_game(page)
        until_your_turn(page)
        before = len(hand(page))
        open_drawer(page, "room")
        page.fill("#chat-text", "")
        page.type("#chat-text", "dud")  # typing in the chat
        page.wait_for_timeout(400)
        assert len(hand(page)) == before
        assert page.input_value("#chat-text") == "dud"
        close_drawer(page)
        page.evaluate("document.activeElement.blur()")  # the focus on the page, outside the table
        page.keyboard.press("d")
        page.wait_for_timeout(400)
        assert len(hand(page)) == before
        page.keyboard.press("?")  # the help opens from the table only: it is outside it
        page.wait_for_timeout(200)
        assert page.locator("dialog#help[open]").count() == 0
        page.locator("[data-region=prompt]").focus()
        page.click("[data-command=help]")
        wait_for(page, "dialog#help[open] #letter-keys")
        page.uncheck("#letter-keys")
        page.keyboard.press("Escape")
        page.locator("[data-region=prompt]").focus()
        page.keyboard.press("d")
        page.wait_for_timeout(400)
        assert len(hand(page)) == before
        # The same key, turned on again and pressed inside the table, draws.
        page.evaluate("localStorage.removeItem('unokit.keys')")
        page.locator("[data-region=prompt]").focus()
        page.keyboard.press("d")
        wait_until(page, f"document.querySelectorAll('.hand-card').length !== {before}")
    finally:
        page.context.close()


def test_digits_pick_cards_on_your_turn_and_the_game_end_takes_the_focus(
    browser: Browser, web_server: ServerProcess
) -> None:
    """On your turn a digit picks that card of the hand, as in the terminal (it once took the
    first answer, "Draw a card"), and Enter plays it; when the game ends, the focus goes from the
    hand to the end screen's first control."""
    page = new_page(browser, "laptop", reduced_motion="reduce")
    try:
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1)
        start_game(page)
        until_your_turn(page)
        before = hand(page)
        page.locator("[data-region=prompt]").focus()
        for digit in ("2", "1"):
            page.keyboard.press(digit)
            wait_until(page, f"document.activeElement === document.querySelectorAll('.hand-card')[{int(digit) - 1}]")
        assert hand(page) == before and page.evaluate(YOUR_TURN)  # nothing was drawn
        play_to_the_end([Clicker(page)])
        wait_until(page, "document.activeElement === document.querySelector('.overlay .overlay-buttons > *')")
        assert page.evaluate("document.activeElement.closest('.table-root') !== null")
    finally:
        page.context.close()


def test_text_mode_takes_a_typed_move_and_reads_the_hand(browser: Browser, web_server: ServerProcess) -> None:
    """Text mode (for a braille display or speech input): "hand" typed says the hand at once (and
    the keys T and R the table and the last moves); a text that names no move says what may be
    typed; "draw" typed draws."""
    page = new_page(browser, "phone")
    try:
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, timers={"bot_seconds": "0"})
        start_game(page)
        until_your_turn(page)
        before = len(hand(page))
        page.locator("[data-region=prompt]").focus()
        page.keyboard.press("?")
        wait_for(page, "dialog#help[open] #text-mode")
        page.check("#text-mode")
        page.keyboard.press("Escape")
        field = page.get_by_role("combobox", name="Type a move")  # a field with completion
        field.fill("hand")
        field.press("Enter")
        wait_until(page, "document.querySelector('#announce-urgent').innerText.startsWith('Your hand')")
        # The readouts' keys, with the focus in the table: the table, then the last moves.
        page.locator("[data-region=prompt]").focus()
        page.keyboard.press("t")
        wait_until(page, "document.querySelector('#announce-urgent').innerText.startsWith('Top card')")
        page.keyboard.press("r")
        wait_until(page, "document.querySelector('#announce-urgent').innerText.startsWith('Last moves')")
        field.fill("fly away")
        field.press("Enter")
        wait_until(page, "document.querySelector('#move-note').innerText.includes('Draw')")
        field.fill("draw")
        field.press("Enter")
        # At least one card more: the bot (which thinks for no time) may answer the draw with a
        # Draw Two at once, and only Ann's draw can let it play. Her hand never shrinks here.
        wait_until(page, f"document.querySelectorAll('.hand-card').length >= {before + 1}")
    finally:
        page.context.close()


#: Where the focus is, when it is not shown: "" when a ring shows it (or nothing has the focus).
FOCUS_SHOWN = """(() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "";
  if (!a.matches(":focus-visible")) return "no :focus-visible on " + a.outerHTML.slice(0, 80);
  const s = getComputedStyle(a);
  const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== "none";
  return ring ? "" : "no ring on " + a.outerHTML.slice(0, 80);
})()"""


def test_a_whole_game_with_the_keyboard_only(browser: Browser, web_server: ServerProcess) -> None:
    """Tab (and Shift+Tab), the arrow keys and Enter only, from the first turn to the game's end, with the focus
    shown by a ring at every step."""
    page = new_page(browser, "laptop")
    try:
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1)
        start_game(page)
        presses = {"Tab": 0, "Shift+Tab": 0, "ArrowRight": 0, "Enter": 0}
        unseen: list[str] = []
        end = time.monotonic() + 240
        while not is_over(page):
            assert time.monotonic() < end, f"the game did not end; keys pressed: {presses}"
            if page.locator(".table-root.busy").count() or not page.evaluate(
                "document.querySelector('[data-region=prompt]')?.classList.contains('mine') && "
                "!!document.querySelector('.choices button[data-action], .hand-card.playable')"
            ):
                page.wait_for_timeout(60)
                continue
            playable = page.locator(".hand-card.playable").count() > 0
            colours = page.locator(".choices .color-choice").count() > 0
            target = ".choices .color-choice" if colours else ".hand-card.playable" if playable else ".choices button"
            if page.evaluate(f"!!document.activeElement?.matches({json.dumps(target)})"):
                key = "Enter"
            elif target == ".hand-card.playable" and page.evaluate("!!document.activeElement?.matches('.hand-card')"):
                key = "ArrowRight"
            else:  # towards the target: back when it comes before the focus in the page
                before = (
                    f"(() => {{ const t = document.querySelector({json.dumps(target)});"
                    " const a = document.activeElement;"
                    " return !!(t && a && a !== document.body && (t.compareDocumentPosition(a) & 4)); })()"
                )
                key = "Shift+Tab" if page.evaluate(before) else "Tab"
            page.keyboard.press(key)
            presses[key] += 1
            problem = page.evaluate(FOCUS_SHOWN)
            if problem:
                unseen.append(problem)
            page.wait_for_timeout(30)
    finally:
        page.context.close()
    assert presses["Enter"] >= 3, presses
    assert unseen == []
