"""Engine speed: decisions/s and games/s for every variant under uniform random legal play.

Run with ``make bench`` (installs the optional ``bench`` extra, which brings RLCard). Each
measurement alternates short time slices between the engines it compares, so that machine
noise hits them alike; the figures to read are the ratios printed at the end.

A "game" here is one hand (option ``rounds=1``), as RLCard's UNO game is one hand.

The targets, checked at the end: on 2-player Classic, a plain user loop (``new_game``, then
``legal_actions()`` and ``apply()`` of a uniformly random legal action until the hand ends)
reaches at least 2.5 times RLCard's decisions per second, and ``step`` at least 3 times.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import unokit

Runner = Callable[[random.Random, float], tuple[int, int]]
#: Decisions per second against RLCard's raw engine on 2-player Classic, by mode.
TARGETS = {"apply": 2.5, "step": 3.0}


def unokit_runner(variant: str, players: int, fast: bool) -> Runner:
    """Play hands for ``seconds``; return (decisions, games). ``fast`` uses ``Game.step``."""
    seeds = iter(range(10**9))

    def run(chooser: random.Random, seconds: float) -> tuple[int, int]:
        decisions = games = 0
        end = time.perf_counter() + seconds
        randrange = chooser.randrange
        while time.perf_counter() < end:
            game = unokit.new_game(variant, players, next(seeds), rounds=1)
            act = game.step if fast else game.apply
            legal = game.legal_actions
            while not game.is_over:
                actions = legal()
                act(actions[randrange(len(actions))])
                decisions += 1
            games += 1
        return decisions, games

    return run


def rlcard_runner(players: int) -> Runner | None:
    """RLCard's raw UNO engine driven the same way, or None when rlcard is not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None

    def run(chooser: random.Random, seconds: float) -> tuple[int, int]:
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(chooser.randrange(2**31))
        decisions = games = 0
        end = time.perf_counter() + seconds
        randrange = chooser.randrange
        while time.perf_counter() < end:
            game.init_game()
            while not game.is_over():
                actions = game.get_legal_actions()
                game.step(actions[randrange(len(actions))])
                decisions += 1
            games += 1
        return decisions, games

    return run


def measure(runners: dict[str, Runner], seconds: float, slices: int) -> dict[str, tuple[float, float]]:
    """Alternate ``slices`` time slices between the runners; return decisions/s and games/s."""
    totals = {name: [0, 0, 0.0] for name in runners}
    for k in range(slices):
        for name, run in runners.items():
            start = time.perf_counter()
            decisions, games = run(random.Random(k), seconds / slices)
            total = totals[name]
            total[0] += decisions
            total[1] += games
            total[2] += time.perf_counter() - start
    return {name: (d / t, g / t) for name, (d, g, t) in totals.items()}


def main() -> None:
    """Print the benchmark table and the Classic 2-player ratio against RLCard."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per engine and configuration")
    parser.add_argument("--slices", type=int, default=8)
    parser.add_argument("--classic-only", action="store_true", help="measure only 2-player Classic (the targets)")
    args = parser.parse_args()
    print(f"{'engine':<38} {'players':>7} {'decisions/s':>12} {'games/s':>9}")
    results: dict[str, tuple[float, float]] = {}
    variants = ("classic",) if args.classic_only else unokit.VARIANT_NAMES
    for variant in variants:
        for players in (2,) if args.classic_only else (2, 4):
            runners: dict[str, Runner] = {
                f"unokit {variant} apply": unokit_runner(variant, players, fast=False),
                f"unokit {variant} step": unokit_runner(variant, players, fast=True),
            }
            rlcard = rlcard_runner(players) if variant == "classic" else None
            if rlcard is not None:
                runners["rlcard uno"] = rlcard
            figures = measure(runners, args.seconds, args.slices)
            for name, (dps, gps) in figures.items():
                results[f"{name} {players}p"] = (dps, gps)
                print(f"{name:<38} {players:>7} {dps:>12,.0f} {gps:>9,.1f}", flush=True)
    base = results.get("rlcard uno 2p")
    if base is None:
        print("\nrlcard is not installed (make bench installs it): no ratio printed")
        return
    for mode in ("step", "apply"):
        ratio = results[f"unokit classic {mode} 2p"][0] / base[0]
        verdict = "met" if ratio >= TARGETS[mode] else "NOT met"
        print(
            f"ratio unokit classic 2p ({mode}) / rlcard decisions/s: {ratio:.2f}"
            f"  (target {TARGETS[mode]:.1f}x: {verdict})"
        )


if __name__ == "__main__":
    main()
