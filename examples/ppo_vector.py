"""PPO in the style of CleanRL (one file, PyTorch) on ``UnoVectorEnv``: thousands of tables on the
compiled kernel, one agent seat against compiled bots; the trained actor is exported as a policy
file that plays anywhere a bot name goes (``policy:FILE.onnx``).

    .venv/bin/python examples/ppo_vector.py --steps 2000000 --out runs/classic.onnx
    .venv/bin/unokit sim --bots policy:runs/classic.onnx,rlcard_rule --games 2000 --option rounds=1

Needs the extra ``rl-examples`` (PyTorch). The actor and the critic are separate two-layer tanh
networks over the observation divided by its upper bound (``encoding.high``); the actor's
logits of illegal ids are set to a large negative number before sampling, so that only legal ids
are ever chosen. The batched environment resets a finished table at its next step (Gymnasium's
``NEXT_STEP`` autoreset): that step's action is ignored, so its transition is left out of the
loss. ``--max-decisions`` truncates hands that an untrained policy makes very long.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from unokit.bots.policy import export_mlp
from unokit.envs.vector import UnoVectorEnv

#: What an illegal id's logit becomes: far below any real logit, without the NaNs of -inf.
ILLEGAL = -1e9


def mlp(inputs: int, hidden: int, outputs: int, last_gain: float) -> nn.Sequential:
    """Two tanh layers and a linear head, orthogonally initialised (as CleanRL does)."""
    layers = [nn.Linear(inputs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, outputs)]
    for layer, gain in zip(layers[::2], (np.sqrt(2), np.sqrt(2), last_gain), strict=True):
        assert isinstance(layer, nn.Linear)
        nn.init.orthogonal_(layer.weight, gain)
        nn.init.zeros_(layer.bias)
    return nn.Sequential(*layers)


class Agent(nn.Module):
    """Actor and critic over the scaled observation."""

    def __init__(self, size: int, actions: int, hidden: int, scale: np.ndarray) -> None:
        super().__init__()
        self.scale = nn.Buffer(torch.as_tensor(scale, dtype=torch.float32))
        self.actor = mlp(size, hidden, actions, 0.01)
        self.critic = mlp(size, hidden, 1, 1.0)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.critic(obs * self.scale).squeeze(-1)
        return out

    def policy(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.actor(obs * self.scale).masked_fill(~mask, ILLEGAL)
        return torch.distributions.Categorical(logits=logits)


@dataclass
class Config:
    variant: str = "classic"
    opponents: tuple[str, ...] = ("random",)
    num_envs: int = 64
    num_steps: int = 64
    steps: int = 1_000_000
    seed: int = 0
    lr: float = 2.5e-4
    hidden: int = 128
    epochs: int = 4
    minibatches: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    max_decisions: int = 1000
    threads: int = 1


def train(config: Config, log_every: float = 30.0) -> tuple[Agent, UnoVectorEnv, dict[str, float]]:
    """Train for ``config.steps`` agent decisions; return the agent, its environment and totals."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    env = UnoVectorEnv(
        config.variant,
        config.num_envs,
        list(config.opponents),
        max_decisions=config.max_decisions,
        threads=config.threads,
    )
    enc = env.encoding
    agent = Agent(enc.size, enc.num_actions, config.hidden, 1.0 / np.maximum(enc.high, 1.0))
    optimizer = torch.optim.Adam(agent.parameters(), lr=config.lr, eps=1e-5)
    n, t_len = config.num_envs, config.num_steps
    obs_buf = torch.zeros((t_len, n, enc.size))
    mask_buf = torch.zeros((t_len, n, enc.num_actions), dtype=torch.bool)
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf = torch.zeros((t_len, n))
    rew_buf = torch.zeros((t_len, n))
    done_buf = torch.zeros((t_len, n))
    val_buf = torch.zeros((t_len, n))
    valid_buf = torch.zeros((t_len, n))
    obs_np, info = env.reset(seed=config.seed)
    obs = torch.as_tensor(obs_np)
    mask = torch.as_tensor(info["action_mask"])
    resetting = torch.zeros(n, dtype=torch.bool)  # this step only deals the table anew
    updates = max(1, config.steps // (n * t_len))
    start = time.monotonic()
    last_log = start
    wins = hands = 0
    recent: list[float] = []
    for update in range(updates):
        for t in range(t_len):
            live_mask = mask | ~mask.any(dim=1, keepdim=True)  # a finished table: any id, ignored
            with torch.no_grad():
                dist = agent.policy(obs, live_mask)
                action = dist.sample()  # type: ignore[no-untyped-call]
                val_buf[t] = agent.value(obs)
            obs_buf[t], mask_buf[t], act_buf[t] = obs, live_mask, action
            logp_buf[t] = dist.log_prob(action)  # type: ignore[no-untyped-call]
            valid_buf[t] = (~resetting).float()
            obs_np, reward, terminated, truncated, info = env.step(action.numpy())
            done = np.logical_or(terminated, truncated)
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            done_buf[t] = torch.as_tensor(done, dtype=torch.float32)
            resetting = torch.as_tensor(done)
            obs, mask = torch.as_tensor(obs_np), torch.as_tensor(info["action_mask"])
            if terminated.any():
                ended = reward[terminated]
                hands += len(ended)
                wins += int((ended > 0).sum())
                recent.extend((ended > 0).astype(float).tolist())
                del recent[:-2000]
        with torch.no_grad():  # generalised advantage estimation
            next_value = agent.value(obs)
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                following = next_value if t == t_len - 1 else val_buf[t + 1]
                carry = 1.0 - done_buf[t]
                delta = rew_buf[t] + config.gamma * following * carry - val_buf[t]
                last = delta + config.gamma * config.gae_lambda * carry * last
                advantages[t] = last
            returns = advantages + val_buf
        keep = valid_buf.reshape(-1) > 0
        b_obs = obs_buf.reshape(-1, enc.size)[keep]
        b_mask = mask_buf.reshape(-1, enc.num_actions)[keep]
        b_act, b_logp = act_buf.reshape(-1)[keep], logp_buf.reshape(-1)[keep]
        b_adv, b_ret = advantages.reshape(-1)[keep], returns.reshape(-1)[keep]
        for _epoch in range(config.epochs):
            for idx in torch.randperm(len(b_act)).tensor_split(config.minibatches):
                dist = agent.policy(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()  # type: ignore[no-untyped-call]
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - config.clip, 1 + config.clip)).mean()
                value_loss = 0.5 * ((agent.value(b_obs[idx]) - b_ret[idx]) ** 2).mean()
                entropy = dist.entropy().mean()  # type: ignore[no-untyped-call]
                loss = policy_loss + config.vf_coef * value_loss - config.ent_coef * entropy
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), config.max_grad_norm)
                optimizer.step()
        now = time.monotonic()
        if log_every and now - last_log >= log_every:
            last_log = now
            done_steps = (update + 1) * n * t_len
            rate = np.mean(recent) if recent else float("nan")
            print(
                f"{done_steps:>10} steps  {done_steps / (now - start):>8.0f} steps/s  win rate {rate:.3f}", flush=True
            )
    seconds = time.monotonic() - start
    totals = {
        "steps": float(updates * n * t_len),
        "seconds": seconds,
        "hands": float(hands),
        "train_win_rate": wins / hands if hands else 0.0,
    }
    return agent, env, totals


