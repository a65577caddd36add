"""The page under the server's own Content-Security-Policy, in Chromium: a whole game and the
tools played with no violation reported; and a page of another site that tries the websocket and
room creation through its visitor's browser gets nothing."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import Browser, ConsoleMessage

from unokit.server.edge import CONTENT_SECURITY_POLICY

from ..server.support import ServerProcess
from .player import Clicker, create_room, play_to_the_end, start_game, wait_for

#: Runs before the page's own scripts (Playwright injects it, outside the policy): keeps every
#: violation the browser reports.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${where}`);
});
"""


def test_a_whole_game_and_the_tools_break_no_rule_of_the_policy(browser: Browser, web_server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    refused: list[str] = []
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            refused.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        response = page.goto(f"{web_server.url}/")
        assert response is not None and response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        create_room(page, web_server.url, name="Ann", variant="flip", players=2, bots=1)
        start_game(page)
        play_to_the_end([Clicker(page)])
        for tool in ("#/sheet", "#/launcher"):
            page.goto(f"{web_server.url}/{tool}")
            wait_for(page, "main#app > *")
        violations = page.evaluate("window.__violations")
    finally:
        context.close()
    assert violations == [] and refused == [], violations + refused
    assert errors == []


#: A page of another site: it tries the websocket and creating a room (as a plain-text form
#: post would, and as JSON), and says what it saw.
OTHER_SITE = """<!doctype html><title>another site</title><script>
window.done = (async () => {
  const target = "%(server)s";
  const socket = await new Promise((resolve) => {
    const ws = new WebSocket(target.replace("http", "ws") + "/ws");
    ws.onopen = () => resolve("open");
    ws.onerror = () => resolve("refused");
  });
  const body = JSON.stringify({variant: "classic", players: 2});
  // A "simple" request, as a plain form would post: the browser sends it without asking.
  const plain = {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body};
  await fetch(target + "/api/rooms", plain).catch(() => null);
  let json;
  try {
    const r = await fetch(target + "/api/rooms", {method: "POST", headers: {"Content-Type": "application/json"}, body});
    json = "answered " + r.status;
  } catch (e) { json = "blocked"; }
  return {socket, json};
})();
</script>"""


def _rooms(database: str) -> int:
    path = database.removeprefix("sqlite:///")
    with sqlite3.connect(Path(path)) as connection:
        return int(connection.execute("SELECT count(*) FROM rooms").fetchone()[0])


@contextmanager
def other_site(html: str) -> Iterator[str]:
    """A site of its own on another loopback address, serving ``html`` at ``/``; yields its URL."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.2", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.2:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_of_another_site_cannot_use_the_websocket_or_create_rooms(
    browser: Browser, web_server: ServerProcess
) -> None:
    context = browser.new_context()
    page = context.new_page()
    before = _rooms(web_server.database)
    try:
        with other_site(OTHER_SITE % {"server": web_server.url}) as site:
            page.goto(f"{site}/")
            seen = page.evaluate("window.done")
    finally:
        context.close()
    assert seen == {"socket": "refused", "json": "blocked"}
    assert _rooms(web_server.database) == before
