"""Screenshots of the browser client for the docs: every variant's table on a phone held upright
(390x844, Bo), on a phone held sideways (844x390, Cy) and at a desk (1280x800, Ann, the host),
each taken on that player's own turn; every face of every deck at a phone's size; and the lobby,
the invite page, the waiting room, the help, the quick reactions, a Wild's colours sideways, a
round's summary and a game's end upright and sideways (844x390 and 740x360), Play now's room,
the replay on a phone and at a desk, My games, the score sheet and the virtual launcher
(``scripts/language_screenshots.py`` takes the Russian ones).

    .venv/bin/python scripts/web_screenshots.py [--out docs/screenshots] [--variants flip,classic] [--only-tables]

Starts its own ``unokit serve`` on a free port with a throwaway SQLite database and drives
Debian's Chromium (``/usr/bin/chromium``) with Playwright. Files: ``VARIANT-390.png``,
``VARIANT-844.png``, ``VARIANT-1280.png``, ``cards-VARIANT-390.png``, and the pages' own names.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.support import ServerProcess, free_port  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.player import VIEWPORTS, YOUR_TURN, Clicker, is_over, new_page, wait_until  # noqa: E402

VARIANTS = ("classic", "flip", "attack", "flip_attack", "flip_marvel", "flip_stranger_things", "flip_transformers")
#: Timers that keep the bots lively but let people see each move.
TIMERS = {"bot_seconds": "0.3", "hand_pause_seconds": "60", "turn_seconds": "0", "catch_seconds": "0"}


@contextlib.contextmanager
def server() -> Iterator[str]:
    folder = Path(tempfile.mkdtemp(prefix="unokit-shots-"))
    process = ServerProcess(f"sqlite:///{folder / 's.db'}", free_port()).start()
    try:
        yield process.url
    finally:
        process.stop()


def settle(page: Page) -> None:
    """Let the last animations end (each is under 400 ms)."""
    page.wait_for_timeout(450)


def create(page: Page, url: str, variant: str, rounds: str | None = None) -> str:
    page.goto(f"{url}/")
    page.fill("#your-name", "Ann")
    page.select_option("#variant", variant)
    page.fill("#players", "4")
    page.fill("#bots", "1")
    page.select_option("#bot-kind", "normal")
    page.click("details.more-rules summary")
    if rounds:
        page.fill("#opt-rounds", rounds)
    page.click("#create-room details.timers summary")
    for name, value in TIMERS.items():
        page.fill(f"#set-{name}", value)
    page.click("#create-button")
    page.wait_for_url("**/r/*")
    return page.url.rsplit("/", 1)[-1]


def join(page: Page, url: str, code: str, name: str) -> None:
    page.goto(f"{url}/r/{code}")
    page.fill("#join-name", name)
    page.click("#join-player")
    page.wait_for_selector(".waiting")


def my_turn(page: Page) -> bool:
    """The page offers its player a turn, and no request of theirs is on its way."""
    return bool(page.evaluate(YOUR_TURN)) and page.locator(".table-root.busy").count() == 0


def shoot_on_turns(pages: dict[str, Page], decisions: int) -> None:
    """Everyone plays until each has taken ``decisions`` decisions; then each page (by file name)
    is shot the next time it is that player's turn (or when 40 s have passed)."""
    clickers = {name: Clicker(page) for name, page in pages.items()}
    waiting = dict(pages)
    end = time.monotonic() + 40
    while waiting and time.monotonic() < end:
        if any(is_over(page) for page in pages.values()):
            break
        acted = False
        for name, clicker in clickers.items():
            page = clicker.page
            if name in waiting and len(clicker.clicked) >= decisions and my_turn(page):
                settle(page)
                page.screenshot(path=name)
                del waiting[name]
            acted = clicker.step() or acted
        if not acted:
            next(iter(pages.values())).wait_for_timeout(100)
    for name, page in waiting.items():
        settle(page)
        page.screenshot(path=name)


