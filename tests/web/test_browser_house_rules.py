"""The house rules in the browser: the lobby offers them (read from the engine's catalogue), a
room created with them plays them, and a game with Jump-In, Seven-O, progressive stacking and
partners finishes through the page (H-1, H-2, H-3, H-6)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser

from unokit.record import GameRecord, Replay, verify
from unokit.server.client import RoomClient, ServerError

from ..server.support import ServerProcess
from .player import FAST_TIMERS, Clicker, create_room, is_over, play_to_the_end, start_game, wait_until, watched

HOUSE: dict[str, bool | str] = {"jump_in": True, "seven_o": True, "teams": True, "stacking": "progressive"}


def _get(server: ServerProcess, path: str) -> str:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return str(response.read().decode("utf-8"))


def test_the_lobby_offers_the_house_rules_and_a_game_plays_them(browser: Browser, web_server: ServerProcess) -> None:
    page = watched(browser.new_context(viewport={"width": 1280, "height": 800})).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{web_server.url}/")
        page.select_option("#variant", "attack")
        assert page.locator("#opt-jump_in").get_attribute("type") == "checkbox"
        assert page.locator("#opt-draw_until_playable").count() == 0  # no drawn card to play in Attack
        page.select_option("#variant", "classic")
        for name in ("jump_in", "seven_o", "draw_until_playable", "force_play", "teams"):
            assert not page.locator(f"#opt-{name}").is_checked(), name  # off by default
        readings = page.eval_on_selector_all("#opt-stacking option", "os => os.map(o => o.value)")
        assert readings == ["false", "same", "progressive", "mixed"]
        assert page.locator("#opt-stacking").input_value() == "false"

        code = create_room(page, web_server.url, name="Ann", variant="classic", players=4, bots=3, options=HOUSE)
        options = json.loads(_get(web_server, f"/api/rooms/{code}"))["options"]
        assert {k: options[k] for k in HOUSE} == HOUSE
        assert "draw_until_playable" not in options  # left off, so not sent
        start_game(page)
        clicker = Clicker(page)
        play_to_the_end([clicker])
        assert is_over(page)
        record = GameRecord.loads(_get(web_server, f"/api/rooms/{code}/records/1"))
        assert verify(record).ok
        assert record.result is not None and record.result.team_scores is not None
        replay = Replay(record)
        jumps = [e for s in range(1, len(replay) + 1) for e in replay.events_at(s) if e["type"] == "jump_in"]
        # Ann's jumps came from the page's jump buttons (their action texts start with "play ").
        clicked_jumps = [label for label in clicker.clicked if label.startswith("play ")]
        assert len([j for j in jumps if j["seat"] == 0]) <= len(clicked_jumps)
        assert errors == []
    finally:
        page.context.close()


def _close(server: ServerProcess, code: str, host_token: str) -> None:
    """Close a room that is still being played (its bots would play on), as its host."""

    async def close() -> None:
        client = await RoomClient.join(server.url, code, role="spectator")
        for _ in range(10):
            try:
                await client.host("close", host_token)
                break
            except ServerError as exc:  # a bot moved first
                assert exc.code == "stale", exc
        else:
            raise AssertionError(f"room {code} could not be closed")
        await client.close()

    with ThreadPoolExecutor(1) as worker:  # Playwright's own event loop runs in this thread
        worker.submit(asyncio.run, close()).result()


def test_a_jump_in_from_the_page_lands_while_jump_seconds_hold_the_next_move(
    browser: Browser, web_server: ServerProcess
) -> None:
    """A person jumps in by clicking the page's jump button (H-1). The room holds the next move
    for ``jump_seconds`` after every card that may be jumped on, so the button stays long enough
    to be clicked even though the bots answer at once. Ann draws whenever she may, so that her
    hand soon holds a card identical to another's; random bots never jump, so her click is the
    only one."""
    page = watched(browser.new_context(viewport={"width": 1280, "height": 800})).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        timers = {**FAST_TIMERS, "jump_seconds": "1"}
        code = create_room(
            page,
            web_server.url,
            name="Ann",
            variant="classic",
            players=6,
            bots=5,
            rounds=None,  # hands go on until a jump comes, however long the first one lasts
            options={"jump_in": True},
            timers=timers,
        )
        assert json.loads(_get(web_server, f"/api/rooms/{code}"))["settings"]["jump_seconds"] == 1.0
        start_game(page)
        clicker = Clicker(page)
        jump = ".choices [data-verb='jump']"
        end = time.monotonic() + 200  # a jump is offered every 15 s or so
        jumped = False  # (a play of Ann's own turn, when she may not draw, is not a jump)
        while not jumped:
            assert time.monotonic() < end and not is_over(page), "no jump was offered and clicked"
            jumped = clicker.click(jump)
            if not jumped and not clicker.click(".choices [data-action='draw'], .choices [data-action='keep']"):
                clicker.step()
            page.wait_for_timeout(30)
        wait_until(
            page, "[...document.querySelectorAll('ol.log li')].some(li => li.textContent.includes('jumped in on'))"
        )
        lines = page.eval_on_selector_all("ol.log li", "items => items.map(li => li.textContent)")
        assert any(line.startswith(("Ann jumps in on", "You jump")) for line in lines), lines[-10:]
        assert errors == []
        _close(web_server, code, page.evaluate(f"localStorage.getItem('unokit.host.{code}')"))
    finally:
        page.context.close()


def test_the_catalogue_lists_the_house_rules_of_each_variant(web_server: ServerProcess) -> None:
    catalog = json.loads(_get(web_server, "/api/catalog"))
    for name, entry in catalog["variants"].items():
        options = {o["name"]: o for o in entry["options"]}
        for rule in ("jump_in", "seven_o", "teams"):
            assert options[rule]["kind"] == "bool" and options[rule]["default"] is False, (name, rule)
        stacking = options["stacking"]
        assert stacking["kind"] == "choice" and stacking["default"] is False
        assert stacking["choices"] == ["false", "same", "progressive", "mixed"]
        assert ("draw_until_playable" in options) == (not entry["uses_launcher"])
