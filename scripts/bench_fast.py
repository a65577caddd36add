"""Speed of the compiled kernel (:mod:`unokit.fast`), with ratios taken in the same run:

* **first call**: the compile time on a machine that has never run the kernel (an empty numba
  cache, in a subprocess) and the load time once the cache is there;
* **random play, one core**: decisions/s of :func:`unokit.fast.random_playout` for every
  variant, against the reference engine's fast path (``Game.step``, the loop of
  ``scripts/bench_engine.py``) and, for Classic, RLCard's raw UNO engine. Each measurement
  alternates short time slices between the engines, so that machine noise hits them alike.

Run with ``make bench`` or ``.venv/bin/python scripts/bench_fast.py`` (``--seconds`` per engine
and configuration). Read the ratios; the absolute figures move with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from bench_engine import Runner, measure, rlcard_runner, unokit_runner

_FIRST_CALL = """
import time
start = time.perf_counter()
import numpy as np
from unokit.fast import Batch, random_playout
random_playout("classic", 2, 1, 0)
batch = Batch("flip", 4, 2, 0)
batch.step(batch.legal_mask().argmax(axis=1))
batch.observations()
print(time.perf_counter() - start)
"""


def first_call_seconds(cache: str) -> float:
    """Seconds a fresh process takes to import the kernel and play (compiling into ``cache``)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL], env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def fast_runner(variant: str, players: int, chunk: int = 50) -> Runner:
    """Random play through the kernel for ``seconds``, ``chunk`` games per call."""
    from unokit.fast import random_playout

    seeds = iter(range(0, 10**12, chunk))
    random_playout(variant, players, 1, 0)  # compiled (or loaded from the cache) before timing

    def run(_chooser: object, seconds: float) -> tuple[int, int]:
        decisions = games = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            result = random_playout(variant, players, chunk, next(seeds))
            decisions += result["decisions"]
            games += result["games"]
        return decisions, games

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per engine and configuration")
    parser.add_argument("--slices", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        cold = first_call_seconds(cache)
        warm = first_call_seconds(cache)
    print(f"first call: {cold:.1f} s compiling (empty cache), {warm:.2f} s loading from the cache")
    print(f"\n{'engine':<32} {'players':>7} {'decisions/s':>13} {'games/s':>10}")
    ratios = []
    for variant in ("classic", "flip", "attack", "flip_attack"):
        for players in (2, 4):
            runners: dict[str, Runner] = {
                f"fast {variant}": fast_runner(variant, players),
                f"reference {variant} step": unokit_runner(variant, players, fast=True),
            }
            rlcard = rlcard_runner(players) if variant == "classic" else None
            if rlcard is not None:
                runners["rlcard uno"] = rlcard
            figures = measure(runners, args.seconds, args.slices)
            for name, (dps, gps) in figures.items():
                print(f"{name:<32} {players:>7} {dps:>13,.0f} {gps:>10,.1f}", flush=True)
            fast = figures[f"fast {variant}"][0]
            row = f"{variant} {players}p: fast / reference {fast / figures[f'reference {variant} step'][0]:.0f}x"
            if "rlcard uno" in figures:
                row += f", fast / rlcard {fast / figures['rlcard uno'][0]:.0f}x"
            ratios.append(row)
    print("\nratios (decisions/s, same run):")
    for row in ratios:
        print("  " + row)


if __name__ == "__main__":
    main()
