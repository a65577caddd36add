"""PettingZoo through Shimmy: Shimmy's OpenSpiel wrapper over the registered games passes
PettingZoo's own ``api_test`` (short hands, ``max_decisions``, so that it fits make test)."""

from __future__ import annotations

import warnings

import pyspiel
import pytest
from pettingzoo.test import api_test
from shimmy.openspiel_compatibility import OpenSpielCompatibilityV0

import unokit.openspiel  # noqa: F401 - registers the games

VARIANTS = ("classic", "flip", "attack", "flip_attack")


@pytest.mark.parametrize("variant", VARIANTS)
def test_shimmys_openspiel_wrapper_passes_pettingzoos_api_test(variant: str) -> None:
    # Shimmy's reset loads the game again from its short name and config: parameters go in config.
    env = OpenSpielCompatibilityV0(game_name=f"uno_{variant}", config={"players": 3, "max_decisions": 60})
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    with warnings.catch_warnings():
        # The observation space is Shimmy's unbounded box over OpenSpiel's tensor; api_test says so.
        warnings.filterwarnings("ignore", message="Agent's (minimum|maximum) observation space value")
        api_test(env, num_cycles=40, verbose_progress=False)
    env.close()


def test_the_wrapper_plays_a_loaded_game_of_default_parameters() -> None:
    env = OpenSpielCompatibilityV0(env=pyspiel.load_game("uno_classic"), render_mode=None)
    env.reset(seed=1)
    agent = env.agent_selection
    observation, _reward, termination, truncation, _info = env.last()
    assert agent in env.possible_agents and not termination and not truncation
    assert observation.shape == tuple(pyspiel.load_game("uno_classic").observation_tensor_shape())
    state = env.game_state
    assert state.current_player() == env.agent_name_id_mapping[agent] and state.legal_actions()
    env.close()
