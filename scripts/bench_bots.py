"""Measured targets of the bots and the simulator (issue 3); prints each figure with its target.

* 2-player Classic single hands, seats swapped every game: ``heuristic`` against ``random``
  (target: wins at least 62%) and against ``rlcard_rule`` (at least 58%), 20,000 games each;
* 4-player UNO Flip and UNO Flip Attack single hands, ``heuristic`` against three ``random``
  (at least 40%; a quarter is chance);
* simulator throughput with ``random`` bots against the raw engine loop of
  ``scripts/bench_engine.py`` (within 20%), alternating time slices so that machine noise hits
  both alike, in the fast mode (``Game.step``) and with per-effect statistics (``Game.apply``);
* scaling with workers: games per second with 1 and with 2 workers, and games per CPU-second
  (their ratio is the parallel efficiency, which stays meaningful on a busy machine).

Run: ``.venv/bin/python scripts/bench_bots.py`` (``--games 2000`` for a quick look; the
figures in the README come from the defaults).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

from bench_engine import unokit_runner
from unokit.sim import SimConfig, run_sim
from unokit.sim.runner import play_games


def win_rate(
    variant: str, players: int, bots: tuple[str, ...], games: int, workers: int, seed: int
) -> dict[str, float]:
    """Win rate of the first bot, with its 95% interval, over single hands (seats rotate)."""
    config = SimConfig(
        variant=variant, players=players, bots=bots, games=games, seed=seed, workers=workers, hands_only=True
    )
    result = run_sim(config)
    row = result.bot_rows()[0]
    return {"rate": row["win_rate"], "low": row["ci_low"], "high": row["ci_high"], "seconds": result.seconds}


def raw_loop(variant: str, players: int, fast: bool) -> Callable[[float], int]:
    """The engine alone, exactly the loop of ``bench_engine.py``: decisions in ``seconds``."""
    runner = unokit_runner(variant, players, fast)
    chooser = random.Random(0)
    return lambda seconds: runner(chooser, seconds)[0]


def sim_loop(variant: str, players: int, effects: bool) -> Callable[[float], int]:
    """The simulator's game loop (in this process) with ``random`` bots, single hands."""
    config = SimConfig(variant=variant, players=players, bots=("random",) * players, hands_only=True, effects=effects)
    start = [0]

    def run(seconds: float) -> int:
        decisions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            tally = play_games(config, start[0], start[0] + 1)
            start[0] += 1
            decisions += tally.decisions
        return decisions

    return run


def throughput(variant: str, players: int, seconds: float, slices: int) -> dict[str, float]:
    """Decisions per second of the raw loop and the simulator, in alternating slices."""
    runners = {
        "raw_step": raw_loop(variant, players, fast=True),
        "sim": sim_loop(variant, players, effects=False),
        "raw_apply": raw_loop(variant, players, fast=False),
        "sim_effects": sim_loop(variant, players, effects=True),
    }
    totals = dict.fromkeys(runners, 0.0)
    times = dict.fromkeys(runners, 0.0)
    for _ in range(slices):
        for name, run in runners.items():
            started = time.perf_counter()
            totals[name] += run(seconds / slices)
            times[name] += time.perf_counter() - started
    return {name: totals[name] / times[name] for name in runners}


def scaling(games: int, seed: int) -> dict[int, tuple[float, float]]:
    """Games per second of ``run_sim`` with 1 and 2 workers (random bots, 4-player Classic),
    and games per CPU-second of the processes that played them (to show the cost of the
    workers themselves even where other programs hold the cores)."""
    out = {}
    for workers in (1, 2):
        config = SimConfig(
            variant="classic",
            players=4,
            bots=("random",) * 4,
            games=games,
            seed=seed,
            workers=workers,
            hands_only=True,
        )
        before = os.times()
        seconds = run_sim(config).seconds
        after = os.times()
        if workers == 1:
            cpu = (after.user - before.user) + (after.system - before.system)
        else:
            cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        out[workers] = (games / seconds, games / max(cpu, 1e-9))
    return out


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "MISSES the target"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000, help="games per win-rate figure")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=8.0, help="time per throughput runner")
    parser.add_argument("--slices", type=int, default=8)
    parser.add_argument("--scaling-games", type=int, default=3000)
    parser.add_argument("--skip", default="", help="comma-separated: winrates, throughput, scaling")
    args = parser.parse_args()
    skip = set(args.skip.split(","))

    if "winrates" not in skip:
        print(f"Win rates over {args.games:,} single hands each (seats rotate every game), seed {args.seed}")
        matches = [
            ("classic", 2, ("heuristic", "random"), 0.62),
            ("classic", 2, ("heuristic", "rlcard_rule"), 0.58),
            ("flip", 4, ("heuristic", "random", "random", "random"), 0.40),
            ("flip_attack", 4, ("heuristic", "random", "random", "random"), 0.40),
        ]
        for variant, players, bots, target in matches:
            figure = win_rate(variant, players, bots, args.games, args.workers, args.seed)
            against = ", ".join(bots[1:]) if len(set(bots[1:])) > 1 else f"{len(bots) - 1} x {bots[1]}"
            print(
                f"  {variant:<12} {players}p heuristic vs {against:<14} {figure['rate']:6.1%} "
                f"[{figure['low']:.1%}, {figure['high']:.1%}]  target >= {target:.0%}: "
                f"{verdict(figure['rate'] >= target)}"
                f"{' (the whole interval too)' if figure['low'] >= target else ''}  ({figure['seconds']:.0f} s)",
                flush=True,
            )

    if "throughput" not in skip:
        print(f"\nThroughput with random bots, decisions/s ({args.seconds:g} s per runner in {args.slices} slices)")
        for variant, players in (("classic", 2), ("flip", 4), ("flip_attack", 4)):
            figures = throughput(variant, players, args.seconds, args.slices)
            fast = figures["sim"] / figures["raw_step"]
            slow = figures["sim_effects"] / figures["raw_apply"]
            ok = verdict(min(fast, slow) >= 0.8)
            print(
                f"  {variant:<12} {players}p  raw step {figures['raw_step']:>9,.0f}  simulator {figures['sim']:>9,.0f}"
                f"  ratio {fast:.2f}   |  raw apply {figures['raw_apply']:>9,.0f}  simulator --effects "
                f"{figures['sim_effects']:>9,.0f}  ratio {slow:.2f}   target >= 0.80: {ok}",
                flush=True,
            )

    if "scaling" not in skip:
        rates = scaling(args.scaling_games, args.seed)
        (one, one_cpu), (two, two_cpu) = rates[1], rates[2]
        print(
            f"\nScaling (4-player Classic, random bots, {args.scaling_games} hands, {os.cpu_count()} cores): "
            f"1 worker {one:.0f} games/s, 2 workers {two:.0f} games/s, speed-up {two / one:.2f}x; "
            f"games per CPU-second {one_cpu:.0f} and {two_cpu:.0f} (efficiency {two_cpu / one_cpu:.0%})"
        )


if __name__ == "__main__":
    main()
