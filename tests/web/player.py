"""A person at the browser table, as a test plays it: fill the lobby forms, join rooms, and take
decisions by clicking what the page offers (never by talking to the server directly)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, ViewportSize
from playwright.sync_api import Error as PlaywrightError

#: The states :func:`wait_for` waits for, as Playwright names them.
WaitState = Literal["attached", "detached", "visible", "hidden"]

#: True once the page offers its player a turn (the decision the prompt is open for).
YOUR_TURN = "document.querySelector('[data-region=prompt]')?.dataset.decision === 'turn'"
#: What the page shows in place of a turn (its prompt, whether a dialog is open), for a failure's message.
SHOWN = (
    "(document.querySelector('[data-region=prompt]')?.outerHTML || 'no prompt').slice(0, 600)"
    " + ' | dialog: ' + !!document.querySelector('.overlay')"
)

#: The screens the table is made for, by name: phones held upright and sideways (a large one and
#: a small one), a tablet, a laptop and a large desktop.
VIEWPORTS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "small-landscape": {"width": 740, "height": 360},
    "tablet": {"width": 768, "height": 1024},
    "laptop": {"width": 1280, "height": 800},
    "desktop": {"width": 1920, "height": 1080},
}

#: The layout checks (``layout.js``): what a person on any screen must get.
LAYOUT = (Path(__file__).parent / "layout.js").read_text(encoding="utf-8")


#: What the browser refused under the server's Content-Security-Policy on any page of the test
#: running now (every context is made under the policy; conftest.py fails a test that leaves
#: anything here).
POLICY_VIOLATIONS: list[str] = []


#: How long a page's waits and clicks wait for the state they need before the test fails, in
#: ms (Playwright's own is 30 s). The suite runs three processes on two cores, each with its
#: browser and servers: on such a machine in CI a table once took 30 s to be drawn after its
#: start, with nothing wrong but the load; a page that never gets there still fails.
WAIT_MS = 60_000


def watched(context: BrowserContext) -> BrowserContext:
    """``context``, with every refusal of the Content-Security-Policy that its pages report kept
    in :data:`POLICY_VIOLATIONS`, and :data:`WAIT_MS` as its pages' time to wait."""

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            POLICY_VIOLATIONS.append(message.text)

    context.on("console", console)
    context.set_default_timeout(WAIT_MS)
    return context


def new_page(browser: Browser, screen: str = "laptop", **kwargs: Any) -> Page:
    """A page in a fresh browser context of one of :data:`VIEWPORTS` (a phone's with touch),
    under the server's Content-Security-Policy (its refusals are kept: :func:`watched`)."""
    viewport = VIEWPORTS[screen]
    phone = viewport["width"] < 600 or viewport["height"] < 600
    return watched(browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone, **kwargs)).new_page()


def layout_problems(page: Page) -> list[str]:
    """What is wrong with the page as drawn now (``layout.js``); empty when nothing is."""
    return [str(problem) for problem in page.evaluate(LAYOUT, "")]


#: Room timers that keep browser games short: bots answer at once, no pause between hands.
FAST_TIMERS = {"bot_seconds": "0", "catch_seconds": "0", "hand_pause_seconds": "0", "turn_seconds": "0"}


def create_room(
    page: Page,
    base_url: str,
    *,
    name: str,
    variant: str,
    players: int = 4,
    bots: int = 2,
    bot: str = "random",
    rounds: int | None = 1,
    timers: dict[str, str] | None = None,
    options: dict[str, bool | str] | None = None,
    public: bool = False,
) -> str:
    """Create a room from the lobby form; return its code once its seats are filled.
    ``options``: rule options to set in the form (a box ticked for ``True``, else a choice);
    ``public``: list the room in the lobby."""
    page.goto(f"{base_url}/")
    page.fill("#your-name", name)
    page.select_option("#variant", variant)
    page.fill("#players", str(players))
    page.fill("#bots", str(bots))
    page.select_option("#bot-kind", bot)
    page.click("details.more-rules summary")  # the rules beyond the house rules
    if rounds is not None:
        page.fill("#opt-rounds", str(rounds))
    for option, value in (options or {}).items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{option}", value)
        else:
            page.select_option(f"#opt-{option}", value)
    page.click("#create-room details.timers summary")
    for setting, value in (FAST_TIMERS if timers is None else timers).items():
        page.fill(f"#set-{setting}", value)
    page.set_checked("#public-room", public)
    page.click("#create-button")
    page.wait_for_url("**/r/*")
    code = page.url.rsplit("/", 1)[-1]
    seats = "[...document.querySelectorAll('.waiting > ol.seat-list > li')]"
    wait_until(
        page,
        f"{seats}.length === {players} && {seats}.filter(li => li.dataset.kind === 'bot').length === {bots}",
    )
    return code


