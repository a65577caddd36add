"""Decks: the card types of each variant with their counts, the Flip pairings, and deck files.

A *card type* is one distinct physical card: its light (or mild) face and, for double-sided
decks, its dark (or wild) face. Two physical cards of the same type are indistinguishable, so
hands and piles hold type ids (small ints) and a deck is a multiset of them.

A *deck file* lists the physical cards of a deck, one a line, in the card notation
(``docs/formats.md``, "Deck files"): :func:`read_deck_text` reads one and :func:`deck_text`
writes one. The themed editions' default decks are shipped as deck files.
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
from .errors import ErrorCode, OptionError, quote
from .kinds import KINDS, CardKind
from .rng import Rng
from .types import CardId

#: The documented seed from which the shipped UNO Flip Attack pairing was generated (R-5.1).
FLIP_ATTACK_PAIRING_SEED = 20240726

Pair = tuple[Face, Face | None]
#: Icons printed on some cards, by name: the physical cards (pairs) that show each.
Icons = dict[str, frozenset[Pair]]


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

    ``color[side][t]`` and ``kind[side][t]`` give the active face of type ``t`` (``kinds[side][t]``
    its :class:`~unokit.core.kinds.CardKind`); ``text[t]`` is its full notation (``red 5/pink 2``);
    ``counts[t]`` how many copies the deck holds; ``icons[name]`` the types that show an icon
    (the waffle of UNO Flip Stranger Things).
    """

    def __init__(self, pairs: Iterable[Pair], icons: Icons | None = None) -> None:
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
        self.kinds: tuple[tuple[CardKind, ...], tuple[CardKind, ...]] = (
            tuple(KINDS[k] for k in self.kind[0]),
            tuple(KINDS[k] for k in self.kind[1]),
        )
        self.icons: dict[str, frozenset[CardId]] = {
            name: frozenset(t for t, p in enumerate(ordered) if p in marked) for name, marked in (icons or {}).items()
        }
        self.text: tuple[str, ...] = tuple(str(t) for t in self.types)
        self.face_texts: tuple[tuple[str, ...], tuple[str, ...]] = (
            tuple(face_text(t.face(0)) for t in self.types),
            tuple(face_text(t.face(1)) for t in self.types),
        )
        self._by_text = {text: i for i, text in enumerate(self.text)}
        self._cards: tuple[CardId, ...] = tuple(t for t, count in enumerate(self.counts) for _ in range(count))
        self._hash = hash((self.types, self.counts))
        # back_class[side][t]: the smallest type id whose ``side`` face equals t's, so that
        # cards that look the same from that side share one id (what others see of a card).
        self.back_class: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(self.face_texts[0].index(f) for f in self.face_texts[0]),
            tuple(self.face_texts[1].index(f) for f in self.face_texts[1]),
        )

    def cards(self) -> list[int]:
        """Every physical card as a type id, in type order (a new list)."""
        return list(self._cards)

    def type_id(self, text: str) -> int | None:
        """The type whose full text is ``text`` (normalised), or ``None``."""
        return self._by_text.get(text)

    def pairs(self) -> list[Pair]:
        """Every physical card as (light, dark) faces, in type order."""
        return [(self.types[t].light, self.types[t].dark) for t in self.cards()]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Deck)
            and self.types == other.types
            and self.counts == other.counts
            and self.icons == other.icons
        )

    def __hash__(self) -> int:
        return self._hash

    def card_texts(self) -> list[str]:
        """Every physical card in the notation (``red 5/pink 2``), in type order."""
        return [self.text[t] for t in self.cards()]


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


def data_text(name: str) -> str:
    """The text of a file shipped in ``unokit/core/data``."""
    return resources.files("unokit.core").joinpath("data", name).read_text(encoding="utf-8")


def data_files(suffix: str) -> list[str]:
    """The names of the files shipped in ``unokit/core/data`` that end with ``suffix``, sorted."""
    folder = resources.files("unokit.core").joinpath("data")
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(suffix))


def flip_attack_generated_pairs() -> list[Pair]:
    """The shipped Flip Attack pairing as regenerated from its documented seed."""
    mild, wild = flip_attack_faces()
    return random_pairing(mild, wild, Rng(FLIP_ATTACK_PAIRING_SEED))


