"""Variants as data: each variant's deck, player range, first-card rule, penalties, points
family, default options and accepted options.

A variant is built by name and options, in Python (``new_game("flip", players=4,
stacking=True)``) or as a string (``"flip(players=4,stacking=true)"``). Unknown variants,
unknown options, options a variant does not accept and impossible values raise
:class:`OptionError` naming them. :data:`VARIANT_NAMES` lists every variant.

Nothing in the engine asks for a variant by name: what differs between variants is a field of
:class:`VariantRules`, and what a card does is its entry in the card-kind table
(:mod:`unokit.core.kinds`). A new deck is a new entry here and its deck data.
"""

from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from . import cards as C
from .cards import Face
from .colors import SIDE_COLORS, color_marks
from .decks import (
    Deck,
    Icons,
    Pair,
    attack_faces,
    classic_faces,
    data_files,
    data_text,
    flip_attack_faces,
    flip_faces,
    random_pairing,
    read_deck_header,
    read_deck_text,
    read_pairs_csv,
)
from .errors import ErrorCode, OptionError, quote
from .kinds import KINDS
from .rng import Rng
from .types import TextKind

DeckSource = Callable[[], tuple[list[Pair], Icons]]
FacesSource = Callable[[], tuple[list[Face], list[Face]]]


@dataclass(frozen=True, eq=False)
class VariantRules:
    """The fixed rules of one variant (R-1 to R-7), as data."""

    name: str
    title: str
    family: str  # the point family of its cards (KINDS[k].points_in(family))
    double_sided: bool
    uses_launcher: bool  # the launcher replaces the draw pile
    min_players: int
    max_players: int
    side_names: tuple[str, str]
    options: frozenset[str]  # the options it accepts
    deck_source: DeckSource  # its default deck: the physical cards and their icons
    #: The faces a random pairing (``pairing="random"``) shuffles, in that order; ``None``:
    #: the default deck's faces in deck order.
    pairing_faces: FacesSource | None = None
    #: ``"kind"``: each kind's first-card rule (R-2.4, R-3.8, R-4.4); ``"number"``: action
    #: cards are ignored until a number shows (R-5.2, R-7, D-7).
    first_card: str = "kind"
    uno_penalty: int = 2  # cards drawn or presses made for a missed UNO
    #: Option defaults that differ from :class:`Options`' (``rounds=1`` for two editions, R-7).
    defaults: Mapping[str, object] = field(default_factory=dict)
    rule: str = ""  # the rule ids that describe it
    #: The house rules it accepts besides ``options`` (``docs/rules/house_rules.md``); unlike
    #: ``options``, a house rule appears in a game's options (positions, records) only when set.
    house_rules: frozenset[str] = frozenset()

    @property
    def accepted_options(self) -> frozenset[str]:
        """Every option it accepts: its ``options`` and its ``house_rules``."""
        return self.options | self.house_rules

    @property
    def colors(self) -> tuple[int, ...]:
        """The colours of this variant's cards: both sides' eight on a double-sided deck, the
        light side's four otherwise (what an error about a colour lists)."""
        return (*SIDE_COLORS[0], *SIDE_COLORS[1]) if self.double_sided else SIDE_COLORS[0]

    @property
    def marks(self) -> dict[str, str]:
        """The colour-blind mark of each colour name and of ``wild`` on this variant's cards:
        Classic UNO's printed marks on the single-sided decks, UNO Flip Attack's on the
        double-sided ones (:func:`~unokit.core.colors.color_marks`)."""
        return color_marks(self.double_sided)

    def card_points(self, kind: int) -> int:
        """Points of a face of ``kind`` left in a hand (R-2.5, R-3.9, R-4.5, R-5.8, R-7)."""
        return KINDS[kind].points_in(self.family)

    @property
    def points(self) -> dict[int, int]:
        """Points of every action kind of the default deck, by kind id (numbers score their value)."""
        deck = self.standard_deck()
        kinds = sorted({k for side in (0, 1) for k in deck.kind[side] if not C.is_number(k)})
        return {k: self.card_points(k) for k in kinds}

    def standard_deck(self) -> Deck:
        """The default deck (the physical pairing on double-sided decks), cached."""
        deck = _STANDARD.get(self.name)
        if deck is None:
            pairs, icons = self.deck_source()
            deck = _STANDARD[self.name] = Deck(pairs, icons)
        return deck

    def deck(self, options: Options, rng: Rng) -> Deck:
        """The deck of a new game with ``options``: the one given by the ``deck`` option or
        the default one, its faces paired at random with ``pairing="random"`` (drawing from
        ``rng``)."""
        base = custom_deck(self, options.deck) if options.deck else self.standard_deck()
        if options.pairing != "random" or not self.double_sided:
            return base
        if self.pairing_faces is not None and not options.deck:
            light, dark = self.pairing_faces()
        else:
            pairs = base.pairs()
            light, dark = [p[0] for p in pairs], [p[1] for p in pairs if p[1] is not None]
        return paired_deck(base, random_pairing(light, dark, rng))

    def kinds_on(self, side: int) -> frozenset[int]:
        """The kinds on ``side`` of the default deck."""
        return frozenset(self.standard_deck().kind[side])


