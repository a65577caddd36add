"""unokit.core: the pure rules engine (standard library only, no I/O)."""

from __future__ import annotations

from .actions import Action
from .errors import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    LauncherError,
    OptionError,
    PositionError,
    UnokitError,
)
from .game import DECISION_NAMES, Event, Game
from .observation import View, redact
from .variants import VARIANTS


def new_game(variant: str, players: int | None = None, seed: int | None = None, **options: object) -> Game:
    """Start a game: ``variant`` is a name or a spec like ``"flip(players=4,stacking=true)"``.

    ``players`` defaults to 4; ``seed`` to a fresh random seed (kept in ``game.seed``). The
    dealer is cut and the first round dealt. :meth:`Game.new` also returns the set-up events.
    """
    game, _events = Game.new(variant, players, seed, **options)
    return game


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
    "new_game",
    "redact",
]
