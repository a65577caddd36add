"""Scenario tests for Seven-O (``seven_o=true``, H-2 in docs/rules/seven_o.md): a 7 swaps hands
with a chosen player, a 0 passes every hand one seat in the direction of play.

Every expected value is derived from the rule text, not read back from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import event_types, game, hand, legal, of_type
from unokit import Game

SEVEN_O = {"seven_o": True}
HANDS = [
    ["red 7", "red 0", "blue 1", "blue 2"],
    ["green 1", "green 2"],
    ["yellow 1", "yellow 2", "yellow 3"],
    ["blue 3", "blue 4", "blue 5", "blue 6", "blue 8"],
]


def classic(hands: list[list[str]] = HANDS, **fields: Any) -> Game:
    options = {**SEVEN_O, **fields.pop("options", {})}
    return game(hands=hands, discard=["red 4"], color="red", options=options, **fields)


def test_h2_1_a_seven_swaps_hands_with_the_player_chosen() -> None:
    """H-2.1: after a 7 its player chooses any other player; the two hands swap and the next
    player plays."""
    g = classic()
    g.apply("play red 7")
    assert g.decision == "choose_player"
    assert g.to_act == 0
    assert legal(g) == {"trade 1", "trade 2", "trade 3"}
    events = g.apply("trade 3")
    assert of_type(events, "trade") == [{"type": "trade", "seat": 0, "target": 3}]
    assert hand(g, 0) == ["blue 3", "blue 4", "blue 5", "blue 6", "blue 8"]
    assert hand(g, 3) == ["blue 1", "blue 2", "red 0"]
    assert g.to_act == 1


def test_h2_1_a_zero_passes_every_hand_in_the_direction_of_play() -> None:
    """H-2.1: clockwise, seat s receives the hand of seat s - 1."""
    g = classic()
    events = g.apply("play red 0")
    assert "pass_hands" in event_types(events)
    assert hand(g, 1) == ["blue 1", "blue 2", "red 7"]
    assert hand(g, 2) == ["green 1", "green 2"]
    assert hand(g, 3) == ["yellow 1", "yellow 2", "yellow 3"]
    assert hand(g, 0) == ["blue 3", "blue 4", "blue 5", "blue 6", "blue 8"]
    assert g.to_act == 1


def test_h2_1_counterclockwise_the_hands_pass_the_other_way() -> None:
    """H-2.1: counterclockwise, seat s receives the hand of seat s + 1; the next player is seat 3."""
    g = classic(direction="counterclockwise")
    g.apply("play red 0")
    assert hand(g, 3) == ["blue 1", "blue 2", "red 7"]
    assert hand(g, 0) == ["green 1", "green 2"]
    assert g.to_act == 3


def test_h2_1_off_by_default_sevens_and_zeros_are_plain_numbers() -> None:
    """H-2: without the option a 7 and a 0 do nothing."""
    g = game(hands=HANDS, discard=["red 4"], color="red")
    g.apply("play red 7")
    assert g.decision == "turn" and g.to_act == 1
    assert hand(g, 0) == ["blue 1", "blue 2", "red 0"]


@pytest.mark.parametrize("card", ["red 7", "red 0"])
def test_h2_2_a_seven_or_a_zero_as_the_last_card_just_goes_out(card: str) -> None:
    """H-2.2: the hand is empty: the round ends at once (R-1.6), nobody swaps."""
    g = classic(hands=[[card], ["green 1", "green 2"], ["yellow 1"], ["blue 3", "blue 4"]], options={"rounds": 1})
    events = g.apply(f"play {card}")
    assert g.is_over and g.winners == [0]
    assert not of_type(events, "trade") and not of_type(events, "pass_hands")
    assert hand(g, 3) == ["blue 3", "blue 4"]


def test_h2_3_the_uno_call_goes_with_the_play_and_the_catch_follows_the_seat() -> None:
    """H-2.3 with D-8: seat 0 plays its 7 from two cards without calling UNO, then takes a
    bigger hand: it holds more than one card, so nobody can catch it."""
    g = classic(hands=[["red 7", "blue 1"], ["green 1", "green 2"], ["yellow 1", "yellow 2", "yellow 3"], ["blue 3"]])
    g.apply("play red 7")
    assert g.uno_exposed == 0
    g.apply("trade 2")
    assert len(g.hands[0]) == 3
    assert g.uno_exposed == -1
    assert "catch 0" not in legal(g, 1)


def test_h2_3_receiving_a_one_card_hand_owes_no_call() -> None:
    """H-2.3 with D-17: seat 1 receives seat 0's single card through a 0: it made no play, so
    it cannot be caught."""
    g = classic(hands=[["red 0", "blue 1"], ["green 1", "green 2"], ["yellow 1", "yellow 2"], ["blue 3", "blue 4"]])
    g.apply("play red 0 uno")
    assert hand(g, 1) == ["blue 1"]
    assert g.uno_exposed == -1
    assert all("catch 1" not in legal(g, s) for s in range(4))


def test_h2_4_on_the_dark_side_the_dark_seven_counts() -> None:
    """H-2.4: in UNO Flip the active face decides: a card showing pink 7 swaps on the dark
    side; a card showing purple 5 does nothing there, though its light face is a red 7."""
    g = game(
        "flip",
        side="dark",
        hands=[
            ["red 3/pink 7", "red 7/orange 1", "blue 2/pink 6"],
            ["green 1/orange 5", "yellow 3/purple 1"],
            ["green 3/purple 2", "blue 1/purple skip_everyone"],
        ],
        discard=["red 4/orange flip", "red 5/pink 2"],
        color="pink",
        options=SEVEN_O,
    )
    g.apply("play pink 7")
    assert g.decision == "choose_player"
    g.apply("trade 1")
    assert g.to_act == 1
    g2 = game(
        "flip",
        side="dark",
        hands=[
            ["red 7/purple 5", "blue 8/teal 4", "blue 2/pink 6"],
            ["green 1/orange 5", "yellow 3/purple 1"],
            ["green 3/purple 2", "blue 1/purple skip_everyone"],
        ],
        discard=["red 4/orange flip", "red 5/pink 2"],
        color="purple",
        options=SEVEN_O,
    )
    g2.apply("play purple 5")
    assert g2.decision == "turn" and g2.to_act == 1


def test_h2_4_attack_has_sevens_and_no_zeros() -> None:
    """H-2.4: in UNO Attack a 7 swaps hands like in Classic (its deck has no 0)."""
    g = game(
        "attack",
        hands=[["red 7", "blue 1", "blue 2"], ["green 1", "green 2"], ["yellow 1"]],
        discard=["red 4"],
        color="red",
        options=SEVEN_O,
    )
    g.apply("play red 7")
    g.apply("trade 2")
    assert hand(g, 0) == ["yellow 1"]
    assert hand(g, 2) == ["blue 1", "blue 2"]


def test_h2_5_each_player_remembers_the_hand_it_passed_on() -> None:
    """H-2.5: after a 0, seat 1 saw the hand it passed to seat 2 (``known`` in its observation),
    but nothing of the others'."""
    g = classic()
    g.apply("play red 0")
    seen = g.observe(1).get("known", {})
    assert seen == {"2": ["green 1", "green 2"]}
