"""The Batch API and random_playout: what they refuse, and that they are the reference games."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import unokit
from unokit import IllegalActionError, InvalidActionError, OptionError
from unokit.fast import SUPPORTED_OPTIONS, Batch, random_playout


def test_game_i_of_a_batch_is_the_reference_game_with_seed_plus_i() -> None:
    batch = Batch("flip", 3, 5, seed=40, stacking=True)
    for i in range(5):
        assert batch.position(i) == unokit.new_game("flip", 3, seed=40 + i, rounds=1, stacking=True).to_position()
    assert batch.to_act.tolist() == [batch.position(i)["pending"]["seat"] for i in range(5)]
    assert not batch.done.any()


@pytest.mark.parametrize(
    ("variant", "options", "named"),
    [
        ("classic", {"wild_counts_as_color_match": True}, "wild_counts_as_color_match"),
        ("flip", {"pairing": "random"}, "pairing"),
        ("flip", {"flip_wild_chooser": "next"}, "flip_wild_chooser"),
        ("attack", {"launcher": "pattern"}, "launcher"),
        ("classic", {"rounds": 3}, "rounds"),
        ("classic", {"jump_in": True}, "jump_in"),
        ("flip", {"seven_o": True}, "seven_o"),
        ("classic", {"draw_until_playable": True}, "draw_until_playable"),
        ("flip", {"force_play": True}, "force_play"),
        ("classic", {"stacking": "progressive"}, "progressive"),
        ("attack", {"stacking": True}, "stacking"),
    ],
)
def test_unsupported_options_are_refused_by_name(variant: str, options: dict[str, Any], named: str) -> None:
    with pytest.raises(OptionError, match=named):
        Batch(variant, 2, 1, 0, **options)
    with pytest.raises(OptionError, match=named):
        random_playout(variant, 2, 1, 0, **options)


def test_options_the_reference_refuses_are_refused_too() -> None:
    with pytest.raises(OptionError, match="teams"):
        Batch("classic", 2, 1, 0, teams=True)
    with pytest.raises(OptionError, match="variant"):
        Batch("uno_no_mercy", 2, 1, 0)
    with pytest.raises(OptionError, match="players"):
        Batch("flip_attack", 7, 1, 0)


def test_default_values_given_explicitly_are_accepted() -> None:
    batch = Batch("attack", 2, 1, 0, launcher="random", rounds=1)
    assert batch.position(0) == unokit.new_game("attack", 2, seed=0, rounds=1).to_position()
    assert set(SUPPORTED_OPTIONS) == {"stacking", "bluffing", "scoring", "target", "rounds"}


def test_an_illegal_action_is_refused_and_changes_no_game() -> None:
    batch = Batch("classic", 2, 3, seed=9)
    before = [batch.position(i) for i in range(3)]
    mask = batch.legal_mask()
    actions = mask.argmax(axis=1)
    illegal = int(np.flatnonzero(~mask[1])[0])
    actions[1] = illegal
    with pytest.raises(IllegalActionError, match=f"game 1: action {illegal}"):
        batch.step(actions)
    with pytest.raises(InvalidActionError, match="3 whole action ids"):
        batch.step([0, 1])
    assert [batch.position(i) for i in range(3)] == before


def test_a_batch_plays_to_the_end_with_masked_actions() -> None:
    batch = Batch("flip_attack", 3, 4, seed=2)
    chooser = np.random.default_rng(0)
    steps = 0
    while not batch.done.all():
        mask = batch.legal_mask()
        assert mask[~batch.done].any(axis=1).all()
        actions = np.array([chooser.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        batch.step(actions)
        steps += 1
    assert (batch.to_act == -1).all()
    assert not batch.legal_mask().any()
    for i in range(4):
        position = batch.position(i)
        assert position["pending"] == {"kind": "over"} and position["winners"] == batch.winners(i)
        assert batch.round_winner(i) in range(3)
    assert batch.steps.sum() >= steps


def test_random_playout_counts_games_decisions_and_wins() -> None:
    result = random_playout("classic", 2, 50, seed=3)
    again = random_playout("classic", 2, 50, seed=3)
    assert {k: v for k, v in result.items() if k != "seconds"} == {k: v for k, v in again.items() if k != "seconds"}
    assert result["games"] == 50
    assert sum(result["wins"]) == pytest.approx(50)
    assert result["decisions"] > 50 * 20
    with pytest.raises(OptionError, match="games"):
        random_playout("classic", 2, 0, seed=3)
