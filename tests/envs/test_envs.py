"""Behaviour of the PettingZoo and Gymnasium environments: rewards, seeding, truncation, the
UNO-catch rule, illegal actions, rendering and the Gymnasium opponents."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import unokit
from unokit import Game, IllegalActionError, InvalidActionError, OptionError, new_game
from unokit.core.rng import Rng
from unokit.envs import GYM_IDS, UnoEnv
from unokit.envs.pettingzoo import (
    ENV_NAMES,
    UnoAECEnv,
    env,
    raw_env,
    uno_attack_v0,
    uno_classic_v0,
    uno_flip_attack_v0,
    uno_flip_v0,
)

VARIANTS = list(unokit.VARIANT_NAMES)


def play_episode(table: Any, seed: int, chooser: Rng) -> dict[str, float]:
    """Play one episode with uniform random masked actions; return each agent's total reward."""
    table.reset(seed=seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _info = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        table.step(int(legal[chooser.below(len(legal))]))
    return totals


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_rewards(variant: str) -> None:
    chooser = Rng(1)
    for seed in range(2):
        table = raw_env(variant, 3)
        totals = play_episode(table, seed, chooser)
        game = table.session.game
        assert game.is_over
        winner = f"player_{game.winners[0]}"
        assert totals[winner] == 1.0
        for agent, total in totals.items():
            if agent != winner:
                assert total == pytest.approx(-0.5)
        assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_point_rewards_match_the_score(variant: str) -> None:
    table = raw_env(variant, 3, reward="points")
    totals = play_episode(table, 4, Rng(2))
    game = table.session.game
    winner = game.winners[0]
    assert totals[f"player_{winner}"] == game.scores[winner] > 0
    assert sum(totals.values()) == pytest.approx(0.0)


def test_several_hands_in_one_episode() -> None:
    table = raw_env("classic", 2, rounds=3)
    rewards: list[float] = []
    table.reset(seed=3)
    chooser = Rng(3)
    for _agent in table.agent_iter():
        obs, reward, terminated, truncated, _info = table.last()
        if reward:
            rewards.append(reward)
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        table.step(int(legal[chooser.below(len(legal))]))
    game = table.session.game
    assert game.round_number == 3
    assert len(rewards) == 6  # each hand rewards both agents once
    assert sorted(set(rewards)) == [-1.0, 1.0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_reset_seed_deals_the_engines_game(variant: str) -> None:
    table = raw_env(variant, 4)
    table.reset(seed=77)
    assert table.session.game.to_position() == new_game(variant, 4, seed=77, rounds=1).to_position()
    first = table.observe(table.agent_selection)["observation"]
    table.reset()
    table.reset(seed=77)
    assert np.array_equal(first, table.observe(table.agent_selection)["observation"])


def test_unseeded_resets_follow_the_last_seed() -> None:
    a, b = raw_env("flip", 2), raw_env("flip", 2)
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.session.game.to_position() == b.session.game.to_position()
    a.reset(seed=6)
    assert a.session.game.to_position() != b.session.game.to_position()


def test_max_cycles_truncates() -> None:
    table = raw_env("classic", 2, max_cycles=3)
    table.reset(seed=1)
    steps = 0
    while not any(table.truncations.values()):
        obs = table.observe(table.agent_selection)
        table.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6
    assert all(table.truncations.values())
    assert not any(table.terminations.values())
    assert not table.session.game.is_over
    assert not table.observe(table.agent_selection)["action_mask"].any()


def exposed_game(variant: str = "classic") -> Game:
    """Seat 0 may play its next-to-last card (red 5 on red 9)."""
    return Game.from_position(
        {
            "variant": variant,
            "players": 3,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "blue 1"], ["yellow 3", "yellow 4"], ["green 3", "green 4"]],
            "discard": ["red 9"],
            "seed": 1,
        }
    )


