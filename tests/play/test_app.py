"""The terminal UI, driven headless with Textual's pilot at 80x24."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from unokit.bots.habits import ForgetfulBot, Habits
from unokit.play.app import PassScreen, PlayApp, QuitScreen, SummaryScreen, TableScreen
from unokit.play.session import Session
from unokit.record import load_record, verify

from .support import EAGER, ScriptBot, app_for, screen_text, session_from, settle, waiting

FLIP_HAND: dict[str, Any] = {
    "variant": "flip",
    "players": 2,
    "turn": 0,
    "color": "red",
    "options": {"rounds": 1},
    "hands": [
        ["wild/teal 3", "blue flip/purple 6", "yellow 3/purple 1", "wild_draw_two/purple 9"],
        ["wild_draw_two/orange 4", "green 7/teal 2", "red 2/orange reverse"],
    ],
    "discard": ["red 9/purple 5"],
    "draw": ["yellow 1/pink skip_everyone", "yellow 2/teal 1"],
    "seed": 1,
}


def test_a_whole_flip_hand_with_a_wild_a_challenge_and_a_flip(tmp_path: Path) -> None:
    record = tmp_path / "hand.json"
    bot = ScriptBot(["play wild_draw_two/orange 4 blue"])

    async def scenario() -> None:
        app = app_for(lambda: session_from(FLIP_HAND, ["You", bot], record=record))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            table = app.table
            text = screen_text(app)
            assert "LIGHT SIDE" in text
            assert "[3 ★ Wild]" in text  # legal cards are bracketed, with their symbol
            assert "● red circle" in text or "red ● circle" in text
            # 1. a wild: pick it, then name green in the colour prompt
            await pilot.press("3", "enter")
            assert table.submenu is not None
            assert "Wild: name the colour" in screen_text(app)
            assert "green ▲ triangle" in screen_text(app)
            await pilot.press("3")
            # 2. the bot bluffs a Wild Draw Two: we are asked whether to challenge
            await settle(pilot, lambda: waiting(app))
            assert table.prompt is not None and table.prompt.decision == "challenge"
            text = screen_text(app)
            assert "You played Wild — green ▲" in text
            assert "Bot1 played Wild Draw Two naming blue" in text
            await pilot.press("1")
            await settle(pilot, lambda: waiting(app))
            assert "You challenged Bot1: the challenge succeeded" in screen_text(app)
            # 3. a flip: the whole table turns to the dark side
            assert table.prompt is not None and table.prompt.decision == "turn"
            await pilot.press("2", "enter")
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)
            assert "DARK SIDE" in text
            assert "Flip! The dark side is up" in text
            assert "[1 ■ Purple 1]" in text
            # 4. down to one card with UNO, then out
            await pilot.press("u", "1", "enter")
            await settle(pilot, lambda: waiting(app))
            assert "You played Purple 1 — UNO!" in screen_text(app)
            await pilot.press("1", "enter")
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            text = screen_text(app)
            assert "Round 1: you went out  (cards counted on the dark side)" in text  # Flip: the side counts
            assert "How it ended:" in text and "You played Purple 1 — UNO!" in text.split("How it ended:")[1]
            assert "Game over: you won!" in text
            await pilot.press("q")
        assert app.return_value == record

    asyncio.run(scenario())
    saved = load_record(record)
    assert saved.seats[0].kind == "human" and saved.seats[1].kind == "bot"
    assert [text for _, text in saved.actions][:3] == [
        "play wild/teal 3 green",
        "play wild_draw_two/orange 4 blue",
        "challenge",
    ]
    assert verify(saved).ok


def two_player_classic(**fields: Any) -> dict[str, Any]:
    position: dict[str, Any] = {
        "variant": "classic",
        "players": 2,
        "turn": 0,
        "color": "red",
        "hands": [["red 5", "red 6", "blue 1"], ["red 7", "red 8", "green 3", "green 4"]],
        "discard": ["red 9"],
        "draw": ["yellow 1", "yellow 2", "yellow 3", "yellow 4"],
        "seed": 3,
    }
    position.update(fields)
    return position


def test_catching_a_bot_that_forgot_uno(tmp_path: Path) -> None:
    """The window stays open (60 s here) until we press C; the bot does not catch."""
    position = two_player_classic(turn=1, hands=[["red 5", "blue 1", "green 9"], ["red 7", "green 3"]])
    forgetful = ForgetfulBot(ScriptBot(["play red 7 uno"]), Habits(forget=1.0, catch=0.0, late_uno=0.0))

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", forgetful]), catch_window=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.window is not None)
            assert "Bot1 has one card and did not call UNO! Press C to catch Bot1!" in screen_text(app)
            await pilot.press("c")
            await settle(pilot, lambda: waiting(app))
            assert "You caught Bot1 without UNO" in screen_text(app)
            assert app.table.session.game.observe(0)["hand_sizes"] == [3, 3]

    asyncio.run(scenario())


def test_a_bot_catches_you_when_you_forget_uno() -> None:
    catcher = ScriptBot()

    async def scenario() -> None:
        app = app_for(lambda: session_from(two_player_classic(), ["You", catcher], habits=EAGER))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1", "enter")  # red 5, leaving two cards: no call needed
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1", "enter")  # down to one card, without pressing U first
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)
            assert "Bot1 caught you without UNO" in text
            assert re.search(r"You drew \w+ \w+, \w+ \w+ \(penalty for not calling UNO\)", text), text
            assert app.table.session.game.observe(0)["hand_sizes"][0] == 3

    asyncio.run(scenario())


def test_calling_uno_late_inside_the_window() -> None:
    careless = ScriptBot()

    async def scenario() -> None:
        position = two_player_classic(hands=[["red 5", "blue 1"], ["red 7", "red 8", "green 3", "green 4"]])
        app = app_for(lambda: session_from(position, ["You", careless]), catch_window=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1", "enter")
            await settle(pilot, lambda: app.table.window is not None)
            assert "You have one card and did not call UNO!" in screen_text(app)
            await pilot.press("u")
            await settle(pilot, lambda: waiting(app))
            assert "You said UNO!" in screen_text(app)

    asyncio.run(scenario())


def test_hot_seat_passes_the_device_and_hides_hands(tmp_path: Path) -> None:
    position = {
        "variant": "flip",
        "players": 3,
        "turn": 0,
        "color": "red",
        "hands": [
            ["red 7/orange 1", "blue 5/pink 9", "green 2/teal draw_five"],
            ["red 2/orange reverse", "yellow 3/purple 1", "green 7/teal 2"],
            ["red 1/pink 3", "yellow 5/teal 8"],
        ],
        "discard": ["red 9/purple 5"],
        "seed": 4,
    }

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["Ann", "Ben", ScriptBot()], record=tmp_path / "hs.json"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, PassScreen))
            assert "Pass the device to Ann" in screen_text(app)
            assert "Orange 1" not in screen_text(app) and "Red 7" not in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, lambda: waiting(app))
            assert "Red 7" in screen_text(app)  # Ann's own hand
            await pilot.press("enter")  # Ann plays her red 7 (the cursor starts on a legal card)
            await settle(pilot, lambda: isinstance(app.screen, PassScreen))
            text = screen_text(app)
            assert "Pass the device to Ben" in text
            for card in ("Blue 5", "Green 2", "Red 2", "Yellow 3", "Green 7"):
                assert card not in text
            await pilot.press("enter")
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)
            assert "Ben — 3 cards" in text and "Yellow 3" in text
            assert "Blue 5" not in text and "Green 2" not in text  # Ann's cards stay hidden
            assert "Ann played Red 7" in text

    asyncio.run(scenario())


def test_q_on_the_pass_the_device_screen_asks_and_quits_saving_the_game(tmp_path: Path) -> None:
    position = two_player_classic(turn=0)
    record = tmp_path / "pass.json"

    async def scenario() -> Path | None:
        app = app_for(lambda: session_from(position, ["Ann", "Ben"], record=record))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, PassScreen))
            assert "Q: quit" in screen_text(app)
            await pilot.press("q")
            await settle(pilot, lambda: isinstance(app.screen, QuitScreen))
            await pilot.press("n")  # back to the covered table: nothing shown
            await settle(pilot, lambda: isinstance(app.screen, PassScreen))
            assert "Red 5" not in screen_text(app)
            await pilot.press("q", "y")
        return app.return_value

    assert asyncio.run(scenario()) == record
    assert verify(load_record(record)).ok


def test_launcher_presses_and_trade_hands_in_attack() -> None:
    position = {
        "variant": "attack",
        "players": 3,
        "turn": 0,
        "color": "red",
        "options": {"launcher": "scripted", "launcher_script": [0, 2, 0, 0, 0, 0]},
        "hands": [
            ["red trade_hands", "red 1", "blue 2"],
            ["yellow 3", "yellow 4"],
            ["green 4", "green 5", "blue 6", "blue 7"],
        ],
        "discard": ["red 9"],
        "seed": 1,
    }

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot(), ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("d")  # press the launcher: nothing comes out
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)
            assert "You are pressing the launcher…" in text
            assert "pressed the launcher: nothing" in text
            assert "Launcher:" in text
            hand = app.table.prompt
            assert hand is not None
            trade = next(i for i, card in enumerate(hand.hand) if card.face == "red trade_hands")
            await pilot.press(str(trade + 1), "enter")
            await settle(
                pilot,
                lambda: waiting(app) and app.table.prompt is not None and app.table.prompt.decision == "choose_player",
            )
            assert "Trade hands with Bot2" in screen_text(app)
            await pilot.press("2")
            await settle(pilot, lambda: waiting(app))
            assert "You trades hands" not in screen_text(app)
            assert "You traded hands with Bot2" in screen_text(app)

    asyncio.run(scenario())


def test_wild_press_your_luck_and_a_discard_by_keyboard() -> None:
    position = {
        "variant": "flip_attack",
        "players": 2,
        "turn": 0,
        "color": "red",
        "options": {"launcher": "scripted", "launcher_script": [0, 0, 0]},
        "hands": [
            ["wild_press_your_luck/teal 3", "red 1/teal reverse", "red 3/pink 7"],
            ["red 4/pink 5", "red 2/pink flip"],
        ],
        "discard": ["red 4/teal 8"],
        "seed": 1,
    }

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("3", "enter")  # the Wild Press Your Luck (wilds sort last) ...
            assert "4 blue ■ square" in screen_text(app)
            await pilot.press("4")  # ... naming blue
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)  # before the first press: no "again"
            assert "Wild Press Your Luck: press the launcher, or stop now?" in text
            assert "1 Press the launcher   2 Stop here" in text
            await pilot.press("1")  # press: nothing comes out, so a card must go
            await settle(pilot, lambda: waiting(app))
            table = app.table
            assert table.prompt is not None and table.prompt.decision == "choose_discard"
            assert "discard one card" in screen_text(app)
            await pilot.press("1", "enter")
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)
            assert "You discarded Red 1" in text
            assert "press the launcher again? (discarded so far: Red 1)" in text
            assert "1 Press again   2 Stop here" in text
            await pilot.press("2")  # stop
            await settle(pilot, lambda: waiting(app))
            assert "You stopped pressing" in screen_text(app)

    asyncio.run(scenario())


def test_quitting_saves_an_unfinished_record_that_verifies(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"

    async def scenario() -> Path | None:
        app = app_for(lambda: session_from(two_player_classic(), ["You", ScriptBot()], record=record))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1", "enter")
            await settle(pilot, lambda: waiting(app))
            await pilot.press("q")
            await settle(pilot, lambda: isinstance(app.screen, QuitScreen))
            assert "Quit the game?" in screen_text(app)
            await pilot.press("n")
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.press("q", "y")
        return app.return_value

    assert asyncio.run(scenario()) == record
    saved = load_record(record)
    assert saved.result is not None and not saved.result.over
    assert len(saved.actions) >= 2
    assert verify(saved).ok


def test_the_next_round_follows_the_summary(tmp_path: Path) -> None:
    position = two_player_classic(options={"rounds": 2, "target": 10_000}, hands=[["red 5"], ["blue 1", "blue 2"]])

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot()], record=tmp_path / "r.json"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("enter")  # red 5: out at once
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            text = screen_text(app)
            assert "Round 1: you went out" in text and "Enter: next round" in text
            assert "■ Blue 1 (1), ■ Blue 2 (2)  = 3" in text
            assert re.search(r"You +\+3 +3 *\n", text), text
            await pilot.press("enter")
            await settle(pilot, lambda: isinstance(app.screen, TableScreen) and "round 2" in screen_text(app))
            assert "You — 7 cards, 3 pts" in screen_text(app)
            await pilot.press("q", "y")
        assert load_record(tmp_path / "r.json").result is not None

    asyncio.run(scenario())


def test_a_new_game_after_the_last_round(tmp_path: Path) -> None:
    games: list[Path] = []

    def factory() -> Session:
        games.append(tmp_path / f"game{len(games) + 1}.json")
        position = two_player_classic(options={"rounds": 1}, hands=[["red 5"], ["blue 1", "blue 2"]])
        return session_from(position, ["You", ScriptBot()], record=games[-1])

    async def scenario() -> PlayApp:
        app = PlayApp(factory, delay=0.0, catch_window=0.0, restart=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("enter")
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            assert "N: new game   Q: quit" in screen_text(app)
            await pilot.press("n")
            await settle(pilot, lambda: len(games) == 2 and waiting(app))
            assert app.table.session.game.round_number == 1
            await pilot.press("q", "y")
        return app

    app = asyncio.run(scenario())
    assert app.saved == [games[0]] and app.return_value == games[1]
    assert verify(load_record(games[0])).ok and verify(load_record(games[1])).ok


def test_ten_players_fit_in_80_by_24() -> None:
    from unokit.play.commands import make_setup

    from .support import CAREFUL

    setup = make_setup("flip", 10, "random," * 8 + "random", 2, [], [], CAREFUL, None)

    async def scenario() -> None:
        app = app_for(setup.session)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            lines = screen_text(app).splitlines()
            assert len(lines) == 24
            text = "\n".join(lines)
            for name in ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"):
                assert f"{name} (Random)" in text  # the bot by its name in words
            assert "You — " in text and "Q quit" in lines[-1]
            assert "Discard " in text and "Draw pile: " in text

    asyncio.run(scenario())


def test_a_table_of_bots_can_be_watched_with_hands_hidden() -> None:
    position = two_player_classic(options={"rounds": 1}, hands=[["red 5"], ["blue 1", "blue 2"]])

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, [ScriptBot(["play red 5"]), ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            assert "Bot0 went out" in screen_text(app)
            await pilot.press("q")
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))
            assert "(hands are hidden)" in screen_text(app)

    asyncio.run(scenario())


def test_letter_keys_act_in_capitals_too() -> None:
    """Shift+D (Textual's "D", as the keys line and the help show the key) draws as "d" does; it
    once did nothing."""
    position = two_player_classic(draw=["red 1"])

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("D")
            await settle(
                pilot,
                lambda: waiting(app) and app.table.prompt is not None and app.table.prompt.decision == "play_or_keep",
            )

    asyncio.run(scenario())


def test_menus_answer_to_the_arrow_keys() -> None:
    position = two_player_classic(draw=["red 1"])

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("d")
            await settle(
                pilot,
                lambda: waiting(app) and app.table.prompt is not None and app.table.prompt.decision == "play_or_keep",
            )
            text = screen_text(app)
            assert "1 Play the Red 1   2 Keep it" in text  # laid out in a row: ← → work as ↑ ↓
            assert text.splitlines()[-1].startswith("←→/1-9 choose · Enter ok")
            await pilot.press("down")
            assert app.table.menu_index == 1
            await pilot.press("up", "up")
            assert app.table.menu_index == 1
            await pilot.press("left")
            assert app.table.menu_index == 0
            await pilot.press("right")
            assert app.table.menu_index == 1
            await pilot.press("enter")
            await settle(pilot, lambda: waiting(app))
            assert "You kept the card" in screen_text(app)

    asyncio.run(scenario())
