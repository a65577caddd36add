"""Playing together in the browser: two people and a spectator chat (spectators apart during the
game, a reaction over the sender's seat, a muted seat refused, markup shown as text, a flood
refused), a public room found in the lobby and joined while a private one is never listed, play
now filled with bots, play again by a non-host with a leaver's seat, the chat and the ready marks
back after ``kill -9``, and "My games" with a record that ``unokit verify`` accepts."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from playwright.sync_api import Browser, Page

from unokit.server.client import create_room as create_room_over_http

from ..server.support import UNOKIT, ServerProcess, free_port
from .player import (
    FAST_TIMERS,
    VIEWPORTS,
    create_room,
    join_room,
    layout_problems,
    open_drawer,
    resized,
    start_game,
    wait_for,
    wait_until,
    watch_room,
    watched,
)

#: The texts of the chat as the page shows them, oldest first.
CHAT_LINES = "() => [...document.querySelectorAll('[data-region=chat] .chat-line')].map(li => li.textContent)"
#: Elements that markup in a chat line would have made.
MADE_BY_MARKUP = "document.querySelectorAll('[data-region=chat] img, [data-region=chat] script').length"
#: Room timers where a player who does not act is played by the stand-in bot after 0.3 s, so
#: that games finish by themselves.
STAND_IN_TIMERS = {**FAST_TIMERS, "turn_seconds": "0.3"}
HOSTILE = ['<img src=x onerror="window.pwned=1">', '"><script>window.pwned=2</script>']


def _pages(browser: Browser, count: int) -> list[Page]:
    pages = [watched(browser.new_context(viewport={"width": 1280, "height": 800})).new_page() for _ in range(count)]
    return pages


def _close(pages: list[Page]) -> None:
    for page in pages:
        page.context.close()


def _say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


def _lines(page: Page) -> list[str]:
    return [str(line) for line in page.evaluate(CHAT_LINES)]


def _shows(page: Page, text: str) -> None:
    """Wait until a line of the page's chat ends with ``text``."""
    wait_until(page, f"({CHAT_LINES})().some(line => line.endsWith({json.dumps(text)}))")