_STANDARD: dict[str, Deck] = {}
#: The decks of the deck files read last, by variant and lines (a few: a server may be given
#: any number of different files).
_CUSTOM: OrderedDict[tuple[str, tuple[str, ...]], Deck] = OrderedDict()
_CUSTOM_KEPT = 16


def paired_deck(base: Deck, pairs: list[Pair]) -> Deck:
    """A deck of ``pairs`` whose icons are those of ``base`` carried by the dark face (on a
    re-paired deck an icon goes with the face that shows it)."""
    icons: Icons = {}
    for name, marked in base.icons.items():
        faces = {base.types[t].dark for t in marked}
        icons[name] = frozenset(p for p in pairs if p[1] in faces)
    return Deck(pairs, icons)


def custom_deck(rules: VariantRules, cards: tuple[str, ...]) -> Deck:
    """The deck the option ``deck`` lists (lines of a deck file: ``docs/formats.md``), checked
    against ``rules``: each face of a side's colours and of a kind that side of the variant
    has, and number cards of two different values at least, to choose a dealer (R-1.2) and to
    start the discard pile. Raise :class:`OptionError` naming the problem."""
    key = (rules.name, cards)
    deck = _CUSTOM.get(key)
    if deck is not None:
        _CUSTOM.move_to_end(key)
        return deck
    pairs, icons = read_deck_text("\n".join(cards), rules.double_sided)
    if not pairs:
        raise OptionError("option 'deck' lists no card", ErrorCode.DECK_EMPTY)
    for side in (0, 1) if rules.double_sided else (0,):
        allowed = rules.kinds_on(side)
        colors = SIDE_COLORS[side]
        for pair in pairs:
            face = pair[side]
            assert face is not None
            if face.kind not in allowed or (face.color >= 0 and face.color not in colors):
                title, text = rules.title, C.face_text(face)
                message = f"{text!r} is not a card of the {rules.side_names[side]} side of {title}"
                if rules.double_sided:
                    side_name = rules.side_names[side]
                    code, where = ErrorCode.DECK_WRONG_FACE, {"side": side_name}
                else:
                    code, where = ErrorCode.DECK_WRONG_CARD, {}
                raise OptionError(message, code, given=repr(text), variant=rules.name, **where)
    if len({max(KINDS[p[0].kind].number, 0) for p in pairs}) < 2:
        # Two cut values need a number card, so every variant's first card can be turned up too.
        raise OptionError(
            "the deck needs cards of at least two cut values (numbers) to choose a dealer (R-1.2)",
            ErrorCode.DECK_CUT_VALUES,
        )
    deck = _CUSTOM[key] = Deck(pairs, icons)
    if len(_CUSTOM) > _CUSTOM_KEPT:
        _CUSTOM.popitem(last=False)
    return deck


