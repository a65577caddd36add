"""Scenario tests for Jump-In (``jump_in=true``, H-1 in docs/rules/jump_in.md): each sets up an
exact position and checks one point of the rule, citing its id.

Every expected value is derived from the rule text, not read back from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

import unokit
from tests.helpers import event_types, game, hand, legal, position
from unokit import Game, IllegalActionError, PositionError
from unokit.core.cards import COLOR_NAMES

JUMP = {"jump_in": True}


def four(hands: list[list[str]], draw: list[str] | None = None, **options: Any) -> Game:
    """Classic, one seat a hand (seat 0 to act) on a red 4, with Jump-In and ``options``."""
    return game(hands=hands, discard=["red 4"], color="red", draw=draw, options={**JUMP, **options})


def test_h1_an_identical_card_jumps_in_and_play_goes_on_from_the_jumper() -> None:
    """H-1, H-1.7: seat 2 holds the red 5 seat 0 just played: it plays it out of turn, before
    seat 1 acts; seat 3 plays next and seat 1 has lost its turn."""
    g = four([["red 5", "blue 1", "blue 4"], ["green 1", "green 2"], ["red 5", "yellow 9", "yellow 8"], ["blue 2"]])
    g.apply("play red 5")
    assert g.to_act == 1
    assert legal(g, 2) == {"play red 5"}
    events = g.apply("play red 5", seat=2)
    assert event_types(events)[:2] == ["jump_in", "play"]
    assert events[0] == {"type": "jump_in", "seat": 2, "on": 0}
    assert hand(g, 2) == ["yellow 8", "yellow 9"]
    assert g.to_act == 3
    assert g.decision == "turn"
    assert hand(g, 1) == ["green 1", "green 2"]


def test_h1_1_only_the_same_colour_and_the_same_kind_may_jump() -> None:
    """H-1.1: a red 5 is not jumped by a blue 5, a red 6 or a red skip."""
    g = four([["red 5", "blue 1", "blue 4"], ["green 1"], ["blue 5", "red 6"], ["red skip", "yellow 1"]])
    g.apply("play red 5")
    assert legal(g, 2) == set()
    assert legal(g, 3) == set()
    with pytest.raises(IllegalActionError, match="H-1"):
        g.apply("play blue 5", seat=2)


def test_h1_1_an_identical_action_card_jumps_and_does_its_effect() -> None:
    """H-1.1, H-1.7: a red skip jumps on a red skip; the seat after the jumper is skipped."""
    g = four([["red skip", "blue 1", "blue 4"], ["green 1"], ["green 2"], ["red skip", "yellow 1", "yellow 2"]])
    g.apply("play red skip")
    assert g.to_act == 2
    g.apply("play red skip", seat=3)
    assert g.to_act == 1  # seat 0, after the jumper, is skipped


def test_h1_1_on_a_double_sided_deck_the_active_faces_must_match() -> None:
    """H-1.1: in UNO Flip the two red 5s have different backs (pink 2, teal 5), yet on the light
    side they are identical."""
    g = game(
        "flip",
        hands=[
            ["red 5/pink 2", "blue 1/purple skip_everyone", "blue 2/pink 6"],
            ["green 1/orange 5"],
            ["red 5/teal 5", "yellow 3/purple 1", "green 3/purple 2"],
        ],
        discard=["red 4/orange flip"],
        color="red",
        options=JUMP,
    )
    g.apply("play red 5/pink 2")
    assert legal(g, 2) == {"play red 5/teal 5"}


def test_h1_2_wilds_neither_jump_nor_are_jumped_on() -> None:
    """H-1.2: a wild has no colour: nobody jumps on a Wild, even with a Wild."""
    g = four([["wild", "blue 1", "blue 4"], ["green 1"], ["wild", "yellow 9"], ["blue 2"]])
    g.apply("play wild red")
    assert g.windows == ()
    assert legal(g, 2) == set()


def test_h1_3_the_window_closes_when_the_next_player_acts() -> None:
    """H-1.3: once seat 1 has acted (here: drawn and kept), the red 5 can no longer be jumped."""
    g = four(
        [["red 5", "blue 1", "blue 4"], ["green 1", "green 2"], ["red 5", "yellow 9"], ["blue 2"]],
        draw=["yellow 3"],
    )
    g.apply("play red 5")
    g.apply("draw")  # an unplayable card: the turn passes to seat 2
    assert g.to_act == 2
    assert "play red 5" in legal(g)  # on its own turn the red 5 simply matches
    with pytest.raises(IllegalActionError):
        g.apply("play red 5", seat=3)


def test_h1_3_the_player_of_the_card_does_not_jump_on_it() -> None:
    """H-1.3: seat 0 holds a second red 5 but may not jump on its own card."""
    g = four([["red 5", "red 5", "blue 1"], ["green 1"], ["green 2"], ["blue 2"]])
    g.apply("play red 5")
    assert legal(g, 0) == set()


def test_h1_3_the_first_card_of_a_round_is_not_jumped_on() -> None:
    """H-1.3: the card turned up to start the pile was played by nobody: no window opens."""
    for seed in range(40):
        g = unokit.new_game("classic", 4, seed, jump_in=True)
        assert g.windows == ()
        assert all(legal(g, s) == set() for s in range(4) if s != g.to_act)


def test_h1_3_no_jump_after_a_flip() -> None:
    """H-1.3: a Flip turns the pile over: the card on top was not just played, no window."""
    g = game(
        "flip",
        hands=[
            ["red flip/pink 8", "blue 1/purple skip_everyone", "blue 2/pink 6"],
            ["green 1/orange 5", "yellow 3/purple 1"],
            ["red flip/purple 3", "green 3/purple 2"],
        ],
        discard=["yellow 3/pink draw_five", "red 4/orange flip"],
        color="red",
        options=JUMP,
    )
    g.apply("play red flip/pink 8")
    assert g.side_name == "dark"
    assert g.windows == ()
    assert legal(g, 2) == set()


def test_h1_3_a_jump_waits_for_the_effect_of_the_card() -> None:
    """H-1.3 with Seven-O: while seat 0 chooses whom to swap with, nobody jumps; once the swap
    is done and seat 1 is to play, the red 7 may be jumped on."""
    g = four(
        [
            ["red 7", "blue 1", "blue 2"],
            ["green 1", "green 2"],
            ["red 7", "yellow 9", "yellow 8"],
            ["blue 3", "blue 4"],
        ],
        seven_o=True,
    )
    g.apply("play red 7")
    assert g.decision == "choose_player"
    assert legal(g, 2) == set()
    g.apply("trade 3")
    assert g.to_act == 1
    assert legal(g, 2) == {"play red 7"}


def test_h1_4_jumping_on_an_answered_draw_two() -> None:
    """H-1.4: without stacking the Draw Two's victim has drawn at once; its victim may jump with
    an identical Draw Two, and the player after it draws two."""
    g = four(
        [["red draw_two", "blue 1", "blue 4"], ["red draw_two", "green 9"], ["green 2", "green 3"], ["blue 2"]],
        draw=["yellow 1", "yellow 2", "yellow 3", "yellow 4"],
    )
    g.apply("play red draw_two")
    assert hand(g, 1) == ["green 9", "red draw_two", "yellow 1", "yellow 2"]
    assert g.to_act == 2
    g.apply("play red draw_two", seat=1)
    assert hand(g, 2) == ["green 2", "green 3", "yellow 3", "yellow 4"]
    assert g.to_act == 3


def test_h1_4_jumping_into_a_stack_adds_to_the_total_and_the_victim_escapes() -> None:
    """H-1.4: with stacking, seat 2 jumps on the pending red Draw Two: the total grows to four
    and passes to seat 3; seat 1, who was to answer, takes nothing."""
    g = four(
        [
            ["red draw_two", "blue 1", "blue 4"],
            ["green 1", "green 2"],
            ["red draw_two", "yellow 9", "yellow 8"],
            ["blue 2"],
        ],
        stacking=True,
    )
    g.apply("play red draw_two")
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 1, 2)
    g.apply("play red draw_two", seat=2)
    assert (g.decision, g.to_act, g.stack_total) == ("stack", 3, 4)
    assert hand(g, 1) == ["green 1", "green 2"]


def test_h1_5_a_jump_carries_its_own_uno_call() -> None:
    """H-1.5: a jump that leaves one card without the call can be caught (R-1.5)."""
    g = four([["red 5", "blue 1", "blue 4"], ["green 1", "green 2"], ["red 5", "yellow 9"], ["blue 2", "blue 3"]])
    g.apply("play red 5")
    g.apply("play red 5", seat=2)
    assert g.uno_exposed == 2
    g.apply("catch 2", seat=1)
    assert len(g.hands[2]) == 3


def test_h1_5_uno_form_is_offered_for_a_jump_to_one_card() -> None:
    """H-1.5: the jumper may declare UNO with the jump (``play red 5 uno``)."""
    g = four([["red 5", "blue 1", "blue 4"], ["green 1", "green 2"], ["red 5", "yellow 9"], ["blue 2", "blue 3"]])
    g.apply("play red 5")
    assert legal(g, 2) == {"play red 5", "play red 5 uno"}
    g.apply("play red 5 uno", seat=2)
    assert g.uno_exposed == -1


def test_h1_5_a_jump_closes_the_uno_catch_window() -> None:
    """H-1.5 with D-2: seat 0 played down to one card without calling UNO; seat 2's jump is
    another player's action, so seat 0 can no longer be caught."""
    g = four([["red 5", "blue 1"], ["green 1", "green 2"], ["red 5", "yellow 9", "yellow 8"], ["blue 2"]])
    g.apply("play red 5")
    assert g.uno_exposed == 0
    g.apply("play red 5", seat=2)
    assert g.uno_exposed == -1
    assert "catch 0" not in legal(g, 3)