def test_two_players_and_a_spectator_chat(browser: Browser, web_server: ServerProcess) -> None:
    ann, ben = _pages(browser, 2)
    phone = watched(browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True))
    wes = phone.new_page()  # the spectator watches on a phone, where the chat waits in the drawer
    errors: list[str] = []
    for page in (ann, ben, wes):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        code = create_room(ann, web_server.url, name="Ann", variant="classic", players=3, bots=1)
        join_room(ben, web_server.url, code, "Ben")
        watch_room(wes, web_server.url, code)
        assert ann.locator('[data-region="chat"] #chat-text').count() == 1  # the text field is in the region
        _say(ann, "hi Ben")
        _shows(ben, "Ann: hi Ben")
        _say(ben, "hi Ann")
        for text in HOSTILE:
            _say(ben, text)
        for page in (ann, ben, wes):
            _shows(page, HOSTILE[-1])
            assert _lines(page)[-2:] == [f"Ben: {text}" for text in HOSTILE]  # shown as the text it is
            assert page.evaluate(MADE_BY_MARKUP) == 0 and page.evaluate("window.pwned") is None
        # during the game the spectator's chat stays with the spectators
        start_game(ann)
        wait_for(wes, ".table-root .table")
        _say(ann, "here we go")  # the phone's drawer is closed: its button counts the new line
        wait_for(wes, "[data-toggles='drawer'] .chat-unread[data-count='1']")
        wes.click("[data-toggles='drawer']")
        wait_for(wes, "[data-toggles='drawer'] .chat-unread", state="detached")
        _say(wes, "psst: Ann holds the reds")
        _shows(wes, "psst: Ann holds the reds")
        _say(ann, "good luck")
        for page in (ann, ben):
            _shows(page, "Ann: good luck")  # written after the spectator's line
            assert not any("psst" in line for line in _lines(page))
        # a reaction floats over its sender's seat
        wait_for(ben, '.table-root .seat[data-seat="0"]')
        ann.click('[data-reaction="uno"]')
        wait_for(ben, '.reaction-float[data-seat="0"]')
        seat_box = ben.locator('.table-root .seat[data-seat="0"]').bounding_box()
        bubble_box = ben.locator('.reaction-float[data-seat="0"]').first.bounding_box()
        assert seat_box is not None and bubble_box is not None
        centre = bubble_box["x"] + bubble_box["width"] / 2
        assert seat_box["x"] <= centre <= seat_box["x"] + seat_box["width"]
        assert seat_box["y"] - bubble_box["height"] - 40 <= bubble_box["y"] <= seat_box["y"] + seat_box["height"]
        _shows(wes, "Ann: ⚡ UNO!")
        # the reactions are a tap away at the table too: they open over the hand, one tap sends one
        ben.click(".react-toggle")
        ben.click('.react-pop [data-reaction="nice"]')
        wait_for(ann, '.reaction-float[data-seat="1"]')
        _shows(ann, "Ben: ★ Nice one!")
        assert ben.locator(".react-pop").count() == 0
        ben.click(".react-toggle")  # opened again, a tap elsewhere closes them and still does its work
        wait_for(ben, ".react-pop")
        sorted_by = ben.get_attribute("button.sort", "aria-label")
        ben.click("button.sort")
        wait_until(ben, "!document.querySelector('.react-pop')")
        assert ben.get_attribute("button.sort", "aria-label") != sorted_by
        ben.click(".react-toggle")  # and Esc closes them, the focus back on their button
        wait_for(ben, ".react-pop")
        ben.keyboard.press("Escape")
        wait_until(ben, "!document.querySelector('.react-pop') && document.activeElement.matches('.react-toggle')")
        # the host mutes Ben: his field and his reactions are off, and a message he forces through is refused
        ann.click("#tab-room")  # the drawer's room tab holds the host's controls
        ann.click('[data-verb="mute"][data-seat="1"]')
        wait_until(ben, "document.querySelector('#chat-text').disabled")
        wait_until(ben, "document.querySelector('.react-toggle').disabled")
        ben.evaluate(
            "() => { const f = document.querySelector('#chat-text'); f.disabled = false; f.value = 'let me speak'; }"
        )
        ben.click("#chat-send", force=True)
        wait_until(ben, "document.querySelector('.chat-note').textContent.includes('muted')")
        _say(ann, "quiet now")
        _shows(ben, "Ann: quiet now")
        assert not any("let me speak" in line for line in _lines(ann))
        # a reader may hide either channel
        wes.uncheck("#chat-show-players")
        assert not wes.locator(".chat-line.from-players").first.is_visible()
        assert wes.locator(".chat-line.from-spectators").first.is_visible()
        # a flood is refused past the seat's rate (5 at once, 1 a second on this server)
        before = len([line for line in _lines(ben) if line.startswith("Ann: spam")])
        started = time.monotonic()
        ann.evaluate(
            """() => { const f = document.querySelector('#chat-text'), b = document.querySelector('#chat-send');
                       for (let i = 0; i < 30; i++) { f.value = `spam ${i}`; b.click(); } }"""
        )
        wait_until(ann, "document.querySelector('.chat-note').textContent.includes('too many')")
        ben.wait_for_timeout(500)
        elapsed = time.monotonic() - started
        sent = len([line for line in _lines(ben) if line.startswith("Ann: spam")]) - before
        assert 0 < sent <= 5 + elapsed + 1
        assert errors == []
    finally:
        _close([ann, ben, wes])


def test_a_public_room_is_found_in_the_lobby_a_private_one_never_and_play_now_fills_with_bots(
    browser: Browser, web_server: ServerProcess
) -> None:
    ann, ben, dan = _pages(browser, 3)
    try:
        secret = create_room_over_http(web_server.url, "attack", 3)["room"]
        code = create_room(ann, web_server.url, name="Ann", variant="attack", players=3, bots=1, public=True)
        ben.goto(f"{web_server.url}/")
        entry = ben.locator(f'#waiting-rooms li[data-room="{code}"]')
        entry.wait_for()
        assert "host Ann" in entry.inner_text() and "1 open seat" in entry.inner_text()
        assert secret not in ben.inner_text("body")
        entry.locator("a").click()  # its Join link: the room's page and its join form
        ben.fill("#join-name", "Ben")
        ben.click("#join-player")
        wait_until(ann, "document.querySelector('.waiting').textContent.includes('Ben')")
        assert secret not in ben.evaluate("fetch('/api/lobby').then(r => r.text())")
        # play now: nobody waits for a game of UNO Flip Attack, so a room opens and bots fill it
        dan.goto(f"{web_server.url}/")
        dan.fill("#your-name", "Dan")
        dan.select_option("#play-now-variant", "flip_attack")
        dan.click("#play-now")
        wait_for(dan, ".table-root .table", timeout=30000)
        kinds = dan.eval_on_selector_all(".table-root .seat", "seats => seats.map(s => s.dataset.kind)")
        assert kinds == ["bot", "bot", "bot"] and dan.locator(".hand-head .me-name").inner_text() == "Dan"
    finally:
        _close([ann, ben, dan])


