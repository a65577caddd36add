"""The differential check of :mod:`unokit.fast` on many games: every variant, several table
sizes and every supported option, compared with the reference engine after every action
(``make test`` runs 2,000 games per variant; this runs ``--games`` per configuration).

    .venv/bin/python scripts/fast_differential.py --games 5000
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from unokit.fast.verify import compare_with_reference

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    (variant, players, options)
    for variant in ("classic", "flip")
    for players in (2, 3, 4, 7, 10)
    for options in (
        {},
        {"stacking": True},
        {"bluffing": False},
        {"stacking": True, "bluffing": False, "scoring": "loser"},
    )
] + [
    (variant, players, options)
    for variant, sizes in (("attack", (2, 3, 4, 7, 10)), ("flip_attack", (2, 3, 4, 6)))
    for players in sizes
    for options in ({}, {"scoring": "own_hand"}, {"scoring": "loser", "target": 100})
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--seed", type=int, default=20_000_000)
    parser.add_argument("--full-games", type=int, default=2, help="games compared in full after every action")
    args = parser.parse_args()
    start = time.perf_counter()
    failures = decisions = games = 0
    for variant, players, options in CONFIGS:
        report = compare_with_reference(
            variant, players, args.games, args.seed + 7919 * players, full_games=args.full_games, **options
        )
        games += report.games
        decisions += report.decisions
        failures += report.mismatch is not None
        print(report, flush=True)
    seconds = time.perf_counter() - start
    print(f"{games} games, {decisions} decisions, {failures} configurations differ ({seconds:.0f} s)")
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
