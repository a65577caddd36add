"""Speed of the compiled kernel (:mod:`unokit.fast`), with ratios taken in the same run:

* **first call**: the compile time on a machine that has never run the kernel (an empty numba
  cache, in a subprocess) and the load time once the cache is there;
* **random play, one core**: decisions/s of :func:`unokit.fast.random_playout` for every
  variant, against the reference engine's fast path (``Game.step``, the loop of
  ``scripts/bench_engine.py``) and, for Classic, RLCard's raw UNO engine. Each measurement
  alternates short time slices between the engines, so that machine noise hits them alike;
* **batched environment, every core**: steps/s of :class:`unokit.envs.vector.UnoBatchEnv`
  (observation and mask of the seat to act at every step, a uniformly random legal action
  per table) against the PettingZoo environment driven the same way (``bench_envs.py``);
* **simulator**: ``unokit sim --engine fast`` of 1,000,000 two-player Classic hands
  (``random`` against ``rlcard_rule``) with every core, against the reference engine's run of
  the same configuration, timed on ``--reference-hands`` hands and scaled up (it would take
  hours in full).

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
from collections.abc import Callable

import numba
import numpy as np
from numpy.typing import NDArray

from bench_engine import Runner, measure, rlcard_runner, unokit_runner
from bench_envs import unokit_runner as pettingzoo_runner
from unokit.fast import kernel as K

_FIRST_CALL = """
import time
start = time.perf_counter()
import numpy as np
from numpy.typing import NDArray
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


@numba.njit(cache=True)
def random_legal(masks: NDArray[np.bool_], rng: NDArray[np.int64]) -> NDArray[np.int64]:
    """One uniformly random legal id per row of ``masks`` (0 for a row with none)."""
    out = np.zeros(masks.shape[0], np.int64)
    for g in range(masks.shape[0]):
        count = 0
        for i in range(masks.shape[1]):
            count += masks[g, i]
        if count:
            k = K.below_at(rng, 0, count)
            for i in range(masks.shape[1]):
                if masks[g, i]:
                    if k == 0:
                        out[g] = i
                        break
                    k -= 1
    return out


def batch_env_runner(variant: str, players: int, tables: int) -> Callable[[float], tuple[int, int]]:
    """Steps of :class:`UnoBatchEnv` for ``seconds`` (steps, hands)."""
    from unokit.envs.vector import UnoBatchEnv

    env = UnoBatchEnv(variant, players, tables)
    rng = np.array([1], np.int64)
    _obs, info = env.reset(seed=0)
    for _ in range(5):  # compiled or loaded before timing
        _obs, _rewards, _term, _trunc, info = env.step(random_legal(info["action_mask"], rng))

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        nonlocal info
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            _obs, _rewards, terminated, _truncated, info = env.step(random_legal(info["action_mask"], rng))
            steps += tables
            hands += int(terminated.sum())
        return steps, hands

    return run


def sim_seconds(engine: str, hands: int, workers: int) -> float:
    """Wall time of ``unokit sim`` of ``hands`` 2-player Classic hands, random vs rlcard_rule."""
    unokit = os.path.join(os.path.dirname(sys.executable), "unokit")
    command = [unokit, "sim", "--bots", "random,rlcard_rule", "--hands-only"]
    command += ["--games", str(hands), "--workers", str(workers), "--engine", engine, "--quiet", "--seed", "1"]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per engine and configuration")
    parser.add_argument("--slices", type=int, default=8)
    parser.add_argument("--tables", type=int, default=4096, help="tables of the batched environment")
    parser.add_argument("--sim-hands", type=int, default=1_000_000)
    parser.add_argument("--reference-hands", type=int, default=20_000)
    parser.add_argument("--only", choices=("first-call", "random", "env", "sim"), help="one part only")
    args = parser.parse_args()
    if args.only in (None, "first-call"):
        first_call()
    if args.only in (None, "random"):
        random_play(args.seconds, args.slices)
    if args.only in (None, "env"):
        environments(args.seconds, args.slices, args.tables)
    if args.only in (None, "sim"):
        simulator(args.sim_hands, args.reference_hands)


def first_call() -> None:
    """The compile and load times of a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        cold = first_call_seconds(cache)
        warm = first_call_seconds(cache)
    print(f"first call: {cold:.1f} s compiling (empty cache), {warm:.2f} s loading from the cache")


def random_play(seconds: float, slices: int) -> None:
    """Random play on one core: the kernel against the reference engine and RLCard."""
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
            figures = measure(runners, seconds, slices)
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


def environments(seconds: float, slices: int, tables: int) -> None:
    """The batched environment on every core against the PettingZoo environment."""
    from bench_envs import measure as measure_envs

    print(f"\n{'environment':<40} {'steps/s':>12} {'hands/s':>9}")
    runners = {
        f"UnoBatchEnv classic 2p, {tables} tables": batch_env_runner("classic", 2, tables),
        "PettingZoo env() classic 2p": pettingzoo_runner("classic", 2, wrapped=True),
    }
    figures = measure_envs(runners, seconds, slices)
    for name, (sps, hps) in figures.items():
        print(f"{name:<40} {sps:>12,.0f} {hps:>9,.1f}", flush=True)
    fast, zoo = (figures[name][0] for name in runners)
    print(f"ratio UnoBatchEnv / PettingZoo env() steps/s: {fast / zoo:.0f}x ({numba.get_num_threads()} threads)")


def simulator(hands: int, reference_hands: int) -> None:
    """``unokit sim --engine fast`` of ``hands`` hands against the reference engine's rate."""
    workers = os.cpu_count() or 1
    fast = sim_seconds("fast", hands, workers)
    reference = sim_seconds("reference", reference_hands, workers) * hands / reference_hands
    print(
        f"\nunokit sim, {hands:,} Classic 2p hands (random vs rlcard_rule), {workers} workers: "
        f"fast {fast:.1f} s; reference {reference:.0f} s (from {reference_hands:,} hands, scaled); "
        f"ratio {reference / fast:.0f}x"
    )


if __name__ == "__main__":
    main()
