"""The interactive replay viewer, driven headless."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot
from textual.widgets import Static

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.record import RecordingGame, Replay, Seat
from unokit.record.viewer import ReplayApp


def table_text(app: ReplayApp) -> str:
    return str(app.query_one("#table", Static).content)


def test_stepping_through_a_record_as_any_seat() -> None:
    game, _ = RecordingGame.new("flip", 3, 4, rounds=2, target=10_000)
    play_game(game, [make_bot("random", i) for i in range(3)])
    record = game.to_record([Seat(name, "bot", "random") for name in ("Ann", "Ben", "Cat")])
    replay = Replay(record)
    last = len(replay)

    async def scenario() -> None:
        app = ReplayApp(replay)
        async with app.run_test(size=(80, 24)) as pilot:
            assert "step 0 of" in table_text(app) and "seen by everyone" in table_text(app)
            await press(pilot, "right", "right", "left")
            assert app.step == 1 and "step 1 of" in table_text(app)
            await press(pilot, "1")
            assert app.seat == 1 and "seen by Ben (seat 1)" in table_text(app)
            await press(pilot, "9")
            assert app.seat == 1
            await press(pilot, "n")
            assert app.step == replay.round_starts()[1]
            await press(pilot, "end")
            assert app.step == last and "Game over" in table_text(app)
            await press(pilot, "o", "home")
            assert app.seat is None and app.step == 0

    asyncio.run(scenario())


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()
