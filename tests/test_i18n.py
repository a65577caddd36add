"""The catalogues (docs/i18n.md): every language holds every key and no stale one, with the same
placeholders as English and every plural form its language has; the compiled files are what the
catalogues give; the terminal's language follows the environment; and no text a player reads
holds an engine identifier.
"""

from __future__ import annotations

import json
import re
import string
import sys
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message

from unokit import Game, UnokitError
from unokit.core.errors import ErrorCode
from unokit.core.kinds import KIND_NAMES
from unokit.core.variants import VARIANT_NAMES, get_rules, make_options, parse_option_pairs
from unokit.i18n import LANGUAGES, PSEUDO, catalog, match, resolve
from unokit.i18n.keys import is_plural, registry_keys
from unokit.i18n.lines import PARAM_TYPES, Line, words, words_for
from unokit.narration import describe
from unokit.play.faces import SYMBOL_GLYPHS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402  (the catalogue tool, scripts/catalogs.py)


def _key(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple | list) else str(message.id)


def _strings(message: Message) -> list[str]:
    raw = message.string
    return [str(s or "") for s in raw] if isinstance(raw, tuple | list) else [str(raw or "")]


def _placeholders(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogs.extract()


@pytest.fixture(scope="module")
def english() -> dict[str, list[str]]:
    return {_key(m): _strings(m) for m in catalogs.read("en") if m.id}


def test_the_template_holds_every_registry_key(template: Catalog) -> None:
    keys = {_key(m) for m in template if m.id}
    assert set(registry_keys()) <= keys
    assert len(keys) > 500


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_catalogue_has_every_key_and_no_stale_one(code: str, template: Catalog) -> None:
    wanted = {_key(m) for m in template if m.id}
    messages = [m for m in catalogs.read(code) if m.id]
    have = {_key(m) for m in messages}
    assert sorted(wanted - have) == [], "missing keys: run make catalogs and translate them"
    assert sorted(have - wanted) == [], "stale keys: run make catalogs"
    empty = [_key(m) for m in messages if not all(_strings(m))]
    assert empty == [], f"untranslated in {code}"
    fuzzy = [_key(m) for m in messages if m.fuzzy]
    assert fuzzy == []


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_placeholders_agree_with_english_and_every_plural_form_is_there(
    code: str, english: dict[str, list[str]]
) -> None:
    locale = Locale.parse(code.replace("-", "_"))
    forms = catalogs.get_plural(locale).num_plurals
    for message in catalogs.read(code):
        if not message.id:
            continue
        key = _key(message)
        strings = _strings(message)
        assert is_plural(key) == isinstance(message.id, tuple | list), key
        if is_plural(key):
            assert len(strings) == forms, f"{code} {key}: {len(strings)} forms, the language has {forms}"
        wanted = set().union(*(_placeholders(s) for s in english[key]))
        for text in strings:
            got = _placeholders(text)
            # A plural form may leave out {count} (Russian "одна карта"), but nothing else.
            assert got <= wanted and wanted - got <= {"count"}, f"{code} {key}: {got} against {wanted}"


#: Placeholders whose values the code says before filling them in (a list already joined, a
#: nested message, a number of seconds): they need no type.
SAID_BY_THE_CALLER = frozenset(
    {"action", "bot", "code", "database", "detail", "error", "first", "glyph", "goal", "help", "mode"}
    | {"names", "open", "options", "page", "path", "phase", "pile", "reaction", "rounds", "rules", "scoring"}
    | {"seats", "second", "seconds", "seed", "supply", "symbol", "teams", "todo", "url", "value"}
    | {"day", "time", "replay", "viewer", "who", "moves", "lines", "key", "command", "list", "codes", "place"}
    # a review's words:
    | {"after", "before", "best", "better", "chance", "effort", "game", "hand", "mark", "marks", "what"}
    # what a rating means (ratings.js):
    | {"level", "levels", "rating", "start"}
)


def test_every_placeholder_has_a_type(english: dict[str, list[str]]) -> None:
    names = set().union(*(_placeholders(s) for texts in english.values() for s in texts))
    assert names - set(PARAM_TYPES) - SAID_BY_THE_CALLER == set()
    assert names >= SAID_BY_THE_CALLER  # no stale entry


def test_the_compiled_files_are_what_the_catalogues_give() -> None:
    stale = [str(p.relative_to(ROOT)) for p, data in catalogs.compiled().items() if p.read_bytes() != data]
    assert stale == [], "run make catalogs"


@pytest.mark.parametrize("code", [*LANGUAGES, PSEUDO])
def test_the_browser_catalogue_keys_plurals_by_cldr_category(code: str) -> None:
    data = json.loads((catalogs.JSON_DIR / f"{code}.json").read_text(encoding="utf-8"))
    assert data["language"] == code
    categories = set(Locale.parse("en" if code == PSEUDO else code.replace("-", "_")).plural_form.tags) | {"other"}
    plurals = {k: v for k, v in data["messages"].items() if is_plural(k)}
    assert plurals
    for key, forms in plurals.items():
        assert set(forms) == categories, key


#: How many cards, said by hand in some languages: Russian has three forms (one, few, many),
#: the others two (one, other).
PLURALS = {
    "en": ["1 card", "2 cards", "5 cards", "21 cards", "22 cards", "25 cards", "11 cards", "0 cards"],
    "ru": ["1 карта", "2 карты", "5 карт", "21 карта", "22 карты", "25 карт", "11 карт", "0 карт"],
    "de": ["1 Karte", "2 Karten", "5 Karten", "21 Karten", "22 Karten", "25 Karten", "11 Karten", "0 Karten"],
    "es": ["1 carta", "2 cartas", "5 cartas", "21 cartas", "22 cartas", "25 cartas", "11 cartas", "0 cartas"],
    # Turkish and Chinese count without a plural: one form (gettext) whatever CLDR's category.
    "tr": ["1 kart", "2 kart", "5 kart", "21 kart", "22 kart", "25 kart", "11 kart", "0 kart"],
    "zh-Hans": ["1 张牌", "2 张牌", "5 张牌", "21 张牌", "22 张牌", "25 张牌", "11 张牌", "0 张牌"],
}


@pytest.mark.parametrize("code", list(PLURALS))
def test_plurals_follow_cldr(code: str) -> None:
    said = catalog(code)
    assert [said.t("n.cards", count=n) for n in (1, 2, 5, 21, 22, 25, 11, 0)] == PLURALS[code]


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_python_and_the_browser_pick_the_same_plural_form(code: str) -> None:
    """gettext's ``Plural-Forms`` (the terminal) and CLDR's categories (the browser's
    ``Intl.PluralRules``) choose the same words for every count, in every language."""
    forms = json.loads((catalogs.JSON_DIR / f"{code}.json").read_text(encoding="utf-8"))["messages"]["n.cards"]
    locale = Locale.parse(code.replace("-", "_"))
    said = catalog(code)
    for n in range(0, 1001):
        assert said.t("n.cards", count=n) == forms[locale.plural_form(n)].format(count=n), n


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_short_card_code_does_not_repeat_the_symbol_before_it(code: str) -> None:
    """The terminal writes a card's symbol before its short code (``●7``, ``★W+4``): a code
    that starts with a symbol of its own reads ``★★+4``."""
    glyphs = set(SYMBOL_GLYPHS.values())
    said = catalog(code)
    codes = {kind: said.text(f"card.{kind}.short") for kind in KIND_NAMES}
    assert {kind: code for kind, code in codes.items() if code[:1] in glyphs} == {}


@pytest.mark.parametrize(
    ("environment", "wanted"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANGUAGE": "xx:ru", "LANG": "de_DE.UTF-8"}, "ru"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LC_MESSAGES": "ru_RU", "LANG": "en_US"}, "ru"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "xx_YY"}, "en"),
        ({}, "en"),
    ],
)
def test_the_terminal_language_follows_the_environment(environment: dict[str, str], wanted: str) -> None:
    assert resolve(None, environment) == wanted
    assert resolve("ru", {"LANG": "en_US"}) == "ru"  # --lang wins
    assert resolve("klingon", {"LANG": "ru_RU"}) == "en"  # an unknown --lang is English