def wait_for(page: Page, selector: str, *, state: WaitState = "visible", timeout: float | None = None) -> None:
    """Wait until the first element ``selector`` finds is in ``state`` (``timeout`` in ms, else
    the page's). Unlike ``page.wait_for_selector`` this asks for no handle on the element (the
    tests only wait), which spares the busy page two round trips at each wait."""
    page.locator(selector).first.wait_for(state=state, timeout=timeout)


def wait_until(page: Page, expression: str, timeout: float = WAIT_MS / 1000) -> None:
    """Wait until ``expression`` is true in the page. Unlike Playwright's ``wait_for_function``
    this never compiles code in the page, so it works under the server's Content-Security-Policy."""
    end = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < end, f"the page never satisfied {expression[:120]}"
        page.wait_for_timeout(50)


#: Resolves after two frames of the page: the second comes after a frame drawn since the call,
#: whose resize observers (the table lays its seats and hand out in one) have run.
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def resized(page: Page, size: ViewportSize) -> None:
    """Give ``page`` the viewport ``size`` and wait until it is drawn at that size, its table laid
    out again (not for a time: on a loaded machine a relayout can take longer than any fixed wait)."""
    page.set_viewport_size(size)
    wait_until(page, f"window.innerWidth === {size['width']} && window.innerHeight === {size['height']}")
    page.evaluate(TWO_FRAMES)


def join_room(page: Page, base_url: str, code: str, name: str) -> None:
    """Open the room's link and take a seat with the join form."""
    page.goto(f"{base_url}/r/{code}")
    page.fill("#join-name", name)
    page.click("#join-player")
    wait_for(page, ".waiting, .table-root")


def join_as_host(page: Page, base_url: str, room: dict[str, Any], name: str = "Ann") -> None:
    """Open a room made through the API as its host (the browser remembers the host token)."""
    page.goto(f"{base_url}/")
    page.evaluate(f"localStorage.setItem('unokit.host.{room['room']}', {json.dumps(room['host_token'])})")
    join_room(page, base_url, room["room"], name)


def watch_room(page: Page, base_url: str, code: str) -> None:
    page.goto(f"{base_url}/r/{code}#watch")
    wait_for(page, ".waiting, .table-root")


def start_game(host: Page) -> None:
    host.click("#start-game")
    wait_for(host, ".table-root .table")


def hand(page: Page) -> list[str]:
    """The card texts of the page's hand, as drawn."""
    return [str(t) for t in page.eval_on_selector_all(".hand-card", "cards => cards.map(c => c.dataset.card)")]


def is_over(page: Page) -> bool:
    return page.locator(".overlay .game-over").count() > 0


@dataclass
class Clicker:
    """Takes one decision per call on a page: catch or call UNO when offered, say UNO with the
    card when the page offers it, play the first playable card (naming the first colour), else
    the first offered button. Remembers what it clicked."""

    page: Page
    clicked: list[str] = field(default_factory=list)
    paused: bool = False  # a paused player lets the game wait for them

    def click(self, selector: str, label: str | None = None) -> bool:
        """Click the first element that ``selector`` finds, if it is there and enabled; return
        whether it was clicked (and remember ``label``, else its action, card or label)."""
        target = self.page.locator(selector).first
        try:
            if label is None:
                if target.count() == 0 or not target.is_enabled():
                    return False
                label = target.get_attribute("data-action") or target.get_attribute("data-card") or target.inner_text()
            target.click(timeout=1500)
        except PlaywrightError:
            return False  # the page redrew under the click: try again next time
        self.clicked.append(label)
        return True

    def step(self) -> bool:
        """Take one decision if the page offers one; return whether something was clicked. What
        to click is read from the page in one look (:data:`OFFERED`), then clicked as a person
        would (Playwright waits for it to be clickable; a page that redrew meanwhile is looked
        at again next time)."""
        if self.paused:
            return False
        offered = self.page.evaluate(OFFERED, [*FIRST_CHOICES, TOGGLE, *LAST_CHOICES])
        if offered is None:
            return False  # over, busy, or nothing to decide
        index, label, toggle = offered
        if toggle and index >= len(FIRST_CHOICES):
            self.click(TOGGLE)
        return self.click((*FIRST_CHOICES, TOGGLE, *LAST_CHOICES)[index], label)


