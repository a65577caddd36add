"""The terminal game and the commands in the player's language: a game at the terminal in
Russian, one per variant, read back for Cyrillic words and for the absence of any engine
identifier; ``LANG=ru_RU.UTF-8 unokit demo`` and ``--lang`` speak Russian too."""

from __future__ import annotations

import asyncio
import re

import pytest
from click.testing import CliRunner

from unokit import i18n
from unokit.bots.habits import ForgetfulBot
from unokit.bots.random_bot import RandomBot
from unokit.cli import main
from unokit.core.variants import VARIANT_NAMES
from unokit.play.session import Player, Session
from unokit.record import RecordingGame

from .support import app_for, screen_text, settle, waiting

#: An engine identifier: a word with an underscore (``wild_draw_four``, ``play_or_keep``).
ENGINE_ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
CYRILLIC = re.compile("[\\u0430-\\u044f\\u0451]{4,}", re.IGNORECASE)  # four Cyrillic letters in a row


def _session(variant: str) -> Session:
    game, setup = RecordingGame.new(variant, 3, 5, rounds=1)
    players = [Player(i18n.catalog().t("play.you"))]
    players += [Player(name, ForgetfulBot(RandomBot(seed)), "random") for seed, name in enumerate(["Аня", "Боря"])]
    return Session(game, players, setup)


def _screens_of_a_game(lang: str, variant: str) -> str:
    """The 80x24 screens of a few decisions of a game in ``lang`` (the table, the prompt, the
    log, the keys) and of its help, one after another."""
    i18n.use(lang)
    screens: list[str] = []

    async def scenario() -> None:
        app = app_for(lambda: _session(variant))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(6):
                await settle(pilot, lambda: waiting(app) or app.table.finished)
                screens.append(screen_text(app))
                if app.table.finished:
                    break
                await pilot.press("d" if app.table.prompt and app.table.prompt.pick_from_hand else "enter")
            await pilot.press("question_mark")
            await pilot.pause(0.2)
            screens.append(screen_text(app))  # the help

    asyncio.run(scenario())
    return "\n".join(screens)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_game_at_the_terminal_speaks_russian(variant: str) -> None:
    text = _screens_of_a_game("ru", variant)
    assert "Вы" in text and CYRILLIC.search(text)
    assert ENGINE_ID.findall(text) == [], ENGINE_ID.findall(text)
    assert not re.search(r"\b(play|draw|press|round|cards?|turn|side)\b", text)  # no English word left


def test_the_commands_follow_lang_and_the_environment() -> None:
    runner = CliRunner()
    by_env = runner.invoke(
        main, ["demo", "--variant", "flip_attack", "--players", "3"], env={"LANGUAGE": "", "LANG": "ru_RU.UTF-8"}
    )
    assert by_env.exit_code == 0, by_env.output
    assert "Раунд 1" in by_env.output and "Сдаёт:" in by_env.output
    assert ENGINE_ID.findall(by_env.output) == []
    by_option = runner.invoke(main, ["demo", "--lang", "ru", "--variant", "classic"], env={"LANGUAGE": "en"})
    assert "Классическая UNO" in by_option.output
    unknown = runner.invoke(main, ["demo", "--lang", "xx", "--variant", "classic"], env={"LANGUAGE": ""})
    assert "Classic UNO" in unknown.output  # anything unknown is English
    score = runner.invoke(main, ["score", "--lang", "ru", "--variant", "classic", "red 5 wild_draw_four skip"])
    assert "Закажи цвет и возьми четыре" in score.output and "Итого" in score.output


#: Words of the new languages that only they write: Han characters, Turkish letters.
SCRIPTS = {"zh-Hans": re.compile("[\u4e00-\u9fff]{3}"), "tr": re.compile("[çğışöü]")}


@pytest.mark.parametrize(("lang", "variant"), [("zh-Hans", "classic"), ("zh-Hans", "flip_attack"), ("tr", "attack")])
def test_a_game_at_the_terminal_speaks_chinese_and_turkish(lang: str, variant: str) -> None:
    """The table, prompts, log and help at 80x24 in Chinese and Turkish: their own words, no
    English word, no engine identifier."""
    text = _screens_of_a_game(lang, variant)
    assert i18n.catalog(lang).t("play.you") in text and SCRIPTS[lang].search(text)
    assert ENGINE_ID.findall(text) == [], ENGINE_ID.findall(text)
    assert not re.search(r"\b(play|draw|press|round|cards?|turn|side)\b", text), text
