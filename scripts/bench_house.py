"""What the house rules cost the engine: decisions/s of the plain random-play loop.

Two measurements, each alternating short time slices between what it compares so that machine
noise hits them alike (read the ratios, not the absolute figures):

* ``--baseline DIR``: this checkout's engine with every house rule off against another copy of
  unokit (``DIR`` holds its ``unokit`` package, e.g. ``git archive core src | tar -x -C /tmp/b``
  then ``--baseline /tmp/b/src``). Each slice runs in a fresh process, so both load their own
  code. The ratio says what adding the house rules cost the official rules' hot path.
* always: each house rule on against all off, in this process (how much slower, or faster, a
  round is to play with the rule; a different game, not a cost).

The loop is the one of ``scripts/bench_engine.py``: ``new_game`` (one hand, ``rounds=1``), then
``legal_actions()`` and ``step`` of a uniformly random legal action until the hand ends.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The configurations of the second measurement: a name and the options.
HOUSE: dict[str, dict[str, object]] = {
    "official": {},
    "jump_in": {"jump_in": True},
    "seven_o": {"seven_o": True},
    "stacking=progressive": {"stacking": "progressive"},
    "draw_until_playable": {"draw_until_playable": True},
    "force_play": {"force_play": True},
    "teams": {"teams": True},
}

_SLICE = """
import json, random, sys, time
import unokit
variant, players, seconds, seed = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
chooser = random.Random(seed)
randrange = chooser.randrange
decisions = 0
seeds = iter(range(seed * 10**6, 10**12))
start = time.perf_counter()
end = start + seconds
while time.perf_counter() < end:
    game = unokit.new_game(variant, players, next(seeds), rounds=1)
    legal = game.legal_actions
    step = game.step
    while not game.is_over:
        actions = legal()
        step(actions[randrange(len(actions))])
        decisions += 1
print(json.dumps([decisions, time.perf_counter() - start]))
"""


def run_slice(src: Path, variant: str, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Decisions and seconds of one slice played by the unokit package in ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", _SLICE, variant, str(players), str(seconds), str(seed)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    decisions, elapsed = json.loads(out.stdout)
    return int(decisions), float(elapsed)


def against_baseline(baseline: Path, variant: str, players: int, seconds: float, slices: int) -> float:
    """This checkout's decisions/s over the baseline's, alternating ``slices`` slices each."""
    totals = {"this": [0, 0.0], "baseline": [0, 0.0]}
    sources = {"this": ROOT / "src", "baseline": baseline}
    for k in range(slices):
        order = ("this", "baseline") if k % 2 == 0 else ("baseline", "this")
        for name in order:
            decisions, elapsed = run_slice(sources[name], variant, players, seconds / slices, k)
            totals[name][0] += decisions
            totals[name][1] += elapsed
    rate = {name: d / t for name, (d, t) in totals.items()}
    print(f"  {variant} {players}p: this {rate['this']:,.0f}/s, baseline {rate['baseline']:,.0f}/s", flush=True)
    return rate["this"] / rate["baseline"]


def house_rates(variant: str, players: int, seconds: float, slices: int) -> dict[str, float]:
    """Decisions/s of each configuration of :data:`HOUSE` that ``variant`` accepts."""
    import unokit
    from unokit.core.errors import OptionError

    configs = {}
    for name, options in HOUSE.items():
        try:
            unokit.new_game(variant, players, 0, **options)
        except OptionError:
            continue
        configs[name] = options
    totals = {name: [0, 0.0] for name in configs}
    for k in range(slices):
        for name, options in configs.items():
            chooser = random.Random(k)
            seeds = iter(range(k * 10**6, 10**12))
            decisions = 0
            start = time.perf_counter()
            end = start + seconds / slices
            while time.perf_counter() < end:
                game = unokit.new_game(variant, players, next(seeds), rounds=1, **options)
                while not game.is_over:
                    actions = game.legal_actions()
                    game.step(actions[chooser.randrange(len(actions))])
                    decisions += 1
            totals[name][0] += decisions
            totals[name][1] += time.perf_counter() - start
    return {name: d / t for name, (d, t) in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, help="a directory holding another unokit package")
    parser.add_argument("--seconds", type=float, default=8.0, help="time per engine and configuration")
    parser.add_argument("--slices", type=int, default=8)
    args = parser.parse_args()
    if args.baseline is not None:
        if not (args.baseline / "unokit" / "__init__.py").exists():
            parser.error(f"{args.baseline} holds no unokit package")
        print("this checkout (house rules off) against the baseline, decisions/s:")
        for variant, players in (("classic", 2), ("classic", 4), ("flip", 4), ("attack", 4)):
            ratio = against_baseline(args.baseline, variant, players, args.seconds, args.slices)
            print(f"  ratio this / baseline, {variant} {players}p: {ratio:.3f}", flush=True)
    print("each house rule against the official rules (same engine), decisions/s:")
    for variant in ("classic", "flip", "attack"):
        rates = house_rates(variant, 4, args.seconds, args.slices)
        base = rates["official"]
        for name, rate in rates.items():
            print(f"  {variant:<8} {name:<22} {rate:>10,.0f}   x{rate / base:.2f}", flush=True)


if __name__ == "__main__":
    main()