def test_h1_5_a_catch_does_not_close_the_jump_window() -> None:
    """H-1.5: a catch is not the next player's action: the jump stays open after it."""
    g = four([["red 5", "blue 1"], ["green 1", "green 2"], ["red 5", "yellow 9", "yellow 8"], ["blue 2"]])
    g.apply("play red 5")
    g.apply("catch 0", seat=3)
    assert len(g.hands[0]) == 3
    assert legal(g, 2) == {"play red 5"}


def test_h1_6_several_seats_may_act_out_of_turn_the_first_action_received_wins() -> None:
    """H-1.6: seat 0 played down to one card without UNO; seat 2 may jump, seat 3 may catch.
    Asking for legal actions in any order changes nothing; whichever action comes first is
    applied: a catch leaves the jump open, a jump closes the catch (D-2)."""
    hands = [["red 5", "blue 1"], ["green 1", "green 2"], ["red 5", "yellow 9", "yellow 8"], ["blue 2", "blue 3"]]
    g = four(hands)
    g.apply("play red 5")
    forward = [g.legal_actions(s) for s in (1, 2, 3)]
    backward = [g.legal_actions(s) for s in (3, 2, 1)][::-1]
    assert forward == backward
    assert g.responders() == [0, 1, 2, 3]  # the catch window's, in turn order from the exposed seat
    assert legal(g, 2) == {"play red 5", "catch 0"}
    caught = g.clone()
    caught.apply("catch 0", seat=3)
    assert legal(caught, 2) == {"play red 5"}
    g.apply("play red 5", seat=2)
    assert g.uno_exposed == -1
    assert "catch 0" not in legal(g, 3)


