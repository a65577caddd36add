"""The server's features, each one module (``docs/architecture.md``, "Adding a server
feature"): what a deployment may do without, beside the core that serves rooms. Each declares a
:class:`~unokit.server.seam.Feature`; :data:`FEATURES` lists them once, in the order their hooks
run. ``unokit serve --without NAME`` turns one off (with the features that need it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..seam import Feature, StoreHooks
from . import arena, daily, finishing, hints, ladder, moderation, push, ratings, reviews, standings

#: Every feature, once.
FEATURES: tuple[Feature, ...] = (
    push.FEATURE,
    moderation.FEATURE,
    daily.FEATURE,
    ratings.FEATURE,
    ladder.FEATURE,
    arena.FEATURE,
    reviews.FEATURE,
    hints.FEATURE,
    standings.FEATURE,
    finishing.FEATURE,
)

NAMES: tuple[str, ...] = tuple(feature.name for feature in FEATURES)


def enabled(without: Iterable[str] = ()) -> tuple[Feature, ...]:
    """The features a server runs when told ``--without`` the names ``without``: every other
    one, less those that need one turned off. Raise ``ValueError`` naming an unknown name."""
    off = set(without)
    unknown = off - set(NAMES)
    if unknown:
        raise ValueError(f"there is no feature {', '.join(sorted(unknown))}; the features are {', '.join(NAMES)}")
    changed = True
    while changed:
        changed = False
        for feature in FEATURES:
            if feature.name not in off and off & set(feature.needs):
                off.add(feature.name)
                changed = True
    return tuple(feature for feature in FEATURES if feature.name not in off)


def store_hooks(without: Iterable[str] = ()) -> tuple[StoreHooks, ...]:
    """The hooks of every feature's rows in the core's writes: whole for the features
    :func:`enabled` gives; for one turned off, only forgetting and pruning (what it kept before
    is still forgotten with its identity and pruned with the records), never ``game_written``."""
    on = set(enabled(without))
    return tuple(feature.store if feature in on else replace(feature.store, game_written=None) for feature in FEATURES)


__all__ = ["FEATURES", "NAMES", "enabled", "store_hooks"]
