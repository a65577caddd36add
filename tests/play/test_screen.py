"""What a new player sees at 80x24 in every variant, checked through Textual's pilot item by
item: sides, keys and help, big hands, UNO badges, the FLIP notice, the challenged hand, the
log and the round summary."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import unokit
from unokit import i18n
from unokit.bots.habits import ForgetfulBot, Habits
from unokit.core.game import Game
from unokit.core.variants import VARIANTS
from unokit.i18n import LANGUAGES
from unokit.play import faces, look
from unokit.play.app import HelpScreen, NoticeScreen, PassScreen, SummaryScreen, TableScreen, help_rules, key_number
from unokit.play.commands import make_setup
from unokit.play.help import rules_summary, whole_words
from unokit.play.session import Session

from .support import CAREFUL, ScriptBot, app_for, screen_text, session_from, settle, waiting
from .test_app import FLIP_HAND, two_player_classic


def dealt(variant: str, tmp_path: Path, seed: int = 3) -> Session:
    """A two-player game of ``variant`` against a random bot, dealt as ``unokit play`` does."""
    return make_setup(variant, 2, "random", seed, [], [], CAREFUL, tmp_path / "game.json").session()


def grown(variant: str, cards: int, players: int, seed: int = 5) -> dict[str, Any]:
    """A position of ``variant`` where seat 0 is to play and holds ``cards`` cards."""
    position = unokit.new_game(variant, players, seed=seed).to_position()
    while len(position["hands"][0]) < cards:
        position["hands"][0].append(position["draw"].pop())
    position["turn"] = 0
    position["pending"] = {"kind": "turn", "seat": 0}
    return position


def line_of(text: str, start: str) -> str:
    """The first line of the screen that starts with ``start`` (indentation and the trailing
    blanks of the screen left out)."""
    return next(line.strip() for line in text.splitlines() if line.lstrip().startswith(start))


# ----------------------------------------------------------------------- every variant


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_shows_its_own_table_keys_and_help(variant: str, tmp_path: Path) -> None:
    rules = VARIANTS[variant]

    async def scenario() -> None:
        app = app_for(lambda: dealt(variant, tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            assert app.table.prompt is not None and app.table.prompt.decision == "turn"
            text = screen_text(app)
            lines = text.splitlines()
            assert len(lines) == 24
            sides = [f"{name.upper()} SIDE" for name in rules.side_names]
            if rules.double_sided:
                assert sides[0] in lines[0]
            else:  # Classic and Attack have one side: no side is named anywhere
                assert not any(side in text for side in sides) and not re.search(r"\bside\b", text, re.IGNORECASE)
            verb, offer = ("press", "or press the launcher") if rules.uses_launcher else ("draw", "or draw")
            assert f"Your turn: play a card {offer}" in text
            keys = " ".join(lines[-2:])  # the keys' line, and the line above (theirs when they take two)
            assert f"· D {verb} ·" in keys and "1-9,0 pick" in keys and "? help" in keys
            assert "· H hint ·" in keys  # a game against a bot offers hints (the key was left out at 80 columns)
            await pilot.press("question_mark")
            await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
            shown = screen_text(app)
            assert "Keys" in shown and "1 … 9, 0" in shown and f"{rules.title} in short" in shown
            assert f"{rules.title}: 2 players (the variant takes {rules.min_players} to {rules.max_players})" in shown
            await pilot.press("escape")
            await settle(pilot, lambda: isinstance(app.screen, TableScreen))

    asyncio.run(scenario())


def test_the_help_reads_the_rules_from_the_engine() -> None:
    flip = rules_summary(Game.new("flip", 3, 1, stacking="true")[0], legend=True)
    light = (
        "  On the light side: 1 to 9 (face value), Skip 20, Reverse 20, Draw One 10, Flip 20, Wild 40, Wild Draw Two 50"
    )
    assert light in flip
    assert "The next player may challenge a Wild Draw Two or a Wild Draw Color." in flip
    assert "Stacking is on: a Draw One or a Draw Five may be answered with the same card." in flip
    classic = rules_summary(Game.new("classic", 2, 1, scoring="loser", rounds=3)[0], legend=True)
    assert classic[-1] == (
        "Scoring (everyone under the target wins): everyone scores the points left in their own hand; "
        "once someone reaches 200 points, "
        "everyone still under 200 wins; the game ends after 3 rounds at the latest (the best total wins)."
    )
    assert "  0 to 9 (face value), Skip 20, Reverse 20, Draw Two 20, Wild 50, Wild Draw Four 50" in classic
    attack = rules_summary(Game.new("attack", 2, 1)[0])
    assert not any("challenge" in line or "Stacking" in line or "side" in line for line in attack)
    assert "press the launcher" in attack[1]
    # The terminal's legend: the marks each deck's cards print (core/colors.py), said with the
    # other decks' where they differ, and on a double-sided deck the short codes of the other
    # hands' backs; the browser's help (no legend asked) has its own and gets none of these.
    assert "Colour marks on these cards: ● red/pink, ◆ yellow/orange, ▲ green/teal, ■ blue/purple, ★ Wild." in flip
    assert "Each deck keeps the marks printed on its cards: on Classic UNO and UNO Attack, ★ yellow, ❖ Wild." in flip
    assert "Colour marks on these cards: ● red, ★ yellow, ▲ green, ■ blue, ❖ Wild." in classic
    assert not any("Colour marks" in line for line in rules_summary(Game.new("classic", 2, 1)[0]))
    assert "Each deck keeps the marks printed on its cards: on the UNO Flip decks, ◆ yellow, ★ Wild." in classic
    backs = next(line for line in flip if line.startswith("The other hands' backs are shown in short"))
    assert "SE Skip Everyone" in backs and "W+C Wild Draw Color" in backs and "+1 Draw One" in backs
    assert not any("backs" in line for line in classic + attack)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_help_never_breaks_a_card_at_80_columns(lang: str) -> None:
    """The help's lines flow over the width the help box has at 80 columns without breaking a
    card's title or a card with its points (German's «Zieh zwei Farbenwahlkarte 50» broke in
    two), and every line of the summary is there."""
    i18n.use(lang)
    game = Game.new("flip_transformers", 3, 1)[0]
    console = Console(width=74, record=True, color_system=None)
    console.print(help_rules(game))
    shown = console.export_text()
    lines = shown.splitlines()
    said = "\n".join(rules_summary(game, legend=True))
    whole = [name for name in whole_words(game) if name in said]
    assert len(whole) > 10
    for name in whole:
        assert any(name in line for line in lines), f"{name!r} is broken:\n{shown}"
    # Every line is there whole once its wrapping is undone (Chinese wraps with no space to undo).
    flat = re.sub(r"\s+", "", shown)
    for line in rules_summary(game, legend=True):
        assert re.sub(r"\s+", "", line) in flat, line


# ----------------------------------------------------------------------- a big hand


@pytest.mark.parametrize(("variant", "cards", "players"), [("attack", 45, 4), ("flip_attack", 40, 6), ("flip", 30, 10)])
def test_a_big_hand_keeps_the_picked_card_in_view(variant: str, cards: int, players: int) -> None:
    """Walking through a hand taller than the screen, the picked card's row is always on
    screen and named under the hand, and the cards out of view are counted."""
    position = grown(variant, cards, players)

    async def scenario() -> None:
        seats: list[str | ScriptBot] = ["You", *(ScriptBot() for _ in range(players - 1))]
        app = app_for(lambda: session_from(position, seats))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            table = app.table
            assert table.prompt is not None
            hand = table.prompt.hand
            assert len(hand) == cards
            await pilot.press("home")
            counted_above = counted_below = False
            for index, card in enumerate(hand):
                assert table.cursor == index
                text = screen_text(app)
                lines = text.splitlines()
                assert len(lines) == 24 and "Q quit" in lines[-1]
                title = line_of(text, "You — ")
                counted_above = counted_above or bool(re.search(r"▲ \d+ more", title))
                counted_below = counted_below or bool(re.search(r"▼ \d+ more", title))
                row = next(r for r in table.hand_layout if index in r)
                chips = [
                    look.chip(hand[i].face, index=key_number(i), playable=hand[i].legal, marked=True).plain for i in row
                ]
                assert " ".join(chips).rstrip() in [line.rstrip() for line in lines], f"card {index + 1}:\n{text}"
                (named,) = [line.strip() for line in lines if line.rstrip().endswith(("playable", "be played now"))]
                assert named.startswith(faces.label(card.face))
                assert named.endswith("  playable" if card.legal else "  cannot be played now")
                await pilot.press("right")
            assert counted_above and counted_below

    asyncio.run(scenario())


def test_cards_are_numbered_as_their_keys_and_rows_answer_up_and_down() -> None:
    position = grown("classic", 14, 2)

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            table = app.table
            assert table.prompt is not None
            hand = table.prompt.hand
            text = screen_text(app)
            tenth = look.chip(hand[9].face, index=0, playable=hand[9].legal, marked=True).plain
            eleventh = look.chip(hand[10].face, index=None, playable=hand[10].legal, marked=True).plain
            assert tenth in text and eleventh in text  # the tenth is 0; the later cards have no key
            assert not re.search(r"\b1[0-4] [●◆▲■★]", text)  # no "11 ● Red 5": two keys would be needed
            await pilot.press("0")
            assert table.cursor == 9
            await pilot.press("home", "down")
            assert table.cursor == table.hand_layout[1][0]
            await pilot.press("up")
            assert table.cursor == 0

    asyncio.run(scenario())


# ----------------------------------------------------------------------- UNO


def test_the_uno_badge_shows_only_a_call_that_was_made() -> None:
    position = {
        "variant": "classic",
        "players": 3,
        "turn": 1,
        "color": "red",
        "hands": [["blue 1", "blue 2", "green 9"], ["red 7", "green 3"], ["red 8", "green 4", "yellow 5"]],
        "discard": ["red 9"],
        "seed": 2,
    }
    careful = ScriptBot(["play red 7 uno"])
    forgetful = ForgetfulBot(ScriptBot(["play red 7 uno"]), Habits(forget=1.0, late_uno=0.0, catch=0.0))

    async def opponent_line(bot: ScriptBot | ForgetfulBot) -> str:
        app = app_for(lambda: session_from(position, ["You", bot, ScriptBot()]), catch_window=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app) or app.table.window is not None)
            return line_of(screen_text(app), "Bot1")

    called = asyncio.run(opponent_line(careful))
    assert re.search(r"1 card +0 pts  UNO!", called), called
    forgot = asyncio.run(opponent_line(forgetful))
    assert re.search(r"1 card +0 pts  forgot UNO!", forgot) and "pts  UNO!" not in forgot, forgot


# ----------------------------------------------------------------------- flips and challenges


def test_the_flip_notice_leaves_the_question_in_view() -> None:
    bot = ScriptBot(["play wild_draw_two/orange 4 blue"])

    async def scenario() -> None:
        app = app_for(lambda: session_from(FLIP_HAND, ["You", bot]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("3", "enter", "3")  # a wild, naming green
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1")  # challenge the Wild Draw Two
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)
            assert "You challenged Bot1: the challenge succeeded; Bot1's hand: Red 2, Green 7" in text
            await pilot.press("2", "enter")  # the Blue Flip
            await settle(pilot, lambda: waiting(app))
            lines = [line.strip() for line in screen_text(app).splitlines()]
            prompt = lines.index("Your turn: play a card or draw   D: Draw a card")  # the question, whole
            assert lines[prompt + 1] == "⟳ FLIP: everything is now on the dark side"
            assert sum("FLIP" in line for line in lines) == 1  # no notice over the prompt or the log

    asyncio.run(scenario())


def test_in_hot_seat_the_challenger_alone_sees_the_challenged_hand() -> None:
    position = {
        "variant": "flip",
        "players": 2,
        "turn": 0,
        "color": "red",
        "hands": [
            ["wild_draw_two/orange 4", "red 2/orange reverse", "green 7/teal 2"],
            ["red 7/orange 1", "blue 5/pink 9"],
        ],
        "discard": ["red 9/purple 5"],
        "seed": 4,
    }

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["Ann", "Ben"]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, PassScreen))
            await pilot.press("enter")
            await settle(pilot, lambda: waiting(app))
            table = app.table
            assert table.prompt is not None
            wild = next(i for i, card in enumerate(table.prompt.hand) if card.face == "wild_draw_two")
            await pilot.press(str(wild + 1), "enter", "4")  # Wild Draw Two naming blue
            await settle(pilot, lambda: isinstance(app.screen, PassScreen))
            await pilot.press("enter")
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1")  # Ben challenges
            await settle(pilot, lambda: isinstance(app.screen, NoticeScreen))
            notice = app.screen
            assert isinstance(notice, NoticeScreen)
            assert notice.message == "Ben challenged Ann: the challenge succeeded; Ann's hand: Red 2, Green 7"
            assert "Ann's hand: Red 2," in screen_text(app)
            await pilot.press("enter")  # the bluff was caught: Ben plays on, and the shared log
            await settle(pilot, lambda: waiting(app))  # (on screen for Ann later) keeps the hand
            text = screen_text(app)
            assert line_of(text, "Ben challenged Ann") == "Ben challenged Ann: the challenge succeeded"
            assert "hand:" not in text and "Red 2" not in text

    asyncio.run(scenario())


# ----------------------------------------------------------------------- the log and the summary


def test_the_log_follows_the_new_round_and_the_summary_shows_how_the_round_ended() -> None:
    position = two_player_classic(options={"rounds": 3, "target": 10_000}, hands=[["red 5"], ["blue 1", "blue 2"]])

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            for number in range(40):  # a long log, as after many turns
                app.table.log_lines([f"an earlier line {number}"])
            await pilot.press("enter")
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            text = screen_text(app)
            assert line_of(text, "Round 1:") == "Round 1: you went out"  # Classic: no side named
            ending = text.split("How it ended:", 1)[1].split("Scores", 1)[0]
            assert "You played Red 5" in ending and "Round 2" not in ending
            assert "Enter: next round" in text.splitlines()[-1]
            await pilot.press("enter")
            await settle(pilot, lambda: isinstance(app.screen, TableScreen) and waiting(app))
            await pilot.pause()
            log = screen_text(app).split("Your turn", 1)[1]
            assert "— Round 2 —" in log and "First card:" in log

    asyncio.run(scenario())
