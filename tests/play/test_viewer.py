"""The interactive replay viewer, driven headless at 80x24: every key its bottom line names
works, and the table reads as the game does (cards by name, scores by player)."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual.pilot import Pilot

from unokit import i18n
from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.i18n import LANGUAGES
from unokit.i18n.lines import words
from unokit.play.viewer import KEYS_LINE, ReplayApp
from unokit.record import RecordingGame, Replay, Seat

from .support import screen_text


def a_replay(variant: str = "flip", rounds: int = 2) -> Replay:
    game, _ = RecordingGame.new(variant, 3, 4, rounds=rounds, target=10_000)
    play_game(game, [make_bot("random", i) for i in range(3)])
    return Replay(game.to_record([Seat(name, "bot", "random") for name in ("Ann", "Ben", "Cat")]))


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def test_every_key_of_the_bottom_line_works() -> None:
    replay = a_replay()
    last = len(replay)

    async def scenario() -> None:
        app = ReplayApp(replay)
        async with app.run_test(size=(80, 24)) as pilot:
            text = screen_text(app)
            assert text.splitlines()[-1].strip() == words().t(KEYS_LINE)  # one line in English
            assert "step 0 of" in text and "seen by everyone" in text and "The deal" in text
            await press(pilot, "right", "right", "left")
            assert app.step == 1 and "step 1 of" in screen_text(app)
            await press(pilot, "l", "space", "h")
            assert app.step == 2
            await press(pilot, "pagedown")
            assert app.step == 12
            await press(pilot, "pageup")
            assert app.step == 2
            await press(pilot, "1")
            assert app.seat == 1 and "seen by Ben" in screen_text(app)
            await press(pilot, "9")
            assert app.seat == 1  # there is no seat 9
            await press(pilot, "n")
            assert app.step == replay.round_starts()[1]
            await press(pilot, "p")
            assert app.step == 0
            await press(pilot, "end")
            assert app.step == last and "Game over: " in screen_text(app)
            await press(pilot, "o", "home")
            assert app.seat is None and app.step == 0
            view = app.query_one("#view")
            await press(pilot, "down", "down")
            assert view.scroll_y == 2 or view.max_scroll_y < 2
            await press(pilot, "up")
            assert view.scroll_y == min(1, view.max_scroll_y)
            await press(pilot, "q")
        assert app.return_code == 0

    asyncio.run(scenario())


@pytest.mark.parametrize("variant", ["classic", "flip", "attack", "flip_attack"])
def test_the_table_reads_as_the_game_does(variant: str) -> None:
    replay = a_replay(variant, rounds=1)

    async def scenario() -> None:
        app = ReplayApp(replay, step=len(replay))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert not re.search(r"\b(red|yellow|green|blue|pink|teal|orange|purple) \d/", text)  # no notation
            assert "[" not in text.replace("[UNO", "")  # no Python lists
            end = replay.events_at(len(replay))
            scores = next(e["scores"] for e in end if e["type"] == "round_end")
            assert f"scores: Ann {scores[0]}, Ben {scores[1]}, Cat {scores[2]}" in text
            assert ("SIDE" in text.splitlines()[0]) == (variant.startswith("flip"))
            await press(pilot, "home", "right")
            first = replay.action_at(1)
            assert first is not None
            assert f"Step 1: {replay.record.names[first[0]]}" in screen_text(app)
            await press(pilot, "0")
            shown = screen_text(app)
            assert "seen by Ann" in shown and "▶" in shown

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_at_80_columns_the_header_and_the_keys_are_whole_in_every_language(lang: str) -> None:
    """The longest title (UNO Flip «Трансформеры»), the side and whose eyes, and every key of
    the bottom line, each whole: on a second line where one line of 80 is too short."""
    i18n.use(lang)
    replay = a_replay("flip_transformers", rounds=1)

    async def scenario() -> None:
        app = ReplayApp(replay, step=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            lines = screen_text(app).splitlines()
            assert len(lines) == 24
            top = " ".join(lines[:2])
            assert words().t("viewer.seen_by", who=words().t("viewer.everyone")) in top, top
            bottom = lines[-2:]
            for item in words().t(KEYS_LINE).split(" · "):
                assert any(item in line for line in bottom), (item, bottom)

    asyncio.run(scenario())