def _deck_file(name: str, double_sided: bool) -> DeckSource:
    return lambda: read_deck_text(data_text(name), double_sided)


def _csv_pairs(name: str) -> DeckSource:
    return lambda: (read_pairs_csv(data_text(name)), {})


def _one_sided(faces: Callable[[], list[Face]]) -> DeckSource:
    return lambda: ([(face, None) for face in faces()], {})


_COMMON = frozenset({"scoring", "target", "rounds", "deck"})
_DRAW_PILE = frozenset({"stacking", "bluffing", "wild_counts_as_color_match"})
_FLIP = frozenset({"flip_wild_chooser", "pairing"})
_LAUNCHER = frozenset({"launcher", "launcher_script"})
_FLIP_OPTIONS = _COMMON | _DRAW_PILE | _FLIP
#: House rules of every variant (H-1 to H-6); the draw-pile variants add the two rules about
#: drawing (the launcher variants have no drawn card to play), the launcher variants accept
#: stacking as a house rule (their Hit cards stack, H-3).
_HOUSE = frozenset({"jump_in", "seven_o", "teams"})
_HOUSE_DRAW_PILE = _HOUSE | {"draw_until_playable", "force_play"}
_HOUSE_LAUNCHER = _HOUSE | {"stacking"}
#: Every house rule, by name.
HOUSE_RULES: frozenset[str] = _HOUSE_DRAW_PILE | _HOUSE_LAUNCHER


VARIANTS: dict[str, VariantRules] = {
    "classic": VariantRules(
        name="classic",
        title="Classic UNO",
        family="classic",
        double_sided=False,
        uses_launcher=False,
        min_players=2,
        max_players=10,
        side_names=("light", "dark"),
        options=_COMMON | _DRAW_PILE,
        deck_source=_one_sided(classic_faces),
        rule="R-2",
        house_rules=_HOUSE_DRAW_PILE,
    ),
    "flip": VariantRules(
        name="flip",
        title="UNO Flip",
        family="flip",
        double_sided=True,
        uses_launcher=False,
        min_players=2,
        max_players=10,
        side_names=("light", "dark"),
        options=_FLIP_OPTIONS,
        deck_source=_csv_pairs("uno_flip_card_pairs.csv"),
        pairing_faces=flip_faces,
        rule="R-3",
        house_rules=_HOUSE_DRAW_PILE,
    ),
    "attack": VariantRules(
        name="attack",
        title="UNO Attack",
        family="attack",
        double_sided=False,
        uses_launcher=True,
        min_players=2,
        max_players=10,
        side_names=("light", "dark"),
        options=_COMMON | _LAUNCHER,
        deck_source=_one_sided(attack_faces),
        rule="R-4, R-6",
        house_rules=_HOUSE_LAUNCHER,
    ),
    "flip_attack": VariantRules(
        name="flip_attack",
        title="UNO Flip Attack",
        family="flip_attack",
        double_sided=True,
        uses_launcher=True,
        min_players=2,
        max_players=6,
        side_names=("mild", "wild"),
        options=_COMMON | _FLIP | _LAUNCHER,
        deck_source=_csv_pairs("uno_flip_attack_card_pairs.csv"),
        pairing_faces=flip_attack_faces,
        first_card="number",
        rule="R-5, R-6",
        house_rules=_HOUSE_LAUNCHER,
    ),
}


SCORING_MODES = ("winner", "own_hand", "loser")
LAUNCHER_MODELS = ("random", "pattern", "one_card", "scripted")
#: The readings of ``stacking`` (R-1.9, H-3): ``False`` none, ``True`` the same kind only
#: (also written ``same``), then the official Progressive UNO reading and the mixed one.
STACKING_READINGS: tuple[bool | str, ...] = (False, True, "progressive", "mixed")
#: Table sizes that ``teams=true`` seats as partners facing each other (H-6).
TEAM_TABLES = (4, 6)
FLIP_WILD_CHOOSERS = ("player", "next")
PAIRINGS = ("physical", "random")


