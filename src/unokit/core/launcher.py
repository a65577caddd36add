"""The UNO Attack card launcher: pluggable, seeded models of when it fires (R-6).

A model answers one question per press: how many cards does this press eject (0 = none)?
The cards themselves come off the launcher's stack, which the engine holds. Every model's
state is part of the game state and round-trips through a position.
"""

from __future__ import annotations

from typing import Any

from .errors import ErrorCode, LauncherError, PositionError, quote
from .rng import Rng

#: Chance to fire after 0, 1, 2 and 3 or more empty presses in a row (R-6.2, read as a hazard).
FIRE_HAZARD = (0.21, 0.11, 0.54, 1.0)
#: Weights (percent) of ejecting 1..12 cards when the launcher fires (R-6.3, documented choice).
CARDS_PER_FIRE_WEIGHTS = (2, 4, 10, 14, 16, 16, 14, 10, 6, 4, 2, 2)
#: Presses (1-based) on which the original launcher fires, over a cycle of 96 presses (R-6.2).
FIRE_PATTERN = frozenset(
    {2, 6, 9, 13, 17, 21, 24, 26, 27, 29, 32, 36, 37, 41, 44, 47, 48, 51, 54, 57, 58, 62, 66}
    | {69, 72, 73, 77, 81, 84, 85, 88, 92, 93, 96}
)
PATTERN_LENGTH = 96


def cards_per_fire(rng: Rng) -> int:
    """Draw how many cards one fire ejects, 1 to 12, from :data:`CARDS_PER_FIRE_WEIGHTS`."""
    x = rng.below(sum(CARDS_PER_FIRE_WEIGHTS))
    for count, weight in enumerate(CARDS_PER_FIRE_WEIGHTS, start=1):
        if x < weight:
            return count
        x -= weight
    raise AssertionError("weights exhausted")  # pragma: no cover


class Launcher:
    """Base class: ``press`` returns the number of cards a press ejects."""

    model = "base"
    #: True when a press can fail (scripted model); the engine then applies atomically.
    can_fail = False

    def press(self, rng: Rng) -> int:
        """Return how many cards this press ejects (0 for none)."""
        raise NotImplementedError

    def restart(self) -> None:
        """The launcher was reloaded or flipped (R-6.3)."""

    def state(self) -> dict[str, Any]:
        """The full model state, for positions."""
        return {"model": self.model}

    def public_state(self) -> dict[str, Any]:
        """What every player at the table can know about the model."""
        return self.state()

    def copy(self) -> Launcher:
        """An independent copy."""
        raise NotImplementedError


class RandomLauncher(Launcher):
    """Fires with :data:`FIRE_HAZARD` by empty presses in a row; default model."""

    model = "random"

    def __init__(self, empty_streak: int = 0) -> None:
        self.empty_streak = empty_streak

    def press(self, rng: Rng) -> int:
        if rng.random() < FIRE_HAZARD[min(self.empty_streak, 3)]:
            self.empty_streak = 0
            return cards_per_fire(rng)
        self.empty_streak += 1
        return 0

    def restart(self) -> None:
        self.empty_streak = 0

    def state(self) -> dict[str, Any]:
        return {"model": self.model, "empty_streak": self.empty_streak}

    def copy(self) -> Launcher:
        return RandomLauncher(self.empty_streak)


class PatternLauncher(Launcher):
    """Fires on the presses of :data:`FIRE_PATTERN`; restarts on reload or flip."""

    model = "pattern"

    def __init__(self, index: int = 0) -> None:
        self.index = index

    def press(self, rng: Rng) -> int:
        self.index = self.index % PATTERN_LENGTH + 1
        return cards_per_fire(rng) if self.index in FIRE_PATTERN else 0

    def restart(self) -> None:
        self.index = 0

    def state(self) -> dict[str, Any]:
        return {"model": self.model, "index": self.index}

    def copy(self) -> Launcher:
        return PatternLauncher(self.index)


class OneCardLauncher(Launcher):
    """Every press ejects exactly one card: plain drawing."""

    model = "one_card"

    def press(self, rng: Rng) -> int:
        return 1

    def copy(self) -> Launcher:
        return OneCardLauncher()


class ScriptedLauncher(Launcher):
    """Outcomes come from a list (for tests, or typed in at a real table)."""

    model = "scripted"
    can_fail = True

    def __init__(self, script: list[int], index: int = 0) -> None:
        self.script = script
        self.index = index

    def press(self, rng: Rng) -> int:
        if self.index >= len(self.script):
            raise LauncherError(
                f"the launcher script is used up after {len(self.script)} presses; extend it with the next outcomes",
                ErrorCode.SCRIPT_USED_UP,
                count=len(self.script),
            )
        outcome = self.script[self.index]
        self.index += 1
        return outcome

    def extend(self, outcomes: list[int]) -> None:
        """Append outcomes (cards per press, 0 for none), e.g. as typed in at a real table."""
        if any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in outcomes):
            raise LauncherError(
                f"launcher outcomes are whole numbers of 0 or more, not {quote(outcomes)}",
                ErrorCode.BAD_SCRIPT,
                given=quote(outcomes),
            )
        self.script.extend(outcomes)

    def state(self) -> dict[str, Any]:
        return {"model": self.model, "script": list(self.script), "index": self.index}

    def public_state(self) -> dict[str, Any]:
        return {"model": self.model, "presses": self.index}

    def copy(self) -> Launcher:
        return ScriptedLauncher(list(self.script), self.index)


def make_launcher(model: str, script: tuple[int, ...] = ()) -> Launcher:
    """A fresh launcher of ``model`` (already validated by the options)."""
    if model == "random":
        return RandomLauncher()
    if model == "pattern":
        return PatternLauncher()
    if model == "one_card":
        return OneCardLauncher()
    return ScriptedLauncher(list(script))


#: The longest launcher script a position may hold.
MAX_SCRIPT = 100_000


def _count(state: dict[str, Any], key: str, high: int) -> int:
    value = state.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise PositionError(f"launcher {key!r} must be a whole number from 0 to {high}, not {quote(value)}")
    return value


def launcher_from_state(state: object) -> Launcher:
    """Rebuild a launcher from :meth:`Launcher.state`; raise :class:`PositionError` if malformed."""
    if not isinstance(state, dict) or "model" not in state:
        raise PositionError("'launcher' must be an object with a 'model'")
    model = state["model"]
    if model == "random":
        return RandomLauncher(_count(state, "empty_streak", 10**6))
    if model == "pattern":
        return PatternLauncher(_count(state, "index", PATTERN_LENGTH))
    if model == "one_card":
        return OneCardLauncher()
    if model == "scripted":
        script = state.get("script", [])
        if not isinstance(script, list) or len(script) > MAX_SCRIPT:
            raise PositionError(f"launcher 'script' must be a list of at most {MAX_SCRIPT} outcomes")
        if any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 10**6 for x in script):
            raise PositionError("launcher script outcomes must be whole numbers of 0 or more")
        return ScriptedLauncher(list(script), _count(state, "index", len(script)))
    raise PositionError(f"unknown launcher model {quote(model)}")
