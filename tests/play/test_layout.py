"""The terminal game's layout at 80x24 and 100x30: every answer of every prompt in view (in every
language: Russian and German words are longer), no card broken across two lines (in the hand, after a
resize, and in the round summary), a log that keeps the last moves in view and shows the whole
game on L, and "1 card"."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import RichLog, Static

import unokit
from unokit import i18n
from unokit.i18n import LANGUAGES
from unokit.play import faces
from unokit.play.app import LogScreen, PlayApp, SummaryScreen, TableScreen
from unokit.play.commands import make_setup
from unokit.play.session import Choice, Session

from .support import CAREFUL, ScriptBot, app_for, screen_text, session_from, settle, waiting

#: Every language at the narrowest size, where its longer words must still fit, and English at
#: the larger one.
SCREENS = [((80, 24), lang) for lang in LANGUAGES] + [((100, 30), "en")]


def screen_id(screen: tuple[tuple[int, int], str]) -> str:
    (width, height), lang = screen
    return f"{width}x{height}-{lang}"


def table(variant: str, mine: list[str], discard: str, others: list[int], **fields: Any) -> dict[str, Any]:
    """A position: seat 0 holds ``mine``, the other seats hold ``others[k]`` cards each, the
    first of the deck that are not named."""
    free = unokit.deck_cards(variant)
    for card in [*mine, discard]:
        free.remove(card)
    hands = [mine]
    for count in others:
        hands.append(free[:count])
        del free[:count]
    return {"variant": variant, "players": len(hands), "turn": 0, "hands": hands, "discard": [discard], **fields}


#: Menu prompts with the most answers: a drawn wild, a challenge with a card to pass on
#: (stacking=progressive, H-3), the colour of a Flip wild, Press Your Luck, and Trade Hands with
#: nine others (one of them holding one card).
FLIP_HAND = ["red 1/pink 3", "red 7/orange 1", "yellow 1/wild", "yellow reverse/wild", "blue 5/pink 9"]
FLIP_HAND += ["wild/teal 3", "wild/purple 7", "wild_draw_two/purple 9"]
MENUS: dict[str, dict[str, Any]] = {
    "play_or_keep": table(
        "flip",
        FLIP_HAND,
        "yellow 2/teal 1",
        [7, 7, 7],
        color="yellow",
        pending={"kind": "play_or_keep", "seat": 0, "card": "wild_draw_two/purple 9"},
        seed=258,
    ),
    "challenge": table(
        "classic",
        ["wild_draw_four", "red 2", "blue 3"],
        "wild_draw_four",
        [2, 2, 2],
        color="blue",
        options={"stacking": "progressive"},
        stack=4,
        pending={
            "kind": "challenge",
            "seat": 0,
            "by": 3,
            "card": "wild_draw_four",
            "color": "blue",
            "previous_color": "red",
            "fair": False,
        },
        seed=1,
    ),
    "choose_color": table(
        "flip",
        ["red 1/pink 3", "red 7/orange 1"],
        "red 3/wild_draw_color",
        [2, 2, 2],
        side="dark",
        color=None,
        pending={"kind": "choose_color", "seat": 0},
        seed=1,
    ),
    "press_your_luck": table(
        "flip_attack",
        ["red 1/teal reverse", "red 3/pink 7"],
        "wild_press_your_luck/teal 3",
        [2, 2, 1],
        color=None,
        options={"launcher": "scripted", "launcher_script": [0, 0, 0]},
        pending={"kind": "press_your_luck", "seat": 0, "discarded": ["red 4/pink 5"]},
        seed=1,
    ),
    "choose_player": table(
        "attack",
        ["red 1", "blue 2"],
        "red trade_hands",
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
        color="red",
        pending={"kind": "choose_player", "seat": 0},
        seed=1,
    ),
}


def seats(position: dict[str, Any]) -> list[str | ScriptBot]:
    return ["You", *[ScriptBot() for _ in range(position["players"] - 1)]]


def lines_of(app: PlayApp) -> list[str]:
    return screen_text(app).splitlines()


def assert_answers_in_view(app: PlayApp, choices: list[Choice], size: tuple[int, int]) -> None:
    """Every answer is on the screen whole (on one line), and the keys line is the last one,
    whole."""
    lines = lines_of(app)
    assert len(lines) == size[1]
    for number, choice in enumerate(choices, start=1):
        answer = f"{number} {choice.label}"
        assert any(answer in line for line in lines), f"{answer!r} is not in view:\n" + "\n".join(lines)
    assert lines[-1].rstrip().endswith(i18n.catalog().t("play.key_quit_short")), lines[-1]


@pytest.mark.parametrize("screen", SCREENS, ids=screen_id)
@pytest.mark.parametrize("decision", sorted(MENUS))
def test_every_answer_of_a_menu_is_in_view(decision: str, screen: tuple[tuple[int, int], str]) -> None:
    size, lang = screen
    i18n.use(lang)
    position = MENUS[decision]

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, seats(position)))
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: waiting(app))
            table = app.table
            prompt = table.prompt
            assert prompt is not None and prompt.decision == decision
            assert_answers_in_view(app, prompt.choices, size)
            for line in table.table_text().wrap(app.console, size[0]):  # discard, colour, pile
                assert line.plain.strip() in screen_text(app), f"{line.plain!r} is cut off:\n{screen_text(app)}"
            # ← → reach every answer and nothing else
            seen = set()
            for _ in prompt.choices:
                seen.add(table.menu_index)
                await pilot.press("right")
            assert seen == set(range(len(prompt.choices))) and table.menu_index == 0
            for number, choice in enumerate(prompt.choices, start=1):
                if choice.colors:  # the colour is asked next, every colour in view; Esc goes back
                    await pilot.press(str(number))
                    assert table.submenu is not None
                    asked = i18n.catalog().t("play.name_the_color", card=choice.label)
                    assert asked in screen_text(app).replace("\n", " "), screen_text(app)
                    assert_answers_in_view(app, list(choice.colors), size)
                    await pilot.press("escape")
                    assert table.submenu is None
                    assert_answers_in_view(app, prompt.choices, size)

    asyncio.run(scenario())


#: A turn with every key at once: cards to pick, a card to draw, and a player to catch (seat 1
#: holds one card and did not call UNO).
EVERY_KEY = table("flip", FLIP_HAND, "yellow 2/teal 1", [1, 7, 7], color="yellow", uno_exposed=1, seed=258)


@pytest.mark.parametrize("screen", SCREENS, ids=screen_id)
def test_every_key_of_a_turn_is_in_view(screen: tuple[tuple[int, int], str]) -> None:
    """The keys line names every key that works now, each whole, on as many lines as the width
    needs (Russian and German words, and the catch key, do not fit one line of 80)."""
    size, lang = screen
    i18n.use(lang)

    async def scenario() -> None:
        app = app_for(lambda: session_from(EVERY_KEY, seats(EVERY_KEY)))
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: waiting(app))
            prompt = app.table.prompt
            assert prompt is not None and prompt.pick_from_hand
            lines = lines_of(app)
            assert len(lines) == size[1]
            keys = ["keys_pick", "key_draw", "key_uno", "key_catch", "key_log", "key_help", "key_quit_short"]
            for key in keys:
                said = i18n.catalog().t(f"play.{key}")
                assert any(said in line for line in lines[-2:]), f"{said!r} is not in view:\n" + "\n".join(lines)
            for choice in prompt.choices:  # draw, beside the question
                assert f"D: {choice.label}" in screen_text(app)

    asyncio.run(scenario())


def test_a_drawn_wild_draw_two_can_be_kept_or_played_naming_a_colour() -> None:
    """At 100 columns "Keep it" was cut off with the four plays; the colour now comes second."""
    position = MENUS["play_or_keep"]

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, seats(position)))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, lambda: waiting(app))
            assert "1 Play the Wild Draw Two   2 Keep it" in screen_text(app)
            await pilot.press("enter", "right", "right", "enter")  # play it, naming green
            await settle(pilot, lambda: waiting(app) or app.table.finished)
            assert "You played Wild Draw Two — green ▲" in screen_text(app)

    asyncio.run(scenario())


def test_trade_hands_says_1_card() -> None:
    position = MENUS["choose_player"]

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, seats(position)))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            text = screen_text(app)
            assert "1 Trade hands with Bot1 (1 card)" in text and "(1 cards)" not in text
            assert "9 Trade hands with Bot9 (9 cards)" in text

    asyncio.run(scenario())


def hand_chips(app: PlayApp) -> list[str]:
    """The cards of the person's hand as the screen writes them (number, symbol, name)."""
    prompt = app.table.prompt
    assert prompt is not None
    return [
        f"{i + 1} {faces.glyph(faces.color_of(card.face))} {faces.title(card.face)}"
        for i, card in enumerate(prompt.hand[:9])
    ]