def test_play_again_after_kill_9_a_leavers_seat_and_my_games(browser: Browser, tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", free_port()).start()
    ann, ben = _pages(browser, 2)
    try:
        code = create_room(ann, server.url, name="Ann", variant="classic", players=3, bots=1, timers=STAND_IN_TIMERS)
        join_room(ben, server.url, code, "Ben")
        start_game(ann)  # nobody clicks: after 0.3 s the stand-in bots play the game out
        for page in (ann, ben):
            wait_for(page, "#play-again", timeout=60000)
        # Ben, not the host, asks to play again; Ann's page shows it
        ben.click("#play-again")
        wait_for(ann, '.ready-list li[data-seat="1"][data-ready="true"]')
        assert ann.locator('.ready-list li[data-seat="0"]').get_attribute("data-ready") == "false"
        _say(ben, "one more?")
        _shows(ann, "Ben: one more?")
        server.kill()  # kill -9: the chat and the ready mark come back with the room
        wait_until(ann, "['lost', 'reconnecting'].includes(document.querySelector('#status').dataset.state)")
        server.start()
        for page in (ann, ben):
            wait_until(page, "document.querySelector('#status').dataset.state === 'connected'", timeout=30)
            _shows(page, "Ben: one more?")
        wait_for(ann, '.ready-list li[data-seat="1"][data-ready="true"]')
        ann.click("#play-again")  # the last one present: the next game starts
        for page in (ann, ben):
            wait_for(page, '.table-root[data-game="2"]')
            wait_for(page, "#play-again", timeout=60000)
        # Ben leaves instead: Ann plays on, a bot in Ben's seat
        ben.click("#leave-table")
        ben.wait_for_url(f"{server.url}/")
        wait_for(ann, '.ready-list li[data-seat="1"][data-ready="open"]')
        ann.click("#play-again")
        wait_for(ann, '.table-root[data-game="3"]')
        assert ann.get_attribute('.table-root .seat[data-seat="1"]', "data-kind") == "bot"
        # Ben's games: the two he played, each to replay or download
        ben.goto(f"{server.url}/#/games")
        wait_for(ben, "table.games tbody tr")
        rows = ben.locator("table.games tbody tr")
        assert rows.count() == 2
        assert [rows.nth(i).get_attribute("data-game") for i in range(2)] == ["2", "1"]
        with ben.expect_download() as download:
            rows.nth(1).locator("a.download").click()
        path = tmp_path / "record.json"
        download.value.save_as(path)
        verified = subprocess.run([UNOKIT, "verify", str(path)], capture_output=True, text=True, check=False)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        rows.nth(0).locator("a:has-text('Replay')").click()
        wait_for(ben, "#replay-step")
        assert code in ben.locator("h1").inner_text()
        # forgotten, the list is empty
        ben.goto(f"{server.url}/#/games")
        wait_for(ben, "table.games")
        ben.once("dialog", lambda dialog: dialog.accept())
        ben.click("#forget-me")
        wait_for(ben, "p.none")
        assert ben.locator("table.games").count() == 0
    finally:
        _close([ann, ben])
        server.stop()


def _line_of(page: Page, text: str) -> str:
    """The selector of the chat line of ``page`` whose words end with ``text``."""
    number = page.evaluate(
        "(text) => [...document.querySelectorAll('[data-region=chat] .chat-line')]"
        ".find(li => li.textContent.endsWith(text)).dataset.n",
        text,
    )
    return f'[data-region=chat] .chat-line[data-n="{number}"]'


def test_a_reader_mutes_for_themselves_reports_from_the_chat_and_the_server_host_reads_it(
    browser: Browser, tmp_path: Path
) -> None:
    """Moderation over two browsers: Ann opens a line's menu from Ben's name, reports the line,
    mutes Ben for herself (his lines leave her chat, not his own), hears him again from the
    people at the table and reports his name there; ``unokit admin reports`` shows both, with
    the lines around the reported one. In a "play now" room a player quiets the spectators."""
    (tmp_path / "token").write_text("the-admin-token-of-the-browser-test")
    database = f"sqlite:///{tmp_path / 'server.db'}"
    server = ServerProcess(database, free_port(), ["--admin-token-file", str(tmp_path / "token")]).start()
    ann, ben = _pages(browser, 2)
    phone = watched(browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)).new_page()
    try:
        code = create_room(ann, server.url, name="Ann", variant="classic", players=3, bots=1)
        join_room(ben, server.url, code, "Ben")
        for text in ("hello", "you are slow", "really slow"):
            _say(ben, text)
        _shows(ann, "Ben: really slow")
        ann.click(f"{_line_of(ann, 'Ben: you are slow')} button.chat-who")
        ann.click("[data-region=chat] .chat-menu [data-verb=report-line]")
        wait_until(ann, "document.querySelector('.chat-note').textContent.includes('Reported')")
        assert ann.locator("[data-region=chat] .chat-menu").count() == 0  # the menu closes
        ann.click(f"{_line_of(ann, 'Ben: hello')} button.chat-who")
        ann.click("[data-region=chat] .chat-menu [data-verb=mute-for-me]")
        wait_until(ann, f"!({CHAT_LINES})().some(line => line.startsWith('Ben:'))")
        _say(ben, "can you hear me")
        _shows(ben, "Ben: can you hear me")  # his own chat keeps his lines
        _say(ann, "quiet here")
        _shows(ann, "Ann: quiet here")
        assert not any(line.startswith("Ben:") for line in _lines(ann))
        assert "Ben" in ann.inner_text(".chat-muted")
        ann.click(".chat-people summary")
        ann.click('.chat-people li[data-seat="1"] [data-verb=unmute-for-me]')
        _shows(ann, "Ben: can you hear me")
        ann.click('.chat-people li[data-seat="1"] [data-verb=report-name]')
        wait_until(ann, "document.querySelector('.chat-note').textContent.includes('Reported')")
        assert layout_problems(ann) == []
        # "play now": no host; a player quiets the spectators, whose field goes off
        ben.goto(f"{server.url}/")
        ben.fill("#your-name", "Ben")
        ben.select_option("#play-now-variant", "flip")
        ben.click("#play-now")
        ben.wait_for_url("**/r/*")
        quiet_room = ben.url.rsplit("/", 1)[-1]
        watch_room(phone, server.url, quiet_room)
        ben.click(".chat-people summary")
        ben.click("[data-verb=quiet-spectators]")
        wait_until(phone, "document.querySelector('#chat-text').disabled")
        ben.click("[data-verb=let-spectators-talk]")
        wait_until(phone, "!document.querySelector('#chat-text').disabled")
    finally:
        _close([ann, ben, phone])
        server.stop()
    listed = subprocess.run(
        [UNOKIT, "admin", "--database", database, "reports", "--json"], capture_output=True, text=True, check=False
    )
    reports = json.loads(listed.stdout)["reports"]
    assert [(r["kind"], r["name"], r["room"]) for r in reports] == [("name", "Ben", code), ("chat", "Ben", code)]
    assert [line["text"] for line in reports[1]["lines"]] == ["hello", "you are slow", "really slow"]
    assert reports[0]["reported"] == reports[1]["reported"] is not None  # Ben's identity, both times


