"""Train a masked linear softmax policy with REINFORCE on 2-player Classic UNO against the
``random`` bot, using only NumPy and the Gymnasium environment ``unokit/Classic-v0``.

    .venv/bin/python examples/train_classic.py --minutes 5

The policy scores each legal action id ``a`` as ``W[a] · x + b[a]``, where ``x`` is the
observation divided by its upper bound (:mod:`unokit.encoding`), and samples from the
softmax over the legal ids (the mask). After each hand, every decision of the hand is pushed
towards (or away from) the action taken in proportion to the hand's reward (+1 win, -1 loss)
minus a running baseline. Training stops after the time budget; the greedy policy (highest
score) is then evaluated on fresh hands against ``random``, next to two references: the random
policy itself and the rule "play the first playable card, never draw by choice".
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from unokit.envs.gymnasium import UnoEnv

Vec = NDArray[np.float32]
Ids = NDArray[np.intp]
#: A policy for play_hand: (observation, legal ids) -> (index into the legal ids, probabilities).
Chooser = Callable[[Vec, Ids], tuple[int, NDArray[np.float64] | None]]


@dataclass
class Policy:
    """Logits ``W[a] · x + b[a]`` over the action ids; ``x`` is the scaled observation."""

    weights: NDArray[np.float64]
    bias: NDArray[np.float64]
    scale: Vec

    @classmethod
    def zeros(cls, actions: int, high: Vec) -> Policy:
        return cls(np.zeros((actions, len(high))), np.zeros(actions), (1.0 / np.maximum(high, 1.0)).astype(np.float32))

    def probabilities(self, x: Vec, legal: Ids) -> NDArray[np.float64]:
        logits = self.weights[legal] @ x + self.bias[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()  # type: ignore[no-any-return]


@dataclass
class Episode:
    """The decisions of one hand, for the REINFORCE update."""

    xs: list[Vec] = field(default_factory=list)
    legal: list[Ids] = field(default_factory=list)
    probs: list[NDArray[np.float64]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)


def play_hand(env: UnoEnv, choose: Chooser, seed: int | None, record: Episode | None = None) -> float:
    """Play one hand with ``choose``; return the agent's reward."""
    obs, info = env.reset(seed=seed)
    total = 0.0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        k, p = choose(obs, legal)
        if record is not None:
            assert p is not None
            record.xs.append(obs)
            record.legal.append(legal)
            record.probs.append(p)
            record.chosen.append(k)
        obs, reward, terminated, truncated, info = env.step(int(legal[k]))
        total += reward
        if terminated or truncated:
            return total


def train(minutes: float, seed: int, lr: float, batch: int) -> tuple[Policy, int, list[float]]:
    env = UnoEnv("classic", ["random"])
    policy = Policy.zeros(env.encoding.num_actions, env.encoding.high)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    hands = 0
    recent: list[float] = []
    grad_w = np.zeros_like(policy.weights)
    grad_b = np.zeros_like(policy.bias)
    end = time.monotonic() + minutes * 60
    report = time.monotonic() + 30
    env.reset(seed=seed)  # later resets draw their seeds from this one

    def sample(obs: Vec, legal: Ids) -> tuple[int, NDArray[np.float64] | None]:
        x = obs * policy.scale
        p = policy.probabilities(x, legal)
        return int(rng.choice(len(legal), p=p)), p

    while time.monotonic() < end:
        episode = Episode()
        reward = play_hand(env, sample, None, episode)
        hands += 1
        recent.append(1.0 if reward > 0 else 0.0)
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        steps = len(episode.chosen)
        for obs, legal, p, k in zip(episode.xs, episode.legal, episode.probs, episode.chosen, strict=True):
            g = -p
            g[k] += 1.0
            g *= advantage / steps
            grad_w[legal] += np.outer(g, obs * policy.scale)
            grad_b[legal] += g
        if hands % batch == 0:
            policy.weights += lr * grad_w / batch
            policy.bias += lr * grad_b / batch
            grad_w[:] = 0.0
            grad_b[:] = 0.0
        if time.monotonic() > report:
            report += 30
            window = recent[-500:]
            print(f"{hands:>7} hands  win rate (last {len(window)} training hands) {np.mean(window):.3f}", flush=True)
    return policy, hands, recent


def evaluate(choose: Chooser, hands: int, seed: int) -> float:
    """Win rate over ``hands`` fresh hands against ``random`` (seeds seed, seed + 1, ...)."""
    env = UnoEnv("classic", ["random"])
    wins = sum(play_hand(env, choose, seed + i) > 0 for i in range(hands))
    return wins / hands


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=5.0, help="training time budget")
    parser.add_argument("--eval-hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=2.0)
    parser.add_argument("--batch", type=int, default=8, help="hands per update")
    args = parser.parse_args(argv)

    start = time.monotonic()
    policy, hands, _recent = train(args.minutes, args.seed, args.lr, args.batch)
    trained_for = time.monotonic() - start
    env = UnoEnv("classic", ["random"])
    labels = env.encoding.action_labels
    rng = np.random.default_rng(args.seed + 1)

    def greedy(obs: Vec, legal: Ids) -> tuple[int, NDArray[np.float64] | None]:
        p = policy.probabilities(obs * policy.scale, legal)
        return int(np.argmax(p)), None

    def uniform(obs: Vec, legal: Ids) -> tuple[int, NDArray[np.float64] | None]:
        return int(rng.integers(len(legal))), None

    def play_first(obs: Vec, legal: Ids) -> tuple[int, NDArray[np.float64] | None]:
        # Play ids come before draw, keep and accept: legal[0] plays whenever a card can be
        # played (a drawn card included); prefer the form that calls UNO.
        uno = [k for k, a in enumerate(legal) if labels[a].endswith(" uno")]
        return (uno[0] if uno else 0), None

    eval_seed = 10**6
    results = {
        "trained_hands": float(hands),
        "trained_seconds": trained_for,
        "random": evaluate(uniform, args.eval_hands, eval_seed),
        "play_first": evaluate(play_first, args.eval_hands, eval_seed),
        "trained": evaluate(greedy, args.eval_hands, eval_seed),
    }
    print(f"trained on {hands} hands in {trained_for:.0f} s")
    print(f"win rate against random over {args.eval_hands} hands (same deals for each policy):")
    for name in ("random", "play_first", "trained"):
        print(f"  {name:<11} {results[name]:.3f}")
    return results


if __name__ == "__main__":
    main()