def export(agent: Agent, env: UnoVectorEnv, path: Path) -> None:
    """Write the actor as a policy file (the critic is not needed to play)."""
    linears = [layer for layer in agent.actor if isinstance(layer, nn.Linear)]
    layers = [(layer.weight.detach().numpy(), layer.bias.detach().numpy()) for layer in linears]
    enc = env.encoding
    export_mlp(
        path,
        layers,
        variant=enc.variant,
        players=enc.players,
        history=enc.history,
        scale=agent.scale.numpy(),
        description="PPO (examples/ppo_vector.py)",
    )


def parse(argv: list[str] | None = None) -> tuple[Config, Path]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = Config()
    parser.add_argument("--variant", default=defaults.variant)
    parser.add_argument("--opponents", default="random", help="one compiled bot per other seat: random, rlcard_rule")
    parser.add_argument("--num-envs", type=int, default=defaults.num_envs)
    parser.add_argument("--num-steps", type=int, default=defaults.num_steps, help="steps per table per update")
    parser.add_argument("--steps", type=int, default=defaults.steps, help="agent decisions to train for")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--max-decisions", type=int, default=defaults.max_decisions)
    parser.add_argument("--threads", type=int, default=defaults.threads)
    parser.add_argument("--out", type=Path, default=Path("ppo.onnx"))
    args = parser.parse_args(argv)
    config = Config(
        variant=args.variant,
        opponents=tuple(b.strip() for b in args.opponents.split(",")),
        num_envs=args.num_envs,
        num_steps=args.num_steps,
        steps=args.steps,
        seed=args.seed,
        lr=args.lr,
        hidden=args.hidden,
        max_decisions=args.max_decisions,
        threads=args.threads,
    )
    return config, args.out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    config, out = parse(argv)
    agent, env, totals = train(config)
    out.parent.mkdir(parents=True, exist_ok=True)
    export(agent, env, out)
    print(
        f"trained {totals['steps']:.0f} steps ({totals['hands']:.0f} hands, training win rate "
        f"{totals['train_win_rate']:.3f}) in {totals['seconds']:.0f} s; policy written to {out}"
    )
    return {**totals, "model": agent, "path": out}


if __name__ == "__main__":
    main()
