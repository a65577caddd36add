"""The table as a person holding a phone either way sees it: the end screens show every row and
button without scrolling on every screen with 2, 4 and 6 players (Play again first); the last
move is said in words by the piles, in the page's language, and the log stays whole across a
reload, a dropped connection and a change of language; seats stay apart and whole with up to
10 players in the Flip variants, upright and sideways; Play now is near the top of a phone's
lobby and its room counts the bots down, with no host to wait for and bots of a level; and a
finished game replays on the table itself, on a phone and at a desk. (Whole games on every
screen, with the layout checked after every action, are in test_browser_games.py.)"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from unokit import VARIANTS
from unokit.i18n.lines import Line, words_for
from unokit.server.client import create_room, get_json

from ..server.support import FAST, ServerProcess, free_port
from .player import (
    VIEWPORTS,
    YOUR_TURN,
    Clicker,
    is_over,
    join_as_host,
    layout_problems,
    new_page,
    play_to_the_end,
    resized,
    until_your_turn,
    wait_for,
    wait_until,
)

#: A room whose seat of a person is played by a stand-in bot after 0.1 s: a game plays itself
#: out, and the page shows it as it goes.
SELF_PLAYING = {**FAST, "turn_seconds": 0.1}

#: The levels people choose bots by, in English (a bot shows one of them beside its name).
LEVELS = {"Beginner", "Easy", "Normal", "Hard", "Expert"}

#: Keeps the page's websockets in window.__sockets (to drop the connection as a network would).
SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})();
"""


def _all_screens_fit(page: Page, rows: str, count: int) -> None:
    """At each screen the table is made for, the page has no layout problem and shows `count`
    of `rows`."""
    for screen, size in VIEWPORTS.items():
        resized(page, size)
        problems = layout_problems(page)
        assert problems == [], (screen, problems)
        assert page.locator(rows).count() == count, screen


def test_the_end_screens_fit_every_screen_with_2_4_and_6_players(browser: Browser, web_server: ServerProcess) -> None:
    """Two rounds play themselves out (a stand-in plays Ann's seat): the round's summary and the
    game's end show every player's row and every button inside the screen, without scrolling,
    at every size; Play again comes first."""
    page = new_page(browser, "phone")
    try:
        for players in (2, 4, 6):
            settings = {**SELF_PLAYING, "hand_pause_seconds": 600.0}
            room = create_room(
                web_server.url, "classic", players, {"rounds": 2}, settings, bots=["random"] * (players - 1)
            )
            join_as_host(page, web_server.url, room)
            page.click("#start-game")
            wait_for(page, ".summary-panel", timeout=60000)
            _all_screens_fit(page, ".summary-panel table.summary tbody tr", players)
            page.set_viewport_size(VIEWPORTS["phone"])
            page.click("[data-verb='host-continue']")
            wait_for(page, ".overlay .game-over", timeout=60000)
            wait_until(page, "document.querySelector('#play-again') !== null")
            _all_screens_fit(page, ".overlay .final-scores li", players)
            first = page.locator(".overlay .overlay-buttons > *").first
            assert first.get_attribute("data-action") == "play-again"
            page.set_viewport_size(VIEWPORTS["phone"])
    finally:
        page.context.close()


def _states(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f.get("type") == "state" and f.get("observation") is not None]


def _caption_words(lines: list[dict[str, Any]], names: list[str], lang: str) -> tuple[str, list[str]]:
    """What the caption of a move starts with (its first line, said) and the words it must hold
    for the reader at seat 0 (the cards it makes them take, their turn lost); a line naming the
    reader is said in its reader form, as the page says it."""
    words = words_for(lang, names, 0)
    told = [line for line in lines if line["key"] not in ("event.dealer", "event.round_start")] or lines
    first = words.say(Line(told[0]["key"], told[0].get("params", {})))
    yours = []
    for line in told[1:]:
        params = line.get("params", {})
        if line["key"] == "event.draw.reason" and params.get("player") == 0:
            cards = params["cards"]
            count = len(cards) if isinstance(cards, list) else cards["params"]["count"]
            yours.append(words.t("n.last.you_draw", count=count))
        if line["key"] == "event.skip" and params.get("player") == 0:
            yours.append(words.t("last.you_skipped"))
    return first, yours


#: True while the page asks whether to play the card just drawn (the rest of the same turn).
DRAWN = "document.querySelector('[data-region=prompt]')?.dataset.decision === 'play_or_keep'"


def _turn_taken(page: Page, step: int) -> bool:
    """The turn that began at game step ``step`` is over: the game moved on, and no drawn card
    waits to be played or kept."""
    return page.get_attribute(".table-root", "data-step") != str(step) and not page.evaluate(DRAWN)


