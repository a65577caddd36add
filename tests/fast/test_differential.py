"""The compiled kernel against the reference engine: 2,000 random games of each variant under
``make test-all`` (a quarter of them under ``make test``), over
its supported options and table sizes, compared after every action (a digest of the state and
the legal actions), with whole positions, observation vectors and legal masks at checkpoints
and after every action of the first games (see :mod:`unokit.fast.verify`). The same comparison
on many more games: ``python scripts/fast_differential.py``."""

from __future__ import annotations

from typing import Any

import pytest

from unokit.fast.verify import compare_with_reference

from ..helpers import sized

#: (variant, players, games, options): 2,000 games per variant.
CASES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("classic", 2, 800, {}),
    ("classic", 4, 400, {"stacking": True}),
    ("classic", 3, 400, {"bluffing": False, "scoring": "loser"}),
    ("classic", 6, 400, {"stacking": True, "bluffing": False, "scoring": "own_hand", "target": 100}),
    ("flip", 2, 800, {}),
    ("flip", 4, 400, {"stacking": True}),
    ("flip", 3, 400, {"bluffing": False, "scoring": "own_hand"}),
    ("flip", 5, 400, {"stacking": True, "bluffing": False, "scoring": "loser"}),
    ("attack", 2, 1000, {}),
    ("attack", 3, 600, {"scoring": "own_hand"}),
    ("attack", 7, 400, {"scoring": "loser", "target": 150}),
    ("flip_attack", 2, 1000, {}),
    ("flip_attack", 3, 600, {"scoring": "own_hand"}),
    ("flip_attack", 6, 400, {"scoring": "loser", "target": 150}),
]


@pytest.mark.parametrize(
    ("variant", "players", "games", "options"), CASES, ids=[f"{c[0]}-{c[1]}p-{len(c[3])}opts" for c in CASES]
)
def test_the_kernel_plays_exactly_the_reference_games(
    variant: str, players: int, games: int, options: dict[str, Any]
) -> None:
    games = sized(games, games // 4)
    report = compare_with_reference(variant, players, games, seed=1000 * players, every=256, full_games=1, **options)
    assert report.mismatch is None, str(report)
    assert report.games == games
    assert report.decisions > games * 50
    assert report.positions > games
    assert report.observations == report.positions * players
    assert report.masks == report.positions


def test_every_variant_gets_two_thousand_games() -> None:
    for variant in ("classic", "flip", "attack", "flip_attack"):
        assert sum(games for name, _, games, _ in CASES if name == variant) == 2000