def test_language_tags_match_by_language() -> None:
    assert match(["ru-RU", "en"]) == "ru"
    assert match(["pt-BR", "ru"]) == "pt-BR"
    assert match(["xx-YY", "ru"]) == "ru"
    assert match(["en-XA"]) == PSEUDO


@pytest.mark.parametrize(
    ("tags", "wanted"),
    [
        (["zh-CN"], "zh-Hans"),
        (["zh-Hans"], "zh-Hans"),
        (["zh_CN.UTF-8"], "zh-Hans"),
        (["zh"], "zh-Hans"),
        (["zh-Hans-CN"], "zh-Hans"),
        (["zh-SG"], "zh-Hans"),
        (["zh-TW", "de"], "de"),  # Traditional Chinese is not Simplified: the next language
        (["zh-Hant-HK"], "en"),
        (["pt-BR"], "pt-BR"),
        (["pt_BR.UTF-8"], "pt-BR"),
        (["pt"], "pt-BR"),
        (["pt-PT"], "pt-BR"),
        (["tr-TR"], "tr"),
        (["tr_TR.UTF-8"], "tr"),
        (["it-IT"], "it"),
        (["it-CH"], "it"),
    ],
)
def test_the_new_languages_match_their_tags(tags: list[str], wanted: str) -> None:
    assert match(tags) == wanted
    assert match([]) == "en"


