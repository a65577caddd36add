"""The compiled kernel against the reference engine: random games of every variant and
supported option, compared after every action (see :mod:`unokit.fast.verify`)."""

from __future__ import annotations

from typing import Any

import pytest

from unokit.fast.verify import compare_with_reference

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {"stacking": True}),
    ("classic", 3, {"bluffing": False, "scoring": "loser"}),
    ("flip", 2, {}),
    ("flip", 4, {"stacking": True, "bluffing": False, "scoring": "own_hand"}),
    ("attack", 2, {}),
    ("attack", 5, {"scoring": "own_hand"}),
    ("flip_attack", 2, {}),
    ("flip_attack", 4, {"scoring": "loser", "target": 150}),
]


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
def test_the_kernel_plays_exactly_the_reference_games(variant: str, players: int, options: dict[str, Any]) -> None:
    report = compare_with_reference(variant, players, 20, seed=1000 + players, full_games=1, **options)
    assert report.mismatch is None, str(report)
    assert report.games == 20
    assert report.decisions > 20 * 50
    assert report.positions > 20 and report.observations == report.positions * players