def hand_after_play(uno: bool, **options: Any) -> int:
    table = raw_env("classic", 3, **options)
    table.reset(seed=0)
    table.load(exposed_game())
    enc = table.encoding
    red5 = table.session.game.deck.type_id("red 5")
    assert red5 is not None
    table.step((enc.play_uno_start if uno else enc.play_start) + red5)
    return len(table.session.game.hands[0])


def test_load_checks_the_game() -> None:
    table = raw_env("classic", 3)
    with pytest.raises(OptionError, match="this session plays classic with 3 seats"):
        table.load(new_game("flip", 3, seed=1))
    with pytest.raises(OptionError, match="pairing"):
        raw_env("flip", 2).load(new_game("flip", 2, seed=1, pairing="random"))


def test_catch_rule() -> None:
    assert hand_after_play(uno=True) == 1
    assert hand_after_play(uno=False) == 3  # caught: two cards of penalty
    assert hand_after_play(uno=False, uno_catch="never") == 1
    assert hand_after_play(uno=False, catch_probability=0.0) == 1


def test_catch_probability_uses_the_seeded_generator() -> None:
    caught = []
    for seed in range(40):
        table = raw_env("classic", 3, catch_probability=0.5)
        table.reset(seed=seed)
        table.load(exposed_game())
        red5 = table.session.game.deck.type_id("red 5")
        assert red5 is not None
        table.step(red5)
        caught.append(len(table.session.game.hands[0]) == 3)
    assert 5 < sum(caught) < 35


def test_illegal_actions_raise_and_change_nothing() -> None:
    table = env("classic", 2)
    table.reset(seed=2)
    agent = table.agent_selection
    obs = table.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = table.unwrapped.session.game.to_position()
    with pytest.raises(IllegalActionError, match="not legal"):
        table.step(illegal)
    with pytest.raises(InvalidActionError):
        table.step(None)
    assert table.unwrapped.session.game.to_position() == before
    assert table.agent_selection == agent


def test_illegal_terminate_option_uses_pettingzoos_wrapper(caplog: pytest.LogCaptureFixture) -> None:
    table = env("classic", 2, illegal="terminate")
    table.reset(seed=2)
    agent = table.agent_selection
    obs, *_ = table.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    table.step(illegal)
    assert "Illegal move" in caplog.text
    assert all(table.terminations.values())
    assert table.rewards[agent] == -1
    with pytest.raises(OptionError, match="illegal"):
        env("classic", 2, illegal="ignore")


def test_versioned_names_and_player_ranges() -> None:
    for versioned, variant in (
        (uno_classic_v0, "classic"),
        (uno_flip_v0, "flip"),
        (uno_attack_v0, "attack"),
        (uno_flip_attack_v0, "flip_attack"),
    ):
        table = versioned.env(players=3)
        assert table.metadata["name"] == ENV_NAMES[variant] == versioned.name
        assert str(table.unwrapped) == versioned.name
        assert isinstance(versioned.raw_env(players=10 if variant != "flip_attack" else 6), UnoAECEnv)
    with pytest.raises(OptionError, match="2 to 6 players"):
        raw_env("flip_attack", 7)
    with pytest.raises(OptionError, match="2 to 10 players"):
        raw_env("classic", 1)
    with pytest.raises(OptionError, match="render_mode"):
        raw_env("classic", 2, render_mode="video")


def test_engine_options_reach_the_game() -> None:
    table = raw_env("flip", 2, stacking=True, scoring="own_hand")
    table.reset(seed=1)
    options = table.session.game.options
    assert options.stacking is True
    assert options.scoring == "own_hand"
    assert options.rounds == 1