#: An engine identifier: a word with an underscore (``wild_draw_four``, ``play_or_keep``).
ENGINE_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_no_catalogue_text_holds_an_engine_identifier(code: str) -> None:
    texts = [s for m in catalogs.read(code) if m.id for s in _strings(m)]
    found = sorted({hit for text in texts for hit in ENGINE_ID.findall(re.sub(r"\{\w+\}", "", text))})
    assert found == []


def test_a_line_is_said_in_each_language_with_its_parameters_typed() -> None:
    line = Line("event.play.color", {"player": 1, "card": "wild_draw_four", "color": "blue"})
    assert words_for("en", ["Ann", "Bo"]).say(line) == "Bo played Wild Draw Four — blue"
    russian = words_for("ru", ["Ана", "Бо"]).say(line)
    assert russian == "Бо → «Закажи цвет и возьми четыре», цвет: синий"
    # Seats without names are numbered from 1.
    assert words_for("en", None).say(Line("event.skip", {"player": 0})) == "Skipped: Seat 1"


def test_taking_back_no_cards_reads_as_a_negation_in_every_language() -> None:
    """A Wild Press Your Luck press that fires before any discard takes back no card: Spanish
    says "no recupera nada" (a bare "recupera nada" is not Spanish), and every language says
    it with its own sentence rather than the list word for no cards."""
    empty = {"type": "take_back", "seat": 0, "cards": []}
    said = {lang: describe(empty, ["Ana"], lang=lang) for lang in ("en", "es", "ru", "de")}
    assert said == {
        "en": "Ana took back nothing",
        "es": "Ana: no recupera nada",
        "ru": "Ana: на руку ничего не возвращается",
        "de": "Ana: nichts zurück auf die Hand",
    }
    some = {"type": "take_back", "seat": 0, "cards": ["green 5/pink 2"]}
    assert describe(some, ["Ana"], lang="es") == "Ana: recupera 5 verde"


#: A run of three or more Latin words (an English clause) outside quotes.
_ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,;:]+[A-Za-z]{2,}){2,}")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _bad_inputs() -> list[UnokitError]:
    """The engine's refusals of what a player may type, pick or load: actions, cards, colours,
    rule options, variant strings, deck files and a launcher script that runs out."""
    refusals: list[UnokitError] = []

    def refused(call: Any) -> None:
        with pytest.raises(UnokitError) as info:
            call()
        refusals.append(info.value)

    for variant in ("classic", "flip", "attack"):
        game = Game.new(variant, 3, 1)[0]
        for text in ["xyzzy", "", "   ", "draw now", "trade", "trade x", "color", "color mauve", "play_drawn red blue"]:
            refused(lambda text=text, game=game: game.parse_action(text))
        for text in ["play", "play mauve 5", "play red", "play red wild", "play red eleven", "play 5 5 5 5"]:
            refused(lambda text=text, game=game: game.parse_action(text))
        refused(lambda game=game: game.parse_action("discard red 5 red"))
        not_text: Any = 12345
        refused(lambda game=game, not_text=not_text: game.parse_action(not_text))
    deck = ["red 1", "red 2", "blue 3"] * 8
    for variant, options in [
        ("classic", {"stacking": "maybe"}),
        ("classic", {"nonsense": 1}),
        ("flip(players=x)", {}),
        ("flip(", {}),
        ("classic(stacking=true,stacking=false)", {}),
        ("classic(stacking=true)", {"stacking": False}),
        ("classic", {"deck": "red 1\nmauve 3"}),
        ("classic", {"deck": "2 x red 1 +star\nred 1"}),
        ("classic", {"deck": ""}),
        ("classic", {"deck": [1, 2]}),
        ("classic", {"deck": "\n".join(["red 1", "red 1"] * 10)}),
        ("classic", {"deck": "\n".join(deck)}),
        ("classic", {"deck": "pink 1\nred 2"}),
        ("flip", {"deck": "red 1/teal 3\nred 2/red 4"}),
        ("attack", {"launcher": "scripted", "launcher_script": "lots"}),
    ]:
        refused(lambda variant=variant, options=options: Game.new(variant, 4, 1, **options))
    refused(lambda: Game.new("classic(players=3)", 4, 1))
    refused(lambda: Game.new("classic", 3, "x"))  # type: ignore[arg-type]
    refused(lambda: Game.new(7, 3, 1))  # type: ignore[arg-type]
    refused(lambda: parse_option_pairs(["novalue"]))
    named_by_a_number: Any = {3: 1}
    refused(lambda: make_options(get_rules("classic"), named_by_a_number))
    attack = Game.new("attack", 2, 1, launcher="scripted", launcher_script=[0])[0]
    while True:
        try:
            attack.apply(attack.legal_actions()[0])
        except UnokitError as exc:
            refusals.append(exc)
            break
    return refusals


