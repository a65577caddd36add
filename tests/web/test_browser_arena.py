"""Arenas in a real browser (docs/arena.md) against a real server whose own sweep seats players in
real time: two strangers, each from an address of their own, join a running arena from the
lobby's panel (``data-region="arenas"``), wait on its page (``data-region="arena"``) until the
server gives them a table, are both seated at one, play its hand to the end, go back to the arena
from the table's end screen and are seated again; a visitor's arena page shows them both with
their points. A finished arena's page shows its podium, the reader's place and a streak in
words. The arena page is axe-clean on a phone and at a desk, in English and in Russian, and no
page of it asks the server faster than the address's look-ups allow."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Response
from sqlalchemy import update

from unokit.server.client import new_identity
from unokit.server.features import store_hooks
from unokit.server.features.arena import rows
from unokit.server.peers import identity_hash
from unokit.server.storage import Store

from ..server.support import ServerProcess, free_port
from .axe import violations
from .player import VIEWPORTS, Clicker, layout_problems, new_page, play_to_the_end, resized, wait_for, wait_until

TOKEN = "the-admin-token-of-the-arena-browser-test"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
#: The arena page's standings as the page draws them: each line's name and points.
STANDINGS = """() => [...document.querySelectorAll('[data-region=arena-standings] tbody tr')]
  .map(row => [row.querySelector('td.who').textContent, Number(row.querySelectorAll('td.num')[1].textContent)])"""


def _admin(server: ServerProcess, body: dict[str, Any]) -> dict[str, Any]:
    """Schedule an arena through ``POST /api/admin/arenas`` with the admin token."""
    request = urllib.request.Request(
        f"{server.url}/api/admin/arenas",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
        made: dict[str, Any] = json.loads(response.read())
        return made


def _person(browser: Browser, screen: str, address: str, refused: list[str]) -> Page:
    """A browser of its own, seen by the server at ``address`` (it believes the loopback proxy's
    header), whose every ``429`` answer is kept in ``refused``."""
    page = new_page(browser, screen, reduced_motion="reduce", extra_http_headers={"X-Forwarded-For": address})

    def answered(response: Response) -> None:
        if response.status == 429:
            refused.append(response.url)

    page.on("response", answered)
    return page


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def _join_from_the_lobby(page: Page, server: ServerProcess, arena: str, name: str) -> None:
    page.goto(f"{server.url}/?lang=en")
    wait_for(page, f"[data-region=arenas] li[data-arena='{arena}']")
    page.fill("#your-name", name)
    page.click(f"[data-region=arenas] .arena-join[data-arena='{arena}']")
    # the arena's page, or already the table it gave (a player free to sit with is seated at once)
    page.wait_for_url(lambda url: url.endswith(f"#/arena/{arena}") or "/r/" in url)


def _room_of(page: Page, other_than: str | None = None) -> str:
    """The room code of the table the page was taken to (waited for; ``other_than`` a table it
    left)."""
    page.wait_for_url(lambda url: "/r/" in url and not url.endswith(f"/r/{other_than}"))
    return page.url.split("/r/")[1].split("#")[0]


def _finished_arena(server: ServerProcess, reader: str) -> str:
    """An arena that ended a minute ago, with four players' lines written in the server's
    database as its games left them: Ann leads on a streak, the reader (``Dana``) is third."""
    store = Store(server.database, hooks=store_hooks())
    try:
        now = time.time()
        made = rows.new_arena({"name": "Last night", "variant": "flip", "players": 4, "starts": now - 3600}, now)
        arena = rows.create(store, made)
        lines = [("Ann", new_identity(), 12, 3, 2), ("Ben", new_identity(), 8, 2, 0), ("Dana", reader, 5, 1, 0)]
        lines.append(("Eve", new_identity(), 1, 0, 0))
        for number, (name, player, points, wins, streak) in enumerate(lines):
            hashed = identity_hash(player)
            rows.join(store, arena.id, hashed, name, f"mark{number}", arena.starts + 60)
            with store.begin() as c:
                key = (rows.arena_players.c.arena == arena.id) & (rows.arena_players.c.player == hashed)
                c.execute(
                    update(rows.arena_players)
                    .where(key)
                    .values(points=points, wins=wins, games=4, streak=streak, free_since=None)
                )
        with store.begin() as c:
            c.execute(update(rows.arenas).where(rows.arenas.c.id == arena.id).values(ends=now - 60))
        return arena.id
    finally:
        store.close()


def test_two_strangers_join_an_arena_from_the_lobby_play_their_table_and_see_the_standings(
    browser: Browser, tmp_path: Path
) -> None:
    (tmp_path / "token").write_text(TOKEN)
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        free_port(),
        # the hub sweeps (and so seats arena players) every half second; the look-ups are the
        # defaults, 20 a minute per address, which the pages must keep within
        ["--admin-token-file", str(tmp_path / "token"), "--trusted-proxy", "127.0.0.1", "--sweep", "0.5"],
    ).start()
    refused: list[str] = []
    # bots would fill a table only after two minutes: the two players are seated together
    evening = {"name": "Evening arena", "variant": "classic", "players": 2, "minutes": 30, "bot_wait": 120}
    arena = _admin(server, evening)
    ident = arena["id"]
    ann = _person(browser, "laptop", "198.51.100.1", refused)
    ben = _person(browser, "phone", "198.51.100.2", refused)
    visitor = _person(browser, "laptop", "198.51.100.3", refused)
    try:
        # Ann joins from the lobby's panel and waits: nobody else is free yet
        ann.goto(f"{server.url}/?lang=en")
        wait_for(ann, f"[data-region=arenas] li[data-arena='{ident}']")
        panel = ann.inner_text("[data-region=arenas]")
        assert "Evening arena" in panel and "Classic" in panel and "tables of 2" in panel, panel
        assert "Time left: 29:" in panel or "Time left: 30:00" in panel, panel
        assert "0 players joined" in panel, panel
        _shot(ann, "arena-lobby-desk-en.png")
        _join_from_the_lobby(ann, server, ident, "Ann")
        wait_for(ann, "[data-region=arena] .arena-waiting")
        assert ann.inner_text(".arena-waiting") == "Waiting for a table…"
        assert "Place 1 of 1" in ann.inner_text(".arena-line")
        wait_until(ann, "document.querySelector('tr.me td.who')?.textContent === 'Ann (you)'")
        _shot(ann, "arena-waiting-desk-en.png")
        # Ben joins from his phone's lobby: the next sweep seats them both at one table
        ben.goto(f"{server.url}/?lang=en")
        wait_for(ben, f"[data-region=arenas] li[data-arena='{ident}']")
        assert "1 player joined" in ben.inner_text("[data-region=arenas]")
        _shot(ben, "arena-lobby-phone-en.png")
        _join_from_the_lobby(ben, server, ident, "Ben")
        first = _room_of(ann)
        assert _room_of(ben) == first
        play_to_the_end([Clicker(ann), Clicker(ben)])
        # the end screen leads back to the arena, which seats them again at a table of their own
        wait_for(ben, ".overlay #back-to-arena")
        # one hand, then back to the arena: no Play again, and nobody is asked whether they will
        assert ben.locator(".overlay #play-again, .overlay .next-game, .overlay .ready-list").count() == 0
        _shot(ben, "arena-table-end-phone-en.png")
        for page in (ann, ben):
            page.click("#back-to-arena")
        second = _room_of(ann, other_than=first)
        assert second != first and _room_of(ben, other_than=first) == second
        # a visitor's arena page: both players with their points, and a way to join
        visitor.goto(f"{server.url}/?lang=en#/arena/{ident}")
        wait_until(visitor, f"({STANDINGS})().length === 2")
        standings = visitor.evaluate(STANDINGS)
        assert sorted(name for name, _ in standings) == ["Ann", "Ben"], standings
        assert [points for _, points in standings] == [2, 0], standings  # the winner's 2 counted
        assert visitor.locator("[data-region=arena] .arena-join").is_visible()
        assert "Classic UNO · tables of 2" in visitor.inner_text(".arena-facts")
        problems = [*violations(visitor, "arena desk en"), *layout_problems(visitor)]
        _shot(visitor, "arena-standings-laptop-en.png")
        for lang in ("ru", "en"):
            for screen in ("phone", "laptop"):
                if (lang, screen) == ("en", "laptop"):
                    continue  # checked above
                resized(visitor, VIEWPORTS[screen])
                visitor.goto(f"{server.url}/?lang={lang}#/arena/{ident}")
                wait_until(visitor, f"({STANDINGS})().length === 2")
                problems += [*violations(visitor, f"arena {screen} {lang}"), *layout_problems(visitor)]
                _shot(visitor, f"arena-standings-{screen}-{lang}.png")
        resized(visitor, VIEWPORTS["phone"])
        visitor.goto(f"{server.url}/?lang=ru")
        wait_for(visitor, f"[data-region=arenas] li[data-arena='{ident}']")
        problems += [*violations(visitor, "lobby phone ru"), *layout_problems(visitor)]
        _shot(visitor, "arena-lobby-phone-ru.png")
        assert problems == [], problems
        assert refused == [], refused
    finally:
        for page in (ann, ben, visitor):
            page.context.close()
        server.stop()


def test_a_finished_arena_shows_its_podium_the_readers_place_and_a_streak_in_words(
    browser: Browser, tmp_path: Path
) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", free_port(), []).start()
    dana = new_identity()
    ident = _finished_arena(server, dana)
    refused: list[str] = []
    page = _person(browser, "phone", "198.51.100.4", refused)
    try:
        page.goto(f"{server.url}/?lang=en")
        page.evaluate(f"localStorage.setItem('unokit.player', {json.dumps(dana)})")
        page.goto(f"{server.url}/?lang=en#/arena/{ident}")
        wait_for(page, ".arena-podium li")
        podium = page.locator(".arena-podium li").all_inner_texts()
        assert [line.split(" · ")[0] for line in podium] == ["Place 1 Ann", "Place 2 Ben", "Place 3 Dana (you)"], podium
        assert page.inner_text(".arena-result") == "You finished: Place 3 of 4, with 5 pts."
        assert page.inner_text(".arena-clock") == "The arena is over"
        leader = page.locator("[data-region=arena-standings] tbody tr").first.inner_text()
        assert "on a streak: points doubled" in leader, leader
        assert page.inner_text("[data-region=arena-standings] tr.me td.who") == "Dana (you)"
        assert page.locator("[data-region=arena] .arena-join").count() == 0  # over: nobody joins
        problems = [*violations(page, "finished arena phone en"), *layout_problems(page)]
        _shot(page, "arena-podium-phone-en.png")
        page.goto(f"{server.url}/?lang=ru#/arena/{ident}")
        wait_for(page, ".arena-podium li")
        assert "3-е место из 4" in page.inner_text(".arena-result")  # noqa: RUF001 - Russian
        problems += violations(page, "finished arena phone ru")
        _shot(page, "arena-podium-phone-ru.png")
        assert problems == [] and refused == [], (problems, refused)
    finally:
        page.context.close()
        server.stop()
