"""What a person waits for in the browser table, measured with Debian's Chromium against a real
``unokit serve`` on loopback (the figures in docs/web.md, "Measured"):

1. **Bytes on first load**: everything the lobby's first visit downloads (HTML, scripts, styles,
   icons, the catalogue of words, the API's answers), as sent with the server's compression and
   uncompressed, from a fresh browser profile (no cache, no service worker yet). The same for a
   phone opening a room's invite link; and what the service worker then fetches for its copy of
   the page.
2. **From an invite link to a seat**: a phone opens a room's link (``/r/CODE``); the time until
   its join form is ready, and from pressing **Join the game** until the waiting room shows the
   new player in their seat. The median of ``--joins`` runs.
3. **From a server event to its animation**: over a game against bots, for every ``state``
   message that animates, the time between the message arriving (User Timing mark
   ``unokit:state``) and its first animation starting (``unokit:anim``); median, 95th percentile
   and maximum.

    .venv/bin/python scripts/measure_web.py [--joins 15] [--moves 40]

Starts its own server (SQLite in a temporary folder) on a free port. The machine matters: run it
under ``nice`` on a loaded machine and say which machine the figures come from.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.support import FAST, ServerProcess, free_port  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.player import VIEWPORTS, Clicker, is_over  # noqa: E402


def create_room(url: str, bots: int, players: int = 4) -> dict[str, Any]:
    body = json.dumps({"variant": "flip", "players": players, "settings": FAST, "bots": ["normal"] * bots}).encode()
    request = urllib.request.Request(f"{url}/api/rooms", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        room: dict[str, Any] = json.loads(answer.read())
        return room


def first_load(browser: Browser, address: str, ready: str) -> tuple[int, int, int]:
    """(bytes sent, bytes of the bodies uncompressed, requests) of a first visit to ``address``,
    once ``ready`` (a selector) shows."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], service_workers="block")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    sent: dict[str, int] = {}  # request id -> bytes on the wire (headers and compressed body)
    raw: dict[str, int] = {}  # request id -> bytes of the body, uncompressed

    def received(event: dict[str, Any]) -> None:
        raw[event["requestId"]] = raw.get(event["requestId"], 0) + int(event["dataLength"])

    def finished(event: dict[str, Any]) -> None:
        sent[event["requestId"]] = int(event["encodedDataLength"])

    cdp.on("Network.dataReceived", received)
    cdp.on("Network.loadingFinished", finished)
    page.goto(address)
    page.wait_for_selector(ready)
    page.wait_for_timeout(500)
    context.close()
    return sum(sent.values()), sum(raw.values()), len(sent)


def worker_copy(url: str) -> tuple[int, int]:
    """(bytes compressed, uncompressed) of the files the service worker fetches when it installs
    (its list in static/sw.js), as the server sends them to a browser that accepts gzip."""
    source = (ROOT / "src" / "unokit" / "server" / "static" / "sw.js").read_text(encoding="utf-8")
    sent = raw = 0
    for path in re.findall(r'^  "(/[^"]*)",$', source, re.M):
        request = urllib.request.Request(f"{url}{path}", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            body = answer.read()
            sent += len(body)
            raw += len(gzip.decompress(body)) if answer.headers.get("Content-Encoding") == "gzip" else len(body)
    return sent, raw


def invite_to_seat(browser: Browser, url: str) -> tuple[float, float]:
    """(seconds from opening the invite link to its join form, seconds from pressing Join to the
    seat shown) for one phone and one fresh room."""
    room = create_room(url, bots=2)
    context = browser.new_context(viewport=VIEWPORTS["phone"], is_mobile=True, has_touch=True)
    page = context.new_page()
    started = time.perf_counter()
    page.goto(f"{url}/r/{room['room']}")
    page.wait_for_selector("#join-player")
    loaded = time.perf_counter() - started
    page.fill("#join-name", "Bo")
    clicked = time.perf_counter()
    page.click("#join-player")
    page.wait_for_selector(".waiting > ol.seat-list > li.me")
    seated = time.perf_counter() - clicked
    context.close()
    return loaded, seated


def animation_delays(browser: Browser, url: str, moves: int) -> list[float]:
    """Milliseconds from each animated state's arrival to its first animation, over a game."""
    room = create_room(url, bots=3)
    context = browser.new_context(viewport=VIEWPORTS["laptop"])
    page: Page = context.new_page()
    page.goto(f"{url}/")
    page.evaluate(f"localStorage.setItem('unokit.host.{room['room']}', {json.dumps(room['host_token'])})")
    page.goto(f"{url}/r/{room['room']}")
    page.fill("#join-name", "Ann")
    page.click("#join-player")
    page.click("#start-game")
    page.wait_for_selector(".hand-card")
    clicker = Clicker(page)
    end = time.monotonic() + 120
    done = 0
    while done < moves and time.monotonic() < end and not is_over(page):
        if clicker.step():
            done += 1
        page.wait_for_timeout(60)
    page.wait_for_timeout(500)
    delays = page.evaluate(
        """() => {
          const arrived = new Map(performance.getEntriesByName('unokit:state').map(m => [m.detail, m.startTime]));
          return performance.getEntriesByName('unokit:anim')
            .filter(m => arrived.has(m.detail)).map(m => m.startTime - arrived.get(m.detail));
        }"""
    )
    context.close()
    return [float(d) for d in delays]


def kib(count: int) -> str:
    return f"{count / 1024:.1f} KiB"


def spread(values: list[float], form: str = ".0f") -> str:
    """Median, 95th percentile and maximum of milliseconds."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):{form}} ms, p95 {p95:{form}} ms, max {ordered[-1]:{form}} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joins", type=int, default=15, help="invite links opened (default 15)")
    parser.add_argument("--moves", type=int, default=40, help="decisions taken in the game (default 40)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="unokit-measure-"))
    server = ServerProcess(f"sqlite:///{folder / 's.db'}", free_port()).start()
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for what, address, ready in (
                ("the lobby", f"{server.url}/", "#create-room"),
                ("an invite link", f"{server.url}/r/{create_room(server.url, bots=2)['room']}", "#join-player"),
            ):
                sent, raw, count = first_load(browser, address, ready)
                print(f"first load of {what}: {kib(sent)} sent compressed ({kib(raw)} uncompressed), {count} requests")
            sent, raw = worker_copy(server.url)
            print(f"then the service worker's copy of the page: {kib(sent)} compressed ({kib(raw)} uncompressed)")
            invite_to_seat(browser, server.url)  # once to warm the server
            runs = [invite_to_seat(browser, server.url) for _ in range(args.joins)]
            loads, seats = [1000 * r[0] for r in runs], [1000 * r[1] for r in runs]
            print(f"invite link to its join form: {spread(loads)} ({args.joins} runs)")
            print(f"Join pressed to seated: {spread(seats)} ({args.joins} runs)")
            delays = animation_delays(browser, server.url, args.moves)
            print(f"server event to its animation: {spread(delays, '.1f')} over {len(delays)} animated states")
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
