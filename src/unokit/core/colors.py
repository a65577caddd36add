"""Colours: their ids, names, the four colours of each side and the colour-blind symbols.

A colour is a small int (:data:`~unokit.core.types.Color`) so that the engine can index tables
with it; its name is the text notation (``red``, ``teal``).
"""

from __future__ import annotations

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


def parse_color(text: str) -> Color:
    """Read a colour name; raise :class:`InvalidActionError` naming it when unknown."""
    color = COLOR_BY_NAME.get(text.strip().lower())
    if color is None:
        names = ", ".join(COLOR_NAMES)
        raise InvalidActionError(
            f"unknown colour {quote(text)}; colours are {names}", ErrorCode.UNKNOWN_COLOR, given=quote(text), text=names
        )
    return color
