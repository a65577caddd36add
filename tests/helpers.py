"""Helpers for scenario tests: build a game from a small position."""

from __future__ import annotations

from typing import Any

from unokit import Game

SIDE_NAMES = {"classic": "light", "flip": "light", "attack": "light", "flip_attack": "mild"}


def position(
    variant: str = "classic",
    *,
    hands: list[list[str]],
    discard: list[str],
    color: str | None,
    turn: int = 0,
    draw: list[str] | None = None,
    seed: int = 1,
    **fields: Any,
) -> dict[str, Any]:
    """A position object with the given fields; unnamed deck cards go under ``draw``.

    ``players`` defaults to ``len(hands)``, ``side`` to the variant's first side.
    """
    obj: dict[str, Any] = {
        "variant": variant,
        "players": len(hands),
        "side": SIDE_NAMES[variant],
        "turn": turn,
        "color": color,
        "hands": hands,
        "discard": discard,
        "draw": draw or [],
        "seed": seed,
    }
    obj.update(fields)
    return obj


def game(variant: str = "classic", **kwargs: Any) -> Game:
    """``Game.from_position(position(variant, **kwargs))``."""
    return Game.from_position(position(variant, **kwargs))


def event_types(events: list[dict[str, Any]]) -> list[str]:
    """The ``type`` of each event, in order."""
    return [e["type"] for e in events]
