"""The card table as people use it: your turn is never hidden (the round summary gives way to the
next deal, a stand-in's moves are marked and told), a hand of 40 cards stays usable on a phone,
the room is created with its bots seated and the host marked, the invite page says who hosts and
which rules are on, motion is short and off under reduced motion, the mute setting is remembered,
a background tab is alerted, the help explains the rules, cards and keys, and the page installs
on a phone's home screen and says so when the server cannot be reached."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Playwright

from unokit.server.client import create_room as api_room

from ..server.support import FAST, ServerProcess
from .conftest import CHROMIUM, CHROMIUM_ARGS
from .player import (
    VIEWPORTS,
    YOUR_TURN,
    Clicker,
    create_room,
    is_over,
    join_as_host,
    layout_problems,
    new_page,
    play_to_the_end,
    start_game,
    until_your_turn,
    wait_for,
    wait_until,
    watched,
)


def _page(browser: Browser, screen: str = "laptop", **kwargs: Any) -> Page:
    return new_page(browser, screen, **kwargs)


def test_the_round_summary_gives_way_to_the_next_deal(browser: Browser, web_server: ServerProcess) -> None:
    """Between two hands the summary stands over the table, never over the hand or the decision;
    when the next hand is dealt it is gone, and a game's end gives way to the next game."""
    page = _page(browser, "phone")
    try:
        timers = {**dict.fromkeys(("bot_seconds", "catch_seconds", "turn_seconds"), "0"), "hand_pause_seconds": "60"}
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, rounds=2, timers=timers)
        start_game(page)
        clicker = Clicker(page)
        end = time.monotonic() + 120
        while page.get_attribute(".table-root", "data-phase") != "hand_over":
            assert time.monotonic() < end and not is_over(page), "the first hand never ended"
            if not clicker.step():
                page.wait_for_timeout(30)
        wait_for(page, ".summary-panel")
        assert page.locator(".summary-panel table.summary tbody tr").count() == 2
        assert layout_problems(page) == []
        # The summary covers the table (and the prompt: nothing is to be decided), never the hand.
        panel = page.locator(".summary-panel").bounding_box()
        hand = page.locator("[data-region=hand]").bounding_box()
        assert panel and hand
        assert panel["y"] + panel["height"] <= hand["y"] + 1
        # The UNO! button, which stands up into the row above the hand, does not peek out from
        # under the panel (there is nothing to say UNO for between hands).
        assert page.locator(".uno-button").is_hidden()
        # A reload between hands brings the summary back, with the host's button to deal on.
        rows = page.locator(".summary-panel table.summary tbody").inner_text()
        page.reload()
        wait_for(page, ".summary-panel [data-verb='host-continue']")
        assert page.locator(".summary-panel table.summary tbody").inner_text() == rows
        page.click("[data-verb='host-continue']")
        wait_until(page, "document.querySelector('.table-root').dataset.phase === 'playing'")
        assert page.locator(".summary-panel").count() == 0
        # The last hand: the game ends, and a new game takes its screen away.
        play_to_the_end([clicker])
        page.click(".overlay [data-verb='host-start']")
        wait_until(page, "document.querySelector('.table-root').dataset.game === '2'")
        wait_until(page, "!document.querySelector('.overlay')")
        assert layout_problems(page) == []
    finally:
        page.context.close()


SLOW_BACK = """
(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string' && JSON.parse(data).type === 'back') setTimeout(() => send.call(this, data), 1500);
    else send.call(this, data);
  };
})();
"""


