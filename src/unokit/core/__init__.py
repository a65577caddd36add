"""unokit.core: the pure rules engine (standard library only, no I/O)."""

from __future__ import annotations

from .actions import Action
from .decisions import Decision
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
from .kinds import KINDS, CardKind
from .observation import View, redact
from .round_end import RoundResult
from .types import ActionKind, CardId, Color, DecisionKind, EventType, KindId, Seat, WindowKind
from .variants import VARIANT_NAMES, VARIANTS, deck_cards
from .windows import Window


def new_game(variant: str, players: int | None = None, seed: int | None = None, **options: object) -> Game:
    """Start a game: ``variant`` is a name or a spec like ``"flip(players=4,stacking=true)"``.

    ``players`` defaults to 4; ``seed`` to a fresh random seed (kept in ``game.seed``). The
    dealer is cut and the first round dealt. :meth:`Game.new` also returns the set-up events.
    """
    game, _events = Game.new(variant, players, seed, **options)
    return game


__all__ = [
    "DECISION_NAMES",
    "KINDS",
    "VARIANTS",
    "VARIANT_NAMES",
    "Action",
    "ActionKind",
    "AmbiguousActionError",
    "CardId",
    "CardKind",
    "Color",
    "Decision",
    "DecisionKind",
    "Event",
    "EventType",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "KindId",
    "LauncherError",
    "OptionError",
    "PositionError",
    "RoundResult",
    "Seat",
    "UnokitError",
    "View",
    "Window",
    "WindowKind",
    "deck_cards",
    "new_game",
    "redact",
]
