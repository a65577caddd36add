"""The ladder of named levels that people choose bots by: ``beginner``, ``easy``, ``normal``,
``hard`` and ``expert``.

Each level is a documented configuration of one of the engine's bots (:data:`LEVELS`), for
every variant, player count and house rule the engine plays; ``make_bot("hard", seed)``
builds one, and the engine names (``heuristic``, ``ismcts_fast``, ...) stay for scripts. How
strong each level is was measured in a tournament of all the levels (``docs/bots.md``,
``scripts/bench_ladder.py``).

A level also has :class:`~unokit.bots.habits.Habits`, human habits kept apart from its
strength (forgetting UNO, slower and rarer catches, a think time). People's games put them on
(:func:`for_people`: the terminal and the server); simulations and tournaments build the
level's bot alone, so its measured strength is that of its play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from .base import Bot
from .habits import ForgetfulBot, Habits


@dataclass(frozen=True)
class Level:
    """A named level: the bot ``bot`` with keyword ``settings``; where that bot is not
    installed (``ismcts_fast`` needs the ``fast`` extra), ``fallback`` with
    ``fallback_settings`` instead. ``habits`` are its human habits in people's games;
    ``summary`` says in a line what it is."""

    name: str
    bot: str
    settings: dict[str, Any]
    habits: Habits
    summary: str
    fallback: str | None = None
    fallback_settings: dict[str, Any] = field(default_factory=dict)


#: The levels, weakest first. ``heuristic`` with ``slips`` answers that share of its decisions
#: with a random legal action (it may miss a card that fits, name a colour at random); the
#: searches play on the compiled kernel where it plays the game (else on the Python engine);
#: ``ismcts_belief`` is ``ismcts_fast`` except against a single opponent on a single-sided deck.
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "beginner",
            "heuristic",
            {"slips": 0.4},
            Habits(forget=0.4, late_uno=0.2, catch=0.3, reaction=(1.5, 4.0), think=(1.0, 2.5)),
            "the rule-based player, but two decisions in five are a random legal move",
        ),
        Level(
            "easy",
            "heuristic",
            {"slips": 0.15},
            Habits(forget=0.25, late_uno=0.3, catch=0.5, reaction=(1.0, 3.0), think=(0.8, 2.0)),
            "the rule-based player, with one decision in seven a random legal move",
        ),
        Level(
            "normal",
            "heuristic",
            {},
            Habits(forget=0.1, late_uno=0.5, catch=0.7, reaction=(0.8, 2.2), think=(0.7, 1.6)),
            "the rule-based player: card counting, reads of who could not follow, colour and wild management",
        ),
        Level(
            "hard",
            "ismcts_fast",
            {"iterations": 200},
            Habits(forget=0.03, late_uno=0.7, catch=0.9, reaction=(0.6, 1.6), think=(0.6, 1.3)),
            "a tree search over the hands the others may hold, 200 iterations a decision",
            "ismcts",
            {"iterations": 200},
        ),
        Level(
            "expert",
            "ismcts_belief",
            {},
            Habits(forget=0.0, late_uno=1.0, catch=1.0, reaction=(0.5, 1.2), think=(0.5, 1.2)),
            "the full tree search (20,000 iterations a decision on the compiled kernel), reading a "
            "single opponent's hand from its play",
            "ismcts",
            {},
        ),
    )
}
#: The level of a person's opponents when nobody says otherwise.
DEFAULT_LEVEL = "normal"


def level_names() -> list[str]:
    """The level names, weakest first."""
    return list(LEVELS)


def make_level_bot(name: str, seed: int, classes: dict[str, str]) -> Bot:
    """The bot of level ``name`` with its RNG seeded by ``seed``, without habits; ``classes``
    maps engine bot names to ``"module:Class"`` under ``unokit.bots``."""
    level = LEVELS[name]
    for bot, settings in ((level.bot, level.settings), (level.fallback, level.fallback_settings)):
        if bot is None:
            continue
        module_name, _, class_name = classes[bot].partition(":")
        try:
            module = import_module(f"{__package__}.{module_name}")
        except ImportError:
            continue
        made: Bot = getattr(module, class_name)(seed, **settings)
        return made
    raise ValueError(f"level {name!r} is not available: its bot {level.bot!r} is not installed")


def habits_for(spec: str) -> Habits:
    """The habits of a bot named ``spec`` in people's games: its level's, or the defaults of
    :class:`Habits` for an engine name."""
    level = LEVELS.get(spec)
    return level.habits if level is not None else Habits()


def for_people(bot: Bot, spec: str, habits: Habits | None = None) -> ForgetfulBot:
    """``bot`` (named ``spec``) with human habits for a table of people: ``habits``, or those
    of its level (:func:`habits_for`)."""
    return ForgetfulBot(bot, habits or habits_for(spec))


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "for_people", "habits_for", "level_names", "make_level_bot"]
