"""Notifications when the page is closed, in Chromium: the page asks the browser for nothing
until the player turns the switch on; the service worker shows a pushed message (delivered to
the real worker through the DevTools Protocol, ``ServiceWorker.deliverPushMessage``, as the
browser does with what its push service sends) and a tap on it brings the player back to the
seat of the room it names, before the stand-in plays on."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from unokit.server.client import get_json
from unokit.server.features.push.keys import message

from ..server.support import ServerProcess
from .player import create_room, new_page, start_game, wait_for, wait_until
from .test_browser_pages import CONTRAST

NOTIFICATIONS = "navigator.serviceWorker.ready.then(r => r.getNotifications())"


def _controlled(page: Page, url: str) -> None:
    """Open ``url`` under the service worker (the first load installs it)."""
    page.goto(url)
    wait_until(page, "navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_until(page, "navigator.serviceWorker.controller !== null")


def _deliver(page: Page, origin: str, said: dict[str, str]) -> None:
    """Hand ``said`` to the page's service worker as its push service's message."""
    cdp = page.context.new_cdp_session(page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: found.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    end = time.monotonic() + 10
    while not found:
        assert time.monotonic() < end, "no service worker registration was reported"
        page.wait_for_timeout(50)
    registration = next(r for r in found if not r["isDeleted"])["registrationId"]
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": registration, "data": json.dumps(said)},
    )
    cdp.detach()


def _shown(page: Page, origin: str, said: dict[str, str]) -> None:
    """Deliver ``said`` until the page shows exactly one notification: a push service delivers
    again what was not received, and a message handed over while the worker was being started
    can be lost on a loaded machine (at most three deliveries, ten seconds each)."""
    for delivery in range(3):
        _deliver(page, origin, said)
        try:
            wait_until(page, f"{NOTIFICATIONS}.then(l => l.length === 1)", timeout=10)
            return
        except AssertionError:
            if delivery == 2:
                raise


def _arrives(page: Page, expression: str, timeout: float = 30.0) -> None:
    """Wait until ``expression`` is true in the page, which navigates meanwhile."""
    end = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(expression):
                return
        except PlaywrightError as exc:  # the page went on to the next one under the evaluation
            if "context was destroyed" not in str(exc):
                raise
        assert time.monotonic() < end, f"the page never satisfied {expression[:120]}"
        page.wait_for_timeout(50)


def _tap(page: Page) -> None:
    """Tap the notification the service worker shows (its ``notificationclick``)."""
    worker = next(w for w in page.context.service_workers if w.url.endswith("/sw.js"))
    worker.evaluate(
        "self.registration.getNotifications().then(list => {"
        " self.dispatchEvent(new NotificationEvent('notificationclick', { notification: list[0] }));"
        " return list.length; })"
    )


def test_nothing_is_asked_until_the_switch_is_turned_on(browser: Browser, web_server: ServerProcess) -> None:
    page = new_page(browser, "phone")
    try:
        _controlled(page, f"{web_server.url}/")
        assert page.evaluate("Notification.permission") == "default"  # no prompt when a page opens
        assert page.evaluate("navigator.serviceWorker.ready.then(r => r.pushManager.getSubscription())") is None
        page.click("#sound-button")
        wait_for(page, "#push-switch")
        assert page.get_attribute("#push-switch", "aria-checked") == "false"
        assert page.text_content("#push-state") == "Off: nothing is sent when the page is closed."
        assert page.locator(".push-kinds").count() == 0  # the kinds show once it is on
        found = page.evaluate(CONTRAST)  # WCAG AA in the open panel too
        assert found["checked"] >= 5 and found["unknown"] == 0 and found["low"] == [], found
    finally:
        page.context.close()


def test_a_tap_on_the_notification_brings_the_player_back_to_the_seat(
    browser: Browser, web_server: ServerProcess
) -> None:
    page = new_page(browser, "phone", permissions=["notifications"])
    try:
        _controlled(page, f"{web_server.url}/")
        timers = {"bot_seconds": "0.5", "catch_seconds": "0", "hand_pause_seconds": "0", "turn_seconds": "0"}
        code = create_room(page, web_server.url, name="Ann", variant="classic", players=2, bots=1, timers=timers)
        start_game(page)
        page.goto(f"{web_server.url}/")  # the table is left: a stand-in takes the seat after the grace time
        said = message("turn", "en", code, "classic", standin=True)
        _shown(page, web_server.url, said)
        shown = page.evaluate(f"{NOTIFICATIONS}.then(l => l.map(n => [n.title, n.body, n.data.url, n.tag]))")
        assert shown == [[said["title"], said["body"], f"/r/{code}", f"unokit-{code}"]]
        _tap(page)
        _arrives(page, f"location.pathname === '/r/{code}' && document.querySelector('.hand-card') !== null")
        wait_until(page, f"{NOTIFICATIONS}.then(l => l.length === 0)")  # the tap closed it
        assert len(page.context.pages) == 1  # the open window was used, no other opened
        info = get_json(web_server.url, f"/api/rooms/{code}")
        assert info["seats"][0]["name"] == "Ann" and info["away"] == [] and info["connected"][0]
        # Tapped again with the room shown: the same window, the same seat.
        _shown(page, web_server.url, message("turn", "en", code, "classic"))
        _tap(page)
        wait_until(page, f"{NOTIFICATIONS}.then(l => l.length === 0)")
        assert page.evaluate("location.pathname") == f"/r/{code}" and len(page.context.pages) == 1
    finally:
        page.context.close()


def test_a_tap_on_the_deal_of_the_day_s_notification_opens_the_deal_s_page(
    browser: Browser, web_server: ServerProcess
) -> None:
    from unokit.server.features.daily.deals import day_of, featured

    page = new_page(browser, "phone", permissions=["notifications"])
    try:
        _controlled(page, f"{web_server.url}/")
        day = day_of(time.time())
        deals = tuple(featured(day))
        said = message("daily", "en", day.isoformat(), "", deals=deals)
        _shown(page, web_server.url, said)
        shown = page.evaluate(f"{NOTIFICATIONS}.then(l => l.map(n => [n.title, n.body, n.data.url, n.tag]))")
        assert shown == [[said["title"], said["body"], f"/#/daily/{deals[0].key}", "unokit-daily"]]
        _tap(page)
        _arrives(page, f"location.hash === '#/daily/{deals[0].key}' && !!document.querySelector('.daily-board-page')")
        assert len(page.context.pages) == 1  # the open window was used
    finally:
        page.context.close()
