"""The conventions of the RL libraries: render modes, the mask accessors, ``info`` at the end of a
hand, ``max_decisions`` truncation, the batched environments' spaces, and the peers' own helpers
(PettingZoo's ``render_test``, Stable-Baselines3's ``check_env`` and ``make_vec_env``,
sb3-contrib's mask helpers)."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import render_test

import unokit.envs  # registers the Gymnasium ids
from unokit import OptionError
from unokit.encoding import Encoding
from unokit.envs.gymnasium import UnoEnv
from unokit.envs.pettingzoo import env, raw_env
from unokit.envs.picture import label, table_image
from unokit.envs.session import RENDER_MODES
from unokit.envs.vector import DEFAULT_THREADS, UnoBatchEnv, UnoVectorEnv

#: The ids that call UNO, by the size of the variant's action table (which tells the variants apart here).
UNO_IDS = {
    e.num_actions: {i for i, text in enumerate(e.action_labels) if text.endswith(" uno")}
    for e in (Encoding(variant, 2) for variant in ("classic", "flip", "attack"))
}


def first_legal(mask: np.ndarray[Any, Any]) -> int:
    """The first legal id, or a legal id that calls UNO when there is one (the catch rule makes
    a play that forgets UNO draw two cards, so that "always the first id" may never go out)."""
    legal = np.flatnonzero(mask).tolist()
    calls = [i for i in legal if i in UNO_IDS[len(mask)]]
    return int(calls[0] if calls else legal[0] if legal else 0)  # 0: a finished table's ignored action


# ---------------------------------------------------------------------- rendering


@pytest.mark.parametrize("mode", ["video", "RGB", 3])
def test_unknown_render_modes_are_refused_by_name(mode: object) -> None:
    for make in (lambda: raw_env("classic", 2, render_mode=mode), lambda: UnoEnv(render_mode=mode)):  # type: ignore[arg-type]
        with pytest.raises(OptionError, match=r"render_mode must be None, 'ansi', 'human', 'rgb_array', not"):
            make()


def test_pettingzoo_render_test_passes_in_every_mode(capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> Any:
        return env("flip", 3, render_mode=render_mode)

    assert make().unwrapped.metadata["render_modes"] == list(RENDER_MODES)
    render_test(make)
    assert "UNO Flip" in capsys.readouterr().out  # "human" printed the table


def test_gymnasium_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    text = UnoEnv("classic", ["random"], render_mode="ansi")
    text.reset(seed=3)
    assert "seat 0 (agent)" in text.render()
    human = UnoEnv("classic", ["random"], render_mode="human")
    human.reset(seed=3)
    assert human.render() is None
    human.step(first_legal(human.action_masks()))
    printed = capsys.readouterr().out
    assert printed.count("seat 0 (agent)") == 3  # reset, render(), step
    picture = UnoEnv("classic", ["random", "random"], render_mode="rgb_array")
    picture.reset(seed=3)
    image = picture.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.shape[2] == 3 and image.shape[0] > 3 * 40


def test_the_picture_shows_each_card_in_its_colour() -> None:
    table = raw_env("classic", 2, render_mode="rgb_array")
    table.reset(seed=5)
    game = table.session.game
    image = table_image(game)
    # seat 0's first card (sorted by type) starts at x=40 in the first row under the header
    first = sorted(game.hands[0])[0]
    color = game.deck.color[0][first]
    expected = (40, 40, 40) if color < 0 else [(214, 48, 49), (246, 200, 40), (52, 168, 83), (40, 110, 220)][color]
    assert tuple(image[56 + 30, 45]) == expected
    assert [label(k) for k in ("7", "draw_two", "wild_draw_four", "skip_everyone", "wild", "wild_draw_color")] == [
        "7",
        "+2",
        "+4",
        "SE",
        "W",
        "+C",
    ]


# ---------------------------------------------------------------------- Stable-Baselines3's helpers


def test_stable_baselines3_check_env_and_make_vec_env() -> None:
    from stable_baselines3.common.env_checker import check_env
    from stable_baselines3.common.env_util import make_vec_env

    check_env(UnoEnv("flip", ["random", "random"]))
    vec = make_vec_env("unokit/Classic-v0", n_envs=2, seed=0)  # asks for render_mode="rgb_array"
    vec.reset()
    images: Any = vec.get_images()
    assert len(images) == 2 and images[0].dtype == np.uint8


def test_sb3_contrib_finds_the_masks_through_the_wrappers() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    wrapped = gymnasium.make("unokit/Classic-v0", opponents=["random"])
    assert is_masking_supported(wrapped)
    _obs, info = wrapped.reset(seed=2)
    mask = get_action_masks(wrapped)
    assert mask.dtype == np.bool_
    assert np.array_equal(mask, info["action_mask"])
    inner: Any = wrapped.unwrapped
    assert np.flatnonzero(mask).tolist() == sorted(inner.encoding.legal_ids(inner.session.views[0]))


# ---------------------------------------------------------------------- masks and info


def test_masks_are_bool_and_pettingzoo_observations_keep_gymnasiums_int8() -> None:
    table = raw_env("attack", 3)
    table.reset(seed=4)
    agent = table.agent_selection
    mask = table.action_mask(agent)
    assert mask.dtype == np.bool_ and mask.any()
    observed = table.observe(agent)["action_mask"]
    assert observed.dtype == np.int8  # what Gymnasium's Discrete.sample(mask) asserts
    assert np.array_equal(observed.astype(bool), mask)
    assert table.action_space(agent).sample(observed) in np.flatnonzero(mask)
    other = next(a for a in table.agents if a != agent)
    assert not table.action_mask(other).any()


def play_out_gym(environment: UnoEnv, seed: int) -> tuple[list[dict[str, Any]], bool, bool]:
    _obs, info = environment.reset(seed=seed)
    infos = [info]
    while True:
        assert info["seat"] == environment.seat and info["to_act"] == environment.seat
        assert np.array_equal(info["action_mask"], environment.action_masks())
        _obs, _r, terminated, truncated, info = environment.step(first_legal(info["action_mask"]))
        infos.append(info)
        if terminated or truncated:
            return infos, terminated, truncated


def test_gymnasium_info_names_the_winner_and_scores_at_the_end() -> None:
    environment = UnoEnv("classic", ["random", "random"], seat=1)
    infos, terminated, _truncated = play_out_gym(environment, 11)
    assert terminated
    last = infos[-1]
    game = environment.session.game
    assert last["winner"] == game.winners[0]
    assert last["scores"] == game.scores and sum(last["scores"]) > 0
    assert last["points"][last["winner"]] == last["scores"][last["winner"]]
    assert last["to_act"] is None and not last["action_mask"].any()
    assert all("winner" not in info for info in infos[:-1])


def test_pettingzoo_infos_at_the_end_of_a_hand() -> None:
    table = env("classic", 2)
    table.reset(seed=8)
    for agent in table.agent_iter():
        _obs, _reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            assert info["winner"] == table.unwrapped.session.game.winners[0]
            assert info["scores"] == table.unwrapped.session.game.scores
            table.step(None)
        else:
            assert "winner" not in info
            table.step(first_legal(table.unwrapped.action_mask(agent)))
    assert terminated


@pytest.mark.parametrize("limit", [1, 7, 30])
def test_max_decisions_truncates_after_that_many_decisions(limit: int) -> None:
    table = raw_env("flip", 3, max_decisions=limit)
    table.reset(seed=2)
    steps = 0
    while not any(table.truncations.values()) and not any(table.terminations.values()):
        # the last legal id draws or keeps: the hand never ends by itself
        table.step(int(np.flatnonzero(table.action_mask(table.agent_selection))[-1]))
        steps += 1
    assert steps == limit and all(table.truncations.values())
    environment = UnoEnv("flip", ["random", "random"], max_decisions=limit)
    environment.reset(seed=2)
    truncated = terminated = False
    while not (terminated or truncated):
        _obs, _r, terminated, truncated, _info = environment.step(int(np.flatnonzero(environment.action_masks())[-1]))
    assert truncated and not terminated
    assert environment.session.decisions == limit  # the bots' decisions count too
    with pytest.raises(OptionError, match="max_decisions"):
        UnoEnv(max_decisions=0)


# ---------------------------------------------------------------------- the batched environments


def test_batch_env_has_spaces_and_says_who_won() -> None:
    table = UnoBatchEnv("classic", 2, num_envs=8, max_decisions=400)
    assert table.single_action_space == gymnasium.spaces.Discrete(table.encoding.num_actions)
    assert table.observation_space.shape == (8, table.encoding.size)
    obs, info = table.reset(seed=0)
    assert table.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.bool_
    seen = 0
    for _ in range(400):
        obs, rewards, terminated, _truncated, info = table.step([first_legal(m) for m in info["action_mask"]])
        for g in np.flatnonzero(terminated):
            winner = int(info["winner"][g])
            assert info["_winner"][g] and rewards[g, winner] == 1.0
            assert info["scores"][g, winner] > 0
            seen += 1
        assert (info["winner"][~terminated] == -1).all()
    assert seen > 0


def test_vector_env_defaults_to_the_calling_thread() -> None:
    venv = UnoVectorEnv("classic", num_envs=4)
    assert DEFAULT_THREADS == 1 and venv.tables.threads == 1
    _obs, info = venv.reset(seed=1)
    ended = 0
    for _ in range(300):
        _obs, rewards, terminated, _truncated, info = venv.step([first_legal(m) for m in info["action_mask"]])
        ended += int(terminated.sum())
        assert np.all((rewards[terminated] > 0) == (info["winner"][terminated] == 0))
    assert ended > 0


def test_no_unexpected_warnings_from_gymnasium_make() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        made = gymnasium.make("unokit/Flip-v0", render_mode="rgb_array")
        made.reset(seed=0)
        image: Any = made.render()
        assert image.shape[2] == 3
    assert unokit.envs.GYM_IDS