#: What a :class:`Clicker` takes first when the page offers it (catch or call UNO, say UNO,
#: name a colour), then (after pressing "UNO" beside the card, when offered) the first playable
#: card, else the first offered button.
FIRST_CHOICES = (".choices [data-verb='catch']", ".uno-button[data-verb='uno']", ".choices .color-choice")
TOGGLE = ".uno-button[data-verb='uno-toggle'][aria-pressed='false']:not([disabled])"
LAST_CHOICES = (".hand-card.playable", ".choices [data-action]")
#: The page's offer, in one look: ``null`` when the game is over, a request is on its way or
#: nothing is offered; else the index of the first selector whose first element is enabled (the
#: toggle's own index is skipped), its label, and whether the toggle is offered.
OFFERED = """(selectors) => {
  if (document.querySelector('.overlay .game-over') || document.querySelector('.table-root.busy')) return null;
  const toggle = selectors.length - 3;
  const enabled = (el) => el && !el.disabled && el.getAttribute('aria-disabled') !== 'true';
  for (const [i, selector] of selectors.entries()) {
    if (i === toggle) continue;
    const el = document.querySelector(selector);
    if (enabled(el)) {
      const label = el.dataset.action || el.dataset.card || el.innerText;
      return [i, label, !!document.querySelector(selectors[toggle])];
    }
  }
  return null;
}"""


def open_drawer(page: Page, tab: str) -> None:
    """Open the drawer (a button on a phone; always open at a desk) at one of its tabs."""
    toggle = page.locator("[data-toggles='drawer']:visible")
    if toggle.count() and toggle.first.get_attribute("aria-expanded") != "true":
        toggle.first.click()
    page.click(f"#tab-{tab}")


def close_drawer(page: Page) -> None:
    """Close the drawer where it can be closed (a phone's; a desk's stays docked)."""
    closer = page.locator(".close-drawer:visible")
    if closer.count():
        closer.first.click()


def play_to_the_end(clickers: list[Clicker], timeout: float = 240.0, on_idle: Any = None, pause: float = 0.03) -> None:
    """Click through every page until all of them show the game-over screen; ``on_idle()``
    is called before each round of clicks."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(is_over(c.page) for c in clickers):
            return
        if on_idle is not None:
            on_idle()  # before anyone clicks: the pages show a settled table
        acted = False
        for clicker in clickers:
            acted = clicker.step() or acted
        if not acted:
            clickers[0].page.wait_for_timeout(pause * 1000)
    states = [json.dumps(c.page.locator("[data-region=prompt]").inner_text()[:200]) for c in clickers]
    raise AssertionError(f"the game did not end in {timeout} s; prompts: {states}")


def until_your_turn(page: Page, timeout: float = 60.0) -> None:
    """Wait until the page offers a turn, first answering the decisions that may come before it:
    a colour to name when a Wild is turned up first (R-2.4), or the bot's Wild Draw Four to
    accept (these buttons never show on a turn)."""
    end = time.monotonic() + timeout
    while not page.evaluate(YOUR_TURN):
        assert time.monotonic() < end, f"the page never offered a turn; it showed: {page.evaluate(SHOWN)}"
        answer_the_decision_before_a_turn(page)
        page.wait_for_timeout(100)


def answer_the_decision_before_a_turn(page: Page) -> None:
    """Name a colour (a Wild turned up first, R-2.4) or accept a bot's Wild Draw Four, when the
    page asks; nothing else (these buttons never show on a turn)."""
    answer = page.locator(".choices .color-choice, .choices [data-verb='accept']").first
    try:
        if answer.count() and answer.is_enabled(timeout=1500):
            answer.click(timeout=1500)
    except PlaywrightError:
        pass  # the decision went away between the look and the click (another state): look again
