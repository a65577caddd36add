"""The deal of the day in a real browser: the lobby's panel (``data-region="daily"``) opens the
day's room and sits the reader in it; the board (``data-region="daily-board"``), a table's
standings (``data-region="standings"``), a leaderboard (``data-region="leaderboard"``) and the
ratings of My games, at a desk in English and on a phone in Russian; the others' games hidden
until the reader's own is over."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, Page

from unokit.i18n import catalog
from unokit.server.client import (
    RoomClient,
    create_room,
    daily_board,
    daily_start,
    new_identity,
    play,
    ratings_join,
)

from ..server.support import FAST, ServerProcess, choose, free_port, run
from .player import layout_problems, new_page, wait_for, wait_until

DEAL = "classic-2-random"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _finish(server: ServerProcess, player: str, name: str) -> str:
    """``player`` plays its scored attempt at the deal to the end (the Python client); returns
    the room's code."""

    async def body() -> str:
        started = daily_start(server.url, player, DEAL)
        client = await RoomClient.join(server.url, started["room"], name=name, player=player)
        final = await play(client, choose, timeout=120)
        await client.close()
        assert final["room"]["phase"] == "finished"
        # and one rated public game against a bot level, for the leaderboard
        ratings_join(server.url, player, f"{name} the Rated")
        room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST, public=True, bots=["easy"])
        rated = await RoomClient.join(server.url, room["room"], name=name, player=player)
        await rated.host("start", room["host_token"])
        assert (await play(rated, choose, timeout=120))["room"]["phase"] == "finished"
        await rated.close()
        return str(started["room"])

    # In a thread of its own: Playwright's event loop holds this one.
    with ThreadPoolExecutor(1) as pool:
        return str(pool.submit(run, body).result())