def test_a_stand_ins_moves_are_marked_and_told(browser: Browser, web_server: ServerProcess) -> None:
    """Ann does not move before her turn timer runs out: a stand-in bot plays for her. The page
    marks its moves in the log, says so over the table, and "I'm back" takes the seat back.

    "I'm back" reaches the server 1.5 s late here (:data:`SLOW_BACK`), as on a slow network: the
    stand-in plays on meanwhile, and the note still goes once the seat is Ann's again. (It used
    to stay, offering "OK" for the moves made while the message was on its way.)"""
    page = _page(browser, "laptop")
    try:
        page.add_init_script(SLOW_BACK)
        timers = {"bot_seconds": "0.3", "catch_seconds": "0", "hand_pause_seconds": "0", "turn_seconds": "2"}
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, rounds=None, timers=timers)
        start_game(page)
        wait_for(page, ".note.standin[data-moves]:not([data-moves='0'])", timeout=30000)
        wait_for(page, ".log li.standin")
        assert "stand-in" in page.locator(".note.standin").inner_text()
        # "I'm back": the seat is the player's again (until the timer runs out once more).
        page.evaluate("document.querySelector('.note.standin button').click()")
        wait_until(page, "!document.querySelector('.note.standin')")
    finally:
        page.context.close()


#: Each hand card's own width and height (the part of its box no next card covers), in CSS px.
CARD_PARTS = """(() => {
  const boxes = [...document.querySelectorAll('.hand-card')].map((c) => c.getBoundingClientRect());
  const own = (b, i) => Math.min(b.width, i + 1 < boxes.length ? boxes[i + 1].left - b.left : b.width);
  return boxes.map((b, i) => [own(b, i), b.height]);
})()"""

#: The contrast of the focused card's ring and of the playable card's ring (the theme's
#: --accent) with the colour the hand lies on (its first opaque background up the tree).
RING_CONTRAST = """(() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  let el = document.querySelector('.hand');
  let under = [255, 255, 255];
  for (; el; el = el.parentElement) {
    const c = rgb(getComputedStyle(el).backgroundColor);
    if (c.length >= 3 && (c.length === 3 || c[3] > 0.99)) { under = c.slice(0, 3); break; }
  }
  const focused = document.activeElement;
  const ring = rgb(getComputedStyle(focused).outlineColor).slice(0, 3);
  const probe = document.createElement('span');
  probe.style.color = 'var(--accent)';
  document.body.append(probe);
  const accent = rgb(getComputedStyle(probe).color).slice(0, 3);
  probe.remove();
  return { focus: ratio(ring, under), playable: ratio(accent, under), ring: ring, accent: accent, under: under,
    width: getComputedStyle(focused).outlineWidth, card: focused.classList.contains('hand-card') };
})()"""


def test_forty_cards_in_hand_on_a_phone(browser: Browser, web_server: ServerProcess) -> None:
    """A launcher that fires 12 cards at every press fills Ann's hand past 40 cards; on a phone the
    hand stays at the bottom of the screen, every card keeps 44 px to touch, the hand scrolls
    sideways and its last card can be reached and played."""
    room = api_room(
        web_server.url,
        "attack",
        2,
        options={"launcher": "scripted", "launcher_script": [12] * 40, "rounds": 1},
        settings=FAST,
        bots=["random"],
    )
    page = _page(browser, "phone")
    try:
        join_as_host(page, web_server.url, room)
        start_game(page)
        # Ann's own hand (the cards a launch sends flying are drawn apart from it meanwhile).
        own = "document.querySelector('[data-region=hand] .hand')"
        end = time.monotonic() + 60
        while page.evaluate(f"{own}?.children.length ?? 0") < 40:
            assert time.monotonic() < end, "the hand never grew to 40 cards"
            until_your_turn(page)
            page.click("[data-verb='press']")
            page.wait_for_timeout(200)
        until_your_turn(page)
        assert layout_problems(page) == []
        # Laid out to its width once drawn: too long to fit, it scrolls sideways.
        wait_until(page, f"{own}.children.length >= 40 && {own}.scrollWidth > {own}.clientWidth")
        # Sorting by number and back keeps every card, and the last card is reachable.
        count = page.locator(".hand-card").count()
        page.click("button.sort")
        assert page.locator(".hand-card").count() == count
        assert layout_problems(page) == []
        last = page.locator(".hand-card").last
        last.scroll_into_view_if_needed()
        box = last.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS["phone"]["width"] + 1
        # WCAG 2.5.8: each card's own part (the part no next card covers) is at least 24 x 24 px
        parts = page.evaluate(CARD_PARTS)
        assert len(parts) == count and min(w for w, _ in parts) >= 24 and min(h for _, h in parts) >= 24, parts[:3]
        # WCAG 1.4.11: the focus ring and the playable card's ring stand out 3:1 from the table
        page.locator(".hand-card").first.focus()
        page.keyboard.press("ArrowRight")
        rings = page.evaluate(RING_CONTRAST)
        assert rings["focus"] >= 3 and rings["playable"] >= 3, rings
    finally:
        page.context.close()


