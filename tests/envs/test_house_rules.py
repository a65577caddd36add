"""The environments with the house rules (docs/envs.md, "House rules"): the action table and
observation only grow at their ends, a Jump-In window is offered to the seats that can jump one
at a time, a Seven-O 7 uses the ``trade`` ids, and teams share their rewards."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from unokit import Game, IllegalActionError
from unokit.encoding import Encoding
from unokit.envs.pettingzoo import env, raw_env
from unokit.envs.session import Session

HOUSE: dict[str, Any] = {"jump_in": True, "seven_o": True, "stacking": "mixed"}


def classic4(options: dict[str, Any], **fields: Any) -> Game:
    base: dict[str, Any] = {"variant": "classic", "players": 4, "turn": 0, "seed": 1, "color": "red"}
    base.update(discard=["red 9"], options=options, **fields)
    return Game.from_position(base)


JUMP_HANDS = [
    ["red 5", "blue 1", "blue 2"],
    ["green 1", "green 2", "green 3"],
    ["red 5", "yellow 1", "yellow 2"],
    ["blue 7", "blue 8", "blue 9"],
]


@pytest.mark.parametrize("variant", ["classic", "flip", "attack", "flip_attack"])
def test_house_rules_only_append_ids_and_blocks(variant: str) -> None:
    """The official groups come first, unchanged in order; ``trade`` (where the deck has none)
    and ``pass`` are the last ids; ``jump_offer`` and ``team`` the last blocks."""
    enc = Encoding(variant, 4)
    names = [g.name for g in enc.action_groups]
    assert names[-1] == "pass" and enc.pass_id == enc.num_actions - 1
    assert "trade" in names
    if variant != "attack":
        assert names[-2] == "trade"
    blocks = [b.name for b in enc.blocks]
    assert blocks[-3:] == ["scores", "jump_offer", "team"]
    assert enc.decode(enc.pass_id, 0, 0) is None


def test_a_jump_is_offered_to_the_seat_that_can_make_it_before_the_next_player() -> None:
    """H-1: after seat 0's red 5, seat 2 (holding the other red 5) is the agent to act, with a
    mask of its jump and ``pass``; passing hands the turn to seat 1."""
    table = raw_env("classic", 4, **HOUSE)
    game = classic4(HOUSE, hands=JUMP_HANDS)
    game.apply("play red 5")
    table.load(game)
    enc = table.encoding
    assert table.agent_selection == "player_2"
    obs = table.observe("player_2")
    play_id = enc.encode(game.parse_action("play red 5", 2), 2)
    assert play_id is not None
    assert list(obs["action_mask"].nonzero()[0]) == [play_id, enc.pass_id]
    assert obs["observation"][enc.block("jump_offer").start] == 1
    assert not table.observe("player_1")["action_mask"].any()
    table.step(enc.pass_id)
    assert table.agent_selection == "player_1"
    assert table.observe("player_1")["observation"][enc.block("jump_offer").start] == 0


def test_an_offered_jump_is_played_out_of_turn() -> None:
    """H-1.7: seat 2 jumps: its red 5 goes down and seat 3 plays next (seat 1 lost its turn)."""
    table = raw_env("classic", 4, **HOUSE)
    game = classic4(HOUSE, hands=JUMP_HANDS)
    game.apply("play red 5")
    table.load(game)
    session = table.session
    with pytest.raises(IllegalActionError, match="not a jump"):
        table.step(0)  # play red 0: not among seat 2's jumps
    play_id = table.encoding.encode(session.game.parse_action("play red 5", 2), 2)
    table.step(play_id)
    assert sorted(session.game.card_text(t) for t in session.game.hands[2]) == ["yellow 1", "yellow 2"]
    assert table.agent_selection == "player_3"


def test_a_seven_uses_the_trade_ids() -> None:
    """H-2: after a 7 the mask holds the appended ``trade +k`` ids of Classic."""
    session = Session("classic", 4, options={"seven_o": True})
    game = classic4({"seven_o": True}, hands=[["red 7", "blue 1", "blue 2"], *JUMP_HANDS[1:]])
    game.apply("play red 7")
    session.load(game)
    enc = session.encoding
    ids = list(session.mask(0).nonzero()[0])
    assert [enc.action_labels[i] for i in ids] == ["trade +1", "trade +2", "trade +3"]
    session.act(ids[1])
    assert sorted(game.card_text(t) for t in game.hands[0]) == ["red 5", "yellow 1", "yellow 2"]


@pytest.mark.parametrize(("reward", "expected"), [("hand", [1.0, -1.0, 1.0, -1.0]), ("points", [5.5, -5.0, 5.5, -6.0])])
def test_teams_share_the_reward(reward: str, expected: list[float]) -> None:
    """H-6: seat 0 goes out; its team (0 and 2) gets the reward, zero-sum over the table. With
    points, the team's gain (seats 1 and 3: 5 + 6) is split between the partners."""
    session = Session("classic", 4, reward=reward, options={"teams": True})
    hands = [["red 5"], ["green 1", "green 4"], ["yellow 1", "yellow 2"], ["blue 2", "blue 4"]]
    session.load(classic4({"teams": True, "rounds": 1}, hands=hands))
    enc = session.encoding
    rewards = session.act(enc.encode(session.game.parse_action("play red 5", 0), 0))
    assert rewards == expected
    assert sum(rewards) == pytest.approx(0.0)
    obs = session.observe(1)
    team = obs[enc.block("team").start : enc.block("team").start + 4]
    assert list(team) == [1, 0, 1, 0]


def test_pettingzoo_api_test_with_every_house_rule() -> None:
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        api_test(env("classic", 4, teams=True, draw_until_playable=True, force_play=True, **HOUSE), num_cycles=1000)
        api_test(env("attack", 4, jump_in=True, seven_o=True, stacking=True), num_cycles=500)


def test_gymnasium_with_house_rules_and_jumping_bots() -> None:
    """The bots answer Jump-In offers with their own ``react``; every agent decision's mask is
    legal, and episodes end."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make("unokit/Classic-v0", opponents=["heuristic"] * 3, teams=True, **HOUSE).unwrapped)
    assert [str(w.message) for w in caught] == []
    environment = gymnasium.make("unokit/Flip-v0", opponents=["heuristic"] * 3, jump_in=True, seven_o=True)
    rng = np.random.default_rng(3)
    for episode in range(5):
        _obs, info = environment.reset(seed=episode)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            assert len(legal) > 0
            _obs, _reward, terminated, truncated, info = environment.step(int(rng.choice(legal)))
            done = terminated or truncated
