"""Colours, card kinds, faces and their text notation.

A *face* is one printed side of a card: a colour (or none, for wilds) and a kind. Colours
and kinds are small ints so that the engine can index tables with them; their names are the
text notation (``red 5``, ``blue draw_two``, ``wild_draw_four``).
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import InvalidActionError

# --- colours ----------------------------------------------------------------------------
NO_COLOR = -1
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
COLOR_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(COLOR_NAMES)}

#: The four colours of each side: index 0 is the light (or mild) side, 1 the dark (or wild).
SIDE_COLORS: tuple[tuple[int, ...], tuple[int, ...]] = (
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

# --- kinds ------------------------------------------------------------------------------
# 0..9 are the number cards; the rest are action cards; kinds from WILD on have no colour.
SKIP = 10
REVERSE = 11
DRAW_TWO = 12
DRAW_ONE = 13
DRAW_FIVE = 14
SKIP_EVERYONE = 15
FLIP = 16
HIT_2 = 17
HIT_2X = 18
HIT_5X = 19
DISCARD_ALL = 20
TRADE_HANDS = 21
WILD = 22
WILD_DRAW_FOUR = 23
WILD_DRAW_TWO = 24
WILD_DRAW_COLOR = 25
WILD_ALL_HIT = 26
WILD_HIT_FIRE = 27
WILD_PRESS_YOUR_LUCK = 28
WILD_ALL_OUT_ATTACK = 29
WILD_DISCARD_ALL = 30

KIND_NAMES: tuple[str, ...] = (
    *(str(n) for n in range(10)),
    "skip",
    "reverse",
    "draw_two",
    "draw_one",
    "draw_five",
    "skip_everyone",
    "flip",
    "hit_2",
    "hit_2x",
    "hit_5x",
    "discard_all",
    "trade_hands",
    "wild",
    "wild_draw_four",
    "wild_draw_two",
    "wild_draw_color",
    "wild_all_hit",
    "wild_hit_fire",
    "wild_press_your_luck",
    "wild_all_out_attack",
    "wild_discard_all",
)
KIND_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(KIND_NAMES)}

#: Printed names, for people.
KIND_TITLES: tuple[str, ...] = (
    *(str(n) for n in range(10)),
    "Skip",
    "Reverse",
    "Draw Two",
    "Draw One",
    "Draw Five",
    "Skip Everyone",
    "Flip",
    "Hit 2",
    "Hit 2X",
    "Hit 5X",
    "Discard All",
    "Trade Hands",
    "Wild",
    "Wild Draw Four",
    "Wild Draw Two",
    "Wild Draw Color",
    "Wild All Hit",
    "Wild Hit-Fire",
    "Wild Press Your Luck",
    "Wild All-Out Attack",
    "Wild Discard All",
)

#: Cards the next player may challenge (R-2.3, R-3.5, R-3.6).
CHALLENGEABLE_KINDS = frozenset({WILD_DRAW_FOUR, WILD_DRAW_TWO, WILD_DRAW_COLOR})
#: Coloured draw cards that stacking may answer with the same kind (R-1.9), and their amounts.
DRAW_AMOUNTS: dict[int, int] = {DRAW_ONE: 1, DRAW_TWO: 2, DRAW_FIVE: 5}


def is_number(kind: int) -> bool:
    """True for the number kinds 0-9."""
    return kind < 10


def is_wild(kind: int) -> bool:
    """True for the colourless kinds (every Wild ...)."""
    return kind >= WILD


class Face(NamedTuple):
    """One printed side of a card: ``color`` is ``NO_COLOR`` exactly for wild kinds."""

    color: int
    kind: int

    def __str__(self) -> str:
        return face_text(self)


def face_text(face: Face) -> str:
    """Text notation of a face: ``red 5``, ``blue draw_two``, ``wild_draw_four``."""
    if face.color == NO_COLOR:
        return KIND_NAMES[face.kind]
    return f"{COLOR_NAMES[face.color]} {KIND_NAMES[face.kind]}"


def face_title(face: Face) -> str:
    """A face as people say it: ``Red 5``, ``Wild Draw Four``."""
    if face.color == NO_COLOR:
        return KIND_TITLES[face.kind]
    return f"{COLOR_NAMES[face.color].capitalize()} {KIND_TITLES[face.kind]}"


def parse_color(text: str) -> int:
    """Read a colour name; raise :class:`InvalidActionError` naming it when unknown."""
    color = COLOR_BY_NAME.get(text.strip().lower())
    if color is None:
        raise InvalidActionError(f"unknown colour {text!r}; colours are {', '.join(COLOR_NAMES)}")
    return color


def parse_face(text: str) -> Face:
    """Read a face such as ``red 5``, ``blue draw_two`` or ``wild``.

    Raises :class:`InvalidActionError` with the reason when the text is not a face.
    """
    words = text.strip().lower().split()
    if len(words) == 1:
        kind = KIND_BY_NAME.get(words[0])
        if kind is None or not is_wild(kind):
            if kind is not None or words[0] in COLOR_BY_NAME:
                raise InvalidActionError(f"{text.strip()!r} needs a colour and a kind, e.g. 'red 5'")
            raise InvalidActionError(f"unknown card {text.strip()!r}")
        return Face(NO_COLOR, kind)
    if len(words) == 2:
        color = parse_color(words[0])
        kind = KIND_BY_NAME.get(words[1])
        if kind is None:
            raise InvalidActionError(f"unknown card kind {words[1]!r} in {text.strip()!r}")
        if is_wild(kind):
            raise InvalidActionError(f"a wild card has no printed colour: write {words[1]!r} alone")
        return Face(color, kind)
    raise InvalidActionError(f"cannot read a card from {text.strip()!r}")
