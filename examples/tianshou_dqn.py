"""Tianshou (2.x) on the PettingZoo environment, unchanged: Tianshou's ``PettingZooEnv`` wraps the
AEC table, a DQN learns the first seat while a masked random player holds the other, and the
trained Q-network is exported as a policy file (the legal id of highest value) that plays
anywhere a bot name goes.

    .venv/bin/python examples/tianshou_dqn.py --epochs 10 --out runs/dqn.onnx
    .venv/bin/unokit sim --bots policy:runs/dqn.onnx,random --games 1000 --hands-only

Needs the extra ``rl-examples``. The mask reaches Tianshou as ``obs.mask`` (its wrapper reads the
``action_mask`` field of every observation), so the DQN only ever picks legal ids.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector, ReplayBuffer, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net
from torch import nn

from unokit.bots.policy import export_mlp
from unokit.envs.pettingzoo import env
from unokit.sim import SimConfig, run_sim


def make_env(variant: str, max_decisions: int) -> PettingZooEnv:
    return PettingZooEnv(env(variant, 2, max_decisions=max_decisions))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--epoch-steps", type=int, default=5000, help="environment steps per epoch")
    parser.add_argument("--n-envs", type=int, default=4)
    parser.add_argument("--max-decisions", type=int, default=400, help="truncate hands longer than this")
    parser.add_argument("--eval-hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("dqn.onnx"))
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    probe = make_env(args.variant, args.max_decisions)
    obs_size = probe.observation_space["observation"].shape[0]
    actions = probe.action_space.n
    net = Net(state_shape=obs_size, action_shape=actions, hidden_sizes=[128, 128])
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=0.2),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=1,
        target_update_freq=200,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=probe)
    train_envs = DummyVectorEnv([lambda: make_env(args.variant, args.max_decisions) for _ in range(args.n_envs)])
    train_envs.seed(args.seed)
    # one table needs no vector buffer (whose index helpers Tianshou compiles with numba at every start)
    buffer = ReplayBuffer(20_000) if args.n_envs == 1 else VectorReplayBuffer(20_000, args.n_envs)
    collector = Collector[Any](algorithm, train_envs, buffer, exploration_noise=True)
    collector.reset()
    algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=args.epochs,
            epoch_num_steps=args.epoch_steps,
            collection_step_num_env_steps=64,
            update_step_num_gradient_steps_per_sample=0.25,
            batch_size=64,
            test_in_training=False,
            verbose=False,
            show_progress=False,
        )
    )
    linears = [m for m in net.model.modules() if isinstance(m, nn.Linear)]
    layers = [(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in linears]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export_mlp(args.out, layers, variant=args.variant, players=2, activation="relu", description="Tianshou DQN")
    result = run_sim(
        SimConfig(
            variant=args.variant,
            players=2,
            bots=(f"policy:{args.out}", "random"),
            games=args.eval_hands,
            hands_only=True,
        )
    )
    row = result.bot_rows()[0]
    print(
        f"trained {args.epochs} x {args.epoch_steps} steps; as a bot it won {100 * row['win_rate']:.1f}% of "
        f"{row['games']} hands against random (95% interval {100 * row['ci_low']:.1f} to "
        f"{100 * row['ci_high']:.1f}); policy written to {args.out}"
    )
    return {"model": net, "win_rate": float(row["win_rate"]), "path": args.out}


if __name__ == "__main__":
    main()
