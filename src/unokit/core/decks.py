"""Decks: the card types of each variant with their counts, and the Flip pairings.

A *card type* is one distinct physical card: its light (or mild) face and, for double-sided
decks, its dark (or wild) face. Two physical cards of the same type are indistinguishable, so
hands and piles hold type ids (small ints) and a deck is a multiset of them.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

from . import cards as C
from .cards import Face, face_text, parse_face
from .rng import Rng

#: The documented seed from which the shipped UNO Flip Attack pairing was generated (R-5.1).
FLIP_ATTACK_PAIRING_SEED = 20240726

Pair = tuple[Face, Face | None]


@dataclass(frozen=True)
class CardType:
    """One distinct card: ``light`` face and, on double-sided decks, ``dark`` face."""

    light: Face
    dark: Face | None

    def face(self, side: int) -> Face:
        """The face shown on ``side`` (0 light/mild, 1 dark/wild)."""
        if side and self.dark is not None:
            return self.dark
        return self.light

    def __str__(self) -> str:
        if self.dark is None:
            return face_text(self.light)
        return f"{face_text(self.light)}/{face_text(self.dark)}"


def _face_order(face: Face) -> tuple[int, int]:
    return (face.color if face.color >= 0 else 99, face.kind)


class Deck:
    """A multiset of card types plus the lookup tables the engine indexes by type id.

    ``color[side][t]`` and ``kind[side][t]`` give the active face of type ``t``; ``text[t]`` is
    its full notation (``red 5/pink 2``); ``counts[t]`` how many copies the deck holds.
    """

    def __init__(self, pairs: Iterable[Pair]) -> None:
        counter = Counter(pairs)
        ordered = sorted(
            counter,
            key=lambda p: (_face_order(p[0]), _face_order(p[1]) if p[1] else (0, 0)),
        )
        self.types: tuple[CardType, ...] = tuple(CardType(light, dark) for light, dark in ordered)
        self.counts: tuple[int, ...] = tuple(counter[p] for p in ordered)
        self.double_sided: bool = any(t.dark is not None for t in self.types)
        self.size: int = sum(self.counts)
        self.color: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(t.face(0).color for t in self.types),
            tuple(t.face(1).color for t in self.types),
        )
        self.kind: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(t.face(0).kind for t in self.types),
            tuple(t.face(1).kind for t in self.types),
        )
        self.text: tuple[str, ...] = tuple(str(t) for t in self.types)
        self.face_texts: tuple[tuple[str, ...], tuple[str, ...]] = (
            tuple(face_text(t.face(0)) for t in self.types),
            tuple(face_text(t.face(1)) for t in self.types),
        )
        self._by_text = {text: i for i, text in enumerate(self.text)}
        # back_class[side][t]: the smallest type id whose ``side`` face equals t's, so that
        # cards that look the same from that side share one id (what others see of a card).
        self.back_class: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(self.face_texts[0].index(f) for f in self.face_texts[0]),
            tuple(self.face_texts[1].index(f) for f in self.face_texts[1]),
        )

    def cards(self) -> list[int]:
        """Every physical card as a type id, in type order."""
        out: list[int] = []
        for t, count in enumerate(self.counts):
            out.extend([t] * count)
        return out

    def type_id(self, text: str) -> int | None:
        """The type whose full text is ``text`` (normalised), or ``None``."""
        return self._by_text.get(text)

    def pairs(self) -> list[Pair]:
        """Every physical card as (light, dark) faces, in type order."""
        return [(self.types[t].light, self.types[t].dark) for t in self.cards()]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self.types == other.types and self.counts == other.counts

    def __hash__(self) -> int:
        return hash((self.types, self.counts))


# --- single-sided decks ---------------------------------------------------------------


def classic_faces() -> list[Face]:
    """The 108 faces of Classic UNO (R-2.1)."""
    faces: list[Face] = []
    for color in C.SIDE_COLORS[0]:
        faces.append(Face(color, 0))
        for kind in (*range(1, 10), C.SKIP, C.REVERSE, C.DRAW_TWO):
            faces += [Face(color, kind)] * 2
    faces += [Face(C.NO_COLOR, C.WILD)] * 4 + [Face(C.NO_COLOR, C.WILD_DRAW_FOUR)] * 4
    return faces


def attack_faces() -> list[Face]:
    """The 112 faces of UNO Attack, the 1999 original (R-4.2)."""
    faces: list[Face] = []
    for color in C.SIDE_COLORS[0]:
        for kind in (*range(1, 10), C.HIT_2, C.REVERSE, C.SKIP):
            faces += [Face(color, kind)] * 2
        faces += [Face(color, C.DISCARD_ALL), Face(color, C.TRADE_HANDS)]
    faces += [Face(C.NO_COLOR, C.WILD)] * 4
    faces += [Face(C.NO_COLOR, C.WILD_ALL_HIT)] * 2 + [Face(C.NO_COLOR, C.WILD_HIT_FIRE)] * 2
    return faces


# --- double-sided decks ---------------------------------------------------------------


def flip_faces() -> tuple[list[Face], list[Face]]:
    """The light and dark faces of UNO Flip, each 112 long (R-3.1)."""
    light: list[Face] = []
    dark: list[Face] = []
    for color in C.SIDE_COLORS[0]:
        for kind in (*range(1, 10), C.DRAW_ONE, C.REVERSE, C.SKIP, C.FLIP):
            light += [Face(color, kind)] * 2
    light += [Face(C.NO_COLOR, C.WILD)] * 4 + [Face(C.NO_COLOR, C.WILD_DRAW_TWO)] * 4
    for color in C.SIDE_COLORS[1]:
        for kind in (*range(1, 10), C.DRAW_FIVE, C.REVERSE, C.SKIP_EVERYONE, C.FLIP):
            dark += [Face(color, kind)] * 2
    dark += [Face(C.NO_COLOR, C.WILD)] * 4 + [Face(C.NO_COLOR, C.WILD_DRAW_COLOR)] * 4
    return light, dark


def flip_attack_faces() -> tuple[list[Face], list[Face]]:
    """The mild and wild faces of UNO Flip Attack, each 112 long (R-5.1)."""
    mild: list[Face] = []
    wild: list[Face] = []
    for color in C.SIDE_COLORS[0]:
        for kind in (*range(1, 10), C.DISCARD_ALL, C.FLIP, C.HIT_2X):
            mild += [Face(color, kind)] * 2
        mild += [Face(color, C.REVERSE), Face(color, C.SKIP)]
    mild += [Face(C.NO_COLOR, C.WILD)] * 4 + [Face(C.NO_COLOR, C.WILD_PRESS_YOUR_LUCK)] * 4
    for color in C.SIDE_COLORS[1]:
        for kind in (*range(1, 10), C.FLIP, C.HIT_5X, C.REVERSE, C.SKIP_EVERYONE):
            wild += [Face(color, kind)] * 2
    wild += [Face(C.NO_COLOR, C.WILD_ALL_OUT_ATTACK)] * 4
    wild += [Face(C.NO_COLOR, C.WILD_DISCARD_ALL)] * 4
    return mild, wild


def random_pairing(light: Sequence[Face], dark: Sequence[Face], rng: Rng) -> list[Pair]:
    """Pair the faces at random: ``dark`` is shuffled with ``rng`` against ``light`` in order."""
    shuffled = list(dark)
    rng.shuffle(shuffled)
    return list(zip(light, shuffled, strict=True))


def read_pairs_csv(text: str) -> list[Pair]:
    """Read a ``light,dark`` CSV of card faces (one physical card a row, with a header)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != ["light", "dark"]:
        raise ValueError("a pairing CSV starts with the header 'light,dark'")
    return [(parse_face(light), parse_face(dark)) for light, dark in rows[1:] if light]