def test_the_room_is_made_with_its_bots_and_the_invite_says_who_hosts(
    browser: Browser, web_server: ServerProcess
) -> None:
    ann = _page(browser, "laptop")
    bo = _page(browser, "phone")
    try:
        # The house party: the lobby's preset ticks Jump-In and Seven-O and picks progressive stacking.
        ann.goto(f"{web_server.url}/")
        ann.check("#preset-house")
        assert ann.is_checked("#opt-jump_in") and ann.is_checked("#opt-seven_o")
        assert ann.input_value("#opt-stacking") == "progressive"
        ann.uncheck("#opt-seven_o")  # a change of one rule makes the choice custom
        assert ann.is_checked("#preset-custom")
        ann.check("#opt-seven_o")
        assert ann.is_checked("#preset-house")
        ann.fill("#your-name", "Ann")
        ann.fill("#players", "4")
        ann.fill("#bots", "2")
        # The bots by strength come first, under their own heading; the engine's own bots after.
        catalog = json.loads(urllib.request.urlopen(f"{web_server.url}/api/catalog", timeout=10).read())
        groups = ann.eval_on_selector_all(
            "#bot-kind optgroup", "gs => gs.map(g => [g.label, [...g.children].map(o => o.value)])"
        )
        assert groups == [
            ["By strength", catalog["levels"]],
            ["Other bots", [b for b in catalog["bots"] if b not in catalog["levels"]]],
        ]
        ann.select_option("#bot-kind", "normal")
        ann.click("#create-button")
        wait_for(ann, ".waiting")
        # The bots are there at once, with people's names and their strength, at the last seats.
        kinds = ann.eval_on_selector_all(".waiting > ol.seat-list > li", "items => items.map(li => li.dataset.kind)")
        assert kinds == ["human", "open", "bot", "bot"]
        assert "Normal" in ann.locator(".waiting > ol.seat-list > li[data-kind=bot]").first.inner_text()
        code = ann.url.rsplit("/", 1)[-1]
        # Bo's invite: who hosts, which rules, who sits; no "null", no engine words.
        bo.goto(f"{web_server.url}/r/{code}")
        wait_for(bo, "#join-form")
        text = bo.locator("#join-form").inner_text()
        assert "Ann invites you to play" in text and "null" not in text
        assert "Jump-In" in text and "Seven-O" in text and "progressive" in text
        assert layout_problems(bo) == []
        bo.fill("#join-name", "Bo")
        bo.click("#join-player")
        wait_for(bo, ".waiting")
        host_line = bo.locator(".waiting > ol.seat-list > li").first.inner_text()
        assert "Ann" in host_line and "host" in host_line
    finally:
        ann.context.close()
        bo.context.close()


