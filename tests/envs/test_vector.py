"""The batched environments on the compiled kernel play exactly the episodes of the existing
environments: ``UnoVectorEnv`` table ``i`` those of ``UnoEnv`` reset with ``seed + i`` (bots
included), ``UnoBatchEnv`` table ``i`` those of a ``Session`` (the PettingZoo env's table)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from unokit import IllegalActionError, OptionError
from unokit.envs.gymnasium import UnoEnv
from unokit.envs.session import Session
from unokit.envs.vector import UnoBatchEnv, UnoVectorEnv
from unokit.fast.batch import MAX_BATCH, Batch


@pytest.mark.parametrize(
    ("variant", "opponents", "seat", "threads"),
    [
        ("classic", ["random"], 0, 1),
        ("flip", ["rlcard_rule", "random"], 1, 2),
        ("attack", ["random", "random", "rlcard_rule"], 2, 2),
        ("flip_attack", ["rlcard_rule"], 0, 1),
    ],
)
def test_each_table_plays_the_episodes_of_uno_env(variant: str, opponents: list[str], seat: int, threads: int) -> None:
    tables = 3
    venv = UnoVectorEnv(variant, tables, opponents, seat=seat, threads=threads, reward="points")
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    refs = [UnoEnv(variant, opponents, seat=seat, reward="points") for _ in range(tables)]
    obs, info = venv.reset(seed=50)
    for i, ref in enumerate(refs):
        ref_obs, ref_info = ref.reset(seed=50 + i)
        assert np.array_equal(obs[i], ref_obs)
        assert np.array_equal(info["action_mask"][i], ref_info["action_mask"].astype(bool))
    chooser = np.random.default_rng(1)
    finished = [False] * tables
    episodes = 0
    for _ in range(1500):
        actions = np.array([chooser.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in info["action_mask"]])
        obs, rewards, terminated, truncated, info = venv.step(actions)
        for i, ref in enumerate(refs):
            if finished[i]:
                ref_obs, ref_info = ref.reset()
                reward, term, trunc = 0.0, False, False
                episodes += 1
            else:
                ref_obs, reward, term, trunc, ref_info = ref.step(int(actions[i]))
            finished[i] = term or trunc
            assert np.array_equal(obs[i], ref_obs)
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            assert np.array_equal(info["action_mask"][i], ref_info["action_mask"].astype(bool))
    assert episodes > 0


def test_each_table_plays_the_episodes_of_a_session() -> None:
    tables, players = 3, 3
    env = UnoBatchEnv("flip", players, tables, stacking=True)
    sessions = [Session("flip", players, options={"stacking": True}) for _ in range(tables)]
    obs, info = env.reset(seed=7)
    for session in sessions:
        session.reset(7 + sessions.index(session))
    chooser = np.random.default_rng(2)
    finished = [False] * tables
    ended = 0
    for _ in range(3000):
        for i, session in enumerate(sessions):
            if finished[i]:
                continue  # the table is dealt anew at this step; its action is ignored
            seat = session.game.to_act
            assert seat is not None and info["to_act"][i] == seat
            assert np.array_equal(obs[i], session.observe(seat))
            assert np.array_equal(info["action_mask"][i], session.mask(seat).astype(bool))
        actions = np.array([chooser.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in info["action_mask"]])
        obs, rewards, terminated, _truncated, info = env.step(actions)
        for i, session in enumerate(sessions):
            if finished[i]:
                session.reset()
                finished[i] = False
                assert not rewards[i].any()
                continue
            expected = session.act(int(actions[i]))
            assert rewards[i].tolist() == expected
            finished[i] = session.game.is_over
            assert terminated[i] == finished[i]
            ended += finished[i]
    assert ended > 0


def test_bad_arguments_and_actions_are_refused() -> None:
    with pytest.raises(OptionError, match="heuristic"):
        UnoVectorEnv("classic", 2, ["heuristic"])
    with pytest.raises(OptionError, match="catch_probability"):
        UnoBatchEnv("classic", 2, 2, catch_probability=0.5)
    with pytest.raises(OptionError, match="pairing"):
        UnoBatchEnv("flip", 2, 2, pairing="random")
    env = UnoBatchEnv("classic", 2, 2)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step([0, 0])
    _obs, info = env.reset(seed=1)
    before = env.tables.batch.state.copy()
    illegal = int(np.flatnonzero(~info["action_mask"][1])[0])
    with pytest.raises(IllegalActionError, match="table 1"):
        env.step([int(np.flatnonzero(info["action_mask"][0])[0]), illegal])
    assert np.array_equal(env.tables.batch.state, before)
    venv = UnoVectorEnv("classic", 2, ["random"])
    _obs, info = venv.reset(seed=3)
    illegal = int(np.flatnonzero(~info["action_mask"][0])[0])
    _obs, rewards, terminated, _truncated, info = venv.step([illegal, int(np.flatnonzero(info["action_mask"][1])[0])])
    assert (
        terminated.tolist() == [True, False] and rewards[0] == -1.0 and info["illegal_action"].tolist() == [True, False]
    )


@pytest.mark.parametrize("make", [lambda: UnoVectorEnv("classic", 2, ["random"]), lambda: UnoBatchEnv("classic", 2, 2)])
def test_seeds_must_be_whole_numbers_and_tables_are_bounded(make: Any) -> None:
    """``reset(seed=[1.5, 1.7])`` dealt the tables of seeds 1 and 1; now a seed that is not a
    whole number (a float, a string), a negative one or a wrong count is refused with an
    OptionError and the tables stay as they were; NumPy integers are seeds like any other. A
    number of tables past the bound is refused before anything is allocated, and so are
    non-whole seeds given to a batch's deal."""
    env = make()
    env.reset(seed=5)
    before = env.tables.batch.state.copy()
    for seed, named in [
        ([1.5, 1.7], "a seed must be a whole number, not 1.5"),
        (["1", "2"], "a seed must be a whole number, not '1'"),
        (1.5, "a seed must be a whole number, not 1.5"),
        ([3, -1], "a seed must be at least 0, not -1"),
        ([3], "give one seed per table (2), not 1"),
        ([3, 1 << 63], "a seed must be at most"),
        ("12", "a seed must be a whole number, not '12'"),
    ]:
        with pytest.raises(OptionError, match=re.escape(named)):
            env.reset(seed=seed)
        assert np.array_equal(env.tables.batch.state, before), seed
    env.reset(seed=np.array([3, 4], np.int64))
    dealt = env.tables.batch.state.copy()
    env.reset(seed=[3, 4])
    assert np.array_equal(env.tables.batch.state, dealt)
    env.reset(seed=np.int64(5))
    assert np.array_equal(env.tables.batch.state, before)
    with pytest.raises(OptionError, match=f"num_envs must be a whole number from 1 to {MAX_BATCH:,}"):
        UnoVectorEnv("classic", MAX_BATCH + 1, ["random"])
    with pytest.raises(OptionError, match=f"size must be at most {MAX_BATCH:,}"):
        Batch("classic", 2, MAX_BATCH + 1, 0)
    with pytest.raises(OptionError, match=re.escape("a seed must be a whole number, not 1.5")):
        env.tables.batch.deal([0, 1], [1.5, 1.7])
    assert np.array_equal(env.tables.batch.state, before)
