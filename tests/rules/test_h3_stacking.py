"""Scenario tests for the readings of ``stacking`` (R-1.9, H-3 in docs/rules/stacking.md):
``true`` (the same kind), ``progressive`` (Progressive UNO: Wild Draw cards on the same kind
too), ``mixed`` (a Wild Draw card on a coloured draw card too), and Hit cards in the launcher
games.

Every expected value is derived from the rule text, not read back from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import game, hand, legal, of_type
from unokit import Game, IllegalActionError, OptionError, new_game

COLORS = ("red", "yellow", "green", "blue")
FILLER = ["green 1", "green 2", "green 3", "green 4", "green 5", "green 6", "green 7", "green 8"]


def classic(hands: list[list[str]], **options: Any) -> Game:
    """Classic on a red 5, seat 0 to act; the draw pile's top cards are the green numbers."""
    return game(hands=hands, discard=["red 5"], color="red", draw=FILLER, options=options)


def test_h3_1_same_is_another_name_for_true() -> None:
    """H-3.1: ``stacking=same`` is today's ``true``; a position or record writes it ``true``."""
    g = new_game("classic", 3, 1, stacking="same")
    assert g.options.stacking is True
    assert g.to_position()["options"]["stacking"] is True
    with pytest.raises(OptionError, match="progressive or mixed"):
        new_game("classic", 3, 1, stacking="crazy")


@pytest.mark.parametrize("reading", [True, "progressive", "mixed"])
def test_h3_1_every_reading_stacks_a_draw_two_on_a_draw_two(reading: object) -> None:
    """H-3.1: a Draw Two answers a Draw Two in every reading."""
    g = classic(
        [["red draw_two", "red 1", "red 2"], ["blue draw_two", "blue 1", "blue 2"], ["yellow 1", "yellow 2"]],
        stacking=reading,
    )
    g.apply("play red draw_two")
    assert legal(g) == {"play blue draw_two", "draw"}


def test_h3_1_progressive_stacks_wild_draw_four_on_wild_draw_four() -> None:
    """H-3.1 (Progressive UNO): with bluffing off, a Wild Draw Four answers a Wild Draw Four;
    the player who cannot takes 4 + 4 = 8 cards and loses the turn."""
    g = classic(
        [["wild_draw_four", "blue 1", "blue 2"], ["wild_draw_four", "yellow 3", "yellow 4"], ["yellow 1", "yellow 2"]],
        stacking="progressive",
        bluffing=False,
    )
    g.apply("play wild_draw_four blue")
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 1, 4)
    assert legal(g) == {f"play wild_draw_four {c}" for c in COLORS} | {"draw"}
    g.apply("play wild_draw_four green")
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 2, 8)
    g.apply("draw")
    assert len(g.hands[2]) == 2 + 8
    assert (g.decision, g.to_act, g.stack_total) == ("turn", 0, 0)


def test_h3_1_progressive_does_not_mix_kinds() -> None:
    """H-3.1: under ``progressive`` a Wild Draw Four does not answer a Draw Two."""
    g = classic(
        [["red draw_two", "red 1", "red 2"], ["wild_draw_four", "blue 1"], ["yellow 1", "yellow 2"]],
        stacking="progressive",
    )
    g.apply("play red draw_two")
    assert legal(g) == {"draw"}


def test_h3_1_mixed_lets_a_wild_draw_four_answer_a_draw_two_but_not_the_reverse() -> None:
    """H-3.1: under ``mixed`` a Wild Draw Four answers a Draw Two (total 6); a Draw Two does not
    answer the Wild Draw Four."""
    g = classic(
        [["red draw_two", "red 1", "red 2"], ["wild_draw_four", "blue 1", "blue 2"], ["blue draw_two", "yellow 2"]],
        stacking="mixed",
        bluffing=False,
    )
    g.apply("play red draw_two")
    assert legal(g) == {f"play wild_draw_four {c}" for c in COLORS} | {"draw"}
    g.apply("play wild_draw_four blue")
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 2, 6)
    assert legal(g) == {"draw"}


def test_h3_1_mixed_in_flip_a_wild_draw_two_answers_a_draw_one() -> None:
    """H-3.1: the same logic on UNO Flip's light side: Wild Draw Two on Draw One makes 3."""
    g = game(
        "flip",
        hands=[
            ["red draw_one/pink 3", "blue 2/pink 6", "blue 8/teal 4"],
            ["wild_draw_two/purple 9", "green 1/orange 5", "yellow 3/purple 1"],
            ["green 3/purple 2", "red 3/pink 7"],
        ],
        discard=["red 5/pink 2"],
        color="red",
        options={"stacking": "mixed", "bluffing": False},
    )
    g.apply("play red draw_one")
    assert "play wild_draw_two/purple 9 yellow" in legal(g)
    g.apply("play wild_draw_two yellow")
    assert g.stack_total == 3


def test_h3_2_a_stacked_wild_draw_four_may_be_challenged_accepted_or_passed_on() -> None:
    """H-3.2: with bluffing on, the next player may challenge, accept (draw the whole total) or
    answer with another Wild Draw Four."""
    g = classic(
        [["wild_draw_four", "blue 1", "blue 2"], ["wild_draw_four", "yellow 3", "yellow 4"], ["yellow 1", "yellow 2"]],
        stacking="progressive",
    )
    g.apply("play wild_draw_four blue")
    assert g.decision == "challenge"
    assert legal(g) == {"challenge", "accept"} | {f"play wild_draw_four {c}" for c in COLORS}
    g.apply("play wild_draw_four green")
    assert (g.decision, g.to_act, g.stack_total) == ("challenge", 2, 8)
    g.apply("accept")
    assert len(g.hands[2]) == 2 + 8
    assert g.to_act == 0 and g.stack_total == 0