def test_motion_is_short_and_off_under_reduced_motion(browser: Browser, web_server: ServerProcess) -> None:
    """With motion, the events animate (a card to the pile, cards to the hand), each for less
    than 400 ms, and each animation starts soon after its state arrives; with reduced motion
    nothing animates at all. Either way the table sounds (sound is on until muted)."""
    found: dict[str, list[float]] = {}
    for motion in ("no-preference", "reduce"):
        page = _page(browser, "laptop", reduced_motion=motion)
        try:
            create_room(page, web_server.url, name="Ann", variant="flip", players=3, bots=2, rounds=None)
            page.evaluate(
                "window.__anims = []; new PerformanceObserver((list) => list.getEntries().forEach(e => "
                "window.__anims.push(e.name))).observe({type: 'mark', buffered: true});"
                "setInterval(() => document.getAnimations().forEach(a => "
                "window.__anims.push(a.effect.getComputedTiming().endTime)), 20);"
            )
            start_game(page)
            clicker = Clicker(page)
            for _ in range(6):
                end = time.monotonic() + 20
                while not clicker.step() and time.monotonic() < end:
                    page.wait_for_timeout(50)
                page.wait_for_timeout(150)
            found[motion] = [x for x in page.evaluate("window.__anims") if isinstance(x, (int, float))]
            marks = page.evaluate("performance.getEntriesByName('unokit:anim').length")
            # Sound is on by default, with motion or without it: a card played makes its sound
            # (so that the muted table's silence in the next test means something).
            sounds = page.evaluate("performance.getEntriesByType('mark').map(m => m.name)")
            assert "unokit:sound:play" in sounds, sounds
            if motion == "reduce":
                assert found[motion] == [] and marks == 0
                assert page.evaluate("document.getAnimations().length") == 0
            else:
                assert found[motion] and marks > 0
                assert max(found[motion]) < 400
        finally:
            page.context.close()


def test_the_mute_setting_survives_a_reload(browser: Browser, web_server: ServerProcess) -> None:
    page = _page(browser, "phone")
    try:
        page.goto(f"{web_server.url}/")
        page.click("#sound-button")
        assert page.get_attribute("#mute", "aria-pressed") == "false"
        page.click("#mute")
        page.fill("#volume", "0.3")
        page.dispatch_event("#volume", "change")
        page.reload()
        page.click("#sound-button")
        assert page.get_attribute("#mute", "aria-pressed") == "true"
        assert page.input_value("#volume") == "0.3"
        # Muted, the table makes no sound: no sound mark while a game is played.
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, rounds=None)
        start_game(page)
        until_your_turn(page)
        assert (
            page.evaluate("performance.getEntriesByType('mark').filter(m => m.name.startsWith('unokit:sound')).length")
            == 0
        )
    finally:
        page.context.close()


#: Makes the page believe it is in a background tab until window.__visible() is called.
HIDDEN_TAB = """
(() => {
  let hidden = true;
  Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { get: () => hidden });
  window.__visible = () => { hidden = false; document.dispatchEvent(new Event('visibilitychange')); };
})();
"""


def test_a_background_tab_is_alerted_when_the_turn_comes(browser: Browser, web_server: ServerProcess) -> None:
    page = _page(browser, "laptop", permissions=["notifications"])
    try:
        page.add_init_script(HIDDEN_TAB)
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, rounds=None)
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # it shows the notifications
        start_game(page)
        wait_until(page, YOUR_TURN + " || document.querySelector('.choices [data-action]') !== null")
        wait_until(page, "document.title.startsWith('●')")
        # The title changes at once; the notification follows through the service worker.
        wait_until(page, "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(l => l.length > 0)")
        notes = page.evaluate(
            "navigator.serviceWorker.ready.then(r => r.getNotifications())"
            ".then(list => list.map(n => [n.title, n.body]))"
        )
        assert notes and notes[0][0] == "Your turn" and notes[0][1]
        page.evaluate("window.__visible()")
        wait_until(page, "!document.title.startsWith('●')")
    finally:
        page.context.close()


def test_a_reaction_refused_at_the_table_is_said_there(browser: Browser, web_server: ServerProcess) -> None:
    """On a phone the chat is in the closed drawer: reactions sent from the table past the seat's
    rate (5 at once, then 1 a second on this server) are refused, and the refusal is said over
    the hand, where they were sent."""
    page = _page(browser, "phone")
    try:
        create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1)
        start_game(page)
        wait_for(page, ".react-toggle")
        page.evaluate(
            """() => { for (let i = 0; i < 15; i++) {
                         document.querySelector('.react-toggle').click();
                         document.querySelector('.react-pop [data-reaction="yes"]').click(); } }"""
        )
        said = "[...document.querySelectorAll('[data-region=prompt] .error')].map(e => e.textContent).join()"
        wait_until(page, f"({said}).includes('too many')")
    finally:
        page.context.close()


