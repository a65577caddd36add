"""The terminal game plays the themed UNO Flip editions (R-7): their special cards' decisions
(choosing whom to challenge, discarding cards) are answered from the keyboard."""

from __future__ import annotations

import asyncio
from pathlib import Path

from click.testing import CliRunner

from unokit import deck_cards
from unokit.bots import make_bot
from unokit.bots.habits import Habits
from unokit.play.commands import make_setup
from unokit.play.commands import play as play_command

from .support import ScriptBot, app_for, screen_text, session_from, settle, waiting

OPTIMUS_HAND = {
    "variant": "flip_transformers",
    "players": 2,
    "turn": 0,
    "color": "red",
    "hands": [
        ["wild_optimus_prime/pink 5", "red 5/pink 2", "blue 2/pink 6", "green 4/pink 8"],
        ["yellow 3/purple 1", "green 2/teal draw_five"],
    ],
    "discard": ["red 9/teal reverse"],
    "seed": 1,
}


def test_optimus_prime_a_challenge_and_two_discards_by_keyboard() -> None:
    async def scenario() -> None:
        app = app_for(lambda: session_from(OPTIMUS_HAND, ["You", ScriptBot()]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("4", "enter")  # the Optimus Prime (wilds sort last) ...
            await pilot.press("3")  # ... naming green
            await settle(
                pilot,
                lambda: waiting(app) and app.table.prompt is not None and app.table.prompt.decision == "choose_target",
            )
            await pilot.press("1")  # target 1: the only other seat
            await settle(
                pilot,
                lambda: waiting(app) and app.table.prompt is not None and app.table.prompt.decision == "discard_cards",
            )
            text = screen_text(app)
            flowing = " ".join(text.split())  # the log goes on to its next line between cards
            assert "(Red 5 against Yellow 3): you won" in flowing  # the duel
            assert "discard 2 cards" in text
            await pilot.press("1", "enter")
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1", "enter")
            await settle(pilot, lambda: waiting(app))
            session = app.table.session
            assert len(session.game.hands[0]) == 1

    asyncio.run(scenario())


EDITIONS = ("flip_marvel", "flip_stranger_things", "flip_transformers")


def test_the_play_command_sets_up_every_edition_and_its_bots_finish_it(tmp_path: Path) -> None:
    """``unokit play --variant <edition>``: the command's set-up builds the table, and its bots
    (playing the person's seat too) take the game to its end."""
    for variant in EDITIONS:
        setup = make_setup(variant, 3, None, 5, (), (), Habits(), tmp_path)
        session = setup.session()
        game = session.game
        assert game.variant == variant
        stand_in = make_bot("heuristic", 1)
        stand_in.reset(0)
        for _ in range(20_000):
            if game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            action = stand_in.act(session.views[seat]) if seat == 0 else session.bot_act(seat)
            session.apply(action, seat)
            for reaction in session.reactions()[:1]:
                session.apply(reaction.action, reaction.seat)
        assert game.is_over


def test_the_play_command_reads_a_deck_file(tmp_path: Path) -> None:
    """``unokit play --deck FILE``: a bad deck file is a usage error naming its line; a good one
    gets as far as asking for a terminal."""
    runner = CliRunner()
    bad = tmp_path / "bad.deck"
    bad.write_text("red 1/pink 3\nred 1/mauve 3\n", encoding="utf-8")
    result = runner.invoke(play_command, ["--variant", "flip_marvel", "--deck", str(bad)])
    assert result.exit_code == 2 and "Line 2 of the deck cannot be read: 'red 1/mauve 3'" in result.output
    good = tmp_path / "good.deck"
    good.write_text("\n".join(deck_cards("flip_marvel")), encoding="utf-8")
    result = runner.invoke(play_command, ["--variant", "flip_marvel", "--deck", str(good)])
    assert result.exit_code == 2 and "needs a terminal" in result.output