def test_no_refusal_of_the_engine_ends_in_its_english() -> None:
    """In Russian, German and Spanish a refusal was said with a general sentence and the
    engine's English in parentheses («Такого действия в этой игре нет. (unknown action
    'xyzzy'; actions are play, draw, …)»). Every refusal of what a player types or loads now
    has a code of its own, and is said wholly in the reader's language: no English clause
    outside the quoted input."""
    refusals = _bad_inputs()
    codes = {exc.code for exc in refusals}
    assert len(codes) >= 28 and ErrorCode.SCRIPT_USED_UP in codes and ErrorCode.UNKNOWN_ACTION in codes
    titles = [words("ru").variant(v) for v in VARIANT_NAMES]
    for exc in refusals:
        english = words("en").error(exc)
        # Any three words in a row of the engine's English message (its clauses, not the input
        # nor the notation's words it names, which are the error's parameters).
        message = str(exc)
        for value in exc.params.values():
            message = message.replace(str(value), "")
        clause = _QUOTED.sub("", message).split()
        threes = {" ".join(clause[i : i + 3]) for i in range(len(clause) - 2)}
        for lang in ("ru", "de", "es"):
            said = words(lang).error(exc)
            assert said != english and not any(three in said for three in threes), (exc.code, said)
        russian = words("ru").error(exc)
        for given in [*titles, *map(str, exc.params.values())]:
            russian = russian.replace(given, "")
        russian = _QUOTED.sub("", russian)
        assert not _ENGLISH_RUN.search(russian), (exc.code, russian)
    unknown = next(exc for exc in refusals if exc.code == ErrorCode.UNKNOWN_ACTION)
    assert words("ru").error(unknown) == "Действия 'xyzzy' в этой игре нет."
    used_up = next(exc for exc in refusals if exc.code == ErrorCode.SCRIPT_USED_UP)
    assert words("de").error(used_up).startswith("Der programmierte Kartenwerfer hat alle Drücker")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_cells_measure_every_catalogue_text_as_rich_does(code: str) -> None:
    """The terminal's columns are padded by :func:`unokit.i18n.cells.cells` (the standard
    library): it counts a text's cells as Rich and Textual draw it (``rich.cells.cell_len``)."""
    from rich.cells import cell_len

    from unokit.i18n.cells import cells, pad

    texts = [s for m in catalogs.read(code) if m.id for s in _strings(m) if s]
    assert [t for t in texts if cells(t) != cell_len(t)] == []
    assert cells("万能 +4") == 7 and cell_len(pad("小明", 6)) == 6 and pad("小明", 6, ">") == "  小明"
    assert cells("e\u0301") == 1 and cells("\u200b") == 0  # a combining accent, a zero-width space


def test_the_chinese_font_has_every_character_of_the_chinese_catalogue() -> None:
    """The page's Chinese font (scripts/cjk_font.py, committed) holds every Han character and
    mark of the Chinese catalogue, and the language menu's font every one of the languages'
    names: a catalogue changed without ``make catalogs`` fails here."""
    import cjk_font  # scripts/cjk_font.py, beside the catalogue tool

    assert len(cjk_font.ui_characters()) > 500
    fonts = {cjk_font.UI_FONT: cjk_font.ui_characters(), cjk_font.NAMES_FONT: cjk_font.name_characters()}
    for path, wanted in fonts.items():
        assert wanted - cjk_font.covered(path) == set(), path.name
    # and no more than a few hundred kilobytes for the page
    assert cjk_font.UI_FONT.stat().st_size < 400_000


