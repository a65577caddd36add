"""OpenSpiel speed: decisions/s of random play of 2-player Classic through OpenSpiel
(``unokit.openspiel``) in each chance mode, against unokit's own apply loop, in one run.

Run with ``.venv/bin/python scripts/bench_openspiel.py`` (the ``openspiel`` extra). A *decision*
is one seat's action: for the engine one ``game.legal_actions()`` and one ``game.apply(action)``
of the seat to act (nobody reacts out of turn); for OpenSpiel one ``state.legal_actions()`` and one
``state.apply_action(action)`` at a player node, the chance nodes between them sampled from
``state.chance_outcomes()`` (exact mode) or drawn inside the state (sampled mode). Each hand is
one round; a new one is dealt when it ends. The runners alternate short time slices so that
machine noise hits them alike; read the ratios at the end.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

Runner = Callable[[float], int]


def engine_runner() -> Runner:
    """unokit's own loop: ``Game.new`` then legal actions and apply until the hand ends."""
    from unokit import Game

    chooser = random.Random(0)
    deals = iter(range(1, 1 << 62))

    def new() -> Game:
        return Game.new("classic", 2, next(deals), rounds=1)[0]

    game = new()

    def run(seconds: float) -> int:
        nonlocal game
        decisions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if game.is_over:
                game = new()
            actions = game.legal_actions()
            game.apply(actions[chooser.randrange(len(actions))])
            decisions += 1
        return decisions

    return run


def openspiel_runner(chance: str) -> Runner:
    """OpenSpiel's loop over ``uno_classic(chance=...)``."""
    import pyspiel

    import unokit.openspiel  # noqa: F401 - registers the games

    game = pyspiel.load_game(f"uno_classic(players=2,chance={chance})")
    chooser = random.Random(0)
    state = game.new_initial_state()

    def run(seconds: float) -> int:
        nonlocal state
        decisions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[chooser.randrange(len(legal))])
            decisions += 1
        return decisions

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=6.0, help="time per runner")
    parser.add_argument("--slices", type=int, default=12)
    args = parser.parse_args()
    runners = {
        "unokit apply loop": engine_runner(),
        "openspiel exact chance": openspiel_runner("exact"),
        "openspiel sampled chance": openspiel_runner("sampled"),
    }
    totals = dict.fromkeys(runners, 0.0)
    counts = dict.fromkeys(runners, 0)
    for _ in range(args.slices):
        for name, run in runners.items():
            start = time.perf_counter()
            counts[name] += run(args.seconds / args.slices)
            totals[name] += time.perf_counter() - start
    rates = {name: counts[name] / totals[name] for name in runners}
    print(f"{'2-player Classic, random play':<28} {'decisions/s':>12} {'of the engine':>14}")
    base = rates["unokit apply loop"]
    for name, rate in rates.items():
        print(f"{name:<28} {rate:>12,.0f} {100 * rate / base:>13.1f}%")


if __name__ == "__main__":
    main()