def table_shots(url: str, out: Path, variant: str, browser: Browser, pages_too: bool) -> None:
    desk, phone, side = new_page(browser, "laptop"), new_page(browser, "phone"), new_page(browser, "phone-landscape")
    if pages_too:
        desk.goto(f"{url}/")
        desk.wait_for_selector("#create-room")
        settle(desk)
        desk.screenshot(path=str(out / "lobby-1280.png"))
        phone.goto(f"{url}/")
        phone.wait_for_selector("#create-room")
        settle(phone)
        phone.screenshot(path=str(out / "lobby-390.png"))
    code = create(desk, url, variant)
    if pages_too:
        phone.goto(f"{url}/r/{code}")
        phone.wait_for_selector("#join-form")
        settle(phone)
        phone.screenshot(path=str(out / "invite-390.png"))
    join(phone, url, code, "Bo")
    join(side, url, code, "Cy")
    wait_until(desk, "document.querySelectorAll('.waiting > ol.seat-list > li[data-kind=human]').length === 3")
    if pages_too:
        settle(phone)
        phone.screenshot(path=str(out / "room-390.png"), full_page=True)
    desk.click("#start-game")
    for page in (desk, phone, side):
        page.wait_for_selector(".hand-card")
    shoot_on_turns(
        {
            str(out / f"{variant}-1280.png"): desk,
            str(out / f"{variant}-390.png"): phone,
            str(out / f"{variant}-844.png"): side,
        },
        3,
    )
    if pages_too:
        phone.click("[data-command=help]")
        phone.wait_for_selector("dialog#help[open] .rules-text p")
        phone.evaluate("document.querySelector('#help-cards').scrollIntoView()")
        settle(phone)
        phone.screenshot(path=str(out / "help-390.png"))
        phone.keyboard.press("Escape")
        phone.click(".react-toggle")  # the quick reactions, open over the hand
        phone.wait_for_selector(".react-pop")
        settle(phone)
        phone.screenshot(path=str(out / "reactions-390.png"))
    for page in (desk, phone, side):
        page.context.close()


def end_shots(url: str, out: Path, browser: Browser) -> None:
    """A Wild's colours on a phone held sideways, a round's summary and a game's end (Classic,
    two rounds, Ann against five bots) upright and sideways, then the replay of that game on a
    phone and at a desk, and My games."""
    phone = new_page(browser, "phone")
    phone.goto(f"{url}/")
    phone.fill("#your-name", "Ann")
    phone.fill("#players", "6")
    phone.fill("#bots", "5")
    phone.click("details.more-rules summary")
    phone.fill("#opt-rounds", "2")
    phone.click("#create-room details.timers summary")
    for name, value in {**TIMERS, "bot_seconds": "0"}.items():
        phone.fill(f"#set-{name}", value)
    phone.click("#create-button")
    phone.wait_for_selector("#start-game")
    phone.click("#start-game")
    clicker = Clicker(phone)
    colours = False
    while phone.get_attribute(".table-root", "data-phase") != "hand_over":
        wild = phone.locator(".hand-card.playable[data-card^='wild']")
        if not colours and my_turn(phone) and wild.count():
            phone.set_viewport_size(VIEWPORTS["phone-landscape"])
            wild.first.click()
            phone.wait_for_selector(".choices .color-choice")
            settle(phone)
            phone.screenshot(path=str(out / "colors-844.png"))
            phone.set_viewport_size(VIEWPORTS["phone"])
            colours = True
        if not clicker.step():
            phone.wait_for_timeout(30)
    phone.wait_for_selector(".summary-panel")
    for screen, name in (("phone", "summary-390.png"), ("phone-landscape", "summary-844.png")):
        phone.set_viewport_size(VIEWPORTS[screen])
        settle(phone)
        phone.screenshot(path=str(out / name))
    phone.set_viewport_size(VIEWPORTS["phone"])
    phone.click("[data-verb='host-continue']")
    while not is_over(phone):
        if not clicker.step():
            phone.wait_for_timeout(30)
    phone.wait_for_selector("#play-again")
    shots = (("phone", "over-390.png"), ("phone-landscape", "over-844.png"), ("small-landscape", "over-740.png"))
    for screen, name in shots:
        phone.set_viewport_size(VIEWPORTS[screen])
        settle(phone)
        phone.screenshot(path=str(out / name))
    phone.set_viewport_size(VIEWPORTS["phone"])
    phone.click(".overlay a[href*='/replay/']")
    phone.wait_for_selector(".replay-root .table")
    for _ in range(4):
        phone.click("#replay-next")
        phone.wait_for_timeout(300)
    settle(phone)
    phone.screenshot(path=str(out / "replay-390.png"))
    phone.set_viewport_size(VIEWPORTS["laptop"])
    phone.click("#replay-next")
    settle(phone)
    phone.screenshot(path=str(out / "replay-1280.png"))
    phone.set_viewport_size(VIEWPORTS["phone"])
    phone.goto(f"{url}/#/games")
    phone.wait_for_selector("table.games tbody tr")
    settle(phone)
    phone.screenshot(path=str(out / "games-390.png"))
    phone.context.close()