#: Numbers a player reads: a rating, a count, a score, a fraction rounded.
NUMBERS = (0.3, 2.5, -1.25, 7, 999, 10000, 12345.6, 1234567, 0.0004, 33.3333)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_numbers_are_written_by_cldr_in_every_language(code: str) -> None:
    """A number is written with the language's CLDR symbols (Babel's), in Python as the browser's
    ``Intl.NumberFormat`` writes it: a rating 0,3 in Russian, not 0.3."""
    from babel.numbers import format_decimal

    from unokit.i18n.numbers import format_number

    locale = Locale.parse(code.replace("-", "_"))
    for value in NUMBERS:
        assert format_number(code, value) == format_decimal(value, locale=locale), value
    assert format_number(code, 0.25, 1) == format_decimal(0.3, locale=locale)  # half away from zero
    assert format_number(code, 3, 1) == format_decimal(3, format="0.0", locale=locale)
    # CLDR's minimumGroupingDigits, which Babel does not read: Spanish and Italian write 1000.
    assert format_number(code, 1000) == ("1000" if code in ("es", "it") else format_decimal(1000, locale=locale))


def test_the_words_of_a_line_write_its_numbers_by_the_language() -> None:
    assert words("ru").t("n.cards", count=1000) == "1\u00a0000 карт"
    assert words("de").t("n.points", count=1500) == "1.500 Pkt."
    assert words("en").t("n.points", count=1500) == "1,500 pts"
    assert words_for("ru", ["Аня", "Бо"]).say(
        Line("event.round_end.one_side", {"winner": 1, "round": 2, "scores": [1200, 30]})
    ) == ("Раунд 2: победа — Бо; очки: Аня 1\u00a0200, Бо 30")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_counts_of_a_list_stand_in_one_place(code: str) -> None:
    """The review's marks are said as a list (``Decisions: 55 good, 7 inaccuracies``): every item
    puts its count in the same place (Russian said «хороших: 55, 7 неточностей»)."""
    said = catalog(code)
    for count in (1, 2, 5, 55):
        items = [said.t(f"n.review.marks.{mark}", count=count) for mark in ("good", "inaccuracy", "mistake", "blunder")]
        assert len({item.startswith(str(count)) for item in items}) == 1, items


def test_the_challenge_question_says_what_each_answer_costs() -> None:
    """Before a Wild Draw card is challenged or accepted, the question says what each costs, from
    the rules' data (the card's draw, FAIR_CHALLENGE_EXTRA more when the challenge fails, the
    stacked total where there is one): a blind player chose without knowing 4 from 6."""
    from unokit.core.kinds import FAIR_CHALLENGE_EXTRA, KIND_BY_NAME, KINDS
    from unokit.i18n.prompts import prompt_line

    def asked(card: str, stack: int = 0, variant: str = "classic", lang: str = "en") -> str:
        pending = {"kind": "challenge", "by": 1, "card": card, "color": "green"}
        obs = {"variant": variant, "decision": "challenge", "pending": pending, "stack": stack, "side": "light"}
        return words_for(lang, ["You", "Bo"]).say(prompt_line(obs))

    four = KINDS[KIND_BY_NAME["wild_draw_four"]].draws
    assert (four, FAIR_CHALLENGE_EXTRA) == (4, 2)  # 4, and 4 + 2 = 6 after a failed challenge
    said = asked("wild_draw_four")
    assert f"Accept: you draw {four} cards." in said and f"if not, you draw {four + FAIR_CHALLENGE_EXTRA} cards" in said
    assert "if it was a bluff, Bo draws them" in said
    assert "you draw 2 cards" in asked("wild_draw_two", variant="flip") and "you draw 4 cards." in asked(
        "wild_draw_two", variant="flip"
    )
    assert "you draw 8 cards" in asked("wild_draw_four", stack=6)  # a stacked total, then two more
    until = asked("wild_draw_color", variant="flip")
    assert "you draw cards until a green one." in until and "until a green one, then 2 more" in until
    assert "6 карт" in asked("wild_draw_four", lang="ru") and "4 карты" in asked("wild_draw_four", lang="ru")
