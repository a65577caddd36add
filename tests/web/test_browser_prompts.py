"""Each decision's question reads the same at the terminal and in the browser: for observations
of real games (every variant, with the house rules that change a question), the browser's
question (``prompt.js``, from the wordings the server's catalogue lists) is the very text
Python's :func:`unokit.i18n.prompts.prompt_line` says, in English and in Russian, and every
wording of every decision is met. The lines that name their reader are said alike too."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import Browser

from unokit import Game
from unokit.core.observation import observe
from unokit.core.variants import VARIANT_NAMES, get_rules
from unokit.i18n import LANGUAGES, catalog
from unokit.i18n.lines import Line, Words
from unokit.i18n.numbers import format_number
from unokit.i18n.prompts import PROMPTS, prompt_line, wording
from unokit.i18n.reader import READER_FORMS

from ..server.support import ServerProcess
from ..test_reader_words import NAMES as READER_NAMES
from ..test_reader_words import params_for, places_of
from .player import wait_for, watched

NAMES = ["Ann", "Bo", "Cy", "Di"]

#: The browser's question for each observation, in one language.
ASK = """async ([observations, names, lang]) => {
  const cards = await import("/static/js/cards.js");
  const i18n = await import("/static/js/i18n.js");
  const prompt = await import("/static/js/prompt.js");
  cards.useCatalog(await (await fetch("/api/catalog")).json());
  await i18n.loadLanguage(lang);
  return observations.map(([obs, side]) => prompt.promptMessage(obs, names, side));
}"""


def _observations() -> list[dict[str, Any]]:
    """Observations of the seat to act, one per wording met, from random games of every
    variant with the house rules that change a question (Seven-O, Stacking, Force Play) on and off."""
    found: dict[str, dict[str, Any]] = {}
    rng = random.Random(5)
    for variant in VARIANT_NAMES:
        rules = get_rules(variant)
        for extra in ({}, {"seven_o": True, "stacking": True}, {"force_play": True, "seven_o": True}):
            options = {k: v for k, v in extra.items() if k in rules.accepted_options}
            for seed in range(3):
                game, _ = Game.new(variant, 4, seed, rounds=1, **options)
                for _step in range(400):
                    obs = observe(game, game.to_act)
                    found.setdefault(wording(obs).key, obs)
                    if game.is_over:
                        break
                    game.apply(rng.choice(game.legal_actions()))
    return list(found.values())


def test_the_browser_asks_every_question_as_the_terminal_does(browser: Browser, web_server: ServerProcess) -> None:
    observations = _observations()
    met = {wording(obs).key for obs in observations}
    assert met == {w.key for wordings in PROMPTS.values() for w in wordings}  # every wording
    page = watched(browser.new_context()).new_page()
    try:
        page.goto(web_server.url)
        wait_for(page, "#create-room")
        sides = [get_rules(obs["variant"]).side_names.index(obs["side"]) for obs in observations]
        for lang in ("en", "ru"):
            words = Words(catalog(lang), NAMES)
            expected = [words.say(prompt_line(obs)) for obs in observations]
            asked = page.evaluate(
                ASK, [json.loads(json.dumps(list(zip(observations, sides, strict=True)))), NAMES, lang]
            )
            assert asked == expected
            assert len(set(asked)) == len(asked)  # each wording reads differently
    finally:
        page.context.close()


#: The browser's words for each line, said to the reader at seat ``me``.
SAY = """async ([lines, names, me, lang]) => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLanguage(lang);
  return lines.map((line) => i18n.say(line, names, me));
}"""


def test_the_browser_says_the_readers_own_lines_as_the_terminal_does(
    browser: Browser, web_server: ServerProcess
) -> None:
    """Every reader form (docs/i18n.md, "The reader") is chosen by the browser as by Python's
    :func:`unokit.i18n.lines.reader_form`, with the same words, in English and in Russian."""
    lines = [Line(key, params_for(key, *places_of(form))) for key, forms in READER_FORMS.items() for form in forms]
    page = watched(browser.new_context()).new_page()
    try:
        page.goto(web_server.url)
        wait_for(page, "#create-room")
        for lang in ("en", "ru"):
            words = Words(catalog(lang), READER_NAMES, me=0)
            expected = [words.say(line) for line in lines]
            assert page.evaluate(SAY, [[line.to_json() for line in lines], READER_NAMES, 0, lang]) == expected
    finally:
        page.context.close()


#: The browser's numbers in one language.
NUMBERS_SAID = """async ([values, lang]) => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLanguage(lang);
  return values.map((value) => i18n.number(value));
}"""


def test_the_browser_writes_numbers_as_the_terminal_does(browser: Browser, web_server: ServerProcess) -> None:
    """``number()`` (the browser's ``Intl.NumberFormat``) and Python's CLDR numbers
    (:func:`unokit.i18n.numbers.format_number`) write every number alike in every language."""
    values = [0.3, 2.5, -1.25, 7, 999, 1000, 10000, 12345.6, 1234567, 0.0004]
    page = watched(browser.new_context()).new_page()
    try:
        page.goto(web_server.url)
        wait_for(page, "#create-room")
        for lang in LANGUAGES:
            said = page.evaluate(NUMBERS_SAID, [values, lang])
            assert said == [format_number(lang, value) for value in values], lang
    finally:
        page.context.close()
