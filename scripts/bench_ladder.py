"""The ladder's tournament: the five levels (``beginner`` to ``expert``) in a round-robin in each
of five settings, with OpenSkill ordinals and head-to-head win rates.

Settings: 2-player Classic, 4-player Classic, 4-player UNO Flip, 3-player UNO Attack and
4-player UNO Flip Attack (single hands). In each, every combination of ``players`` levels meets
at a table (``unokit tournament``'s round-robin: 10 tables of two or three, 5 of four) for
``--games`` hands, seats rotated from hand to hand, every hand's seed derived from ``--seed``
and the table. Levels play without their human habits (those are for people's games). The
script prints, per setting, the levels by OpenSkill ordinal (Plackett-Luce, mu - 3 sigma) and
each level's head-to-head win rate over the level below it (of the hands one of the two won
while both sat at the table, the share the higher level won, with a 95% Wilson interval),
then the whole head-to-head table.

    .venv/bin/python scripts/bench_ladder.py                          # every setting, 200 hands a table
    .venv/bin/python scripts/bench_ladder.py --setting classic-2 --games 500 --workers 2
    .venv/bin/python scripts/bench_ladder.py --json ladder.json

Needs the ``sim`` extra (OpenSkill) and, for ``hard`` and ``expert`` at full strength, ``fast``.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import sys
import time
from typing import Any

from unokit.bots import level_names
from unokit.sim.tournament import TournamentConfig, TournamentResult, run_tournament

#: The settings of the ladder's tournament: (name, variant, players).
SETTINGS = (
    ("classic-2", "classic", 2),
    ("classic-4", "classic", 4),
    ("flip-4", "flip", 4),
    ("attack-3", "attack", 3),
    ("flip_attack-4", "flip_attack", 4),
)


def ladder(variant: str, players: int, games: int, seed: int, workers: int) -> TournamentResult:
    """The round-robin of every level in ``variant`` at tables of ``players``."""
    config = TournamentConfig(
        variant=variant,
        players=players,
        bots=tuple(level_names()),
        games=games,
        seed=seed,
        workers=workers,
        hands_only=True,
    )
    return run_tournament(config)


def steps(result: TournamentResult) -> list[dict[str, Any]]:
    """Each level's head-to-head record over the level below it (rate of the higher one)."""
    levels = level_names()
    by_pair = {(p["bot"], p["other"]): p for p in result.head_to_head}
    out = []
    for low, high in itertools.pairwise(levels):
        pair = by_pair[(low, high)]
        out.append(
            {
                "level": high,
                "over": low,
                "games": pair["games"],
                "won": pair["losses"],
                "lost": pair["wins"],
                "rate": 1.0 - pair["rate"],
                "ci_low": 1.0 - pair["ci_high"],
                "ci_high": 1.0 - pair["ci_low"],
            }
        )
    return out


def report(name: str, result: TournamentResult, seconds: float) -> None:
    config = result.config
    tables = len(config.tables())
    print(
        f"\n{name}: {config.variant}, {config.players} players, {config.games} single hands a table "
        f"({tables} tables), seed {config.seed}, {seconds:.0f} s"
    )
    print(f"  {'rank':>4}  {'level':<9} {'ordinal':>8} {'mu':>7} {'sigma':>6} {'hands':>6} {'win rate':>9}")
    for rank, row in enumerate(result.ratings, start=1):
        print(
            f"  {rank:>4}  {row['bot']:<9} {row['ordinal']:>8.2f} {row['mu']:>7.2f} {row['sigma']:>6.2f} "
            f"{row['games']:>6} {row['win_rate']:>9.1%}"
        )
    print("  head to head, each level over the one below (of the hands one of the two won):")
    for step in steps(result):
        print(
            f"    {step['level']:<7} over {step['over']:<9} {step['rate']:6.1%} "
            f"[{step['ci_low']:.1%}, {step['ci_high']:.1%}]  ({step['won']} won, {step['lost']} lost, "
            f"{step['games']} hands together)"
        )
    print("  every pair (the first level's rate):")
    for pair in result.head_to_head:
        print(
            f"    {pair['bot']:<9} vs {pair['other']:<9} {pair['rate']:6.1%} "
            f"[{pair['ci_low']:.1%}, {pair['ci_high']:.1%}]  ({pair['wins']}-{pair['losses']})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="single hands per table")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--setting", action="append", choices=[s[0] for s in SETTINGS], help="one setting (repeatable; default all)"
    )
    parser.add_argument("--json", default=None, help="also write every result to this file")
    args = parser.parse_args()
    chosen = [s for s in SETTINGS if not args.setting or s[0] in args.setting]
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"The ladder ({', '.join(level_names())}): round-robin tournaments, machine "
        f"{platform.machine()}, {os.cpu_count()} CPUs, {args.workers} workers, started {started}"
    )
    print(f"  python {' '.join(sys.argv)}")
    results: dict[str, Any] = {}
    for name, variant, players in chosen:
        start = time.perf_counter()
        result = ladder(variant, players, args.games, args.seed, args.workers)
        seconds = time.perf_counter() - start
        report(name, result, seconds)
        results[name] = {**result.to_dict(), "steps": steps(result), "wall_seconds": seconds}
        if args.json:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
