"""Offline play measured in Debian's Chromium (docs/offline.md, "Measured"), on a phone profile
(390x844, touch) with the CPU slowed 4x (the DevTools protocol's ``Emulation.setCPUThrottlingRate``),
against a real ``unokit serve`` on loopback, all in one run:

1. **Bytes on the first visit**: what the lobby's first visit downloads until the page is ready
   for offline play (``data-offline-ready``), the service worker's copy included: the page's
   own requests (those the service worker did not answer) and the service worker's fetches.
2. **Cached and offline to the first dealt hand**: the server stopped and the browser offline,
   the time from opening ``/#/offline/classic/2`` to the first card of the player's hand drawn.
3. **A bot's decision at each level offered offline**, in the worker (Pyodide), as an offline
   room seats it: mean and largest of ``--decisions`` turns of 2-player Classic.
4. **The engine's decisions a second in Pyodide and in CPython**: the same code
   (``server/localbench.py``) for ``--seconds`` each, in the worker and in this process.
5. **The page's memory**: the page's JavaScript heap (DevTools' ``Performance.getMetrics``) and
   the worker's WebAssembly memory, after the game has started.

    .venv/bin/python scripts/bench_offline.py [--decisions 8] [--seconds 3]

Starts its own server (SQLite in a temporary folder) on a free port. Say which machine the
figures come from, and how loaded it was (the script prints the load average).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.support import ServerProcess, free_port  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.player import VIEWPORTS  # noqa: E402

from unokit.server import localbench  # noqa: E402

THROTTLE = 4
HAND = "document.querySelector('.table-root .hand-card') !== null"


def mb(count: float) -> str:
    return f"{count / 1e6:.2f} MB"


def until(page: Page, expression: str, timeout: float) -> float:
    """Poll ``expression`` until true; the page's clock (ms since it opened) when it was seen."""
    end = time.monotonic() + timeout
    while True:
        seen = page.evaluate(f"({expression}) ? performance.now() : null")
        if seen is not None:
            return float(seen)
        if time.monotonic() > end:
            raise SystemExit(f"the page never showed {expression}")
        page.wait_for_timeout(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=8, help="decisions timed per bot level (default 8)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of engine decisions each side (default 3)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="unokit-bench-offline-"))
    server = ServerProcess(f"sqlite:///{folder / 's.db'}", free_port()).start()
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; CPU slowed {THROTTLE}x; phone 390x844"
    )
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=VIEWPORTS["phone"], is_mobile=True, has_touch=True)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
            cdp.send("Network.enable")
            sent: dict[str, int] = {}
            by_worker: set[str] = set()

            def responded(event: dict[str, Any]) -> None:
                if event["response"].get("fromServiceWorker"):
                    by_worker.add(event["requestId"])

            cdp.on("Network.responseReceived", responded)
            cdp.on("Network.loadingFinished", lambda e: sent.__setitem__(e["requestId"], int(e["encodedDataLength"])))
            page.goto(f"{server.url}/")
            until(page, "document.documentElement.dataset.offlineReady === 'yes'", 600)
            own = sum(size for rid, size in sent.items() if rid not in by_worker)
            worker_bytes = sum(
                int(size)
                for sw in context.service_workers
                for size in sw.evaluate("performance.getEntriesByType('resource').map((e) => e.transferSize)")
            )
            print(
                f"1. first visit: {mb(own + worker_bytes)} downloaded"
                f" ({mb(own)} by the page, {mb(worker_bytes)} by the service worker)"
            )

            server.stop()
            context.set_offline(True)
            page.close()
            page = context.new_page()  # a fresh document, its clock starting at the opening
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
            cdp.send("Performance.enable")
            page.goto(f"{server.url}/#/offline/classic/2?rounds=1")
            shown = until(page, HAND, 300)
            print(f"2. cached, offline: opening /#/offline/classic/2 to the first dealt hand: {shown / 1000:.2f} s")
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            before = json.loads(localbench.engine(args.seconds / 2))
            answer = page.evaluate(
                """([seconds, decisions]) => new Promise((resolve, reject) => {
                    let took = null;
                    const worker = new Worker('/static/js/offline-worker.js', { type: 'module' });
                    worker.onmessage = (event) => {
                      if (event.data.type === 'ready') {
                        took = event.data.took;
                        worker.postMessage({ type: 'bench', seconds, decisions });
                      } else if (event.data.type === 'bench') { resolve({ ...event.data, took }); worker.terminate(); }
                      else if (event.data.type === 'failed') reject(new Error(event.data.message));
                    };
                  })""",
                [args.seconds, args.decisions],
            )
            steps = ", ".join(f"{name} {ms / 1000:.2f} s" for name, ms in answer["took"].items())
            print(f"   a worker's start, step by step: {steps}")
            for level, figures in answer["bots"].items():
                print(
                    f"3. bot level {level} ({figures['bot']} in Pyodide):"
                    f" {figures['mean'] * 1000:.0f} ms a decision on average,"
                    f" {figures['max'] * 1000:.0f} ms at most"
                )
            after = json.loads(localbench.engine(args.seconds / 2))  # CPython just before and just after
            here = {k: before[k] + after[k] for k in ("decisions", "seconds")}
            there = answer["engine"]
            rate_there, rate_here = there["decisions"] / there["seconds"], here["decisions"] / here["seconds"]
            print(
                f"4. engine: {rate_there:,.0f} decisions/s in Pyodide (the throttled page's worker),"
                f" {rate_here:,.0f} in CPython (this process, just before and after)"
                f" {sys.version.split()[0]}: {rate_here / rate_there:.1f}x"
            )
            heap = metrics.get("JSHeapUsedSize", 0.0)
            print(
                f"5. memory: the page's JavaScript heap {mb(heap)}; a worker's WebAssembly memory {mb(answer['heap'])}"
            )
            browser.close()
    finally:
        server.stop()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