class OptionKind(TextKind):
    """What kind of value an option takes: how it is read from text or JSON and how a form
    edits it (the browser builds each option's control from its kind)."""

    BOOL = "bool"  # true or false
    INT = "int"  # a whole number, at least the option's ``minimum``
    INT_OR_NONE = "int_or_none"  # the same, or none (``rounds``: play to the target)
    CHOICE = "choice"  # one of a few words (the option's ``values``)
    NUMBERS = "numbers"  # a list of whole numbers, each at least the option's ``minimum``
    LINES = "lines"  # text lines (a deck file)


def _as_bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise OptionError(
        f"option {name!r} must be true or false, not {quote(value)}",
        ErrorCode.BAD_OPTION_VALUE,
        option=name,
        given=quote(value),
    )


def _as_int(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool):
        raise _not_whole(name, value)
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise _not_whole(name, value) from None
    if not isinstance(value, int):
        raise _not_whole(name, value)
    if value < minimum:
        raise OptionError(
            f"option {name!r} must be at least {minimum}, not {quote(value)}",
            ErrorCode.OPTION_TOO_SMALL,
            option=name,
            minimum=minimum,
        )
    return value


def _not_whole(name: str, value: object) -> OptionError:
    return OptionError(
        f"option {name!r} must be a whole number, not {quote(value)}",
        ErrorCode.BAD_OPTION_VALUE,
        option=name,
        given=quote(value),
    )


