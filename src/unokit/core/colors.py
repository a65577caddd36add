"""Colours: their ids, names, the four colours of each side and the colour-blind symbols.

A colour is a small int (:data:`~unokit.core.types.Color`) so that the engine can index tables
with it; its name is the text notation (``red``, ``teal``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ErrorCode, InvalidActionError, quote
from .types import Color

NO_COLOR: Color = -1
RED, YELLOW, GREEN, BLUE, PINK, TEAL, ORANGE, PURPLE = range(8)
COLOR_NAMES: tuple[str, ...] = (
    "red",
    "yellow",
    "green",
    "blue",
    "pink",
    "teal",
    "orange",
    "purple",
)
COLOR_BY_NAME: dict[str, Color] = {name: i for i, name in enumerate(COLOR_NAMES)}

#: The four colours of each side: index 0 is the light (or mild) side, 1 the dark (or wild).
SIDE_COLORS: tuple[tuple[Color, ...], tuple[Color, ...]] = (
    (RED, YELLOW, GREEN, BLUE),
    (PINK, TEAL, ORANGE, PURPLE),
)

#: Colour-blind symbols printed on UNO Flip Attack cards (R-5.1), by colour.
COLOR_SYMBOLS: tuple[str, ...] = (
    "circle",
    "diamond",
    "triangle",
    "square",
    "circle",
    "triangle",
    "diamond",
    "square",
)

#: Every colour-blind mark a card may carry: the colours' shapes, a star, and all four marks
#: together (a wild card of Classic UNO and UNO Attack).
MARK_NAMES: tuple[str, ...] = ("circle", "diamond", "triangle", "square", "star", "four")

#: The marks of the single-sided decks (Classic UNO, UNO Attack), by colour name and ``wild``:
#: Classic UNO's printed colour-blind marks (on its cards since 2024, and in the mobile game):
#: circle red, square blue, triangle green, star yellow. Its wild cards carry no one colour's
#: mark, so a wild shows all four.
CLASSIC_MARKS: dict[str, str] = {
    "red": "circle",
    "yellow": "star",
    "green": "triangle",
    "blue": "square",
    "wild": "four",
}

#: The marks of the double-sided decks (UNO Flip, UNO Flip Attack and the themed editions):
#: UNO Flip Attack's printed ones (:data:`COLOR_SYMBOLS`, R-5.1), each dark colour with its
#: light colour's shape, and a star on wilds.
FLIP_MARKS: dict[str, str] = {**{name: COLOR_SYMBOLS[i] for i, name in enumerate(COLOR_NAMES)}, "wild": "star"}


def color_marks(double_sided: bool) -> dict[str, str]:
    """The colour-blind marks of a deck (:data:`FLIP_MARKS` for the double-sided decks, else
    :data:`CLASSIC_MARKS`), by colour name and ``wild``."""
    return FLIP_MARKS if double_sided else CLASSIC_MARKS


def color_list(colors: Sequence[Color] | None = None) -> str:
    """The names of ``colors`` (every colour when ``None``) as an error lists them."""
    return ", ".join(COLOR_NAMES[c] for c in (range(len(COLOR_NAMES)) if colors is None else colors))


def parse_color(text: str, colors: Sequence[Color] | None = None) -> Color:
    """Read a colour name; raise :class:`InvalidActionError` naming it when unknown, listing
    ``colors`` (a variant's; every colour when ``None``)."""
    color = COLOR_BY_NAME.get(text.strip().lower())
    if color is None:
        names = color_list(colors)
        raise InvalidActionError(
            f"unknown colour {quote(text)}; colours are {names}", ErrorCode.UNKNOWN_COLOR, given=quote(text), text=names
        )
    return color