def test_after_a_resize_no_card_is_broken_across_two_lines() -> None:
    position = {**MENUS["play_or_keep"], "pending": {"kind": "turn", "seat": 0}}

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, seats(position)))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, lambda: waiting(app))
            for width, height in [(100, 30), (80, 24), (91, 24), (80, 24)]:
                await pilot.resize_terminal(width, height)
                await pilot.pause()
                await pilot.pause()
                lines = lines_of(app)
                for chip in hand_chips(app):
                    assert any(chip in line for line in lines), f"{chip!r} broken at {width} columns:\n" + "\n".join(
                        lines
                    )
                assert len(lines) == height and "Q quit" in lines[-1]

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_round_summary_never_breaks_a_card_at_80_columns(lang: str) -> None:
    i18n.use(lang)
    cards = ["wild_draw_two/purple 9", "wild/teal 3", "yellow reverse/wild", "blue skip/pink 9"]
    position = {
        "variant": "flip",
        "players": 2,
        "turn": 1,
        "color": "red",
        "options": {"rounds": 1},
        "hands": [
            [*cards, "wild_draw_two/orange 4", "wild/purple 7", "red reverse/teal 7", "blue skip/teal 1"],
            ["red 5/pink 2"],
        ],
        "discard": ["red 9/purple 5"],
        "seed": 1,
    }

    async def scenario() -> None:
        app = app_for(lambda: session_from(position, ["You", ScriptBot(["play red 5/pink 2"])]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            lines = lines_of(app)
            screen = app.screen
            assert isinstance(screen, SummaryScreen)
            left = screen.summary.lines[0].cards
            assert len(left) == 8
            for face, points in left:
                said = i18n.catalog(lang).t("summary.card_points_terminal", card=faces.label(face), points=points)
                assert any(said in line for line in lines), "\n".join(lines)

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_log_line_is_never_broken_inside_a_cards_title(lang: str) -> None:
    """A line longer than the log at 80x24 goes on to the next line between words, never inside
    a card's title or a player's name (``Wild Draw Four``, ``Дикая +4``): here the title starts
    ten columns before the edge, where a plain word wrap would cut it."""
    before = i18n.current()
    i18n.use(lang)
    try:
        setup = make_setup("classic", 2, "random", 3, [], [], CAREFUL, None)

        async def scenario() -> None:
            app = app_for(setup.session)
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, lambda: waiting(app))
                table = app.table
                log = table.query_one("#log", RichLog)
                width = log.scrollable_content_region.width
                title = table.teller.words.card("wild_draw_four")
                assert " " in title  # a title of several words
                table.log_lines([f"{'y' * (width - 10)} {title} {table.session.names[1]}"])
                await pilot.pause()
                shown = [strip.text.rstrip() for strip in log.lines[-3:]]
                assert any(line.startswith(f"{title} ") for line in shown), shown
                assert all(len(line) <= width for line in shown), shown

        asyncio.run(scenario())
    finally:
        i18n.use(before)


@pytest.mark.parametrize(("size", "shown"), [((80, 24), 9), ((100, 30), 15)])
def test_the_log_keeps_the_last_moves_in_view_and_l_shows_the_whole_game(size: tuple[int, int], shown: int) -> None:
    """Four players: the log has ``shown`` lines on your turn; L lists every line so far."""
    setup = make_setup("flip", 4, "random,random,random", 3, [], [], CAREFUL, None)

    async def scenario() -> None:
        app = app_for(setup.session)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: waiting(app))
            for _ in range(3):  # a few turns, drawing: the log grows past its panel
                await pilot.press("d")
                await settle(pilot, lambda: waiting(app) and app.table.prompt is not None)
                if app.table.prompt is not None and app.table.prompt.decision == "play_or_keep":
                    await pilot.press("2" if len(app.table.prompt.choices) > 1 else "1")
                    await settle(pilot, lambda: waiting(app))
            table = app.table
            log = table.query_one("#log", RichLog)
            assert log.size.height >= shown, screen_text(app)
            history = [line.plain for line in table.history]
            assert len(history) > shown
            lines = [line.strip() for line in lines_of(app)]
            newest = history[-(shown - 1) :]
            missing = [entry for entry in newest if not any(line.startswith(entry) for line in lines)]
            assert not missing, "\n".join([*missing, "---", screen_text(app)])
            await pilot.press("l")
            assert isinstance(app.screen, LogScreen)
            assert any(line.strip(" █").startswith(history[-1]) for line in lines_of(app))  # scrolled to the end
            whole = app.screen.query_one("#whole-log", Static).content
            assert isinstance(whole, Text) and whole.plain.splitlines()[1 : len(history) + 1] == history
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)

    asyncio.run(scenario())


