"""The Kaggle-style UNO package (unokit.kaggle.uno): the JSON proxy of a seat's observation of
an OpenSpiel state, and the harness's three functions playing a hand with a scripted stand-in."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

import unokit.openspiel  # noqa: F401 - registers the games
from unokit.kaggle.uno import harness, uno_proxy
from unokit.llm.harness import Refusal


@pytest.mark.parametrize("chance", ["exact", "sampled"])
def test_the_harness_plays_a_hand_through_the_proxy(chance: str) -> None:
    game = pyspiel.load_game(f"uno_flip(players=2,chance={chance},max_decisions=200)")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    history: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        obs = uno_proxy.observation(state, player)
        proxy = json.loads(obs["observationString"])
        assert proxy["seat"] == player and proxy["hand"] and proxy["top"]
        assert proxy["legal_moves"] == obs["legalActionStrings"]
        legal = harness.get_legal_moves(obs)
        assert sorted(legal) == state.legal_actions()
        text = harness.generate_prompt(obs, history)
        assert all(f"[{m}]" in text for m in legal.values())
        answer = f"I play [{list(legal.values())[-1]}]"  # the scripted stand-in
        parsed = harness.parse_response(answer, obs["legalActionStrings"])
        assert parsed.move is not None
        action = next(i for i, m in legal.items() if m == parsed.move)
        history.append(parsed.move)
        state.apply_action(action)
    other = uno_proxy.observation_json(state, 0)
    assert other["phase"] == "over" and other["legal_moves"] == []


def test_the_proxy_of_the_other_seat_shows_no_moves_and_nonsense_is_refused() -> None:
    game = pyspiel.load_game("uno_classic(players=2,chance=sampled)")
    state = game.new_initial_state()
    waiting = 1 - state.current_player()
    proxy = uno_proxy.observation_json(state, waiting)
    assert proxy["legal_moves"] == [] and proxy["phase"] == "turn"
    obs = uno_proxy.observation(state, state.current_player())
    refused = harness.parse_response("no idea", obs["legalActionStrings"])
    assert refused.refusal is Refusal.NO_MOVE
    retry = harness.generate_prompt(obs, (), "no idea", refused.read)
    assert "It was not accepted" in retry
