"""The terminal game with house rules (docs/play.md): the settings line, Jump-In on the J key out
of turn, the bots jumping, and the prompts and summaries the rules change."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from unokit.bots.base import Bot
from unokit.bots.heuristic import HeuristicBot
from unokit.core.variants import TEAM_TABLES
from unokit.play.app import SummaryScreen, TableScreen
from unokit.play.session import house_rules_line, summarize
from unokit.record import load_record, verify

from .support import ScriptBot, app_for, screen_text, session_from, settle, waiting

#: Colours for the other seats' hands (none can be played on the red 9 that starts).
_OTHERS = ("green", "yellow", "blue", "green", "yellow")


def three_classic(options: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """Seat 1 (a bot) is to play on a red 9; seat 0 is you."""
    position: dict[str, Any] = {
        "variant": "classic",
        "players": 3,
        "turn": 1,
        "color": "red",
        "hands": [["red 5", "blue 1", "blue 2"], ["red 5", "green 1", "green 2"], ["yellow 1", "yellow 2", "yellow 3"]],
        "discard": ["red 9"],
        "draw": ["green 5", "green 6", "green 7"],
        "seed": 2,
        "options": options,
    }
    position.update(fields)
    return position


def test_the_settings_line_names_the_house_rules_in_play() -> None:
    """A settings line under the header lists the active house rules; none with the official rules."""

    async def scenario(options: dict[str, Any]) -> str:
        app = app_for(lambda: session_from(three_classic(options, turn=0), ["You", ScriptBot(), ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            return screen_text(app)

    text = asyncio.run(scenario({"jump_in": True, "seven_o": True, "stacking": "progressive"}))
    assert "House rules: Stacking: progressive · Jump-In (J) · Seven-O" in text
    assert "House rules" not in asyncio.run(scenario({}))


def test_j_jumps_in_out_of_turn(tmp_path: Path) -> None:
    """H-1: the bot plays the red 5 you also hold; a window opens and J plays yours out of turn,
    before seat 2 acts; play goes on after you, and the record keeps the jump."""
    record = tmp_path / "jump.json"
    bot = ScriptBot(["play red 5"])

    async def scenario() -> None:
        app = app_for(
            lambda: session_from(three_classic({"jump_in": True}), ["You", bot, ScriptBot()], record=record),
            catch_window=60.0,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.window is not None)
            text = screen_text(app)
            assert "You hold the same Red 5: press J to jump in!" in text
            assert "J jump in" in text
            await pilot.press("j")
            await settle(pilot, lambda: waiting(app) or app.table.session.game.to_act == 1)
            text = screen_text(app)
            assert "You jumped in on the card of Bot1!" in text
            assert "You played Red 5" in text
            assert sorted(app.table.session.game.observe(0)["hand"]) == ["blue 1", "blue 2"]
            app.table.session.save()

    asyncio.run(scenario())
    saved = load_record(record)
    assert saved.actions[:2] == [(1, "play red 5"), (0, "play red 5")]
    assert verify(saved).ok


def test_a_bot_jumps_in_when_you_cannot() -> None:
    """H-1: seat 3's heuristic bot holds the red 5 seat 1 played, and jumps in before seat 2;
    play goes on after it, with you."""
    hands = [
        ["blue 1", "blue 2", "blue 3"],
        ["red 5", "green 1", "green 2"],
        ["green 3", "green 4", "green 6"],
        ["red 5", "yellow 1", "yellow 2"],
    ]

    async def scenario() -> None:
        seats: list[str | Bot] = ["You", ScriptBot(["play red 5"]), ScriptBot(), HeuristicBot(1)]
        app = app_for(lambda: session_from(three_classic({"jump_in": True}, players=4, hands=hands), seats))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            assert "Bot3 jumped in on the card of Bot1!" in screen_text(app)
            assert app.table.session.game.observe(0)["hand_sizes"] == [3, 2, 3, 2]

    asyncio.run(scenario())


def test_prompts_follow_the_house_rules() -> None:
    """H-2, H-4, H-5: a Seven-O swap is asked as such, the draw says it goes on until a card
    fits, and force play offers no keeping."""
    seven = session_from(
        three_classic({"seven_o": True, "draw_until_playable": True, "force_play": True}, turn=0),
        ["You", ScriptBot(), ScriptBot()],
    )
    prompt = seven.prompt(0)
    assert [c.label for c in prompt.choices] == ["Draw until a card fits"]
    swap = session_from(
        three_classic({"seven_o": True}, turn=0, hands=[["red 7", "blue 1", "blue 2"], ["green 1"], ["yellow 1"]]),
        ["You", ScriptBot(), ScriptBot()],
    )
    swap.apply("play red 7", 0)
    assert swap.prompt(0).message == "Seven: whom do you swap hands with?"
    hands = [["blue 1", "blue 2"], ["green 1"], ["yellow 1"]]
    forced = session_from(
        three_classic({"force_play": True}, turn=0, hands=hands, draw=["red 3"]), ["You", ScriptBot(), ScriptBot()]
    )
    forced.apply("draw", 0)
    prompt = forced.prompt(0)
    assert prompt.message.endswith("you must play it (force play)")
    assert [c.label for c in prompt.choices] == ["Play the Red 3"]


def test_the_round_summary_shows_the_teams() -> None:
    """H-6: the summary of a partners' game lists each team's total."""
    position = {
        "variant": "classic",
        "players": 4,
        "turn": 0,
        "color": "red",
        "hands": [["red 5"], ["green 1", "green 4"], ["yellow 1", "yellow 2"], ["blue 2", "blue 4"]],
        "discard": ["red 9"],
        "seed": 1,
        "options": {"teams": True, "rounds": 1},
    }
    names = ["Ann", "Bo", "Cy", "Dee"]
    assert (
        house_rules_line(session_from(position, names).game.options, names)
        == "House rules: Partners (Ann & Cy vs Bo & Dee)"
    )

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot(), ScriptBot(), ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            assert "Bot1 (script)" in screen_text(app) and "Bot2 (script) (partner)" in screen_text(app)
            await pilot.press("1", "enter")
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            text = screen_text(app)
            assert "Team You & Bot2" in text and "Team Bot1 & Bot3" in text
            assert "Game over: you and Bot2 won!" in text

    asyncio.run(scenario())
    events = session_from(position, names).apply("play red 5", 0).events
    summary = summarize("classic", names, events)
    assert summary is not None and summary.teams == [[0, 2], [1, 3]] and summary.team_scores == [5 + 6, 0]


@pytest.mark.parametrize("players", TEAM_TABLES)
def test_every_team_table_names_its_teams(players: int) -> None:
    """H-6 at every table size partners may sit at (4 and 6: two and three teams): the settings
    line names every team in every language, the terminal game starts with it, and the round
    summary lists each team's total."""
    hands = [["red 5"]] + [
        [f"{color} {n}", f"{color} {n + 1}"] for color, n in zip(_OTHERS[: players - 1], range(1, players), strict=True)
    ]
    position = {
        "variant": "classic",
        "players": players,
        "turn": 0,
        "color": "red",
        "hands": hands,
        "discard": ["red 9"],
        "seed": 1,
        "options": {"teams": True, "rounds": 1},
    }
    names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"][:players]
    half = players // 2
    teams = [f"{names[k]} & {names[k + half]}" for k in range(half)]
    versus = {"en": " vs ", "ru": " против ", "de": " gegen ", "es": " contra "}
    options = session_from(position, names).game.options
    for lang, word in versus.items():
        line = house_rules_line(options, names, lang)
        assert line.endswith(f"({word.join(teams)})"), line

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", *[ScriptBot() for _ in range(players - 1)]]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            assert "House rules: Partners (You & " in screen_text(app)
            await pilot.press("1", "enter")
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            text = screen_text(app)
            seats = ["You", *[f"Bot{i}" for i in range(1, players)]]
            for k in range(half):
                assert f"Team {seats[k]} & {seats[k + half]}" in text

    asyncio.run(scenario())
    summary = summarize("classic", names, session_from(position, names).apply("play red 5", 0).events)
    assert summary is not None and summary.teams == [[k, k + half] for k in range(half)]
    assert len(summary.team_scores) == half and summary.team_scores[0] > 0
