"""axe-core's WCAG 2.0/2.1/2.2 A and AA rules on every page of the browser client, in several
languages and on several screens (docs/accessibility.md). The rest of the accessibility checks
(the accessibility tree, the keyboard, text mode): ``test_browser_access.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from ..server.support import ServerProcess
from .axe import violations
from .player import (
    FAST_TIMERS,
    Clicker,
    close_drawer,
    create_room,
    new_page,
    open_drawer,
    play_to_the_end,
    start_game,
    until_your_turn,
    wait_for,
    wait_until,
)

#: make test: English on a phone and Russian at a desk; make test-all: both on every size.
AXE_CASES = [
    pytest.param("phone", "en"),
    pytest.param("laptop", "ru"),
    pytest.param("phone", "ru", marks=pytest.mark.matrix),
    pytest.param("laptop", "en", marks=pytest.mark.matrix),
    pytest.param("phone-landscape", "en", marks=pytest.mark.matrix),
    pytest.param("tablet", "ru", marks=pytest.mark.matrix),
    # The languages of issue 54: Chinese on a phone, Turkish at a desk; the rest on top.
    pytest.param("phone", "zh-Hans"),
    pytest.param("laptop", "tr"),
    pytest.param("laptop", "zh-Hans", marks=pytest.mark.matrix),
    pytest.param("phone", "tr", marks=pytest.mark.matrix),
    pytest.param("phone", "pt-BR", marks=pytest.mark.matrix),
    pytest.param("laptop", "it", marks=pytest.mark.matrix),
]


@pytest.mark.parametrize(("screen", "lang"), AXE_CASES)
def test_axe_finds_nothing_on_any_page(browser: Browser, web_server: ServerProcess, screen: str, lang: str) -> None:
    """The lobby, the waiting room, the invite, the table at a decision, the help, the chat, the
    round's summary between hands, the game-over screen, My games, the replay, the score sheet
    and the launcher."""
    page = new_page(browser, screen, locale=lang)
    guest = new_page(browser, screen, locale=lang)
    found: list[str] = []
    try:
        page.goto(f"{web_server.url}/?lang={lang}")
        wait_for(page, "#create-room")
        found += violations(page, "lobby")
        # two hands, and a long pause between them: the round's summary stays until it is checked
        timers = {**FAST_TIMERS, "hand_pause_seconds": "600"}
        code = create_room(
            page,
            web_server.url,
            name="Ann",
            variant="flip",
            players=2,
            bots=1,
            bot="heuristic",
            rounds=2,
            timers=timers,
        )
        found += violations(page, "waiting room")
        guest.goto(f"{web_server.url}/r/{code}?lang={lang}")
        wait_for(guest, "#join-form")
        found += violations(guest, "invite")
        start_game(page)
        until_your_turn(page)
        found += violations(page, "table at a turn")
        page.click("[data-command=help]")
        wait_for(page, "dialog#help[open] .rules-text p")
        found += violations(page, "help")
        page.keyboard.press("Escape")
        wait_until(page, "!document.querySelector('dialog#help[open]')")
        open_drawer(page, "room")
        found += violations(page, "drawer: room and chat")
        open_drawer(page, "log")
        found += violations(page, "drawer: log")
        close_drawer(page)
        summaries: list[str] = []

        def between_hands() -> None:
            """At the round's summary (the first hand's end): check it, then deal the next hand."""
            if page.locator(".summary-panel [data-verb=host-continue]").count():
                summaries.append("seen")
                found.extend(violations(page, "round summary"))
                page.click(".summary-panel [data-verb=host-continue]")
                wait_for(page, ".summary-panel", state="detached")

        play_to_the_end([Clicker(page)], timeout=240, on_idle=between_hands)
        assert summaries == ["seen"]
        found += violations(page, "game over")
        for route in ("#/games", "#/sheet", "#/launcher"):
            page.goto(f"{web_server.url}/{route}")
            wait_for(page, "main h1, main h2")
            found += violations(page, route)
        page.goto(f"{web_server.url}/#/replay/{code}/1")
        wait_for(page, ".table-root .table")
        found += violations(page, "replay")
    finally:
        page.context.close()
        guest.context.close()
    assert found == [], "\n".join(found)
