"""Card faces for people: titles (``Red 5``), colour-blind symbols (R-5.1) and short codes, in
the terminal's language (:func:`unokit.i18n.current`).

Pure text helpers shared by the terminal UI, the round summary and the event log; the
styling (colours on screen) lives in :mod:`unokit.play.look`.
"""

from __future__ import annotations

from ..core.cards import KIND_NAMES, NO_COLOR, Face, parse_face
from ..core.colors import FLIP_MARKS, color_marks
from ..i18n import catalog
from ..i18n.lines import words

#: Glyphs of the colour-blind marks (:data:`~unokit.core.colors.MARK_NAMES`): the colours'
#: shapes, the star (a wild of the double-sided decks, yellow on Classic's cards) and the four
#: marks together (a wild of Classic UNO and UNO Attack).
SYMBOL_GLYPHS: dict[str, str] = {
    "circle": "●",
    "diamond": "◆",
    "triangle": "▲",
    "square": "■",
    "star": "★",
    "four": "❖",
}

#: The marks of the deck on the table (one table at a time in the terminal): a new game sets
#: them (:func:`use_deck`).
_marks: dict[str, str] = dict(FLIP_MARKS)


def use_deck(double_sided: bool) -> None:
    """Use the colour-blind marks of a double-sided deck or of a single-sided one from now on
    (:func:`~unokit.core.colors.color_marks`)."""
    _marks.clear()
    _marks.update(color_marks(double_sided))


def in_use(color: str) -> bool:
    """Whether the deck in use (:func:`use_deck`) has the colour ``color``."""
    return color in _marks


def face_of(text: str, side: int) -> str:
    """The face of a card's full text (``red 5/pink 2``) on ``side``; a single face as is."""
    faces = text.split("/")
    return faces[side] if len(faces) == 2 else faces[0]


def parse(face: str) -> Face:
    """The :class:`Face` of a face text such as ``red 5`` or ``wild``."""
    return parse_face(face)


def color_of(face: str) -> str | None:
    """The colour name of a face, ``None`` for a wild."""
    f = parse_face(face)
    return None if f.color == NO_COLOR else face.split(maxsplit=1)[0]


def symbol_name(color: str | None) -> str:
    """The mark of a colour on the cards in play (``circle`` for red), or of a wild (``None``)."""
    return _marks["wild" if color is None else color]


def glyph(color: str | None) -> str:
    """The glyph of a colour's mark (``●``), or of a wild's."""
    return SYMBOL_GLYPHS[symbol_name(color)]


def title(face: str) -> str:
    """``Red 5``, ``Teal Skip Everyone``, ``Wild Draw Color``: the printed title, in the
    terminal's language."""
    return words().card(face)


def label(face: str) -> str:
    """Title with its symbol first: ``● Red 5``, ``★ Wild Draw Four``."""
    return f"{glyph(color_of(face))} {title(face)}"


def short(face: str) -> str:
    """A short code for tight spaces: symbol and kind, ``●7``, ``▲SE``, ``★W+C``."""
    return f"{glyph(color_of(face))}{catalog().t(f'card.{KIND_NAMES[parse_face(face).kind]}.short')}"


def color_label(color: str | None) -> str:
    """``red ● circle``; a dash while no colour is in play (in the terminal's language)."""
    if color is None:
        return catalog().t("play.color_being_chosen")
    symbol = catalog().t(f"symbol.{symbol_name(color)}")
    return catalog().t("play.color_label", color=words().color(color), glyph=glyph(color), symbol=symbol)