def test_chinese_names_line_up_in_the_summary_and_the_opponents_rows() -> None:
    """A Han character takes two cells: the score columns of the round summary and the card
    counts of the opponents' rows line up by cells with Chinese names beside Latin ones."""
    from rich.cells import cell_len

    i18n.use("zh-Hans")
    hands = [["blue 3", "green 4"], ["yellow 7", "blue 9", "green 1"], ["red 5"], ["blue 1", "blue 2"]]
    position = {"variant": "classic", "players": 4, "color": "red", "options": {"rounds": 1}}
    position |= {"hands": hands, "discard": ["red 9"], "seed": 1}

    def seated(turn: int) -> Session:
        seats: list[str | ScriptBot] = ["Ann", ScriptBot(), ScriptBot(["play red 5"]), ScriptBot()]
        session = session_from(position | {"turn": turn}, seats)
        session.players[1].name, session.players[3].name = "欧阳小明", "小红"  # bots with Chinese names
        return session

    async def scenario(turn: int) -> list[str]:
        app = app_for(lambda: seated(turn))
        async with app.run_test(size=(80, 24)) as pilot:
            if turn == 0:
                await settle(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen)
                return screen.opponents_text(4).plain.splitlines()
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))
            return [line.rstrip() for line in lines_of(app)]

    rows = [row for row in asyncio.run(scenario(0)) if "张牌" in row]
    assert len(rows) == 3, rows  # the others: the reader is not among them
    assert len({cell_len(row[: row.index("张牌")]) for row in rows}) == 1, "\n".join(rows)
    lines = asyncio.run(scenario(2))
    scored = [line for line in lines if re.fullmatch(r"\s+\S+\s+(\+\d+|·)\s+\d+", line)]  # name, gained, total
    assert len(scored) == 4, "\n".join(lines)
    assert len({cell_len(line) for line in scored}) == 1, "\n".join(lines)