def test_ansi_render() -> None:
    table = env("flip", 3, render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert isinstance(text, str)
    assert "UNO Flip" in text
    assert "player_2" in text
    assert "legal:" in text
    quiet = env("flip", 3)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render mode"):
        assert quiet.render() is None


# ---------------------------------------------------------------------- Gymnasium


def run_gym_episode(environment: Any, seed: int, chooser: Rng) -> tuple[float, int, dict[str, Any]]:
    obs, info = environment.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert environment.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = environment.step(int(legal[chooser.below(len(legal))]))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize("env_id", list(GYM_IDS))
def test_gymnasium_episode(env_id: str) -> None:
    environment = gymnasium.make(env_id, opponents=["random", "random"])
    total, steps, _info = run_gym_episode(environment, 3, Rng(3))
    game = environment.unwrapped.session.game  # type: ignore[attr-defined]
    assert game.is_over
    assert total == (1.0 if game.winners == [0] else -0.5)
    assert steps > 0


def test_gymnasium_same_seed_same_episode() -> None:
    a = gymnasium.make("unokit/Flip-v0", opponents=["random", "random"])
    b = gymnasium.make("unokit/Flip-v0", opponents=["random", "random"])
    assert run_gym_episode(a, 8, Rng(1))[:2] == run_gym_episode(b, 8, Rng(1))[:2]
    assert a.unwrapped.session.game.to_position() == b.unwrapped.session.game.to_position()  # type: ignore[attr-defined]


def test_gymnasium_illegal_actions() -> None:
    environment = UnoEnv("classic")
    obs, info = environment.reset(seed=1)
    before = environment.session.game.to_position()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = environment.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-1.0, True, False, True)
    assert environment.session.game.to_position() == before
    assert np.array_equal(obs, obs2)
    with pytest.raises(IllegalActionError, match="reset"):
        environment.step(0)
    strict = UnoEnv("classic", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step(illegal)


def test_gymnasium_seat_and_opponents() -> None:
    environment = UnoEnv("attack", ["random", "random", "random"], seat=2)
    _obs, info = environment.reset(seed=4)
    assert environment.session.game.to_act == 2
    assert environment.session.players == 4
    assert info["action_mask"].any()
    assert [b is None for b in environment.bots] == [False, False, True, False]
    with pytest.raises(ValueError, match="unknown bot"):
        UnoEnv("classic", ["nobody"])
    with pytest.raises(OptionError, match="seat"):
        UnoEnv("classic", ["random"], seat=2)
    with pytest.raises(OptionError, match="opponents"):
        UnoEnv("classic", [])


@pytest.mark.parametrize("variant", ["classic", "attack"])
def test_a_blocked_hand_ends_with_rewards(variant: str) -> None:
    # Every card is in a hand but the top one: nobody can draw, and two draws (or presses)
    # in a row block the hand (D-4); the lower hand wins it.
    deck_game = new_game(variant, 2, seed=1)
    cards = [deck_game.card_text(t) for t in deck_game.deck.cards()]
    top = cards.pop(cards.index("red 9"))
    position = {
        "variant": variant,
        "players": 2,
        "turn": 0,
        "color": "red",
        "hands": [cards[:50], cards[50:]],
        "discard": [top],
        "draw": [],
        "seed": 1,
        "options": {"rounds": 1},
    }
    table = raw_env(variant, 2)
    table.reset(seed=0)
    table.load(Game.from_position(position))
    table.step(table.encoding.draw_start)
    table.step(table.encoding.draw_start)
    game = table.session.game
    assert game.is_over
    winner = game.winners[0]
    assert all(table.terminations.values())
    assert table.rewards == {f"player_{s}": (1.0 if s == winner else -1.0) for s in range(2)}


def test_going_out_on_a_discard_all_ends_the_hand_with_rewards() -> None:
    game = Game.from_position(
        {
            "variant": "attack",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["red discard_all", "red 3", "red 4"], ["yellow 3", "yellow 4"]],
            "discard": ["red 9"],
            "seed": 1,
            "options": {"rounds": 1},
        }
    )
    table = raw_env("attack", 2)
    table.reset(seed=0)
    table.load(game)
    card = game.deck.type_id("red discard_all")
    assert card is not None
    table.step(table.encoding.play_start + card)
    assert game.is_over
    assert game.winners == [0]
    assert table.rewards == {"player_0": 1.0, "player_1": -1.0}