#: Each chat line of the page whose box is not wholly inside the chat's scrolling box.
LINES_CUT = """() => {
  const log = document.querySelector('[data-region=chat] .chat-log').getBoundingClientRect();
  return [...document.querySelectorAll('[data-region=chat] .chat-line')]
    .filter((li) => { const r = li.getBoundingClientRect(); return r.top < log.top - 1 || r.bottom > log.bottom + 1; })
    .map((li) => li.textContent);
}"""
#: Each button of the open chat menu that a finger cannot press at its middle (another element
#: is drawn there, or it is outside the screen).
MENU_UNREACHABLE = """() => [...document.querySelectorAll('[data-region=chat] .chat-menu button')].filter((b) => {
  const r = b.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return true;
  const top = document.elementFromPoint(x, y);
  return !(top === b || b.contains(top));
}).map((b) => b.textContent)"""


def test_the_chat_in_a_phones_drawer_shows_its_lines_and_its_menu_can_be_pressed(
    browser: Browser, web_server: ServerProcess
) -> None:
    """At the table on a phone the chat waits in the drawer: five short lines are shown whole
    (the lines once had a box of two under the reactions), and a line's menu (mute for me,
    report) can be pressed in every button, upright and sideways (it was cut off at 390)."""
    ann = watched(
        browser.new_context(viewport=VIEWPORTS["phone"], is_mobile=True, has_touch=True, reduced_motion="reduce")
    ).new_page()
    ben = _pages(browser, 1)[0]
    try:
        code = create_room(ann, web_server.url, name="Ann", variant="classic", players=3, bots=1)
        join_room(ben, web_server.url, code, "Ben")
        start_game(ann)
        for text in ("hello", "you are slow", "really slow", "come on", "ok then"):
            _say(ben, text)
        open_drawer(ann, "log")
        _shows(ann, "Ben: ok then")
        assert ann.evaluate(LINES_CUT) == []
        for size in (VIEWPORTS["phone"], VIEWPORTS["phone-landscape"]):
            resized(ann, size)
            ann.click(f"{_line_of(ann, 'Ben: you are slow')} button.chat-who")
            wait_for(ann, "[data-region=chat] .chat-menu")
            assert ann.evaluate(MENU_UNREACHABLE) == [], size
            assert layout_problems(ann) == [], size
            ann.click(f"{_line_of(ann, 'Ben: you are slow')} button.chat-who")  # closed again
            wait_for(ann, "[data-region=chat] .chat-menu", state="detached")
        ann.click(f"{_line_of(ann, 'Ben: hello')} button.chat-who")
        ann.click("[data-region=chat] .chat-menu [data-verb=mute-for-me]")
        wait_until(ann, f"!({CHAT_LINES})().some(line => line.startsWith('Ben:'))")
    finally:
        _close([ann, ben])
