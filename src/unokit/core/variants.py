"""Variants as data: each variant's deck, player range, points and accepted options.

A variant is built by name and options, in Python (``new_game("flip", players=4,
stacking=True)``) or as a string (``"flip(players=4,stacking=true)"``). Unknown variants,
unknown options, options a variant does not accept and impossible values raise
:class:`OptionError` naming them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from . import cards as C
from .errors import OptionError


@dataclass(frozen=True)
class VariantRules:
    """The fixed rules of one variant (R-1 to R-6)."""

    name: str
    title: str
    double_sided: bool
    uses_launcher: bool
    min_players: int
    max_players: int
    side_names: tuple[str, str]
    points: Mapping[int, int]  # action kinds -> points; numbers score their face value
    options: frozenset[str]

    def card_points(self, kind: int) -> int:
        """Points of a face of ``kind`` left in a hand (R-2.5, R-3.9, R-4.5, R-5.8)."""
        return kind if kind < 10 else self.points[kind]


_COMMON = frozenset({"scoring", "target", "rounds"})
_DRAW_PILE = frozenset({"stacking", "bluffing", "wild_counts_as_color_match"})
_FLIP = frozenset({"flip_wild_chooser", "pairing"})
_LAUNCHER = frozenset({"launcher", "launcher_script"})

VARIANTS: dict[str, VariantRules] = {
    "classic": VariantRules(
        name="classic",
        title="Classic UNO",
        double_sided=False,
        uses_launcher=False,
        min_players=2,
        max_players=10,
        side_names=("light", "dark"),
        points={C.SKIP: 20, C.REVERSE: 20, C.DRAW_TWO: 20, C.WILD: 50, C.WILD_DRAW_FOUR: 50},
        options=_COMMON | _DRAW_PILE,
    ),
    "flip": VariantRules(
        name="flip",
        title="UNO Flip",
        double_sided=True,
        uses_launcher=False,
        min_players=2,
        max_players=10,
        side_names=("light", "dark"),
        points={
            C.DRAW_ONE: 10,
            C.DRAW_FIVE: 20,
            C.REVERSE: 20,
            C.SKIP: 20,
            C.FLIP: 20,
            C.SKIP_EVERYONE: 30,
            C.WILD: 40,
            C.WILD_DRAW_TWO: 50,
            C.WILD_DRAW_COLOR: 60,
        },
        options=_COMMON | _DRAW_PILE | _FLIP,
    ),
    "attack": VariantRules(
        name="attack",
        title="UNO Attack",
        double_sided=False,
        uses_launcher=True,
        min_players=2,
        max_players=10,
        side_names=("light", "dark"),
        points={
            C.REVERSE: 20,
            C.SKIP: 20,
            C.HIT_2: 20,
            C.DISCARD_ALL: 30,
            C.TRADE_HANDS: 30,
            C.WILD: 50,
            C.WILD_ALL_HIT: 50,
            C.WILD_HIT_FIRE: 50,
        },
        options=_COMMON | _LAUNCHER,
    ),
    "flip_attack": VariantRules(
        name="flip_attack",
        title="UNO Flip Attack",
        double_sided=True,
        uses_launcher=True,
        min_players=2,
        max_players=6,
        side_names=("mild", "wild"),
        points={
            C.HIT_2X: 10,
            C.DISCARD_ALL: 20,
            C.FLIP: 20,
            C.HIT_5X: 20,
            C.REVERSE: 20,
            C.SKIP: 20,
            C.SKIP_EVERYONE: 30,
            C.WILD: 40,
            C.WILD_DISCARD_ALL: 50,
            C.WILD_ALL_OUT_ATTACK: 60,
            C.WILD_PRESS_YOUR_LUCK: 60,
        },
        options=_COMMON | _FLIP | _LAUNCHER,
    ),
}

SCORING_MODES = ("winner", "own_hand", "loser")
LAUNCHER_MODELS = ("random", "pattern", "one_card", "scripted")
FLIP_WILD_CHOOSERS = ("player", "next")
PAIRINGS = ("physical", "random")
#: The values of each option that is one of a few words (forms and menus list them).
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "flip_wild_chooser": FLIP_WILD_CHOOSERS,
    "pairing": PAIRINGS,
    "scoring": SCORING_MODES,
    "launcher": LAUNCHER_MODELS,
}


@dataclass(frozen=True)
class Options:
    """Resolved rule options; see ``docs/rules/README.md`` for each one."""

    stacking: bool = False
    bluffing: bool = True
    wild_counts_as_color_match: bool = False
    flip_wild_chooser: str = "player"
    pairing: str = "physical"
    scoring: str = "winner"
    target: int = 500
    rounds: int | None = None
    launcher: str = "random"
    launcher_script: tuple[int, ...] = ()

    def as_dict(self, rules: VariantRules) -> dict[str, Any]:
        """The options ``rules`` accepts, as JSON values (``launcher_script`` as a list)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in rules.options and (f.name != "launcher_script" or self.launcher == "scripted"):
                value = getattr(self, f.name)
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