def _as(page: Page, server: ServerProcess, player: str, lang: str) -> None:
    """Make ``page`` this browser of ``player`` reading ``lang``."""
    page.goto(f"{server.url}/?lang={lang}")
    page.evaluate(f"localStorage.setItem('unokit.player', {json.dumps(player)})")


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_the_daily_panel_opens_the_days_room_and_the_board_at_a_desk_and_on_a_phone(
    browser: Browser, tmp_path: Path
) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        free_port(),
        ["--daily", "classic:2:random", "--daily-bot-seconds", "0.05", "--rate", "200", "--burst", "400"],
    ).start()
    gus = new_identity()
    desk = new_page(browser, "laptop")
    phone = new_page(browser, "phone")
    try:
        code = _finish(server, gus, "Gus")
        # at a desk, in English: the panel, then the room of the day's deal, seated
        desk.goto(f"{server.url}/?lang=en")
        wait_for(desk, '[data-region="daily"] li[data-deal] button')
        panel = desk.locator('[data-region="daily"]')
        assert "Classic UNO" in panel.inner_text() and "Random" in panel.inner_text()
        assert "A deal of the day is never rated" in panel.inner_text()
        desk.fill("#your-name", "Ann")
        panel.locator("button").first.click()
        desk.wait_for_url(f"{server.url}/r/*")
        wait_for(desk, ".table-root")
        ann = desk.evaluate("localStorage.getItem('unokit.player')")
        wait_until(desk, "document.querySelector('.table-root .seat[data-seat=\"1\"]')?.dataset.kind === 'bot'")
        mine = daily_board(server.url, DEAL, player=ann)["you"]
        assert mine["played"] and not mine["finished"]
        # the board: Gus's result, his game hidden until Ann's is over
        desk.goto(f"{server.url}/#/daily/{DEAL}")
        wait_for(desk, '[data-region="daily-board"] tbody tr')
        rows = desk.locator('[data-region="daily-board"] tbody tr')
        assert rows.count() == 1 and "Gus" in rows.first.inner_text()
        assert rows.first.locator("a").count() == 0
        assert desk.locator("button[data-deal]").inner_text() == "Back to your game"
        assert layout_problems(desk) == []
        _shot(desk, "daily_board_en-1280.png")
        # the leaderboard: Gus's one rated game leaves his rating provisional (docs/ratings.md), so
        # the board lists nobody yet, and says so; Ann (unrated) is nowhere either
        desk.goto(f"{server.url}/?lang=en#/leaderboard/classic/2")
        wait_for(desk, "#leaderboard-title ~ p.none")
        assert desk.locator('[data-region="leaderboard"]').count() == 0
        assert "Gus" not in desk.locator("main, #app").first.inner_text()
        assert layout_problems(desk) == []
        _shot(desk, "leaderboard_en-1280.png")
        # the standings of Gus's table, and their CSV
        desk.goto(f"{server.url}/?lang=en#/standings/{code}")
        wait_for(desk, '[data-region="standings"] tbody tr')
        assert desk.locator('[data-region="standings"] tbody tr').count() == 2
        assert "Gus" in desk.locator('[data-region="standings"]').inner_text()
        assert desk.locator("a.download").get_attribute("href") == f"/api/rooms/{code}/standings?format=csv"
        assert layout_problems(desk) == []
        # on a phone, in Russian, as a player who finished: the streak shown, the games still
        # sealed while the day runs (docs/daily.md), and said so
        _as(phone, server, gus, "ru")
        phone.goto(f"{server.url}/?lang=ru#/daily/{DEAL}")
        wait_for(phone, '[data-region="daily-board"] tbody tr')
        assert phone.evaluate("document.documentElement.lang") == "ru"
        assert phone.locator('[data-region="daily-board"] a').count() == 0
        text = phone.locator("main").inner_text()
        assert "Расклад дня" in text and "Ваша серия: 1 день подряд" in text
        assert "Партии дня откроются, когда день закончится." in text
        assert "Тренироваться" in phone.locator("button[data-deal]").inner_text()
        assert layout_problems(phone) == []
        _shot(phone, "daily_board_ru-390.png")
        phone.goto(f"{server.url}/?lang=ru#/standings/{code}")
        wait_for(phone, '[data-region="standings"] tbody tr')
        assert "Турнирная таблица" in phone.locator("h1").inner_text()
        assert layout_problems(phone) == []
        _shot(phone, "standings_ru-390.png")
        phone.goto(f"{server.url}/?lang=ru#/leaderboard/classic/2")
        wait_for(phone, "#leaderboard-title ~ p.none")  # Gus's rating is still provisional
        assert phone.locator('[data-region="leaderboard"]').count() == 0
        assert layout_problems(phone) == []
        _shot(phone, "leaderboard_ru-390.png")
        phone.goto(f"{server.url}/?lang=ru#/games")
        wait_for(phone, ".ratings-panel .rating-history li")
        ratings = phone.locator(".ratings-panel").inner_text()
        assert "Gus the Rated" in ratings
        # the number says what it is: its scale beside the bots', and why it is provisional
        said = catalog("ru")
        assert said.text("ratings.scale").split("{")[0] + "0,0" in ratings, ratings
        assert said.t("n.ratings.provisional", count=1, most=3) in ratings, ratings
        # his daily game in My games: no replay or record until the day ends, and when that is
        daily_row = phone.locator(f'table.games tr[data-room="{code}"]')
        assert daily_row.locator("a.download").count() == 0
        assert "повтор и запись откроются" in daily_row.locator(".sealed").inner_text()
        assert phone.locator(f'table.games tr:not([data-room="{code}"]) a.download').count() == 1  # the rated game
        assert layout_problems(phone) == []
        _shot(phone, "my_games_sealed_ru-390.png")
        phone.goto(f"{server.url}/?lang=ru")
        wait_for(phone, '[data-region="daily"] li[data-deal] .done')
        assert layout_problems(phone) == []
        _shot(phone, "daily_lobby_ru-390.png")
        # a newcomer reading Italian (a language of the catalogue's, as each is): the day's room is
        # asked for in it, so that its bots take Italian names
        _as(phone, server, new_identity(), "it")
        wait_for(phone, '[data-region="daily"] li[data-deal] button')
        phone.fill("#your-name", "Lia")
        with phone.expect_request(lambda request: request.url.endswith("/api/daily/start")) as asked:
            phone.locator('[data-region="daily"] button').first.click()
        assert json.loads(asked.value.post_data or "{}").get("lang") == "it"
        phone.wait_for_url(f"{server.url}/r/*")
    finally:
        for page in (desk, phone):
            page.context.close()
        server.stop()
