"""unokit: an exact, fast, deterministic rules engine for the UNO family of card games."""

from __future__ import annotations

from .core import (
    DECISION_NAMES,
    VARIANTS,
    Action,
    AmbiguousActionError,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    LauncherError,
    OptionError,
    PositionError,
    UnokitError,
    View,
    new_game,
    redact,
)

__version__ = "0.1.0"

__all__ = [
    "DECISION_NAMES",
    "VARIANTS",
    "Action",
    "AmbiguousActionError",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "LauncherError",
    "OptionError",
    "PositionError",
    "UnokitError",
    "View",
    "__version__",
    "new_game",
    "redact",
]
