"""Whole games in the browser: two people (two browser contexts) and two bots finish a game of
every variant through the pages alone, each variant on one of the five screens the table is made
for (every screen gets at least one variant; ``make test-all`` plays every variant on every
screen), with the layout checked on every page after every action (``layout.js``); a spectator's
page never shows a hidden card; a reload in the middle of a game puts the player back in their
seat with their hand; the record of the finished game downloads and verifies. (Its replay on the
table is test_browser_screens.py's.)"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from unokit.core.variants import VARIANT_NAMES
from unokit.record import GameRecord, verify

from ..server.support import ServerProcess, free_port, leaks
from .player import (
    VIEWPORTS,
    YOUR_TURN,
    Clicker,
    create_room,
    hand,
    is_over,
    join_room,
    layout_problems,
    new_page,
    play_to_the_end,
    start_game,
    until_your_turn,
    wait_for,
    wait_until,
    watch_room,
)

#: True once the waiting room lists a player called NAME.
SEATED = "[...document.querySelectorAll('.waiting > ol.seat-list li')].some(li => li.textContent.includes('NAME'))"

#: The game step a page shows (null before the table is drawn), and whether a dialog is over it.
STEP = """() => {
  const root = document.querySelector('.table-root[data-step]');
  return [root ? root.dataset.step : null, document.querySelectorAll('.overlay').length];
}"""

#: The spectator's page as drawn, with the game step it shows (read at once, so they agree).
SNAPSHOT = """() => {
  const root = document.querySelector('.table-root[data-step]');
  return [root ? root.dataset.step : null, document.documentElement.outerHTML];
}"""


def _pages(browser: Browser, count: int, screen: str = "laptop", **context: Any) -> list[Page]:
    return [new_page(browser, screen, **context) for _ in range(count)]


#: The screen each variant is played on in ``make test``: every variant once, every screen at
#: least once.
SCREEN_OF = dict(zip(VARIANT_NAMES, [*VIEWPORTS, *VIEWPORTS], strict=False))
#: Every variant on every screen: the pairs beyond SCREEN_OF run under ``make test-all``.
MATRIX = [
    pytest.param(variant, screen, marks=() if SCREEN_OF[variant] == screen else pytest.mark.matrix)
    for variant in VARIANT_NAMES
    for screen in VIEWPORTS
]


def _close(pages: list[Page]) -> None:
    for page in pages:
        page.context.close()


def _waits_for(page: Page) -> bool:
    """The page offers its player a decision (a turn, a challenge, a colour, ...) and no request
    of theirs is on its way."""
    return (
        not is_over(page)
        and page.locator(".table-root.busy").count() == 0
        and page.locator(".choices [data-action], .hand-card.playable").count() > 0
    )


def _download_record(page: Page, folder: Path) -> str:
    with page.expect_download() as download:
        page.click("a:has-text('Download the record')")
    path = folder / "record.json"
    download.value.save_as(path)
    return path.read_text(encoding="utf-8")


def test_every_screen_gets_a_variant() -> None:
    assert set(SCREEN_OF) == set(VARIANT_NAMES) and set(SCREEN_OF.values()) == set(VIEWPORTS)


@pytest.mark.parametrize(("variant", "screen"), MATRIX)
def test_two_people_and_two_bots_finish_a_game(
    browser: Browser, web_server: ServerProcess, variant: str, screen: str, tmp_path: Path
) -> None:
    # Reduced motion: the layout is checked at every state once its animations are over, so each
    # check first waited out up to 400 ms of motion in three pages, and the motion drew frames on
    # a loaded machine's cores; the settled table is the same. (Whole games with motion: the
    # access, language, offline and CSP tests; the motion itself: test_browser_table.py.)
    ann, bo, watcher = _pages(browser, 3, screen, reduced_motion="reduce")
    errors: list[str] = []
    for page in (ann, bo, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # Heuristic bots: random bots make a hand of the Attack variants last hundreds of turns
        # (3,325 on average in 4-seat Attack by `unokit sim`, 70 with heuristic bots).
        code = create_room(ann, web_server.url, name="Ann", variant=variant, bot="heuristic")
        join_room(bo, web_server.url, code, "Bo")
        watch_room(watcher, web_server.url, code)
        wait_until(ann, SEATED.replace("NAME", "Bo"))
        start_game(ann)
        wait_for(bo, ".hand-card")
        wait_for(watcher, ".table-root .table")

        snapshots: list[tuple[int, str]] = []
        reloaded: list[tuple[list[str], list[str]]] = []
        problems: set[str] = set()
        clickers = [Clicker(ann), Clicker(bo, paused=True)]

        drawn: list[object] = []  # the pages' steps when they were last looked at

        def look(force: bool = False) -> None:
            # Every page as its person sees it, after every action (once per change of a page).
            steps = [page.evaluate(STEP) for page in (ann, bo, watcher)]
            if force or steps != drawn:
                drawn[:] = steps
                for name, page in (("Ann", ann), ("Bo", bo), ("the spectator", watcher)):
                    problems.update(f"{name}: {problem}" for problem in layout_problems(page))
                # The spectator's page, as drawn, at its game step.
                step, html = watcher.evaluate(SNAPSHOT)
                if step is not None and (not snapshots or snapshots[-1][0] != int(step)):
                    assert watcher.locator(".hand-card, [data-card]").count() == 0
                    snapshots.append((int(step), html))
            # Bo holds back until the game waits for Bo; then Bo's page is reloaded.
            if not reloaded and _waits_for(bo):
                step, before = bo.get_attribute(".table-root", "data-step"), sorted(hand(bo))
                bo.reload()
                wait_for(bo, ".hand-card")
                if bo.get_attribute(".table-root", "data-step") == step:  # nobody moved meanwhile
                    reloaded.append((before, sorted(hand(bo))))
                    clickers[1].paused = False

        play_to_the_end(clickers, on_idle=look)
        assert is_over(ann) and is_over(bo)
        wait_for(watcher, ".overlay .game-over")
        look(force=True)
        assert sorted(problems) == [], "\n".join(sorted(problems))
        # The winner's page says "You won!"; the others name the winner.
        winners = [page for page in (ann, bo) if page.locator(".overlay.winner").count()]
        for page in (ann, bo):
            title = page.locator(".overlay .game-over").inner_text()
            assert (title == "You won!") if page in winners else ("won" in title), title
        # Both people really played: each took decisions through the page.
        assert len(clickers[0].clicked) >= 1 and len(clickers[1].clicked) >= 1
        # The game's end ranks every seat; "The last round" opens the scores, where the last
        # round's summary lists every seat with its cards' points.
        assert ann.locator(".overlay .final-scores li").count() == 4
        ann.click(".overlay .last-round")
        wait_until(ann, "document.querySelector('#tab-scores').getAttribute('aria-selected') === 'true'")
        assert ann.locator("#panel-scores table.summary tbody tr").count() == 4
        ann.evaluate("document.querySelector('.close-drawer').click()")  # docked at a desk: no harm

        # A reload mid-game gave Bo the same seat and the same hand.
        assert reloaded, "Bo's page was never reloaded while the game waited for Bo"
        before, after = reloaded[0]
        assert before == after and before
        # The spectator never saw a card hidden from it.
        record_text = _download_record(ann, tmp_path)
        assert verify(GameRecord.loads(record_text)).ok
        game_no = GameRecord.loads(record_text).meta["game"]
        messages = [
            {"type": "state", "game_step": step, "room": {"game_no": game_no}, "page": html} for step, html in snapshots
        ]
        assert len(snapshots) >= 5
        assert leaks(messages, record_text, None) == []
        assert errors == []
    finally:
        _close([ann, bo, watcher])


def test_a_reload_in_the_middle_of_a_game_restores_the_seat(browser: Browser, web_server: ServerProcess) -> None:
    (ann,) = _pages(browser, 1)
    try:
        create_room(ann, web_server.url, name="Ann", variant="flip", players=3, bots=2, rounds=None)
        start_game(ann)
        clicker = Clicker(ann)
        # A few decisions into the hand, then stop at a turn of Ann's (whatever other decision,
        # a challenge or a catch, comes first is taken too).
        deadline = time.monotonic() + 120
        while len(clicker.clicked) < 4 or not (ann.evaluate(YOUR_TURN) and _waits_for(ann)):
            assert time.monotonic() < deadline, f"no turn of Ann's came; clicked {clicker.clicked}"
            assert not is_over(ann), "the hand ended before the reload"
            if not clicker.step():
                ann.wait_for_timeout(30)
        step, before = ann.get_attribute(".table-root", "data-step"), sorted(hand(ann))
        seat = ann.evaluate("localStorage.getItem('unokit.seat.' + location.pathname.split('/')[2])")
        ann.reload()
        wait_for(ann, ".hand-card")
        assert ann.get_attribute(".table-root", "data-step") == step  # the game waited for Ann
        assert sorted(hand(ann)) == before
        assert ann.evaluate("localStorage.getItem('unokit.seat.' + location.pathname.split('/')[2])") == seat
        assert ann.locator(".seat[data-seat='0']").count() == 0  # the hand at the bottom is seat 0's
    finally:
        _close([ann])


def test_a_dropped_connection_comes_back_to_the_seat(browser: Browser, tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", free_port()).start()
    (ann,) = _pages(browser, 1)
    try:
        create_room(ann, server.url, name="Ann", variant="attack", players=2, bots=1, rounds=None)
        start_game(ann)
        until_your_turn(ann)
        before = sorted(hand(ann))
        server.kill()  # every connection drops at once
        wait_until(ann, "document.querySelector('#status').dataset.state === 'lost'")
        server.start()
        wait_until(ann, "document.querySelector('#status').dataset.state === 'connected'", timeout=30)
        wait_until(ann, YOUR_TURN)
        assert sorted(hand(ann)) == before
        # And the seat still plays.
        clicker = Clicker(ann)
        assert clicker.step()
    finally:
        _close([ann])
        server.stop()


def test_a_double_click_acts_once(browser: Browser, web_server: ServerProcess) -> None:
    (ann,) = _pages(browser, 1)
    try:
        create_room(ann, web_server.url, name="Ann", variant="classic", players=2, bots=1, rounds=None)
        start_game(ann)
        until_your_turn(ann)
        sent: list[str] = []
        ann.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
        # A fresh socket so that its frames are seen: reload, then double-click the draw button.
        ann.reload()
        wait_until(ann, YOUR_TURN)
        # The second click of a double-click acts on nothing, however fast the server answered the
        # first: here it comes alone, as when the answer put another button under the pointer.
        ann.locator("[data-verb='draw']").dispatch_event("click", {"detail": 2})
        ann.wait_for_timeout(300)
        assert not [frame for frame in sent if '"action"' in frame]
        ann.dblclick("[data-verb='draw']")
        ann.wait_for_timeout(500)
        actions = [json.loads(frame) for frame in sent if '"type": "action"' in frame or '"type":"action"' in frame]
        assert len(actions) == 1
        assert actions[0]["action"] == "draw"
    finally:
        _close([ann])
