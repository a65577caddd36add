"""Scenario tests for the drawing house rules: draw until a playable card comes
(``draw_until_playable=true``, H-4 in docs/rules/draw_until_playable.md) and a playable drawn
card must be played (``force_play=true``, H-5 in docs/rules/force_play.md).

Every expected value is derived from the rule text, not read back from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import game, hand, legal, of_type
from unokit import Game, IllegalActionError, OptionError, new_game

HELD = ["blue 7", "green 8"]


def drawing(draw: list[str], **options: Any) -> Game:
    """Classic, 3 seats; seat 0 holds a blue 7 and a green 8 on a red 5 and will draw ``draw``
    (top first); the rest of the deck lies below."""
    return game(
        hands=[list(HELD), ["yellow 1", "yellow 2"], ["green 1", "green 2"]],
        discard=["red 5"],
        color="red",
        draw=draw,
        options=options,
    )


def test_h4_1_draw_until_a_playable_card_then_play_or_keep_it() -> None:
    """H-4.1: the draw goes on past the yellow 4 and the blue 2 to the red 9, which may be
    played or kept; one draw event lists the three cards."""
    g = drawing(["yellow 4", "blue 2", "red 9", "red 1"], draw_until_playable=True)
    events = g.apply("draw")
    draws = of_type(events, "draw")
    assert [(e["seat"], e["count"], e["cards"], e["reason"]) for e in draws] == [
        (0, 3, ["yellow 4", "blue 2", "red 9"], "turn")
    ]
    assert g.decision == "play_or_keep"
    assert legal(g) == {"play_drawn", "keep"}
    g.apply("play_drawn")
    assert hand(g, 0) == sorted([*HELD, "yellow 4", "blue 2"])
    assert g.to_act == 1


def test_h4_1_a_wild_stops_the_draw() -> None:
    """H-4.1: a wild is always playable (R-1.4): it ends the draw at once."""
    g = drawing(["yellow 4", "wild", "red 9"], draw_until_playable=True)
    g.apply("draw")
    assert hand(g, 0) == sorted([*HELD, "yellow 4", "wild"])
    assert g.decision == "play_or_keep"


def test_h4_1_off_by_default_one_card_is_drawn() -> None:
    """R-2.2: without the option one card is drawn and, unplayable, the turn passes."""
    g = drawing(["yellow 4", "blue 2", "red 9"])
    g.apply("draw")
    assert hand(g, 0) == sorted([*HELD, "yellow 4"])
    assert g.to_act == 1


def test_h4_2_the_draw_stops_when_no_card_is_left_and_the_turn_passes() -> None:
    """H-4.2 with R-1.8: nothing playable left in the draw pile or under the top card: the
    player takes every card there is, a ``draw_failed`` is reported and the turn passes."""
    g = game(
        hands=[list(HELD), ["yellow 1", "yellow 2"], ["green 1", "green 2"]],
        discard=["yellow 3", "red 5"],
        color="red",
        draw=["yellow 4", "blue 2"],
        options={
            "draw_until_playable": True,
            "deck": [
                "red 5",
                "yellow 1",
                "yellow 2",
                "yellow 3",
                "yellow 4",
                "blue 2",
                "blue 7",
                "green 8",
                "green 1",
                "green 2",
            ],
        },
    )
    events = g.apply("draw")
    assert of_type(events, "reshuffle")[0]["count"] == 1
    assert hand(g, 0) == sorted([*HELD, "yellow 4", "blue 2", "yellow 3"])
    assert [e["reason"] for e in of_type(events, "draw_failed")] == ["turn"]
    assert (g.decision, g.to_act) == ("turn", 1)


def test_h4_3_a_penalty_is_drawn_as_usual() -> None:
    """H-4.3: the rule is about the draw of a turn only: a Draw Two still gives two cards."""
    g = game(
        hands=[["red draw_two", "red 1", "red 2"], ["blue 7", "green 8"], ["yellow 1", "yellow 2"]],
        discard=["red 5"],
        color="red",
        draw=["yellow 4", "blue 2", "red 9"],
        options={"draw_until_playable": True},
    )
    g.apply("play red draw_two")
    assert hand(g, 1) == ["blue 2", "blue 7", "green 8", "yellow 4"]


def test_h4_4_empty_deck_stacked_penalty_and_draw_until_playable_end_in_a_blocked_round() -> None:
    """H-4.4 with R-1.8 and D-4 (the combination that deadlocked other UNO servers): the draw
    pile is empty and a stack of Draw Twos is pending. Taking the stack of 4 draws the only
    card there is (the reshuffled red Draw Two) and reports the rest as missing; then every
    player passes with nothing to draw, and after one full circuit the round ends as blocked,
    won by the smallest hand (seat 2: 2 + 3 points)."""
    deck = ["red draw_two", "blue draw_two", "yellow 9", "yellow 8", "green 1", "green 2", "green 3"]
    g = game(
        hands=[["blue draw_two", "yellow 9"], ["yellow 8", "green 1"], ["green 2", "green 3"]],
        discard=["red draw_two"],
        color="red",
        stack=2,
        options={"deck": deck, "stacking": "mixed", "draw_until_playable": True, "force_play": True, "rounds": 1},
    )
    assert g.decision == "stack"
    g.apply("play blue draw_two")
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 1, 4)
    events = g.apply("draw")
    assert of_type(events, "draw_failed")
    assert hand(g, 1) == ["green 1", "red draw_two", "yellow 8"]
    assert (g.decision, g.to_act, g.stack_total) == ("turn", 2, 0)
    for seat in (2, 0, 1):
        assert not g.is_over and g.to_act == seat
        assert "draw" in legal(g)
        events = g.apply("draw")
        assert of_type(events, "draw_failed")
    assert g.is_over
    assert of_type(events, "blocked")[0]["winner"] == 2
    assert g.winners == [2]


def test_h4_5_refused_in_the_launcher_games() -> None:
    """H-4.5: a turn presses the launcher and no pressed card is played at once (R-4.1): the
    option does not apply to UNO Attack or UNO Flip Attack."""
    for variant in ("attack", "flip_attack"):
        with pytest.raises(OptionError, match="does not apply"):
            new_game(variant, 3, 1, draw_until_playable=True)


def test_h5_1_a_playable_drawn_card_must_be_played() -> None:
    """H-5.1: with force_play the drawn red 9 fits, so ``keep`` is not offered, and refused."""
    g = drawing(["red 9", "red 1"], force_play=True)
    g.apply("draw")
    assert g.decision == "play_or_keep"
    assert legal(g) == {"play_drawn"}
    with pytest.raises(IllegalActionError, match="force_play"):
        g.apply("keep")
    g.apply("play_drawn")
    assert g.card_text(g.top_card) == "red 9"


def test_h5_1_a_drawn_wild_must_be_played_naming_a_colour() -> None:
    """H-5.1: a drawn wild fits: it must be played, and its player names the colour."""
    g = drawing(["wild"], force_play=True)
    g.apply("draw")
    assert legal(g) == {f"play_drawn {c}" for c in ("red", "yellow", "green", "blue")}


def test_h5_2_an_unplayable_drawn_card_is_kept_and_the_turn_passes() -> None:
    """H-5.2: the rule forces nothing when the drawn card does not fit."""
    g = drawing(["yellow 4"], force_play=True)
    g.apply("draw")
    assert (g.decision, g.to_act) == ("turn", 1)


def test_h5_3_with_draw_until_playable_the_card_found_must_be_played() -> None:
    """H-5.3: together, the player draws until a card fits and must play it."""
    g = drawing(["yellow 4", "red 9"], force_play=True, draw_until_playable=True)
    g.apply("draw")
    assert legal(g) == {"play_drawn"}


def test_h5_4_refused_in_the_launcher_games() -> None:
    """H-5.4: no pressed card is ever played at once (R-4.1)."""
    with pytest.raises(OptionError, match="force_play"):
        new_game("attack", 3, 1, force_play=True)
