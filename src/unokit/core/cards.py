"""Card faces and their text notation, with the kind ids as names.

A *face* is one printed side of a card: a colour (or none, for wilds) and a kind. Colours
(:mod:`unokit.core.colors`) and kinds (:mod:`unokit.core.kinds`) are small ints so that the
engine can index tables with them; their names are the text notation (``red 5``,
``blue draw_two``, ``wild_draw_four``). Everything else about a kind is in its entry of the
card-kind table, :data:`unokit.core.kinds.KINDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .colors import (
    BLUE,
    COLOR_BY_NAME,
    COLOR_NAMES,
    COLOR_SYMBOLS,
    GREEN,
    NO_COLOR,
    ORANGE,
    PINK,
    PURPLE,
    RED,
    SIDE_COLORS,
    TEAL,
    YELLOW,
    parse_color,
)
from .errors import ErrorCode, InvalidActionError, quote
from .kinds import IS_WILD, KIND_BY_NAME, KIND_NAMES, KIND_TITLES, KINDS, CardKind
from .types import Color, KindId

# Kind ids by name (0..9 are the number cards): the index of each kind in KINDS.
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


def is_number(kind: KindId) -> bool:
    """True for the number kinds 0-9."""
    return KINDS[kind].number >= 0


def is_wild(kind: KindId) -> bool:
    """True for the colourless kinds (every Wild ...)."""
    return IS_WILD[kind]


class Face(NamedTuple):
    """One printed side of a card: ``color`` is ``NO_COLOR`` exactly for wild kinds."""

    color: Color
    kind: KindId

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


def parse_face(text: str, colors: Sequence[Color] | None = None) -> Face:
    """Read a face such as ``red 5``, ``blue draw_two`` or ``wild``.

    Raises :class:`InvalidActionError` with the reason when the text is not a face (an unknown
    colour's lists ``colors``: a variant's, every colour when ``None``).
    """
    if not isinstance(text, str):
        raise InvalidActionError(
            f"a card is text like 'red 5', not {quote(text)}", ErrorCode.UNKNOWN_CARD, given=quote(text)
        )
    words = text.strip().lower().split()
    if len(words) == 1:
        kind = KIND_BY_NAME.get(words[0])
        if kind is None or not IS_WILD[kind]:
            if kind is not None or words[0] in COLOR_BY_NAME:
                raise InvalidActionError(
                    f"{quote(text)} needs a colour and a kind, e.g. 'red 5'",
                    ErrorCode.CARD_NEEDS_COLOR,
                    given=quote(text),
                )
            raise InvalidActionError(f"unknown card {quote(text)}", ErrorCode.UNKNOWN_CARD, given=quote(text))
        return Face(NO_COLOR, kind)
    if len(words) == 2:
        color = parse_color(words[0], colors)
        kind = KIND_BY_NAME.get(words[1])
        if kind is None:
            raise InvalidActionError(
                f"unknown card kind {quote(words[1])} in {quote(text)}", ErrorCode.UNKNOWN_CARD, given=quote(text)
            )
        if IS_WILD[kind]:
            raise InvalidActionError(
                f"a wild card has no printed colour: write {words[1]!r} alone",
                ErrorCode.WILD_HAS_NO_COLOR,
                kind=KIND_NAMES[kind],
            )
        return Face(color, kind)
    raise InvalidActionError(f"cannot read a card from {quote(text)}", ErrorCode.UNKNOWN_CARD, given=quote(text))


__all__ = [
    "BLUE",
    "COLOR_BY_NAME",
    "COLOR_NAMES",
    "COLOR_SYMBOLS",
    "DISCARD_ALL",
    "DRAW_FIVE",
    "DRAW_ONE",
    "DRAW_TWO",
    "FLIP",
    "GREEN",
    "HIT_2",
    "HIT_2X",
    "HIT_5X",
    "KINDS",
    "KIND_BY_NAME",
    "KIND_NAMES",
    "KIND_TITLES",
    "NO_COLOR",
    "ORANGE",
    "PINK",
    "PURPLE",
    "RED",
    "REVERSE",
    "SIDE_COLORS",
    "SKIP",
    "SKIP_EVERYONE",
    "TEAL",
    "TRADE_HANDS",
    "WILD",
    "WILD_ALL_HIT",
    "WILD_ALL_OUT_ATTACK",
    "WILD_DISCARD_ALL",
    "WILD_DRAW_COLOR",
    "WILD_DRAW_FOUR",
    "WILD_DRAW_TWO",
    "WILD_HIT_FIRE",
    "WILD_PRESS_YOUR_LUCK",
    "YELLOW",
    "CardKind",
    "Face",
    "face_text",
    "face_title",
    "is_number",
    "is_wild",
    "parse_color",
    "parse_face",
]
