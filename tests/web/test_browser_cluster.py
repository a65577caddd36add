"""The browser client in a cluster: two ``unokit serve`` processes on one PostgreSQL database.
The page opens the room at the process that does not run it, under the server's
Content-Security-Policy: the server's redirect names the owner at another origin, which the
policy forbids the page to connect to, so the page says so and is served where it is (by the
process that follows the room), with no violation of the policy; when the owner is killed
mid-game, the process serving the page takes the room over and the page plays on to the end
with its hand."""

from __future__ import annotations

import contextlib
import json
import signal
import time
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from unokit.server.client import create_room, ws_url

from ..server.conftest import postgres  # noqa: F401 - the PostgreSQL fixture
from ..server.support import FAST, PostgresCluster, ServerProcess, free_port
from .player import (
    YOUR_TURN,
    Clicker,
    hand,
    is_over,
    join_room,
    play_to_the_end,
    start_game,
    until_your_turn,
    wait_for,
    wait_until,
    watched,
)

#: The process that runs the room, and the other one.
Pair = tuple[ServerProcess, ServerProcess]


def _get(server: ServerProcess, path: str) -> dict[str, str]:
    with urllib.request.urlopen(f"{server.url}{path}", timeout=5) as response:
        answer: dict[str, str] = json.loads(response.read())
        return answer


@pytest.fixture
def two_processes(postgres: PostgresCluster) -> Iterator[Pair]:  # noqa: F811
    with _pair(postgres) as pair:
        yield pair


@contextlib.contextmanager
def _pair(postgres: PostgresCluster, *args: str) -> Iterator[Pair]:  # noqa: F811
    """Two processes with ``args`` on a new database, started together; stopped at the end."""
    database = postgres.new_database()
    servers = [ServerProcess(database, free_port(), list(args)).launch() for _ in range(2)]
    try:
        yield servers[0].wait(), servers[1].wait()
    finally:
        for server in servers:
            server.stop()


def test_the_page_is_served_where_it_is_and_plays_on_after_a_takeover(browser: Browser, two_processes: Pair) -> None:
    owner, other = two_processes
    room = create_room(owner.url, "classic", 2, options={"rounds": 1}, settings={**FAST, "bot_seconds": 0.05})
    code = room["room"]
    assert _get(owner, f"/api/rooms/{code}")["served_by"] == _get(owner, "/api/health")["node"]  # it runs the room
    page = watched(browser.new_context(viewport={"width": 1280, "height": 800})).new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(f"{other.url}/")
        page.evaluate(f"localStorage.setItem('unokit.host.{code}', {json.dumps(room['host_token'])})")
        join_room(page, other.url, code, "Ann")
        # Told of the owner at another origin, the page is served here instead of breaking the
        # policy (conftest.py fails the test on any violation).
        assert sockets == [ws_url(other.url), ws_url(other.url)]
        page.click("[data-verb='add-bot']")
        start_game(page)
        until_your_turn(page)
        before = sorted(hand(page))
        owner.kill()
        # The process that serves the page takes the room over: the page plays on, still
        # connected where it was, with its hand.
        wait_until(page, YOUR_TURN)
        assert sorted(hand(page)) == before
        assert sockets[-1] == ws_url(other.url)
        play_to_the_end([Clicker(page)], timeout=120)
        assert is_over(page)
        assert _get(other, f"/api/rooms/{code}")["served_by"] == _get(other, "/api/health")["node"]
    finally:
        page.context.close()


def test_a_join_the_busy_owner_answers_late_still_seats_the_page(
    browser: Browser,
    postgres: PostgresCluster,  # noqa: F811
) -> None:
    """The owner is stopped (SIGSTOP: alive, its lease held, silent) while a page joins at the
    other process: that process forwards the hello and, after the forward timeout, answers
    ``unavailable``. The page stays connected; once the owner runs again it seats the player,
    and its late welcome reaches the page, which is seated as that player. (A page that closed
    and said hello again would find its name taken by the seat its first hello got.)"""
    # A long lease: the stopped owner keeps its room, so the answer must come from it.
    with _pair(postgres, "--lease", "60") as (owner, other):
        _join_while_the_owner_is_stopped(browser, owner, other)


def _join_while_the_owner_is_stopped(browser: Browser, owner: ServerProcess, other: ServerProcess) -> None:
    page = watched(browser.new_context(viewport={"width": 1280, "height": 800})).new_page()
    received: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: received.append(str(frame))))
    try:
        room = create_room(owner.url, "classic", 2, settings=FAST)
        assert _get(owner, f"/api/rooms/{room['room']}")["served_by"] == _get(owner, "/api/health")["node"]
        page.goto(f"{other.url}/r/{room['room']}")
        page.fill("#join-name", "Ann")
        assert owner.proc is not None
        owner.proc.send_signal(signal.SIGSTOP)
        try:
            page.click("#join-player")
            end = time.monotonic() + 60
            while not any('"unavailable"' in frame for frame in received):  # the hello went unanswered
                assert time.monotonic() < end, "the forwarded hello was never answered unavailable"
                page.wait_for_timeout(50)
        finally:
            owner.proc.send_signal(signal.SIGCONT)
        wait_for(page, ".waiting > ol.seat-list > li.seat-line.me")  # the page's own seat
        assert "Ann" in page.locator(".waiting > ol.seat-list > li.seat-line.me").inner_text()
    finally:
        page.context.close()