_OPTION_NAMES = frozenset(f.name for f in fields(Options))


def _as_bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise OptionError(f"option {name!r} must be true or false, not {value!r}")


def _as_int(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool):
        raise OptionError(f"option {name!r} must be a whole number, not {value!r}")
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise OptionError(f"option {name!r} must be a whole number, not {value!r}") from None
    if not isinstance(value, int):
        raise OptionError(f"option {name!r} must be a whole number, not {value!r}")
    if value < minimum:
        raise OptionError(f"option {name!r} must be at least {minimum}, not {value}")
    return value


def _as_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    raise OptionError(f"option {name!r} must be one of {', '.join(choices)}; got {value!r}")


def _as_script(value: object) -> tuple[int, ...]:
    items: list[object]
    if isinstance(value, str):
        text = value.strip().strip("[]")
        items = [part for part in re.split(r"[\s,;]+", text) if part]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise OptionError(f"option 'launcher_script' must be a list of whole numbers, not {value!r}")
    return tuple(_as_int("launcher_script", item, 0) for item in items)


def make_options(rules: VariantRules, raw: Mapping[str, object]) -> Options:
    """Validate ``raw`` option values for ``rules`` and return the resolved :class:`Options`."""
    for name in raw:
        if name not in _OPTION_NAMES:
            known = ", ".join(sorted(rules.options))
            raise OptionError(f"unknown option {name!r}; {rules.name} accepts {known}")
        if name not in rules.options:
            raise OptionError(f"option {name!r} does not apply to {rules.name}")
    values: dict[str, Any] = {}
    for name, value in raw.items():
        if name in ("stacking", "bluffing", "wild_counts_as_color_match"):
            values[name] = _as_bool(name, value)
        elif name == "flip_wild_chooser":
            values[name] = _as_choice(name, value, FLIP_WILD_CHOOSERS)
        elif name == "pairing":
            values[name] = _as_choice(name, value, PAIRINGS)
        elif name == "scoring":
            values[name] = _as_choice(name, value, SCORING_MODES)
        elif name == "target":
            values[name] = _as_int(name, value, 1)
        elif name == "rounds":
            none = value is None or (isinstance(value, str) and value.strip().lower() == "none")
            values[name] = None if none else _as_int(name, value, 1)
        elif name == "launcher":
            values[name] = _as_choice(name, value, LAUNCHER_MODELS)
        elif name == "launcher_script":
            values[name] = _as_script(value)
    if "target" not in values:
        values["target"] = 200 if values.get("scoring") == "loser" else 500
    if values.get("launcher") == "scripted":
        if "launcher_script" not in values:
            raise OptionError("launcher='scripted' needs the option 'launcher_script'")
    elif "launcher_script" in values:
        raise OptionError("option 'launcher_script' needs launcher='scripted'")
    return Options(**values)


def get_rules(name: str) -> VariantRules:
    """The rules of variant ``name``; raise :class:`OptionError` for an unknown name."""
    rules = VARIANTS.get(name.strip().lower())
    if rules is None:
        raise OptionError(f"unknown variant {name!r}; variants are {', '.join(VARIANTS)}")
    return rules


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """Read ``name=value`` texts (command-line options) into a dict; values stay text."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"write options as name=value, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


_SPEC = re.compile(r"^\s*([A-Za-z_]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def parse_variant_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"flip(players=4,stacking=true)"`` into ``("flip", {"players": "4", ...})``.

    Values stay strings; list values use brackets: ``launcher_script=[0,3,0]``.
    """
    match = _SPEC.match(spec)
    if match is None:
        raise OptionError(f"cannot read the variant {spec!r}; write e.g. 'flip(players=4)'")
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
            raise OptionError(f"cannot read {part.strip()!r} in {spec!r}; write name=value")
        if key in params:
            raise OptionError(f"option {key!r} is given twice in {spec!r}")
        params[key] = value.strip()
    return name, params
