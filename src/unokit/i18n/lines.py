"""Messages as codes with parameters, and how each kind of parameter is shown.

A :class:`Line` is a message key and its parameters, as plain JSON values: a seat number, a
card's text (``red 5``), a colour's name. That is what the server sends and what every surface
keeps; :meth:`Words.say` turns it into text in one language. How a parameter is shown depends on
its name (:data:`PARAM_TYPES`, the same table the browser reads): ``player`` is a seat and is
shown as its name, ``card`` a card face shown by its printed title, ``cards`` a list of them,
``color`` a colour's name, and so on. A name that is not in the table is shown as given. A
parameter may itself be a line (an object with a ``key`` and ``params``): it is said first, and
its words fill the placeholder.

:class:`Words` also says the engine's closed sets one at a time: a card face (``Red 5``,
``Красная 5``), a colour, a side, a decision, an option, a variant, an error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import COLOR_BY_NAME, KIND_BY_NAME, KIND_NAMES, NO_COLOR, is_number, parse_face
from ..core.codes import ERRORS, Param
from ..core.colors import color_marks
from ..core.errors import UnokitError
from .catalog import N_, Catalog, catalog
from .numbers import format_number

P = Param
#: How a parameter of a :class:`Line` is shown, by its name (the browser reads this table too).
PARAM_TYPES: dict[str, Param] = {
    **dict.fromkeys(("player", "target", "winner", "presser", "on", "dealer", "by", "then", "seat"), P.SEAT),
    **dict.fromkeys(("players", "winners"), P.SEATS),
    **dict.fromkeys(("card", "top", "drawn", "back", "mine", "theirs"), P.CARD),
    **dict.fromkeys(("cards", "backs", "revealed", "discarded"), P.CARDS),
    **dict.fromkeys(("kind",), P.KIND),
    **dict.fromkeys(("color", "previous"), P.COLOR),
    **dict.fromkeys(("side", "light", "dark"), P.SIDE),
    **dict.fromkeys(("direction",), P.DIRECTION),
    **dict.fromkeys(("reason",), P.REASON),
    **dict.fromkeys(("decision",), P.DECISION),
    **dict.fromkeys(("option", "needs"), P.OPTION),
    **dict.fromkeys(("variant",), P.VARIANT),
    **dict.fromkeys(
        (
            "count",
            "total",
            "round",
            "points",
            "low",
            "high",
            "minimum",
            "most",
            "players_count",
            "step",
            "steps",
            "number",
            "won",
            "percent",
            "days",
        ),
        P.NUMBER,
    ),
    **dict.fromkeys(("scores",), P.NUMBERS),
    **dict.fromkeys(("given", "name", "text", "line", "until", "draws", "penalty"), P.TEXT),
}


@dataclass(frozen=True)
class Line:
    """A message key and its parameters (JSON values, read by :data:`PARAM_TYPES`)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": self.params} if self.params else {"key": self.key}


def reader_form(
    key: str, params: Mapping[str, Any], me: int | None, has: Callable[[str], bool]
) -> tuple[str, dict[str, Any]]:
    """The message to say for ``key`` with ``params`` to the reader at seat ``me``, and its
    parameters: the reader form (:mod:`.reader`) of the places holding ``me`` when the
    catalogue ``has`` it, else ``key`` itself. A seat place holding ``me`` is ``you_<place>``;
    a list of seats that is ``me`` alone is too, and one that holds ``me`` among others is
    ``you_and_<place>``, its parameter then the others; the places are sorted by name. The
    browser picks the same way (``reader()`` in ``i18n.js``)."""
    out = dict(params)
    if me is None:
        return key, out
    places = []
    for name, value in params.items():
        kind = PARAM_TYPES.get(name)
        if kind == P.SEAT and type(value) is int and value == me:
            places.append(name)
        elif kind == P.SEATS and isinstance(value, list | tuple) and me in value:
            others = [seat for seat in value if seat != me]
            places.append(f"and_{name}" if others else name)
            out[name] = others or value
    if not places:
        return key, out
    form = f"{key}.you_{'_'.join(sorted(places, key=lambda place: place.removeprefix('and_')))}"
    return (form, out) if has(form) else (key, dict(params))