def play_now_shot(url: str, out: Path, browser: Browser) -> None:
    """The room of Play now on a phone, counting down to its bots."""
    phone = new_page(browser, "phone")
    phone.goto(f"{url}/")
    phone.fill("#your-name", "Dan")
    phone.select_option("#play-now-variant", "flip_attack")
    phone.click("#play-now")
    phone.wait_for_selector(".fill-countdown")
    settle(phone)
    phone.screenshot(path=str(out / "playnow-390.png"))
    phone.context.close()


#: Draws every face of a variant's deck at the size of a hand's card on a phone (66x99), with its
#: printed name under it, in place of the page (the card drawing is the page's own, cards.js).
CARD_SHEET = """async (variant) => {
  const cards = await import("/static/js/cards.js");
  const catalog = cards.catalog();
  const info = catalog.variants[variant];
  cards.useVariant(variant);
  const main = document.querySelector("main");
  main.replaceChildren();
  const grid = document.createElement("div");
  grid.className = "card-sheet";
  info.kinds.forEach((kinds, side) => {
    const colors = info.side_colors[side];
    kinds.filter((kind) => !/^[2-8]$/.test(kind)).forEach((kind, i) => {
      const wild = catalog.kinds.find((k) => k.name === kind).wild;
      const face = wild ? kind : `${colors[i % colors.length]} ${kind}`;
      const cell = document.createElement("figure");
      const node = cards.cardNode(face, side, colors);
      const name = document.createElement("figcaption");
      name.textContent = cards.faceTitle(face);
      cell.append(node, name);
      grid.append(cell);
    });
  });
  main.append(grid);
}"""


def card_shots(url: str, out: Path, browser: Browser, variants: list[str]) -> None:
    """Every face of each variant's deck at a phone's hand size (``cards-VARIANT-390.png``), at
    twice the pixels (as a phone's screen has them)."""
    phone = new_page(browser, "phone", device_scale_factor=2)
    phone.goto(f"{url}/")
    phone.wait_for_selector("#create-room")
    for variant in variants:
        phone.evaluate(CARD_SHEET, variant)
        settle(phone)
        phone.screenshot(path=str(out / f"cards-{variant}-390.png"), full_page=True)
    phone.context.close()


def tool_shots(url: str, out: Path, browser: Browser) -> None:
    phone = new_page(browser, "phone")
    phone.goto(f"{url}/#/launcher")
    phone.wait_for_selector("table.stats")
    phone.select_option("#launcher-model", "pattern")
    phone.click("#launcher-press")
    phone.click("#launcher-press")
    settle(phone)
    phone.screenshot(path=str(out / "launcher-390.png"), full_page=True)
    phone.goto(f"{url}/#/sheet")
    phone.select_option("#sheet-variant", "flip")
    phone.fill("#sheet-players", "Ana, Bo, Cy")
    phone.click("#sheet-new button[type=submit]")
    phone.wait_for_selector("#sheet-round")
    phone.fill("#hand-1", "red 5 skip wild_draw_two")
    phone.fill("#points-2", "12")
    phone.click("#sheet-round button[type=submit]")
    phone.wait_for_selector("#sheet-table tbody tr:not(.totals)")
    settle(phone)
    phone.screenshot(path=str(out / "sheet-390.png"), full_page=True)
    phone.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated (default: every variant)")
    parser.add_argument("--only-tables", action="store_true", help="only the tables of --variants, in English")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with server() as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for index, variant in enumerate(args.variants.split(",")):
            table_shots(url, args.out, variant, browser, pages_too=index == 0)
            print(f"{variant}: {variant}-390.png, {variant}-844.png, {variant}-1280.png")
        card_shots(url, args.out, browser, args.variants.split(","))
        if not args.only_tables:
            end_shots(url, args.out, browser)
            play_now_shot(url, args.out, browser)
            tool_shots(url, args.out, browser)
        browser.close()
    print(f"screenshots in {args.out}")


if __name__ == "__main__":
    main()
