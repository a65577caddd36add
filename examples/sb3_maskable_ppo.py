"""sb3-contrib's MaskablePPO on the Gymnasium environment, unchanged: ``make_vec_env`` builds the
tables, MaskablePPO finds the legal actions through the environment's ``action_masks()``, and the
trained actor is exported as a policy file that plays anywhere a bot name goes.

    .venv/bin/python examples/sb3_maskable_ppo.py --timesteps 200000 --out runs/sb3.onnx
    .venv/bin/unokit play --variant classic --players 2 --bots policy:runs/sb3.onnx

Needs the extra ``rl-examples``. Observations are scaled to [0, 1] by a Gymnasium wrapper
(``obs / encoding.high``); the export folds that scaling into the file, which takes the raw
observation as every policy file does.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium.wrappers import TransformObservation
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env
from torch import nn

import unokit.envs  # registers unokit/Classic-v0 and the others
from unokit.bots.policy import export_mlp
from unokit.sim import SimConfig, run_sim


def scaled(env: gymnasium.Env[Any, Any]) -> gymnasium.Env[Any, Any]:
    """The environment with observations divided by their upper bound."""
    high = np.maximum(env.observation_space.high, 1.0).astype(np.float32)  # type: ignore[attr-defined]
    space = gymnasium.spaces.Box(0.0, 1.0, shape=high.shape, dtype=np.float32)
    return TransformObservation(env, lambda obs: (obs / high).astype(np.float32), space)


def export(model: MaskablePPO, env_id: str, players: int, path: Path) -> None:
    """Write the policy network (shared MLP extractor's policy branch, then the action head)."""
    policy: Any = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)] + [policy.action_net]
    layers = [(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in linears]
    variant = unokit.envs.GYM_IDS[env_id]
    encoding = unokit.envs.Encoding(variant, players)
    export_mlp(
        path,
        layers,
        variant=variant,
        players=players,
        scale=1.0 / np.maximum(encoding.high, 1.0),
        description="MaskablePPO (examples/sb3_maskable_ppo.py)",
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="unokit/Classic-v0")
    parser.add_argument("--opponents", default="random", help="bots in the other seats, comma-separated")
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--n-envs", type=int, default=4)
    parser.add_argument("--n-steps", type=int, default=256, help="steps per environment per update")
    parser.add_argument("--max-decisions", type=int, default=1000, help="truncate hands longer than this")
    parser.add_argument("--eval-hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("sb3.onnx"))
    args = parser.parse_args(argv)
    opponents = [b.strip() for b in args.opponents.split(",")]
    env_kwargs = {"opponents": opponents, "max_decisions": args.max_decisions}
    vec = make_vec_env(args.env, n_envs=args.n_envs, seed=args.seed, env_kwargs=env_kwargs, wrapper_class=scaled)
    model = MaskablePPO("MlpPolicy", vec, n_steps=args.n_steps, batch_size=64, seed=args.seed, device="cpu")
    model.learn(total_timesteps=args.timesteps)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    players = 1 + len(opponents)
    export(model, args.env, players, args.out)
    # the exported file as a bot, in single hands against the training opponents
    variant = unokit.envs.GYM_IDS[args.env]
    bots = (f"policy:{args.out}", *opponents)
    result = run_sim(SimConfig(variant=variant, players=players, bots=bots, games=args.eval_hands, hands_only=True))
    row = result.bot_rows()[0]
    print(
        f"trained {args.timesteps} steps; as a bot it won {100 * row['win_rate']:.1f}% of {row['games']} hands "
        f"(95% interval {100 * row['ci_low']:.1f} to {100 * row['ci_high']:.1f}); policy written to {args.out}"
    )
    return {"model": model, "win_rate": float(row["win_rate"]), "path": args.out}


if __name__ == "__main__":
    main()