# --- deck files -----------------------------------------------------------------------

#: The most physical cards a deck file may list.
MAX_DECK_CARDS = 1000


def read_deck_header(text: str) -> dict[str, str]:
    """The header of a deck file: its ``name: value`` lines before the first card (a shipped
    edition's deck file names its variant there, ``docs/formats.md``)."""
    header: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name.strip().isidentifier():
            break
        header[name.strip()] = value.strip()
    return header


def read_deck_text(text: str, double_sided: bool) -> tuple[list[Pair], Icons]:
    """Read a deck file: one physical card a line, ``light/dark`` on double-sided decks (a
    single face otherwise), optionally preceded by a count (``2 x red 1/pink 3``) and followed
    by icons (``+waffle``); blank lines, ``#`` comments and the header's ``name: value`` lines
    are ignored. Raise :class:`OptionError` naming the line that cannot be read."""
    pairs: list[Pair] = []
    icons: dict[str, set[Pair]] = {}
    unmarked: set[Pair] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, _value = line.partition(":")
        if sep and name.strip().isidentifier() and not pairs:
            continue  # a header line
        words = line.split()
        count = 1
        if len(words) >= 3 and words[0].isascii() and words[0].isdigit() and words[1].lower() == "x":
            count = int(words[0])
            words = words[2:]
        marks = [w[1:].lower() for w in words if w.startswith("+")]
        card = " ".join(w for w in words if not w.startswith("+"))
        if not 1 <= count <= MAX_DECK_CARDS or any(not m.isidentifier() for m in marks):
            raise OptionError(
                f"deck line {number}: cannot read {quote(raw)}", ErrorCode.DECK_LINE, number=number, given=quote(raw)
            )
        try:
            pair = _read_card(card, double_sided)
        except ValueError as exc:
            raise OptionError(
                f"deck line {number}: {exc}", ErrorCode.DECK_LINE, number=number, given=quote(raw)
            ) from None
        for mark in marks:
            icons.setdefault(mark, set()).add(pair)
        if not marks:
            unmarked.add(pair)
        pairs += [pair] * count
        if len(pairs) > MAX_DECK_CARDS:
            raise OptionError(
                f"a deck lists at most {MAX_DECK_CARDS} cards", ErrorCode.DECK_TOO_BIG, number=MAX_DECK_CARDS
            )
    for mark, marked in icons.items():
        both = marked & unmarked
        if both:
            light, dark = next(iter(both))
            card = _pair_text(light, dark)
            raise OptionError(
                f"some copies of {card} show +{mark} and some do not",
                ErrorCode.DECK_MARKS,
                given=repr(card),
                text=f"+{mark}",
            )
    return pairs, {mark: frozenset(marked) for mark, marked in icons.items()}


def _read_card(text: str, double_sided: bool) -> Pair:
    if double_sided:
        if text.count("/") != 1:
            raise ValueError(f"write a two-sided card as light/dark, e.g. 'red 1/pink 3', not {quote(text)}")
        light, _, dark = text.partition("/")
        return parse_face(light), parse_face(dark)
    if "/" in text:
        raise ValueError(f"the cards of this deck have one face: write {quote(text.partition('/')[0])}")
    return parse_face(text), None


def _pair_text(light: Face, dark: Face | None) -> str:
    return face_text(light) if dark is None else f"{face_text(light)}/{face_text(dark)}"


def deck_text(deck: Deck, title: str = "") -> str:
    """A deck file of ``deck`` (what :func:`read_deck_text` reads back), one line per card
    type with its count."""
    lines = [f"# {title}"] if title else []
    for t, card in enumerate(deck.types):
        marks = "".join(f" +{name}" for name, marked in sorted(deck.icons.items()) if t in marked)
        count = deck.counts[t]
        lines.append(f"{count} x {card}{marks}" if count > 1 else f"{card}{marks}")
    return "\n".join(lines) + "\n"


def standard_deck(variant: str) -> Deck:
    """The default deck of a variant (physical pairing for the Flip variants), cached."""
    from .variants import get_rules

    return get_rules(variant).standard_deck()