def write_pairs_csv(pairs: Iterable[Pair]) -> str:
    """The CSV text :func:`read_pairs_csv` reads back."""
    lines = ["light,dark"]
    for light, dark in pairs:
        assert dark is not None
        lines.append(f"{face_text(light)},{face_text(dark)}")
    return "\n".join(lines) + "\n"


def _data(name: str) -> str:
    return resources.files("unokit.core").joinpath("data", name).read_text(encoding="utf-8")


def flip_attack_generated_pairs() -> list[Pair]:
    """The shipped Flip Attack pairing as regenerated from its documented seed."""
    mild, wild = flip_attack_faces()
    return random_pairing(mild, wild, Rng(FLIP_ATTACK_PAIRING_SEED))


_DECKS: dict[str, Deck] = {}


def standard_deck(variant: str) -> Deck:
    """The default deck of a variant (physical pairing for the Flip variants), cached."""
    deck = _DECKS.get(variant)
    if deck is None:
        if variant == "classic":
            deck = Deck((face, None) for face in classic_faces())
        elif variant == "attack":
            deck = Deck((face, None) for face in attack_faces())
        elif variant == "flip":
            deck = Deck(read_pairs_csv(_data("uno_flip_card_pairs.csv")))
        elif variant == "flip_attack":
            deck = Deck(read_pairs_csv(_data("uno_flip_attack_card_pairs.csv")))
        else:
            raise KeyError(variant)
        _DECKS[variant] = deck
    return deck


def random_deck(variant: str, rng: Rng) -> Deck:
    """A deck of a Flip variant with a random pairing of its two sides (``pairing="random"``)."""
    light, dark = flip_faces() if variant == "flip" else flip_attack_faces()
    return Deck(random_pairing(light, dark, rng))