def test_the_help_explains_the_rules_the_cards_and_the_keys(browser: Browser, web_server: ServerProcess) -> None:
    page = _page(browser, "phone")
    try:
        create_room(page, web_server.url, name="Ann", variant="flip", players=2, bots=1, options={"seven_o": True})
        start_game(page)
        page.keyboard.press("?")
        wait_for(page, "dialog#help[open] .rules-text p")
        text = page.locator("dialog#help").inner_text()
        assert "UNO Flip" in text and "Seven-O" in text
        catalog = json.loads(urllib.request.urlopen(f"{web_server.url}/api/catalog", timeout=10).read())
        kinds = {k for side in catalog["variants"]["flip"]["kinds"] for k in side if not k.isdigit()}
        shown = set(
            page.eval_on_selector_all(
                "dialog#help .legend-list li[data-kind]", "items => items.map(li => li.dataset.kind)"
            )
        )
        assert shown == kinds
        # The colour symbols of the variant's two sides only, the wilds' (a star on Flip's
        # cards), and the marks on the seats.
        symbols = page.locator("dialog#help .symbol-list li:not(.wild-mark)").count()
        assert symbols == len({c for side in catalog["variants"]["flip"]["side_colors"] for c in side}) == 8
        assert page.locator("dialog#help .symbol-list li.wild-mark").inner_text() == "★ Wild: star"
        marks = page.locator("dialog#help .mark-list li").all_inner_texts()
        assert [line.split("\n")[-1] for line in marks] == [
            "Cards in the player's hand",
            "Hosts the room",
            "Dealt this hand",
            "One card left",
            "One card left and UNO not said: anyone may catch them",
        ]
        for binding in catalog["keys"]:
            if binding["where"] != "terminal":
                assert binding["shown"] in text, binding
        assert layout_problems(page) == []
        page.keyboard.press("Escape")
        wait_until(page, "!document.querySelector('dialog#help[open]')")
    finally:
        page.context.close()


def test_the_page_installs_and_says_when_the_server_is_gone(
    playwright: Playwright, web_server: ServerProcess, tmp_path: Path
) -> None:
    """Chromium's own installability check passes (it needs a profile on disk: an incognito
    context never installs), the icons are served as the manifest says, and without the network
    the page opens from the service worker (which keeps the catalogue for offline play) and
    offers a game against the computer on the device (docs/offline.md)."""
    context = watched(
        playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport=VIEWPORTS["phone"],
        )
    )
    page = context.new_page()
    try:
        page.goto(f"{web_server.url}/")
        wait_until(page, "navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now under the service worker
        wait_until(page, "navigator.serviceWorker.controller !== null")
        cdp = page.context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        data = json.loads(manifest["data"])
        for icon in data["icons"]:
            with urllib.request.urlopen(f"{web_server.url}{icon['src']}", timeout=10) as answer:
                assert answer.headers["Content-Type"].startswith(icon["type"]), icon
        # Without the network the page still opens, from the service worker, and offers offline play
        # once the page has said that everything it needs is kept.
        wait_for(page, "html[data-offline-ready=yes]", state="attached", timeout=120_000)
        page.context.set_offline(True)
        page.reload()
        wait_for(page, "#play-offline")
        assert "Play offline" in page.locator("#play-offline").inner_text()
        page.context.set_offline(False)
        page.reload()
        wait_for(page, "#create-room")
        wait_for(page, "html[data-server=answers]", state="attached")  # the server answered: no offer
        assert page.locator("#play-offline").count() == 0
    finally:
        page.context.close()