def _check_captions(page: Page, frames: list[dict[str, Any]], lang: str, turns: int) -> int:
    """Play `turns` of Ann's turns; at each, the caption says the last move as the lines of the
    state that brought it say it, in `lang`. Returns how many moves of others were seen."""
    clicker = Clicker(page)
    seen = 0
    for _ in range(turns):
        until_your_turn(page)
        step = int(page.get_attribute(".table-root", "data-step") or "-1")
        moved = [s for s in _states(frames) if s["lines"] and s["game_step"] <= step]
        if moved and moved[-1]["game_step"] == step:
            names = [words_for(lang, []).t("table.you"), *[s["name"] for s in moved[-1]["room"]["seats"][1:]]]
            first, yours = _caption_words(moved[-1]["lines"], names, lang)
            caption = page.locator("[data-region=last-move]").inner_text()
            shown_version = page.evaluate("performance.getEntriesByName('unokit:state').at(-1)?.detail")
            recent = [(s["version"], s["game_step"], [ln["key"] for ln in s["lines"]]) for s in _states(frames)[-5:]]
            assert caption.startswith(first), (caption, first, step, shown_version, recent)
            for words in yours:
                assert words in caption, (caption, words)
            seen += moved[-1]["lines"][0].get("params", {}).get("player", 0) != 0
        # Ann's move: a Wild's colour is a second click, and a drawn card she may play is a
        # second decision of her turn (play it or keep it).
        end = time.monotonic() + 20
        while not _turn_taken(page, step) and not is_over(page):
            assert time.monotonic() < end, "Ann's move was never taken"
            if not clicker.step():
                page.wait_for_timeout(50)
        if is_over(page):
            break
    return seen


def _shown_log(page: Page) -> list[str]:
    return [str(t) for t in page.eval_on_selector_all(".log li", "items => items.map(li => li.textContent)")]


def _said(frames: list[dict[str, Any]], names: list[str], lang: str) -> list[str]:
    """Every line the states of `frames` carried (a hello's whole log in place of what came
    before it), said in `lang` to the reader at seat 0."""
    lines: list[dict[str, Any]] = []
    for state in _states(frames):
        if "log" in state:
            whole = [line for group in state["log"] for line in group["lines"]]
            assert whole == lines, "the log that answers a hello is not the game so far"
        lines += state["lines"]
    words = words_for(lang, names, 0)
    return [words.say(Line(line["key"], line.get("params", {}))) for line in lines]


def test_the_last_move_in_words_and_a_log_that_stays_whole(browser: Browser, web_server: ServerProcess) -> None:
    """In English, then in Russian: the caption by the piles says each move of the others (and
    what it does to Ann) as the server's lines say it; after a change of language (the page
    reloads), a dropped connection and a reload, the log holds every line of the game, the
    same as the states that a page that never left received."""
    # Three hands, not one: Ann plays at least ten turns, and a hand of hers can end sooner.
    settings = {**FAST, "bot_seconds": 0.1}
    room = create_room(web_server.url, "classic", 3, {"rounds": 3}, settings, bots=["random"] * 2)
    page = new_page(browser, "phone", locale="en-US")
    frames: list[dict[str, Any]] = []
    page.add_init_script(SOCKETS)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    try:
        join_as_host(page, web_server.url, room)
        page.click("#start-game")
        wait_for(page, ".table-root .table")
        seen = _check_captions(page, frames, "en", 4)
        until_your_turn(page)
        bots = [seat["name"] for seat in _states(frames)[-1]["room"]["seats"][1:]]
        english = _said(frames, ["You", *bots], "en")
        assert _shown_log(page) == english and len(english) > 5
        # The language, from the table's menu: the page reloads in Russian, its log whole.
        page.click("[data-toggles=drawer]")
        page.click("#tab-room")
        page.select_option("#table-language", "ru")
        wait_for(page, "html[lang=ru] .table-root .table")
        until_your_turn(page)
        russian = _said(frames, ["Вы", *bots], "ru")
        wait_until(page, f"document.querySelectorAll('.log li').length === {len(russian)}")
        assert _shown_log(page) == russian
        seen += _check_captions(page, frames, "ru", 3)
        # A dropped connection: the page says hello again and its log is whole.
        until_your_turn(page)
        page.evaluate("window.__sockets.at(-1).close()")
        connected = "document.querySelector('#status').dataset.state === 'connected'"
        wait_until(page, f"window.__sockets.length > 1 && {connected}")
        until_your_turn(page)
        wait_until(page, f"document.querySelectorAll('.log li').length === {len(_said(frames, ['Вы', *bots], 'ru'))}")
        assert _shown_log(page) == _said(frames, ["Вы", *bots], "ru")
        # And a reload.
        page.reload()
        wait_for(page, ".table-root .table")
        until_your_turn(page)
        assert _shown_log(page) == _said(frames, ["Вы", *bots], "ru")
        assert seen >= 2, "no move of the others was seen in the caption"
    finally:
        page.context.close()


