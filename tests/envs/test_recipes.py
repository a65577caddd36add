"""The research recipes of examples/ run unchanged for a few seconds each (extra ``rl-examples``):
sb3-contrib's MaskablePPO on the Gymnasium environment, Tianshou's DQN on the PettingZoo
environment, and the CleanRL-style PPO on ``UnoVectorEnv``. Each trains, exports its network as a
policy file and plays it as a bot; the file's scores must be the trained network's own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import torch

from unokit.bots.policy import PolicyBot, load_policy
from unokit.envs.pettingzoo import raw_env

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def observations(variant: str, players: int, count: int = 40) -> np.ndarray[Any, Any]:
    """Observations of random play, to compare the network and its file on."""
    table = raw_env(variant, players)
    table.reset(seed=9)
    rng = np.random.default_rng(0)
    out: list[np.ndarray[Any, Any]] = []
    while len(out) < count:
        agent = table.agent_selection
        out.append(table.observe(agent)["observation"])
        if any(table.terminations.values()) or any(table.truncations.values()):
            table.reset()
            continue
        table.step(int(rng.choice(np.flatnonzero(table.action_mask(agent)))))
    return np.stack(out)


def file_scores(path: Path, obs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    policy = load_policy(path)
    return np.stack([policy.scores(o) for o in obs])


def test_maskable_ppo_on_the_gymnasium_env(tmp_path: Path) -> None:
    recipe = load_example("sb3_maskable_ppo")
    out = recipe.main(
        [
            "--timesteps",
            "256",
            "--n-envs",
            "2",
            "--n-steps",
            "64",
            "--eval-hands",
            "6",
            "--out",
            str(tmp_path / "sb3.onnx"),
        ]
    )
    assert 0.0 <= out["win_rate"] <= 1.0
    obs = observations("classic", 2)
    policy = out["model"].policy
    with torch.no_grad():
        scaled = torch.as_tensor(obs / np.maximum(load_policy(out["path"]).encoding.high, 1.0))
        latent = policy.mlp_extractor.forward_actor(policy.extract_features(scaled, policy.pi_features_extractor))
        logits = policy.action_net(latent).numpy()
    assert np.allclose(file_scores(out["path"], obs), logits, atol=1e-4)


def test_tianshou_dqn_on_the_pettingzoo_env(tmp_path: Path) -> None:
    recipe = load_example("tianshou_dqn")
    out = recipe.main(
        [
            "--epochs",
            "1",
            "--epoch-steps",
            "200",
            "--n-envs",
            "1",
            "--eval-hands",
            "6",
            "--out",
            str(tmp_path / "dqn.onnx"),
        ]
    )
    assert 0.0 <= out["win_rate"] <= 1.0
    obs = observations("classic", 2)
    with torch.no_grad():
        q_values, _state = out["model"](torch.as_tensor(obs))
    assert np.allclose(file_scores(out["path"], obs), q_values.numpy(), atol=1e-4)


def test_cleanrl_style_ppo_on_the_vector_env(tmp_path: Path) -> None:
    recipe = load_example("ppo_vector")
    out = recipe.main(["--steps", "2048", "--num-envs", "16", "--num-steps", "32", "--out", str(tmp_path / "ppo.onnx")])
    assert out["steps"] == 2048
    obs = observations("classic", 2)
    with torch.no_grad():
        logits = out["model"].actor(torch.as_tensor(obs) * out["model"].scale).numpy()
    assert np.allclose(file_scores(out["path"], obs), logits, atol=1e-4)
    bot = PolicyBot(0, out["path"])
    assert bot.encoding.variant == "classic"


def test_the_baseline_script_trains_exports_and_evaluates_in_chunks(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("baseline_ppo", EXAMPLES.parent / "scripts" / "baseline_ppo.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    common = ["--steps", "1024", "--num-envs", "16", "--against", "random", "--chunk", "4", "--out", str(tmp_path)]
    first = script.main([*common, "--hands", "6"])
    row = first["evaluations"]["random"]
    assert row["hands"] == 6 and 0 <= row["ci_low"] <= row["win_rate"] + 1e-9 <= row["ci_high"] + 2e-9 <= 1 + 2e-9
    again = script.main([*common, "--hands", "10", "--eval-only"])  # adds 4 hands to the 6
    assert again["evaluations"]["random"]["hands"] == 10
    assert again["training"]["steps"] == first["training"]["steps"]
