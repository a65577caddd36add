"""The reader's words (docs/i18n.md, "The reader"): every message that may name its reader in a
person's place has a reader form for each place, in every language, and says it whole — never
the name the table gives the reader ("You", «Вы») put where another player's name goes ("You's
hand", «Ждём игрока Вы», «Вы: игра на паузе.»)."""

from __future__ import annotations

import json
import re
import string
from typing import Any

import pytest

from unokit.core.codes import Param
from unokit.i18n import LANGUAGES, catalog
from unokit.i18n.lines import PARAM_TYPES, Line, Words, reader_form
from unokit.i18n.reader import NOT_THE_READER, READER_FORMS, reader_keys
from unokit.server.web import STATIC

#: The reader's name where a test can find it: a reader form that put it in a name's place shows it.
READER = "⟪reader⟫"
NAMES = [READER, "Bo", "Cy", "Di"]
PERSON = (Param.SEAT, Param.SEATS)
#: A value of each parameter's type, to say a message with.
SAMPLES: dict[Param, Any] = {
    Param.CARD: "red 5",
    Param.CARDS: ["red 5", "blue skip"],
    Param.KIND: "wild_draw_four",
    Param.COLOR: "green",
    Param.SIDE: "light",
    Param.DIRECTION: "clockwise",
    Param.REASON: "challenge",
    Param.DECISION: "play",
    Param.NUMBER: 3,
    Param.NUMBERS: "10 · 20",  # the scores, said by the caller: a label per seat (score.entry), not a sentence
}


def _english() -> dict[str, Any]:
    messages: dict[str, Any] = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))["messages"]
    return messages


def _placeholders(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def _text(message: Any) -> str:
    return message if isinstance(message, str) else " ".join(message.values())


def places_of(form: str) -> tuple[list[str], list[str]]:
    """The places a reader form stands for: those the reader is alone, and the lists it is among
    others (``you_and_winners``)."""
    alone: list[str] = []
    among: list[str] = []
    for part in re.findall(r"and_\w+?(?=_|$)|[a-z]+", form.removeprefix("you_")):
        (among if part.startswith("and_") else alone).append(part.removeprefix("and_"))
    return alone, among


def params_for(key: str, alone: list[str], among: list[str]) -> dict[str, Any]:
    """Parameters to say ``key`` with: the reader (seat 0) in ``alone`` and among others in
    ``among``, every other person place another seat, the rest a sample of its type."""
    others = iter(range(1, len(NAMES)))
    out: dict[str, Any] = {}
    for name in sorted(_placeholders(_text(_english()[key]))):
        kind = PARAM_TYPES.get(name, Param.TEXT)
        if name in alone:
            out[name] = [0] if kind == Param.SEATS else 0
        elif name in among:
            out[name] = [0, next(others)]
        elif kind == Param.SEAT:
            out[name] = next(others)
        elif kind == Param.SEATS:
            out[name] = [next(others)]
        else:
            out[name] = SAMPLES.get(kind, "to play")
    return out


def test_every_message_that_names_a_person_says_whether_it_may_name_its_reader() -> None:
    """A new message with a person place must say whether its reader may be there: it then has
    its reader forms (:data:`READER_FORMS`), or :data:`NOT_THE_READER` says why not."""
    forms = set(reader_keys())
    person = {
        key
        for key, message in _english().items()
        if key not in forms and any(PARAM_TYPES.get(name) in PERSON for name in _placeholders(_text(message)))
    }
    assert person - set(READER_FORMS) - set(NOT_THE_READER) == set(), "say whether they may name their reader"
    assert set(READER_FORMS) | set(NOT_THE_READER) <= person  # no stale entry
    assert not set(READER_FORMS) & set(NOT_THE_READER)


def test_a_reader_form_names_the_others_and_never_the_place_it_stands_for() -> None:
    english = _english()
    for key, forms in READER_FORMS.items():
        base = _placeholders(_text(english[key]))
        for form in forms:
            alone, among = places_of(form)
            assert set(alone) | set(among) <= base and all(PARAM_TYPES[p] in PERSON for p in alone + among), form
            said = _placeholders(_text(english[f"{key}.{form}"]))
            assert said == base - set(alone), f"{key}.{form}: {said} is not {base - set(alone)}"


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_line_that_may_name_its_reader_says_it_in_its_own_words(code: str) -> None:
    """Each message of :data:`READER_FORMS` said with the reader in each of its places: the reader
    form is chosen, and the reader's name never stands in it (the reader is said by the form's
    words); said to someone else, the same line names every seat."""
    said = catalog(code)
    to_reader = Words(said, NAMES, me=0)
    to_nobody = Words(said, NAMES)
    for key, forms in READER_FORMS.items():
        for form in forms:
            params = params_for(key, *places_of(form))
            chosen, _ = reader_form(key, params, 0, said.has)
            assert chosen == f"{key}.{form}"
            text = to_reader.t(key, **params)
            assert READER not in text and "{" not in text, f"{code} {key}.{form}: {text}"
            assert text != to_nobody.t(key, **params) and READER in to_nobody.t(key, **params)


def test_the_reader_forms_read_as_a_player_would() -> None:
    """The lines the whole games found wrong, said to their reader."""
    en, ru = Words(catalog("en"), ["You", "Bo", "Cy"], me=0), Words(catalog("ru"), ["Вы", "Бо", "Сима"], me=0)
    revealed = Line("event.challenge.failed.revealed", {"player": 1, "target": 0, "cards": ["red 5"]})
    assert en.say(revealed) == "Bo challenged you: the challenge failed; your hand: Red 5"
    assert "You's" not in en.say(revealed)
    assert ru.t("table.waiting_for", player=0, todo="ход") == "Ждём вас (ход)…"
    assert ru.t("room.paused_by", player=0) == "Вы поставили игру на паузу."
    assert ru.t("room.paused_by", player=1) == "Бо: игра на паузе."  # another seat: by its name
    duel = {"kind": "wild_hit_fire", "mine": "red 5", "theirs": "red 7"}
    assert en.t("event.duel", player=0, target=1, winner=0, **duel).endswith(": you won")
    assert en.t("event.duel", player=1, target=0, winner=1, **duel).startswith("Bo challenged you with")
    # The reader among several winners: the others are named, the reader is "you".
    assert en.t("table.game_over", winners=[0, 2]) == "You and Cy won!"
    assert en.t("table.game_over", winners=[1, 2]) == "Game over: Bo, Cy won"
    assert en.t("event.game_end", winners=[0], scores=[0, 5, 9]).startswith("Game over: you won; scores: You 0")
    # A message without reader forms names the reader as the table does.
    assert en.t("score.entry", player=0, points=3) == "You 3"
