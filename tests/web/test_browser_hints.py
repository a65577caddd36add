"""Hints at a room's table (``docs/review.md``, "Hints"): against bots the page offers a hint at
your decision, shows the engine's choice and your chance, and the game's record marks it (the
review then says ``hint used``); in a room of people whose host did not allow them there is no
hint button, and the server refuses a hint asked for anyway."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, Page

from unokit.record import GameRecord
from unokit.record.hints import read_hints
from unokit.server.client import RoomClient, ServerError, create_room, download_record

from ..server.support import FAST, ServerProcess
from .player import (
    YOUR_TURN,
    Clicker,
    join_as_host,
    join_room,
    new_page,
    play_to_the_end,
    until_your_turn,
    wait_for,
    wait_until,
)

#: Where the screenshot goes (``UNOKIT_SHOTS`` to keep it).
SHOTS = os.environ.get("UNOKIT_SHOTS")
HINT_SHOWN = "document.querySelector('[data-region=prompt] .message')?.textContent.startsWith('Hint: ')"


def test_a_hint_against_bots_is_shown_and_marked_in_the_record(browser: Browser, web_server: ServerProcess) -> None:
    page = new_page(browser, "phone")
    try:
        room = create_room(web_server.url, "classic", 2, {"rounds": 1}, FAST, bots=["random"])
        join_as_host(page, web_server.url, room)
        page.click("#start-game")
        clicker = Clicker(page)
        until_your_turn(page)
        while page.locator("#hint-button").count() == 0:  # a turn with one choice has no hint
            clicker.step()
            until_your_turn(page)
        step = int(page.get_attribute(".table-root", "data-step") or "-1")
        page.click("#hint-button")
        wait_until(page, HINT_SHOWN, timeout=120)
        assert "%" in page.locator("[data-region=prompt] .message").inner_text()
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/hint-390.png")
        assert page.locator("#hint-button").count() == 0  # shown once per decision
        play_to_the_end([clicker])
        record = GameRecord.loads(download_record(web_server.url, room["room"], 1))
        marks = read_hints(record)
        assert [(m.step, m.seat) for m in marks] == [(step, 0)]
    finally:
        page.context.close()


#: A decision is the page's reader's: a turn, or another (the first card a Wild: its colour).
YOUR_DECISION = "Boolean(document.querySelector('[data-region=prompt]')?.dataset.decision)"


def _whose_turn(*pages: Page, seconds: float = 30.0) -> Page:
    """The page whose player has the decision, waiting up to ``seconds`` for one to show it."""
    for _ in range(int(seconds * 10)):
        for page in pages:
            if page.evaluate(YOUR_DECISION):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("no page showed its player's turn")


def test_no_hint_button_in_a_room_of_people_that_does_not_allow_them(
    browser: Browser, web_server: ServerProcess
) -> None:
    ann, ben = new_page(browser, "laptop"), new_page(browser, "laptop")
    try:
        room = create_room(web_server.url, "classic", 2, {"rounds": 1}, FAST)
        join_as_host(ann, web_server.url, room)
        join_room(ben, web_server.url, room["room"], "Ben")
        ann.click("#start-game")
        wait_until(ann, f"({YOUR_TURN}) || document.querySelector('.table-root[data-game]')", timeout=30)
        for page in (ann, ben):
            wait_for(page, "[data-region=prompt]")
        # Whose turn it is shows on one page or the other once both have the first state.
        turn = _whose_turn(ann, ben)
        assert turn.locator("#hint-button").count() == 0
        assert ann.locator("#hint-button").count() == 0 and ben.locator("#hint-button").count() == 0

        # Asked for anyway, with Ann's own seat token, the server refuses.
        code = room["room"]
        token = ann.evaluate(f"JSON.parse(localStorage.getItem('unokit.seat.{code}')).token")

        async def ask_anyway() -> str:
            async with await RoomClient.join(web_server.url, code, token=token) as again:
                try:
                    await again.request({"type": "hint", "token": token})
                except ServerError as exc:
                    return exc.code
                return "answered"

        with ThreadPoolExecutor(1) as thread:  # away from the browser's own event loop
            assert thread.submit(asyncio.run, ask_anyway()).result() == "no_hints"
    finally:
        ann.context.close()
        ben.context.close()