#: A last move as long as the longest the table says (a draw whose backs are listed, after a
#: Wild Draw Two), for the layout of ten seats on a small screen.
LONG_MOVE = (
    "Tomás drew 2 cards (backs: Orange 9, Teal 3, Purple 2, Pink 4) after the Wild Draw Two "
    "that Quentin played naming Teal"
)


def test_seats_stay_apart_and_whole_with_up_to_ten_players(browser: Browser, web_server: ServerProcess) -> None:
    """UNO Flip with 4, 6 and 10 players and UNO Flip Attack with 4 and 6 (its most), at Ann's turn: on a phone held
    upright every seat, its count and the backs it shows (counted by colour) stay inside its
    box, no two seats touch and none covers the piles; and so sideways."""
    page = new_page(browser, "phone")
    try:
        for variant in ("flip", "flip_attack"):
            for players in (n for n in (4, 6, 10) if n <= VARIANTS[variant].max_players):  # Flip Attack: 6
                bots = ["random"] * (players - 1)
                room = create_room(web_server.url, variant, players, {"rounds": 1}, FAST, bots=bots)
                page.set_viewport_size(VIEWPORTS["phone"])
                join_as_host(page, web_server.url, room)
                page.click("#start-game")
                until_your_turn(page)
                assert page.locator(".table-root .seat").count() == players - 1
                assert page.locator(".table-root .seat .backs").count() == players - 1
                backs = page.eval_on_selector_all(".seat .back-group", "gs => gs.map(g => g.textContent)")
                assert all(re.fullmatch(r".\d+", text) for text in backs), backs
                for screen in ("phone", "phone-landscape", "small-landscape"):
                    resized(page, VIEWPORTS[screen])
                    assert layout_problems(page) == [], (variant, players, screen)
                if players == 10:
                    # A last move too long to fit beside the piles among ten seats on the smallest
                    # screen (a draw whose backs are listed, say): the caption gives way (read by
                    # screen readers only) and the seats and piles stay apart. It covered the
                    # piles before, at random, as the deal and the names fell.
                    page.evaluate(f"document.querySelector('.last-move').textContent = {json.dumps(LONG_MOVE)}")
                    resized(page, VIEWPORTS["phone-landscape"])
                    resized(page, VIEWPORTS["small-landscape"])
                    assert layout_problems(page) == [], (variant, players, "a long last move")
                    assert "sr-only" in (page.get_attribute(".last-move", "class") or "")
                    resized(page, VIEWPORTS["phone"])  # room for it again: shown again
                    assert "sr-only" not in (page.get_attribute(".last-move", "class") or "")
    finally:
        page.context.close()


