"""The catalogue keys that the engine's closed sets feed: one or more for every member.

Every card kind has a title and a short label, every colour a name (and the adjective a card
face takes), every event type a line, every decision kind a question and the words for others
waiting on it, every action verb a button, every option a label, a one-line explanation and a
word for each of its values, every error code a message, and so on. ``make catalogs`` extracts
these keys with the rest (:mod:`unokit.i18n.extract`), and the tests check that every catalogue
holds them all: a new member of a closed set without words fails the suite.

Outer layers add the keys of their own closed sets (the server's error codes, room settings and
bots) through :data:`OUTER_KEYS`, a list of ``module:function`` names that the extractor and
the tests call.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.codes import ACTIONS, DECISIONS, ERRORS, EVENTS, REASONS
from ..core.colors import COLOR_NAMES, MARK_NAMES
from ..core.kinds import KINDS
from ..core.variants import OPTION_SPECS, VARIANTS
from .prompts import PROMPTS
from .reader import reader_keys

#: Functions of outer layers that yield their own registry keys (they are loaded lazily: this
#: layer does not import them).
OUTER_KEYS: tuple[str, ...] = (
    "unokit.bots:registry_keys",
    "unokit.server.words:registry_keys",
    "unokit.keys:registry_keys",
    "unokit.review.words:registry_keys",
)


def card_keys() -> Iterator[str]:
    """Titles and short labels of every card kind, and the words of card faces and colours."""
    for kind in KINDS:
        yield f"card.{kind.name}"
        yield f"card.{kind.name}.short"
    for color in COLOR_NAMES:
        yield f"color.{color}"
        yield f"face.color.{color}"
    for symbol in MARK_NAMES:
        yield f"symbol.{symbol}"


def core_keys() -> Iterator[str]:
    """Every key that a closed set of the core feeds (see the module docstring)."""
    yield from card_keys()
    for side in sorted({name for rules in VARIANTS.values() for name in rules.side_names}):
        yield f"side.{side}"
    yield "direction.clockwise"
    yield "direction.counterclockwise"
    for reason in REASONS:
        yield f"reason.{reason}"
    for event in EVENTS:
        yield f"event.{event.value}"
    for decision in DECISIONS:
        yield from (wording.key for wording in PROMPTS[decision])  # its question (.prompts)
        yield f"decision.{decision.value}.todo"
    for action in ACTIONS:
        yield f"action.{action.value}"
    for spec in OPTION_SPECS:
        yield spec.label_key
        yield spec.help_key
        for value in spec.values:
            yield spec.value_key(value)
    for name in VARIANTS:
        yield f"variant.{name}"
        yield f"variant.{name}.help"
    for code in ERRORS:
        yield f"error.{code.value}"


def registry_keys() -> list[str]:
    """The keys of the core's closed sets, the reader forms (:mod:`.reader`) and the keys of
    :data:`OUTER_KEYS`, each once, in order."""
    from importlib import import_module

    keys = [*core_keys(), *reader_keys()]
    for target in OUTER_KEYS:
        module, _, function = target.partition(":")
        keys += list(getattr(import_module(module), function)())
    return list(dict.fromkeys(keys))


def is_plural(key: str) -> bool:
    """Whether ``key`` is a plural message: its form follows its ``{count}`` (keys ``n.…``)."""
    return key.startswith("n.")


__all__ = ["OUTER_KEYS", "card_keys", "core_keys", "is_plural", "registry_keys"]