class Words:
    """Says keys, lines and the engine's closed sets in the language of ``cat``; seats are
    named from ``names`` (``seat N`` in words when there are none). With ``me``, the reader's
    seat, a message naming the reader is said in its reader form (:func:`reader_form`)."""

    def __init__(self, cat: Catalog, names: Sequence[str] | None = None, me: int | None = None) -> None:
        self.cat = cat
        self.names = list(names) if names is not None else None
        self.me = me

    # ------------------------------------------------------------------ one value
    def seat(self, seat: int) -> str:
        """A seat by its player's name (seats are numbered from 1 where there is no name)."""
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.cat.t("seat.numbered", number=seat + 1)

    def card(self, face: str) -> str:
        """A card face by its printed title: ``Red 5``, ``Wild Draw Four``; the whole text of a
        double-sided card (``red 5/pink 2``) is said by its first face."""
        parsed = parse_face(face.split("/", maxsplit=1)[0])
        kind = KIND_NAMES[parsed.kind]
        title = self.cat.t(f"card.{kind}")
        if parsed.color == NO_COLOR:
            return self.cat.t("face.wild", card=title)
        color = self.cat.t(f"face.color.{face.split(maxsplit=1)[0]}")
        key = N_("face.number") if is_number(parsed.kind) else N_("face.action")
        return self.cat.t(key, color=color, card=title)

    def kind(self, name: str) -> str:
        """A card kind by its title (``Wild Draw Four``)."""
        return self.cat.t(f"card.{name}") if name in KIND_BY_NAME else name

    def color(self, name: str | None) -> str:
        """A colour by its name (a colour the caller has already said is shown as given); none
        while one is being chosen."""
        if not name:
            return self.cat.t("color.none")
        return self.cat.t(f"color.{name}") if name in COLOR_BY_NAME else name

    def color_with_symbol(self, name: str | None, double_sided: bool = True) -> str:
        """A colour with its colour-blind mark on the cards of a deck (double-sided or not,
        :func:`~unokit.core.colors.color_marks`): ``red (circle)``, ``yellow (star)``."""
        if not name:
            return self.cat.t("color.none")
        symbol = self.cat.t(f"symbol.{color_marks(double_sided)[name]}")
        return self.cat.t("color.with_symbol", color=self.color(name), symbol=symbol)

    def side(self, name: str) -> str:
        return self.cat.t(f"side.{name}")

    def direction(self, name: str) -> str:
        return self.cat.t(f"direction.{name}")

    def reason(self, name: str) -> str:
        """Why cards were taken: a reason's words, or the title of the card that caused it."""
        if name in KIND_BY_NAME:
            return self.kind(name)
        return self.cat.t(f"reason.{name}")

    def decision(self, kind: str) -> str:
        """What a seat deciding ``kind`` is doing, for others to read (``naming a colour``)."""
        return self.cat.t(f"decision.{kind}.todo")

    def bot(self, name: str) -> str:
        """A bot (a level or an engine bot) by its name in words; anything else (an external
        program) as it is."""
        key = f"bot.{name}"
        return self.cat.t(key) if self.cat.has(key) else name

    def option(self, name: str) -> str:
        return self.cat.t(f"option.{name}")

    def variant(self, name: str) -> str:
        return self.cat.t(f"variant.{name}")

    def number(self, value: object) -> str:
        """A number as the language writes it (CLDR: ``1 000``, ``0,3`` in Russian); anything
        else as it is."""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return format_number(self.cat.code, value)
        return str(value)

    def value(self, kind: Param, value: Any) -> str:
        """``value`` shown as a parameter of type ``kind``; a nested line (an object with a
        ``key``) is said as a line, whatever the type."""
        if value is None:
            return ""
        if isinstance(value, dict) and "key" in value:
            return self.say(Line(str(value["key"]), dict(value.get("params", {}))))
        if isinstance(value, str) and kind in (P.SEATS, P.CARDS, P.NUMBERS):
            return value  # a list the caller has already said
        if kind == P.SEAT:
            return self.seat(int(value))
        if kind == P.SEATS:
            return self.cat.join(self.seat(int(s)) for s in value)
        if kind == P.CARD:
            try:
                return self.card(str(value))
            except UnokitError:
                return str(value)  # a card the caller has already said (with its glyph)
        if kind == P.CARDS:
            return self.cat.join(self.card(str(c)) for c in value) if value else self.cat.t("cards.none")
        if kind == P.KIND:
            return self.kind(str(value))
        if kind == P.COLOR:
            return self.color(str(value))
        if kind == P.SIDE:
            return self.side(str(value))
        if kind == P.DIRECTION:
            return self.direction(str(value))
        if kind == P.REASON:
            return self.reason(str(value))
        if kind == P.DECISION:
            return self.decision(str(value))
        if kind == P.OPTION:
            return self.option(str(value))
        if kind == P.VARIANT:
            return self.variant(str(value))
        if kind == P.NUMBERS:
            return self.cat.join(self.t("score.entry", player=seat, points=v) for seat, v in enumerate(value))
        if kind == P.NUMBER:
            return self.number(value)
        return str(value)

    # ------------------------------------------------------------------ messages
    def t(self, key: str, /, **params: Any) -> str:
        """The message ``key`` (its reader form, where it names the reader :attr:`me`) with its
        parameters shown by their types (:data:`PARAM_TYPES`)."""
        key, params = reader_form(key, params, self.me, self.cat.has)
        shown = {name: self.value(PARAM_TYPES.get(name, P.TEXT), value) for name, value in params.items()}
        count = params.get("count")
        return self.cat.fill(self.cat.text(key, count if isinstance(count, int) else None), shown)

    def say(self, line: Line) -> str:
        """A :class:`Line` in words."""
        return self.t(line.key, **line.params)

    def error(self, error: UnokitError) -> str:
        """An engine error in words: its code's message with its parameters (every error a
        player can meet has a code of its own, so nothing of the engine's English is added)."""
        return self.say(error_line(error))


def error_line(error: UnokitError) -> Line:
    """An engine error as a :class:`Line` (``error.<code>``); parameters its code does not
    declare are left out."""
    spec = ERRORS[error.code]
    return Line(f"error.{error.code.value}", {k: v for k, v in error.params.items() if k in spec.params})


def words(code: str | None = None) -> Words:
    """:class:`Words` of language ``code`` (``None``: the terminal's, :func:`~.catalog.current`)
    without seat names."""
    return Words(catalog(code))


def words_for(code: str | None, names: Sequence[str] | None, me: int | None = None) -> Words:
    """:class:`Words` of language ``code`` (``None``: the terminal's) naming seats from ``names``,
    to the reader at seat ``me`` (``None``: to nobody at the table)."""
    return Words(catalog(code), names, me)


def param_types() -> Mapping[str, str]:
    """:data:`PARAM_TYPES` as JSON (for the browser)."""
    return {name: kind.value for name, kind in PARAM_TYPES.items()}


__all__ = ["PARAM_TYPES", "Line", "Words", "error_line", "param_types", "reader_form", "words", "words_for"]