def test_h1_7_a_jump_may_end_the_round() -> None:
    """H-1.7: a jump with the last card goes out like any play (R-1.6)."""
    g = four([["red 5", "blue 1", "blue 4"], ["green 1", "green 2"], ["red 5"], ["blue 2"]], rounds=1)
    g.apply("play red 5")
    g.apply("play red 5", seat=2)
    assert g.is_over
    assert g.winners == [2]


def test_h1_7_with_two_players_the_skipped_player_may_jump() -> None:
    """H-1.7 with R-1.10: seat 0's red skip gives it the turn again; seat 1 jumps with its red
    skip, which gives seat 1 the turn."""
    g = game(
        hands=[["red skip", "blue 1", "blue 4"], ["red skip", "green 2", "green 3"]],
        discard=["red 4"],
        color="red",
        options=JUMP,
    )
    g.apply("play red skip")
    assert g.to_act == 0
    g.apply("play red skip", seat=1)
    assert g.to_act == 1
    assert COLOR_NAMES[g.color] == "red"


def test_h1_off_by_default() -> None:
    """H-1: without the option nobody plays out of turn."""
    g = game(
        hands=[["red 5", "blue 1", "blue 4"], ["green 1"], ["red 5", "yellow 9"], ["blue 2"]],
        discard=["red 4"],
        color="red",
    )
    g.apply("play red 5")
    assert legal(g, 2) == set()
    with pytest.raises(IllegalActionError, match="not seat 2's"):
        g.apply("play red 5", seat=2)


def test_h1_the_open_window_is_part_of_the_position() -> None:
    """H-1: the position names the seat whose card may be jumped on (``jump_in``); it round-trips
    and needs the option."""
    g = four([["red 5", "blue 1", "blue 4"], ["green 1"], ["red 5", "yellow 9", "yellow 8"], ["blue 2"]])
    g.apply("play red 5")
    pos = g.to_position()
    assert pos["jump_in"] == 0
    again = Game.from_position(pos)
    assert legal(again, 2) == {"play red 5"}
    del pos["options"]["jump_in"]
    with pytest.raises(PositionError, match="jump_in"):
        Game.from_position(pos)
    bad = position(hands=[["blue 1"], ["green 1"], ["wild"]], discard=["wild"], color="red", options=JUMP, jump_in=0)
    with pytest.raises(PositionError, match="coloured"):
        Game.from_position(bad)
