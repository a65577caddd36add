"""Environment speed: env steps/s of the PettingZoo environments with random masked actions,
and of RLCard's UNO environment (``env.run`` with ``RandomAgent``s) in the same run.

Run with ``.venv/bin/python scripts/bench_envs.py`` (the ``rl`` extra; the ``bench`` extra
adds RLCard). A *step* is one decision taken through the environment: for unokit one
``env.last()`` (observation and mask) plus one ``env.step(action)`` of a live agent, with the
action drawn uniformly from the mask; for RLCard one ``env.step`` inside ``env.run`` (RLCard
counts them in ``env.timestep``), which also encodes the state and asks its agent. Each
measurement alternates short time slices between the environments it compares, so that
machine noise hits them alike; read the ratio printed at the end.

Episodes are single hands (``rounds=1``, the environments' default), as RLCard's UNO game is
one hand. RLCard plays simplified rules (drawn cards are played automatically, no
challenge, no UNO call), so its hands last ~45 steps and unokit's ~1,000 (R-1.4 lets a
player draw instead of playing, which random players do often): compare steps/s, not
hands/s.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import random
import sys
import time
import types
from collections.abc import Callable
from typing import Any

Runner = Callable[[float], tuple[int, int]]


def unokit_runner(variant: str, players: int, wrapped: bool) -> Runner:
    """Steps for ``seconds`` through ``env()`` (``wrapped``) or ``raw_env()``."""
    from unokit.envs.pettingzoo import env, raw_env

    table: Any = env(variant, players) if wrapped else raw_env(variant, players)
    chooser = random.Random(0)
    table.reset(seed=0)

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        randrange = chooser.randrange
        last, step = table.last, table.step
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            obs, _reward, terminated, truncated, _info = last()
            if terminated or truncated:
                step(None)
                if not table.agents:
                    hands += 1
                    table.reset()
                continue
            legal = obs["action_mask"].nonzero()[0]
            step(legal[randrange(len(legal))])
            steps += 1
        return steps, hands

    return run


def _rlcard_random_agent() -> Any:
    """``rlcard.agents.RandomAgent``. The package's ``__init__`` runs ``pip freeze`` (absent
    from uv environments) and imports ``distutils``; load the agent's own module without it."""
    import rlcard

    if "rlcard.agents" not in sys.modules and importlib.util.find_spec("pip") is None:
        stub = types.ModuleType("rlcard.agents")
        stub.__path__ = [os.path.join(os.path.dirname(rlcard.__file__), "agents")]
        sys.modules["rlcard.agents"] = stub
    return importlib.import_module("rlcard.agents.random_agent").RandomAgent


def rlcard_runner() -> Runner | None:
    """RLCard's UNO env (2 players) run with random agents, or None without rlcard."""
    try:
        import rlcard

        random_agent = _rlcard_random_agent()
    except ImportError:
        return None
    table = rlcard.make("uno", config={"seed": 0})
    table.set_agents([random_agent(num_actions=table.num_actions) for _ in range(table.num_players)])

    def run(seconds: float) -> tuple[int, int]:
        start = table.timestep
        hands = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            table.run(is_training=False)
            hands += 1
        return table.timestep - start, hands

    return run


def measure(runners: dict[str, Runner], seconds: float, slices: int) -> dict[str, tuple[float, float]]:
    """Alternate ``slices`` time slices between the runners; return steps/s and hands/s."""
    totals = {name: [0, 0, 0.0] for name in runners}
    for _ in range(slices):
        for name, run in runners.items():
            start = time.perf_counter()
            steps, hands = run(seconds / slices)
            total = totals[name]
            total[0] += steps
            total[1] += hands
            total[2] += time.perf_counter() - start
    return {name: (s / t, h / t) for name, (s, h, t) in totals.items()}


def main() -> None:
    """Print steps/s per variant and the Classic 2-player ratio against RLCard."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per environment and configuration")
    parser.add_argument("--slices", type=int, default=8)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    print(f"{'environment':<34} {'players':>7} {'steps/s':>10} {'hands/s':>8}")
    results: dict[str, float] = {}
    for variant in ("classic", "flip", "attack", "flip_attack"):
        for players in args.players:
            runners: dict[str, Runner] = {
                f"unokit {variant} env()": unokit_runner(variant, players, wrapped=True),
                f"unokit {variant} raw_env()": unokit_runner(variant, players, wrapped=False),
            }
            rlcard = rlcard_runner() if variant == "classic" and players == 2 else None
            if rlcard is not None:
                runners["rlcard uno env.run"] = rlcard
            for name, (sps, hps) in measure(runners, args.seconds, args.slices).items():
                results[f"{name} {players}p"] = sps
                print(f"{name:<34} {players:>7} {sps:>10,.0f} {hps:>8,.1f}", flush=True)
    base = results.get("rlcard uno env.run 2p")
    if base is None:
        print("\nrlcard is not installed (extra 'bench'): no ratio printed")
        return
    for mode in ("env()", "raw_env()"):
        key = f"unokit classic {mode} 2p"
        if key in results:
            print(f"ratio unokit classic 2p {mode} / rlcard uno steps/s: {results[key] / base:.2f}")


if __name__ == "__main__":
    main()