def test_play_now_is_first_on_a_phone_and_its_room_counts_the_bots_down(browser: Browser, tmp_path: Path) -> None:
    """On a phone, Play now comes right after the name, before the room form; its room counts
    down to the bots (this server waits 4 s for people) and never says it waits for a host;
    the bots that come show their level."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", free_port(), ["--play-now-wait", "4"]).start()
    page = new_page(browser, "phone")
    try:
        page.goto(f"{server.url}/")
        wait_for(page, "#create-room")
        play_now = page.locator("#play-now").bounding_box()
        form = page.locator("#create-room").bounding_box()
        assert play_now and form and play_now["y"] + play_now["height"] < form["y"]
        assert play_now["y"] + play_now["height"] <= VIEWPORTS["phone"]["height"]  # in the first screen
        page.fill("#your-name", "Dan")
        page.select_option("#play-now-variant", "flip_marvel")
        page.click("#play-now")
        wait_for(page, ".fill-countdown")
        said = page.locator(".fill-countdown").inner_text()
        first = re.search(r"Bots take the open seats in (\d) seconds?, unless people take them first", said)
        assert first, said
        wait_until(page, f"!/ in {first.group(1)} second/.test(document.querySelector('.fill-countdown')?.textContent)")
        assert "host" not in page.locator(".waiting").inner_text().replace("the link for spectators", "").lower()
        wait_for(page, ".table-root .table", timeout=30000)
        levels = page.eval_on_selector_all(".seat .seat-status", "items => items.map(i => i.textContent)")
        assert len(levels) == 3 and set(levels) <= LEVELS, levels
        assert layout_problems(page) == []
    finally:
        page.context.close()
        server.stop()


def test_a_finished_game_replays_on_the_table(browser: Browser, web_server: ServerProcess) -> None:
    """A finished game replays on the same table, on a phone and at a desk: a step at a time,
    playing by itself until paused, to any step with the slider, as any seat saw it, with the
    log of the steps so far beside it."""
    page = new_page(browser, "phone")
    try:
        room = create_room(web_server.url, "flip", 3, {"rounds": 1}, FAST, bots=["random"] * 2)
        join_as_host(page, web_server.url, room)
        page.click("#start-game")
        play_to_the_end([Clicker(page)])
        page.click(".overlay a[href*='/replay/']")
        wait_for(page, ".replay-root .table")
        assert room["room"] in page.locator("h1").inner_text()
        assert page.locator(".replay-root .seat").count() == 2
        assert page.locator("[data-region=self] .me-name").inner_text() == "Ann"
        assert page.locator("[data-region=hand] .hand-card.playable").count() == 0  # nothing to act on
        page.click("#replay-next")
        wait_until(page, "document.querySelector('#replay-step').textContent.startsWith('Step 1 ')")
        assert page.locator("[data-region=last-move]").inner_text()
        page.click("#replay-play")  # it plays by itself until paused
        wait_until(page, "parseInt(document.querySelector('#replay-step').textContent.split(' ')[1]) >= 3", timeout=15)
        page.click("#replay-play")
        step = page.locator("#replay-step").inner_text()
        page.wait_for_timeout(1200)
        assert page.locator("#replay-step").inner_text() == step
        assert layout_problems(page) == []
        # Any step with the slider; another seat's view, the step kept.
        slider = "document.querySelector('#replay-slider')"
        page.evaluate(f"() => {{ const s = {slider}; s.value = s.max; s.dispatchEvent(new Event('change')); }}")
        wait_until(page, "document.querySelector('#replay-next').disabled")
        page.select_option("#replay-seat", "1")
        bot = get_json(web_server.url, f"/api/rooms/{room['room']}")["seats"][1]["name"]
        wait_until(page, f"document.querySelector('[data-region=self] .me-name')?.textContent === {json.dumps(bot)}")
        assert page.locator("#replay-next").is_disabled()
        page.set_viewport_size(VIEWPORTS["laptop"])
        page.click("#replay-first")
        wait_until(page, "document.querySelector('#replay-step').textContent.startsWith('Step 0 ')")
        for _ in range(3):
            page.click("#replay-next")
        wait_until(page, "document.querySelector('#replay-step').textContent.startsWith('Step 3 ')")
        assert page.locator("[data-region=log]").is_visible()  # docked beside the table
        assert page.locator(".log li").count() >= 3
        assert layout_problems(page) == []
    finally:
        page.context.close()


def test_your_turn_on_a_phone_held_sideways(browser: Browser, web_server: ServerProcess) -> None:
    """Sideways, at Ann's turns: the decision stands beside the hand, over none of the table;
    Ann's name, cards and points are in view; when she plays a Wild, the colours to choose from
    fit there too."""
    room = create_room(web_server.url, "classic", 4, {"rounds": 1}, FAST, bots=["random"] * 3)
    page = new_page(browser, "phone-landscape")
    try:
        join_as_host(page, web_server.url, room)
        page.click("#start-game")
        until_your_turn(page)
        prompt = page.locator("[data-region=prompt]").bounding_box()
        hand = page.locator("[data-region=hand]").bounding_box()
        table = page.locator("[data-region=table]").bounding_box()
        assert prompt and hand and table
        assert prompt["x"] >= table["x"] + table["width"] - 1  # beside the table, not over it
        assert prompt["x"] >= hand["x"] + hand["width"] - 1  # and beside the hand
        assert re.fullmatch(r"Ann\n?.*", page.locator("[data-region=self] .me-line").inner_text())
        assert "cards" in page.locator("[data-region=self] .me-info").inner_text()
        assert page.evaluate(YOUR_TURN) and layout_problems(page) == []
        clicker = Clicker(page)
        end = time.monotonic() + 60
        while not is_over(page) and time.monotonic() < end:  # her turns, until a Wild comes
            wild = page.locator(".hand-card.playable[data-card^='wild']")
            if page.evaluate(YOUR_TURN) and not page.locator(".table-root.busy").count() and wild.count():
                wild.first.click()
                wait_for(page, ".choices .color-choice")
                assert page.locator(".choices .color-choice").count() == 4
                assert layout_problems(page) == []
                break
            if not clicker.step():
                page.wait_for_timeout(50)
    finally:
        page.context.close()