def _as_stacking(spec: OptionSpec, value: object) -> bool | str:
    """A reading of ``stacking``: false, true (or ``same``), ``progressive`` or ``mixed`` (H-3)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("true", "same"):
            return True
        if text == "false":
            return False
        if text in STACKING_READINGS:
            return text
    raise OptionError(
        f"option {spec.name!r} must be false, true (same), progressive or mixed, not {quote(value)}",
        ErrorCode.BAD_OPTION_VALUE,
        option=spec.name,
        given=quote(value),
    )


def _as_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    raise OptionError(
        f"option {name!r} must be one of {', '.join(choices)}; got {quote(value)}",
        ErrorCode.BAD_OPTION_VALUE,
        option=name,
        given=quote(value),
    )


def _as_lines(name: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = re.split(r"[\n;]", value)
    if not isinstance(value, list | tuple) or not all(isinstance(line, str) for line in value):
        raise OptionError(
            f"option {name!r} lists the cards as text lines (a deck file), not {quote(value)}",
            ErrorCode.DECK_NOT_TEXT,
            given=quote(value),
        )
    lines = tuple(line.strip() for line in value if line.strip())
    if not lines:
        raise OptionError(f"option {name!r} lists no card", ErrorCode.DECK_EMPTY)
    return lines


def _as_numbers(name: str, value: object, minimum: int) -> tuple[int, ...]:
    items: list[object]
    if isinstance(value, str):
        text = value.strip().strip("[]")
        items = [part for part in re.split(r"[\s,;]+", text) if part]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise OptionError(
            f"option {name!r} must be a list of whole numbers, not {quote(value)}",
            ErrorCode.BAD_OPTION_VALUE,
            option=name,
            given=quote(value),
        )
    return tuple(_as_int(name, item, minimum) for item in items)


def _as_int_or_none(name: str, value: object, minimum: int) -> int | None:
    none = value is None or (isinstance(value, str) and value.strip().lower() == "none")
    return None if none else _as_int(name, value, minimum)


OptionReader = Callable[["OptionSpec", object], object]

#: How a value of each kind of option is read (text from a command line or a spec string, or
#: JSON): the checked value, or :class:`OptionError` naming the option.
READERS: Mapping[OptionKind, OptionReader] = MappingProxyType(
    {
        OptionKind.BOOL: lambda spec, value: _as_bool(spec.name, value),
        OptionKind.INT: lambda spec, value: _as_int(spec.name, value, spec.minimum),
        OptionKind.INT_OR_NONE: lambda spec, value: _as_int_or_none(spec.name, value, spec.minimum),
        OptionKind.CHOICE: lambda spec, value: _as_choice(spec.name, value, spec.values),
        OptionKind.NUMBERS: lambda spec, value: _as_numbers(spec.name, value, spec.minimum),
        OptionKind.LINES: lambda spec, value: _as_lines(spec.name, value),
    }
)


@dataclass(frozen=True)
class OptionSpec:
    """One rule option, declared once (a field of :class:`Options` made with :func:`option`):
    its ``name``, its ``kind`` of value, its ``default``, the ``values`` it takes when they are
    a few words (a boolean's ``true`` and ``false``, a choice's words; empty for a number or a
    list), the least number it takes (``minimum``), whether some variant takes it as a house
    rule, how a value is read (``read``: its kind's reader unless it has its own), and the
    catalogue keys of its label, its one-line explanation and each value."""

    name: str
    kind: OptionKind
    default: object
    values: tuple[str, ...] = ()
    minimum: int = 0
    house_rule: bool = False
    reader: OptionReader | None = None

    @property
    def label_key(self) -> str:
        return f"option.{self.name}"

    @property
    def help_key(self) -> str:
        return f"option.{self.name}.help"

    def value_key(self, value: str) -> str:
        return f"option.{self.name}.{value}"

    def read(self, value: object) -> object:
        """``value`` checked and resolved (``"3"`` -> 3); :class:`OptionError` when it is not
        a value of this option."""
        return (self.reader or READERS[self.kind])(self, value)


def option(
    kind: OptionKind,
    default: object,
    values: tuple[str, ...] = (),
    minimum: int = 0,
    reader: OptionReader | None = None,
) -> Any:
    """Declare a field of :class:`Options` as a rule option: its kind, its default, its words
    (a choice's ``values``; a boolean's are ``true`` and ``false``), its least number and its
    own reader when its kind's does not do (see :class:`OptionSpec`)."""
    if kind == OptionKind.BOOL:
        values = ("true", "false")
    declared = OptionSpec("", kind, default, values, minimum, False, reader)
    return field(default=default, metadata={"option": declared})


@dataclass(frozen=True)
class Options:
    """Resolved rule options; see ``docs/rules/README.md`` for each one. Each field is the one
    declaration of its option (:func:`option`): :data:`OPTION_SPECS`, the reading of
    :func:`make_options`, the forms of the terminal and the browser and the catalogue's keys
    all come from it."""

    # One of STACKING_READINGS (the word "same" is true); any reading but False stacks.
    stacking: bool | str = option(OptionKind.CHOICE, False, ("false", "same", "progressive", "mixed"), 0, _as_stacking)
    bluffing: bool = option(OptionKind.BOOL, True)
    wild_counts_as_color_match: bool = option(OptionKind.BOOL, False)
    flip_wild_chooser: str = option(OptionKind.CHOICE, "player", FLIP_WILD_CHOOSERS)
    pairing: str = option(OptionKind.CHOICE, "physical", PAIRINGS)
    scoring: str = option(OptionKind.CHOICE, "winner", SCORING_MODES)
    target: int = option(OptionKind.INT, 500, minimum=1)
    rounds: int | None = option(OptionKind.INT_OR_NONE, None, minimum=1)
    launcher: str = option(OptionKind.CHOICE, "random", LAUNCHER_MODELS)
    launcher_script: tuple[int, ...] = option(OptionKind.NUMBERS, (), minimum=0)
    # The physical cards, as lines of a deck file; () the default deck.
    deck: tuple[str, ...] = option(OptionKind.LINES, ())
    # House rules (docs/rules/house_rules.md), all off by default.
    jump_in: bool = option(OptionKind.BOOL, False)  # H-1
    seven_o: bool = option(OptionKind.BOOL, False)  # H-2
    draw_until_playable: bool = option(OptionKind.BOOL, False)  # H-4
    force_play: bool = option(OptionKind.BOOL, False)  # H-5
    teams: bool = option(OptionKind.BOOL, False)  # H-6

    def as_dict(self, rules: VariantRules) -> dict[str, Any]:
        """The options ``rules`` accepts, as JSON values (lists for ``launcher_script`` and
        ``deck``, which appear only when used; a house rule appears only when set)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name not in rules.options and (f.name not in rules.house_rules or getattr(self, f.name) == f.default):
                continue
            if (f.name == "launcher_script" and self.launcher != "scripted") or (f.name == "deck" and not self.deck):
                continue
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


def option_specs(declared_in: type[Any]) -> tuple[OptionSpec, ...]:
    """The options a dataclass declares (with :func:`option`), in its order; ``TypeError``
    names a field declared otherwise, so that no option goes without its kind and words."""
    out = []
    for f in fields(declared_in):
        declared = f.metadata.get("option")
        if not isinstance(declared, OptionSpec):
            raise TypeError(f"{declared_in.__name__}.{f.name} is not declared with option()")
        out.append(dataclasses.replace(declared, name=f.name, house_rule=f.name in HOUSE_RULES))
    return tuple(out)


#: Every rule option, declared once (:class:`OptionSpec`), in the order of :class:`Options`.
OPTION_SPECS: tuple[OptionSpec, ...] = option_specs(Options)
OPTION_SPEC: Mapping[str, OptionSpec] = MappingProxyType({spec.name: spec for spec in OPTION_SPECS})
#: The values of each option that is one of a few words (forms and menus list them).
OPTION_CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {spec.name: spec.values for spec in OPTION_SPECS if spec.kind == OptionKind.CHOICE}
)
#: Why an option does not apply where a variant refuses it.
_NOT_APPLICABLE = {
    "draw_until_playable": ": a turn presses the launcher, and no pressed card is played at once (R-4.1, H-4)",
    "force_play": ": a turn presses the launcher, and no pressed card is played at once (R-4.1, H-5)",
}


def make_options(rules: VariantRules, raw: Mapping[str, object]) -> Options:
    """Validate ``raw`` option values for ``rules`` and return the resolved :class:`Options`
    (the variant's own defaults fill in what ``raw`` leaves out)."""
    accepted = rules.accepted_options
    for name in raw:
        if not isinstance(name, str):
            raise OptionError(
                f"option names are text, not {quote(name)}",
                ErrorCode.UNKNOWN_OPTION,
                given=quote(name),
                variant=rules.name,
            )
        if name not in OPTION_SPEC:
            known = ", ".join(sorted(accepted))
            raise OptionError(
                f"unknown option {quote(name)}; {rules.name} accepts {known}",
                ErrorCode.UNKNOWN_OPTION,
                given=quote(name),
                variant=rules.name,
            )
        if name not in accepted:
            why = _NOT_APPLICABLE.get(name, "")
            raise OptionError(
                f"option {name!r} does not apply to {rules.name}{why}",
                ErrorCode.OPTION_NOT_APPLICABLE,
                option=name,
                variant=rules.name,
            )
    values: dict[str, Any] = {name: OPTION_SPEC[name].read(value) for name, value in {**rules.defaults, **raw}.items()}
    if "target" not in values:
        values["target"] = 200 if values.get("scoring") == "loser" else OPTION_SPEC["target"].default
    if values.get("launcher") == "scripted":
        if "launcher_script" not in values:
            raise OptionError(
                "launcher='scripted' needs the option 'launcher_script'",
                ErrorCode.OPTION_CONFLICT,
                option="launcher",
                needs="launcher_script",
            )
    elif "launcher_script" in values:
        raise OptionError(
            "option 'launcher_script' needs launcher='scripted'",
            ErrorCode.OPTION_CONFLICT,
            option="launcher_script",
            needs="launcher",
        )
    options = Options(**values)
    if options.deck:
        custom_deck(rules, options.deck)  # raises OptionError when the deck does not fit
    return options


def check_table(options: Options, players: int) -> None:
    """Raise :class:`OptionError` when ``options`` cannot be played by ``players`` seats:
    ``teams=true`` seats partners facing each other, so it needs 4 or 6 players (H-6)."""
    if options.teams and players not in TEAM_TABLES:
        raise OptionError(
            f"teams=true needs 4 or 6 players (partners sit facing each other), not {players} (H-6)",
            ErrorCode.TEAMS_TABLE,
            count=players,
        )


def get_rules(name: str) -> VariantRules:
    """The rules of variant ``name``; raise :class:`OptionError` for an unknown name."""
    if not isinstance(name, str):
        raise OptionError(
            f"a variant is named by text such as 'classic', not {quote(name)}",
            ErrorCode.UNKNOWN_VARIANT,
            given=quote(name),
        )
    rules = VARIANTS.get(name.strip().lower())
    if rules is None:
        raise OptionError(
            f"unknown variant {quote(name)}; variants are {', '.join(VARIANTS)}",
            ErrorCode.UNKNOWN_VARIANT,
            given=quote(name),
        )
    return rules


def deck_cards(variant: str, **options: object) -> list[str]:
    """Every physical card of ``variant``'s deck in the notation (``red 5/pink 2``), in deck
    order: the default deck, or the one the ``deck`` option lists. A card appears once per
    copy; a position or a test may name any of them."""
    rules = get_rules(variant)
    opts = make_options(rules, options)
    deck = custom_deck(rules, opts.deck) if opts.deck else rules.standard_deck()
    return deck.card_texts()


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """Read ``name=value`` texts (command-line options) into a dict; values stay text."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(
                f"write options as name=value, not {quote(pair)}", ErrorCode.OPTION_PAIR, given=quote(pair)
            )
        out[key.strip()] = value.strip()
    return out


_SPEC = re.compile(r"^\s*([A-Za-z_]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def parse_variant_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"flip(players=4,stacking=true)"`` into ``("flip", {"players": "4", ...})``.

    Values stay strings; list values use brackets: ``launcher_script=[0,3,0]``.
    """
    match = _SPEC.match(spec)
    if match is None:
        raise OptionError(
            f"cannot read the variant {quote(spec)}; write e.g. 'flip(players=4)'",
            ErrorCode.VARIANT_SPEC,
            given=quote(spec),
        )
    name, body = match.group(1), (match.group(2) or "").strip()
    params: dict[str, str] = {}
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(body):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    if body:
        parts.append(body[start:])
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(
                f"cannot read {quote(part)} in {quote(spec)}; write name=value",
                ErrorCode.OPTION_PAIR,
                given=quote(part),
            )
        if key in params:
            raise OptionError(
                f"option {key!r} is given twice in {quote(spec)}", ErrorCode.OPTION_TWICE, given=quote(key)
            )
        params[key] = value.strip()
    return name, params


#: Header fields of an edition's deck file besides the option defaults.
_EDITION_FIELDS = frozenset({"variant", "title", "base", "first_card", "rule"})


def _edition(file: str) -> VariantRules:
    """A variant played with the rules of another (``base``) and its own deck: a shipped deck
    file whose header names it (the themed UNO Flip editions, R-7). The header may also set the
    first-card rule and option defaults (``rounds: 1``)."""
    header = read_deck_header(data_text(file))
    base = VARIANTS[header["base"]]
    defaults = {key: value for key, value in header.items() if key not in _EDITION_FIELDS}
    edition = dataclasses.replace(
        base,
        name=header["variant"],
        title=header["title"],
        deck_source=_deck_file(file, base.double_sided),
        pairing_faces=None,
        first_card=header.get("first_card", base.first_card),
        defaults=defaults,
        rule=header.get("rule", base.rule),
    )
    make_options(edition, {})  # the defaults must be options the base variant accepts
    return edition


for _file in data_files(".deck"):
    _rules = _edition(_file)
    VARIANTS[_rules.name] = _rules
#: Every variant's name: the four games, then the editions, in the order of the documentation.
VARIANT_NAMES: tuple[str, ...] = tuple(VARIANTS)
