"""The learning baseline: PPO on the compiled kernel for a fixed budget, then the policy as a bot
against the project's bots, hand by hand, with 95% intervals (docs/envs.md, "Baselines").

    nice -n 19 .venv/bin/python scripts/baseline_ppo.py --variant classic --players 2 --out runs/classic2
    nice -n 19 .venv/bin/python scripts/baseline_ppo.py --variant flip --players 4 --out runs/flip4
    # evaluate an existing policy only, against one bot, with another number of hands:
    nice -n 19 .venv/bin/python scripts/baseline_ppo.py --variant classic --players 2 --out runs/classic2 \\
        --eval-only --against ismcts_fast --hands 500

Training is ``examples/ppo_vector.py`` (CleanRL-style PPO on ``UnoVectorEnv``) against compiled
``--opponents`` for ``--steps`` agent decisions; the actor is written to ``OUT/policy.onnx``.
Evaluation plays ``--hands`` single hands (``rounds=1``) of the policy against ``players - 1``
copies of each bot of ``--against`` with ``unokit.sim`` (seats rotate from hand to hand), in
chunks of ``--chunk`` hands, and writes the running result to ``OUT/results.json`` after every
chunk: a long evaluation that is stopped keeps the largest sample it finished, and a later run
adds to it (each chunk plays other deals). Needs the extra ``rl-examples``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

from unokit.sim import SimConfig, run_sim, wilson_interval

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ppo_vector.py"
DEFAULT_AGAINST = "random,rlcard_rule,heuristic,ismcts_fast"


def load_trainer() -> Any:
    """``examples/ppo_vector.py`` as a module (examples are not a package)."""
    spec = importlib.util.spec_from_file_location("ppo_vector", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ppo_vector"] = module
    spec.loader.exec_module(module)
    return module


def evaluate(policy: Path, variant: str, players: int, bot: str, hands: int, seed: int) -> tuple[float, int, float]:
    """The policy's wins (a shared win split), hands and seconds in ``hands`` single hands against
    ``players - 1`` copies of ``bot``."""
    config = SimConfig(
        variant=variant,
        players=players,
        bots=(f"policy:{policy}", *[bot] * (players - 1)),
        games=hands,
        seed=seed,
        hands_only=True,
    )
    result = run_sim(config)
    row = result.bot_rows()[0]
    return float(row["wins"]), int(row["games"]), result.seconds


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="rlcard_rule", help="the compiled bot trained against, every other seat")
    parser.add_argument("--steps", type=int, default=2_000_000, help="training budget in agent decisions")
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", default=DEFAULT_AGAINST, help="bots to evaluate against, comma-separated")
    parser.add_argument("--hands", type=int, default=2000, help="hands against each bot (in all, with earlier runs)")
    parser.add_argument("--chunk", type=int, default=250, help="hands between two writes of the results")
    parser.add_argument("--out", type=Path, required=True, help="folder for policy.onnx and results.json")
    parser.add_argument("--eval-only", action="store_true", help="evaluate OUT/policy.onnx without training")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    policy = args.out / "policy.onnx"
    results_path = args.out / "results.json"
    results: dict[str, Any] = json.loads(results_path.read_text()) if results_path.exists() else {}
    if not args.eval_only:
        trainer = load_trainer()
        config = trainer.Config(
            variant=args.variant,
            opponents=tuple([args.opponents] * (args.players - 1)),
            num_envs=args.num_envs,
            steps=args.steps,
            seed=args.seed,
        )
        agent, env, totals = trainer.train(config)
        trainer.export(agent, env, policy)
        results = {"variant": args.variant, "players": args.players, "opponents": args.opponents, "training": totals}
        results["evaluations"] = {}
        results_path.write_text(json.dumps(results, indent=2))
        print(f"trained {totals['steps']:.0f} steps in {totals['seconds']:.0f} s", flush=True)
    results.setdefault("evaluations", {})
    for bot in (b.strip() for b in args.against.split(",") if b.strip()):
        started = time.monotonic()
        row = results["evaluations"].setdefault(bot, {"against": bot, "hands": 0, "wins": 0.0, "seconds": 0.0})
        while row["hands"] < args.hands:
            chunk = min(args.chunk, args.hands - row["hands"])
            wins, hands, seconds = evaluate(policy, args.variant, args.players, bot, chunk, seed=row["hands"] + 1)
            row["wins"] += wins
            row["hands"] += hands
            row["seconds"] += seconds
            low, high = wilson_interval(row["wins"], row["hands"])
            row.update(win_rate=row["wins"] / row["hands"], ci_low=low, ci_high=high)
            results_path.write_text(json.dumps(results, indent=2))
        print(
            f"| {args.variant} {args.players}p | {bot} | {row['hands']} | {100 * row['win_rate']:.1f}% "
            f"| {100 * row['ci_low']:.1f} to {100 * row['ci_high']:.1f} | {time.monotonic() - started:.0f} s |",
            flush=True,
        )
    return results


if __name__ == "__main__":
    main()