def test_h3_2_a_lost_challenge_of_a_stack_costs_the_total_and_two() -> None:
    """H-3.2: blue was in play and seat 1 held no blue card, so its answer was fair; seat 2
    challenges and loses: it draws 8 + 2 and loses the turn."""
    g = classic(
        [["wild_draw_four", "blue 1", "blue 2"], ["wild_draw_four", "yellow 3", "yellow 4"], ["yellow 1", "yellow 2"]],
        stacking="progressive",
    )
    g.apply("play wild_draw_four blue")
    g.apply("play wild_draw_four green")
    events = g.apply("challenge")
    assert of_type(events, "challenge")[0]["success"] is False
    assert len(g.hands[2]) == 2 + 10
    assert g.to_act == 0
    assert g.stack_total == 0


def test_h3_2_a_bluff_caught_in_a_stack_costs_the_bluffer_the_total() -> None:
    """H-3.2: blue was in play and seat 1 answered holding the blue 9: a bluff. Seat 2
    challenges: seat 1 draws the 8 cards and seat 2 plays."""
    g = classic(
        [["wild_draw_four", "blue 1", "blue 2"], ["wild_draw_four", "blue 9", "yellow 4"], ["yellow 1", "yellow 2"]],
        stacking="progressive",
    )
    g.apply("play wild_draw_four blue")
    g.apply("play wild_draw_four green")
    events = g.apply("challenge")
    assert of_type(events, "challenge")[0]["success"] is True
    assert len(g.hands[1]) == 2 + 8
    assert len(g.hands[2]) == 2
    assert (g.decision, g.to_act, g.stack_total) == ("turn", 2, 0)


def test_h3_2_with_bluffing_off_only_a_fair_wild_draw_four_answers() -> None:
    """H-3.2 with R-2.3: bluffing off, seat 1 holds a blue card while blue is in play: its Wild
    Draw Four may not answer the stack."""
    g = classic(
        [["wild_draw_four", "blue 1", "blue 2"], ["wild_draw_four", "blue 9", "yellow 4"], ["yellow 1", "yellow 2"]],
        stacking="progressive",
        bluffing=False,
    )
    g.apply("play wild_draw_four blue")
    assert legal(g) == {"draw"}
    with pytest.raises(IllegalActionError):
        g.apply("play wild_draw_four green")


def test_h3_3_wild_draw_color_never_stacks() -> None:
    """H-3.3: Wild Draw Color makes its victim draw until a colour, not a number of cards: even
    under ``mixed`` nothing answers it, and it answers nothing (not a Draw Five)."""
    g = game(
        "flip",
        side="dark",
        hands=[
            ["green 6/wild_draw_color", "blue 2/pink 6", "blue 8/teal 4"],
            ["red 3/wild_draw_color", "green 1/orange 5", "yellow 3/purple 1"],
            ["green 3/purple 2", "red 3/pink 7"],
        ],
        discard=["red 4/orange flip", "red 5/pink 2"],
        color="pink",
        options={"stacking": "mixed"},
    )
    g.apply("play green 6/wild_draw_color teal")
    assert g.decision == "challenge"
    assert g.stack_total == 0
    assert legal(g) == {"challenge", "accept"}


def test_h3_4_hit_cards_stack_in_attack_and_the_total_is_pressed() -> None:
    """H-3.4: in UNO Attack a Hit 2 answers a Hit 2; the first player who does not presses the
    launcher 2 + 2 = 4 times and loses the turn."""
    g = game(
        "attack",
        hands=[["red hit_2", "red 1", "red 2"], ["blue hit_2", "blue 1", "blue 2"], ["yellow 1", "yellow 2"]],
        discard=["red 5"],
        color="red",
        options={"stacking": True, "launcher": "scripted", "launcher_script": [0, 1, 0, 2, 0, 0]},
    )
    g.apply("play red hit_2")
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 1, 2)
    assert legal(g) == {"play blue hit_2", "press"}
    g.apply("play blue hit_2")
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 2, 4)
    events = g.apply("press")
    assert [e["reason"] for e in of_type(events, "press")] == ["stack"] * 4
    assert len(g.hands[2]) == 2 + 0 + 1 + 0 + 2
    assert (g.decision, g.to_act, g.stack_total) == ("turn", 0, 0)


def test_h3_5_going_out_on_a_stacked_wild_draw_four_passes_the_total() -> None:
    """H-3.5 with R-1.6 and D-3: the last card answers a stack of Wild Draw Fours: no challenge,
    the next player draws 4 + 4 before the round is scored."""
    g = classic(
        [["wild_draw_four", "blue 1", "blue 2"], ["wild_draw_four"], ["yellow 1", "yellow 2"]],
        stacking="progressive",
        rounds=1,
    )
    g.apply("play wild_draw_four blue")
    g.apply("play wild_draw_four green")
    assert g.is_over and g.winners == [1]
    assert hand(g, 2) == sorted(["yellow 1", "yellow 2", *FILLER])
