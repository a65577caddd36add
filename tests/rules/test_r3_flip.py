"""Scenario tests for the UNO Flip rules: R-3.1 to R-3.9 and decisions D-1, D-12.

Cards are written in full ``light/dark`` form; every pair used here is a real card of the
physical deck (``src/unokit/core/data/uno_flip_card_pairs.csv``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

import unokit
from tests.helpers import all_cards, event_types, game, hand, legal, pile, position
from unokit import AmbiguousActionError, Game, IllegalActionError
from unokit.core.cards import COLOR_BY_NAME, COLOR_NAMES

Events = list[dict[str, Any]]

LIGHT_COLORS = ("red", "yellow", "green", "blue")
DARK_COLORS = ("pink", "teal", "orange", "purple")


# --------------------------------------------------------------------------- helpers
def csv_pairs() -> list[str]:
    text = resources.files("unokit.core").joinpath("data", "uno_flip_card_pairs.csv").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[0] == "light,dark"
    return [line.replace(",", "/") for line in lines[1:]]


def expected_light_faces() -> Counter[str]:
    """R-3.1, light side: per colour two each of 1-9, Draw One, Reverse, Skip, Flip; 4+4 wilds."""
    faces: Counter[str] = Counter()
    for color in LIGHT_COLORS:
        for kind in [*map(str, range(1, 10)), "draw_one", "reverse", "skip", "flip"]:
            faces[f"{color} {kind}"] += 2
    faces["wild"] += 4
    faces["wild_draw_two"] += 4
    return faces


def expected_dark_faces() -> Counter[str]:
    """R-3.1, dark side: per colour two each of 1-9, Draw Five, Reverse, Skip Everyone, Flip."""
    faces: Counter[str] = Counter()
    for color in DARK_COLORS:
        for kind in [*map(str, range(1, 10)), "draw_five", "reverse", "skip_everyone", "flip"]:
            faces[f"{color} {kind}"] += 2
    faces["wild"] += 4
    faces["wild_draw_color"] += 4
    return faces


def first_card_event(events: Events) -> str:
    cards = [e["card"] for e in events if e["type"] == "first_card"]
    assert len(cards) == 1
    return str(cards[0])


def find_new_game(pred: Callable[[Game, Events], bool], players: int = 3, limit: int = 6000) -> tuple[Game, Events]:
    """The first seeded new Flip game whose set-up satisfies ``pred``."""
    for seed in range(limit):
        g, events = Game.new("flip", players, seed)
        if pred(g, events):
            return g, events
    raise AssertionError("no seed found")


LIGHT_TOP = "red 7/orange 1"  # light red 7, dark orange 1


# --------------------------------------------------------------------------- deck
def test_r3_1_deck_has_112_cards_with_the_light_and_dark_faces_of_the_rules() -> None:
    """R-3.1: 112 double-sided cards; each light and dark face twice, wilds four times."""
    g = unokit.new_game("flip", 3, seed=4)
    cards = all_cards(g)
    assert len(cards) == 112
    assert all("/" in c for c in cards)
    assert Counter(c.split("/")[0] for c in cards) == expected_light_faces()
    assert Counter(c.split("/")[1] for c in cards) == expected_dark_faces()


def test_r3_1_default_deck_is_the_physical_pairing_of_the_csv() -> None:
    """R-3.1: the default deck pairs the faces exactly as the recorded physical deck."""
    pairs = csv_pairs()
    assert len(pairs) == 112
    for seed in (1, 2):
        g = unokit.new_game("flip", 4, seed=seed)
        assert Counter(all_cards(g)) == Counter(pairs)


def test_r3_1_physical_pairing_known_cards() -> None:
    """R-3.1: blue 6 has purple reverse behind it (the author's correction); the worked
    example's backs: purple reverse is a red 8 or a blue 6; dark wilds hide four light faces."""
    pairs = Counter(csv_pairs())
    assert pairs["blue 6/purple reverse"] == 1
    assert sorted(p.split("/")[0] for p in pairs.elements() if p.endswith("/purple reverse")) == ["blue 6", "red 8"]
    behind_dark_wild = sorted(p.split("/")[0] for p in pairs.elements() if p.split("/")[1] == "wild")
    assert behind_dark_wild == ["blue reverse", "red skip", "yellow 1", "yellow reverse"]


def test_r3_1_random_pairing_keeps_the_faces_but_pairs_them_differently() -> None:
    """R-3.1: pairing="random" deals a random pairing of the same light and dark faces."""
    physical = Counter(csv_pairs())
    seen = []
    for seed in (3, 4):
        g = unokit.new_game("flip", 3, seed=seed, pairing="random")
        cards = all_cards(g)
        assert len(cards) == 112
        assert Counter(c.split("/")[0] for c in cards) == expected_light_faces()
        assert Counter(c.split("/")[1] for c in cards) == expected_dark_faces()
        assert Counter(cards) != physical
        seen.append(Counter(cards))
    assert seen[0] != seen[1]


def test_r3_1_two_cards_with_the_same_face_are_told_apart_by_their_backs() -> None:
    """R-3.1 (the pairing matters): ``play red 5`` is ambiguous when both red 5s are held;
    the full light/dark form names one of them."""
    g = game(
        "flip",
        hands=[["red 5/pink 2", "red 5/teal 5", "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="red",
    )
    with pytest.raises(AmbiguousActionError):
        g.apply("play red 5")
    g.apply("play red 5/teal 5")
    assert g.card_text(g.discard[-1]) == "red 5/teal 5"
    assert hand(g, 0) == ["blue 2/orange 8", "red 5/pink 2"]
    # With one red 5 left the active face alone is enough.
    g2 = game(
        "flip",
        hands=[["red 5/pink 2", "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="red",
    )
    g2.apply("play red 5")
    assert g2.card_text(g2.discard[-1]) == "red 5/pink 2"


# --------------------------------------------------------------------------- R-3.2 / D-1 visibility
def visibility_position(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "hands": [
            ["green 4/pink 8", "yellow 9/purple 4"],
            ["red 5/pink 2", "blue 6/purple reverse"],
            ["yellow 1/wild"],
        ],
        "discard": [LIGHT_TOP],
        "color": "red",
        "draw": ["green 3/pink flip", "blue 3/purple 8", "wild_draw_two/pink 2", "green 9/orange draw_five"],
    }
    fields.update(changes)
    return position("flip", **fields)


def test_r3_2_others_hands_and_draw_top_are_seen_by_their_inactive_face() -> None:
    """R-3.2: another hand shows only its inactive faces, the draw pile only its top's back."""
    g = Game.from_position(visibility_position())
    obs = g.observe(0)
    assert obs["backs"][0] is None
    assert sorted(obs["backs"][1]) == ["pink 2", "purple reverse"]
    assert obs["backs"][2] == ["wild"]
    assert obs["draw_top_back"] == "pink flip"
    assert obs["hand_sizes"] == [2, 2, 1]
    text = json.dumps(obs)
    for hidden in ("red 5", "blue 6", "yellow 1", "green 3", "blue 3", "wild_draw_two", "green 9"):
        assert hidden not in text, hidden


def test_r3_2_on_the_dark_side_the_backs_are_light_faces() -> None:
    """R-3.2: with the dark side active, the inactive (visible) faces are the light ones."""
    g = Game.from_position(visibility_position(side="dark", color="orange"))
    obs = g.observe(2)
    assert sorted(obs["backs"][0]) == ["green 4", "yellow 9"]
    assert sorted(obs["backs"][1]) == ["blue 6", "red 5"]
    assert obs["backs"][2] is None
    assert obs["draw_top_back"] == "green 3"
    assert "pink 8" not in json.dumps(obs)


def test_r3_2_swapping_hidden_cards_with_the_same_back_leaves_the_observation_unchanged() -> None:
    """R-3.2: an opponent's card and a draw pile card (not the top) with the same back are
    indistinguishable to seat 0; with different backs the swap shows."""
    before = Game.from_position(visibility_position())
    swapped = Game.from_position(
        visibility_position(
            hands=[
                ["green 4/pink 8", "yellow 9/purple 4"],
                ["wild_draw_two/pink 2", "blue 6/purple reverse"],
                ["yellow 1/wild"],
            ],
            draw=["green 3/pink flip", "blue 3/purple 8", "red 5/pink 2", "green 9/orange draw_five"],
        )
    )
    assert hand(before, 1) != hand(swapped, 1)
    assert before.observe(0) == swapped.observe(0)
    assert before.observe(2) == swapped.observe(2)
    assert before.observe(1) != swapped.observe(1)  # the owner sees the difference
    different_back = Game.from_position(
        visibility_position(
            hands=[
                ["green 4/pink 8", "yellow 9/purple 4"],
                ["blue 3/purple 8", "blue 6/purple reverse"],
                ["yellow 1/wild"],
            ],
            draw=["green 3/pink flip", "red 5/pink 2", "wild_draw_two/pink 2", "green 9/orange draw_five"],
        )
    )
    assert different_back.observe(0) != before.observe(0)


def test_r3_2_the_draw_pile_top_back_is_visible_so_swapping_the_top_shows() -> None:
    """R-3.2: the top card of the draw pile shows its back to everyone."""
    g = Game.from_position(
        visibility_position(
            draw=["green 9/orange draw_five", "blue 3/purple 8", "wild_draw_two/pink 2", "green 3/pink flip"]
        )
    )
    assert g.observe(0)["draw_top_back"] == "orange draw_five"
    assert g.observe(1)["draw_top_back"] == "orange draw_five"


def test_r3_2_a_drawn_card_is_seen_by_others_only_by_its_back() -> None:
    """R-3.2: when a player draws, the others learn the back of the card, not its face."""
    g = Game.from_position(visibility_position())
    events = g.apply("draw")  # seat 0 draws green 3/pink flip: not playable on red 7
    assert g.to_act == 1
    assert hand(g, 0) == ["green 3/pink flip", "green 4/pink 8", "yellow 9/purple 4"]
    for other in (1, 2):
        draws = [e for e in unokit.redact(events, other) if e["type"] == "draw"]
        assert len(draws) == 1
        assert "cards" not in draws[0]
        assert draws[0]["backs"] == ["pink flip"]
    own = [e for e in unokit.redact(events, 0) if e["type"] == "draw"]
    assert own[0]["cards"] == ["green 3/pink flip"]
    assert "green 3" not in json.dumps(g.observe(1))


def test_d1_own_hand_is_shown_with_both_faces() -> None:
    """D-1: a player's own hand is observed with both faces of every card."""
    g = Game.from_position(visibility_position())
    assert sorted(g.observe(1)["hand"]) == ["blue 6/purple reverse", "red 5/pink 2"]
    g_dark = Game.from_position(visibility_position(side="dark", color="orange"))
    assert sorted(g_dark.observe(0)["hand"]) == ["green 4/pink 8", "yellow 9/purple 4"]


# --------------------------------------------------------------------------- drawing
def test_r3_3_a_drawn_playable_card_may_be_played_at_once_but_no_other() -> None:
    """R-3.3 (as R-2.2): draw one; if it is playable only that card may be played."""
    g = game(
        "flip",
        hands=[["red 5/pink 2", "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="red",
        draw=["red 9/purple 5"],
    )
    g.apply("draw")
    assert g.decision == "play_or_keep"
    assert g.to_act == 0
    assert legal(g) == {"play_drawn", "keep"}
    with pytest.raises(IllegalActionError):
        g.apply("play red 5/pink 2")
    g.apply("play_drawn")
    assert g.card_text(g.discard[-1]) == "red 9/purple 5"
    assert hand(g, 0) == ["blue 2/orange 8", "red 5/pink 2"]
    assert g.to_act == 1


def test_r3_3_keeping_the_drawn_card_ends_the_turn() -> None:
    """R-3.3: a player who keeps the drawn card loses the rest of the turn."""
    g = game(
        "flip",
        hands=[["blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="red",
        draw=["red 9/purple 5"],
    )
    g.apply("draw")
    g.apply("keep")
    assert g.to_act == 1
    assert hand(g, 0) == ["blue 2/orange 8", "red 9/purple 5"]


def test_r3_3_an_unplayable_drawn_card_ends_the_turn() -> None:
    """R-3.3: a drawn card that cannot be played stays in hand and the turn passes."""
    g = game(
        "flip",
        hands=[["red 5/pink 2", "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="red",
        draw=["blue 3/purple 8"],
    )
    g.apply("draw")
    assert g.to_act == 1
    assert g.decision == "turn"
    assert hand(g, 0) == ["blue 2/orange 8", "blue 3/purple 8", "red 5/pink 2"]


# --------------------------------------------------------------------------- effects
def test_r3_4_draw_one_next_draws_one_and_loses_the_turn() -> None:
    """R-3.4: Draw One: the next player draws one card and loses the turn."""
    g = game(
        "flip",
        hands=[["red draw_one/pink 3", "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="red",
        draw=["yellow 9/purple 4", "yellow 8/pink 1"],
    )
    g.apply("play red draw_one/pink 3")
    assert hand(g, 1) == ["green 4/pink 8", "yellow 9/purple 4"]
    assert hand(g, 2) == ["green 5/orange 7"]
    assert g.to_act == 2
    assert g.decision == "turn"
    assert g.card_text(g.draw[-1]) == "yellow 8/pink 1"


def test_r3_4_draw_five_next_draws_five_and_loses_the_turn() -> None:
    """R-3.4: Draw Five (dark): the next player draws five cards and loses the turn."""
    five = ["red 1/pink 3", "red 1/purple 2", "red 2/orange reverse", "red 3/pink 7", "red 5/pink 2"]
    g = game(
        "flip",
        side="dark",
        hands=[["red skip/orange draw_five", "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="orange",
        draw=[*five, "red 5/teal 5"],
    )
    g.apply("play red skip/orange draw_five")
    assert hand(g, 1) == sorted(["green 4/pink 8", *five])
    assert hand(g, 2) == ["green 5/orange 7"]
    assert g.to_act == 2
    assert g.card_text(g.draw[-1]) == "red 5/teal 5"


def test_r3_4_skip_next_loses_the_turn() -> None:
    """R-3.4: Skip: the next player loses the turn."""
    g = game(
        "flip",
        hands=[["red skip/wild", "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"]],
        discard=[LIGHT_TOP],
        color="red",
    )
    g.apply("play red skip/wild")
    assert g.to_act == 2
    assert g.decision == "turn"
    assert hand(g, 1) == ["green 4/pink 8"]
    assert g.color == COLOR_BY_NAME["red"]


def test_r3_4_skip_everyone_the_player_plays_again() -> None:
    """R-3.4: Skip Everyone: every other player is skipped; the player plays again."""
    g = game(
        "flip",
        side="dark",
        hands=[
            ["blue 7/orange skip_everyone", "blue 2/orange 8"],
            ["green 4/pink 8"],
            ["green 5/orange 7"],
            ["red 9/purple 5"],
        ],
        discard=[LIGHT_TOP],
        color="orange",
    )
    g.apply("play blue 7/orange skip_everyone")
    assert g.to_act == 0
    assert g.turn == 0
    assert g.decision == "turn"
    assert g.direction == 1
    assert "play blue 2/orange 8" in legal(g)
    assert [len(h) for h in g.hands] == [1, 1, 1, 1]


@pytest.mark.parametrize(
    ("side", "color", "card"),
    [("light", "red", "red reverse/purple 3"), ("dark", "orange", "red 2/orange reverse")],
)
def test_r3_4_reverse_changes_direction(side: str, color: str, card: str) -> None:
    """R-3.4: Reverse (both sides) changes the direction of play."""
    g = game(
        "flip",
        side=side,
        hands=[[card, "blue 2/orange 8"], ["green 4/pink 8"], ["green 5/orange 7"], ["red 9/purple 5"]],
        discard=[LIGHT_TOP],
        color=color,
        draw=["blue 3/purple 8"],
    )
    g.apply(f"play {card}")
    assert g.direction == -1
    assert g.to_act == 3
    g.apply("draw")
    assert g.to_act == 2


# --------------------------------------------------------------------------- Wild Draw Two
WD2 = "wild_draw_two/orange 4"
WD2_DRAW = ["yellow 2/teal 1", "yellow 2/teal 8", "yellow 3/purple 1", "yellow 5/purple 9", "yellow 7/orange 2"]


def wd2_game(ann: list[str], **options: Any) -> Game:
    """Ann (seat 0) on a blue 4; Ben next, then Cat (the doc's worked example)."""
    return game(
        "flip",
        hands=[ann, ["green 5/orange 7"], ["green 7/orange 6"]],
        discard=["blue 4/purple 1"],
        color="blue",
        draw=list(WD2_DRAW),
        options=options,
    )


def test_r3_5_wild_draw_two_accepted_next_draws_two_and_loses_the_turn() -> None:
    """R-3.5: Wild Draw Two: the next player draws 2 and loses the turn."""
    g = wd2_game(["red 4/orange flip", "wild/pink 5", WD2])
    g.apply(f"play {WD2} red")
    assert g.decision == "challenge"
    assert g.to_act == 1
    assert legal(g) == {"challenge", "accept"}
    g.apply("accept")
    assert hand(g, 1) == sorted(["green 5/orange 7", *WD2_DRAW[:2]])
    assert g.to_act == 2
    assert g.decision == "turn"
    assert g.color == COLOR_BY_NAME["red"]


def test_r3_5_fair_wild_draw_two_wilds_do_not_count_challenger_draws_four() -> None:
    """R-3.5: a number match and a wild in hand do not make it unfair; a failed challenge
    costs the challenger 4 cards and the turn."""
    g = wd2_game(["red 4/orange flip", "wild/pink 5", WD2])
    g.apply(f"play {WD2} red")
    g.apply("challenge")
    assert hand(g, 1) == sorted(["green 5/orange 7", *WD2_DRAW[:4]])
    assert hand(g, 0) == ["red 4/orange flip", "wild/pink 5"]
    assert g.to_act == 2
    assert g.decision == "turn"


def test_r3_5_wild_counts_as_color_match_option_makes_it_unfair() -> None:
    """R-3.5: with wild_counts_as_color_match=True a held wild counts as the colour: the
    challenge succeeds, the player draws 2 and the challenger keeps the turn."""
    g = wd2_game(["red 4/orange flip", "wild/pink 5", WD2], wild_counts_as_color_match=True)
    g.apply(f"play {WD2} red")
    g.apply("challenge")
    assert hand(g, 0) == sorted(["red 4/orange flip", "wild/pink 5", *WD2_DRAW[:2]])
    assert hand(g, 1) == ["green 5/orange 7"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r3_5_unfair_wild_draw_two_challenged_player_draws_two_challenger_keeps_turn() -> None:
    """R-3.5: holding a card of the current colour makes it unfair: the player draws 2."""
    g = wd2_game(["red 4/orange flip", "blue 7/orange 3", WD2])
    g.apply(f"play {WD2} red")
    g.apply("challenge")
    assert hand(g, 0) == sorted(["red 4/orange flip", "blue 7/orange 3", *WD2_DRAW[:2]])
    assert hand(g, 1) == ["green 5/orange 7"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r3_5_unfair_wild_draw_two_accepted_works_like_a_fair_one() -> None:
    """R-3.5 (bluffing): an unchallenged bluff still makes the next player draw 2."""
    g = wd2_game(["red 4/orange flip", "blue 7/orange 3", WD2])
    g.apply(f"play {WD2} red")
    g.apply("accept")
    assert hand(g, 1) == sorted(["green 5/orange 7", *WD2_DRAW[:2]])
    assert hand(g, 0) == ["blue 7/orange 3", "red 4/orange flip"]
    assert g.to_act == 2


def test_r3_5_fairness_is_judged_on_the_colour_named_after_a_wild() -> None:
    """R-3.5 with R-1.4: after a wild, the current colour is the chosen one."""
    g = game(
        "flip",
        hands=[["green 3/purple 2", "blue 7/orange 3", WD2], ["green 5/orange 7"], ["green 7/orange 6"]],
        discard=["wild/purple 7"],
        color="green",
        draw=list(WD2_DRAW),
    )
    g.apply(f"play {WD2} red")
    g.apply("challenge")
    assert len(g.hands[0]) == 4  # unfair: green 3 matches the chosen green
    assert g.to_act == 1


def test_r3_5_r3_2_the_challenger_cannot_see_whether_the_play_was_fair() -> None:
    """R-3.5 with R-3.2: a bluff and a fair play that differ only in a card with the same back
    look identical to the challenger, yet the challenge ends differently."""
    # blue 7/orange 3 (unfair: blue) and yellow skip/orange 3 (fair) share the back orange 3.
    bluff = game(
        "flip",
        hands=[["red 4/orange flip", "blue 7/orange 3", WD2], ["green 5/orange 7"], ["green 7/orange 6"]],
        discard=["blue 4/purple 1"],
        color="blue",
        draw=[*WD2_DRAW, "yellow skip/orange 3"],
    )
    honest = game(
        "flip",
        hands=[["red 4/orange flip", "yellow skip/orange 3", WD2], ["green 5/orange 7"], ["green 7/orange 6"]],
        discard=["blue 4/purple 1"],
        color="blue",
        draw=[*WD2_DRAW, "blue 7/orange 3"],
    )
    for g in (bluff, honest):
        g.apply(f"play {WD2} red")
    assert bluff.observe(1) == honest.observe(1)
    assert "fair" not in bluff.observe(1)["pending"]
    bluff.apply("challenge")
    honest.apply("challenge")
    assert (len(bluff.hands[0]), len(bluff.hands[1]), bluff.to_act) == (4, 1, 1)
    assert (len(honest.hands[0]), len(honest.hands[1]), honest.to_act) == (2, 5, 2)


def test_r3_5_bluffing_off_makes_an_unfair_play_illegal_and_no_challenge() -> None:
    """R-3.5: bluffing=False: an unfair Wild Draw Two is illegal; a fair one is not challenged."""
    unfair = wd2_game(["red 4/orange flip", "blue 7/orange 3", WD2], bluffing=False)
    assert not any(a.startswith(f"play {WD2}") for a in legal(unfair))
    with pytest.raises(IllegalActionError):
        unfair.apply(f"play {WD2} red")
    fair = wd2_game(["red 4/orange flip", "wild/pink 5", WD2], bluffing=False)
    fair.apply(f"play {WD2} red")
    assert fair.decision == "turn"
    assert hand(fair, 1) == sorted(["green 5/orange 7", *WD2_DRAW[:2]])
    assert fair.to_act == 2


# --------------------------------------------------------------------------- Wild Draw Color
WDC = "red 3/wild_draw_color"
#: pink 2, wild, purple skip_everyone, orange 8, then pink 8 and teal 4 (the doc's example).
WDC_DRAW = [
    "red 5/pink 2",
    "red skip/wild",
    "blue 1/purple skip_everyone",
    "yellow flip/orange 8",
    "green 4/pink 8",
    "green 5/teal 4",
    "yellow 9/purple 4",
]


def wdc_game(ann: list[str], **options: Any) -> Game:
    """Dark side, top teal 3; Ann (seat 0) holds the Wild Draw Color."""
    return game(
        "flip",
        side="dark",
        hands=[ann, ["red 9/purple 5"], ["red 8/teal 7"]],
        discard=["green flip/teal 3"],
        color="teal",
        draw=list(WDC_DRAW),
        options=options,
    )


def test_r3_6_wild_draw_color_next_draws_until_the_colour_a_wild_does_not_stop_it() -> None:
    """R-3.6: next draws until a card of the named colour (a wild does not count), loses the turn."""
    g = wdc_game(["red 1/pink 3", "red 2/purple draw_five", WDC])
    g.apply(f"play {WDC} orange")
    assert g.decision == "challenge"
    assert g.to_act == 1
    g.apply("accept")
    assert hand(g, 1) == sorted(["red 9/purple 5", *WDC_DRAW[:4]])
    assert g.to_act == 2
    assert g.decision == "turn"
    assert g.color == COLOR_BY_NAME["orange"]


def test_r3_6_fair_wild_draw_color_challenger_draws_until_colour_then_two_more() -> None:
    """R-3.6: a failed challenge: the challenger draws until the colour, then 2 more, and
    loses the turn."""
    g = wdc_game(["red 1/pink 3", "red 2/purple draw_five", WDC])
    g.apply(f"play {WDC} orange")
    g.apply("challenge")
    assert hand(g, 1) == sorted(["red 9/purple 5", *WDC_DRAW[:6]])
    assert hand(g, 0) == ["red 1/pink 3", "red 2/purple draw_five"]
    assert g.to_act == 2
    assert g.decision == "turn"


def test_r3_6_unfair_wild_draw_color_challenged_player_draws_until_colour() -> None:
    """R-3.6: a successful challenge: the player draws until the colour, the challenger keeps
    the turn."""
    g = wdc_game(["red 1/pink 3", "red 5/teal 5", WDC])
    g.apply(f"play {WDC} orange")
    g.apply("challenge")
    assert hand(g, 0) == sorted(["red 1/pink 3", "red 5/teal 5", *WDC_DRAW[:4]])
    assert hand(g, 1) == ["red 9/purple 5"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r3_6_wild_counts_as_color_match_applies_to_wild_draw_color() -> None:
    """R-3.6 (fairness as R-3.5): a held dark wild counts with wild_counts_as_color_match."""
    default = wdc_game(["red 1/pink 3", "yellow 1/wild", WDC])
    default.apply(f"play {WDC} orange")
    default.apply("challenge")
    assert len(default.hands[1]) == 1 + 6
    option = wdc_game(["red 1/pink 3", "yellow 1/wild", WDC], wild_counts_as_color_match=True)
    option.apply(f"play {WDC} orange")
    option.apply("challenge")
    assert hand(option, 0) == sorted(["red 1/pink 3", "yellow 1/wild", *WDC_DRAW[:4]])
    assert option.to_act == 1


def test_r3_6_bluffing_off_forbids_an_unfair_wild_draw_color() -> None:
    """R-3.6 (bluffing as R-3.5): with bluffing=False an unfair Wild Draw Color is illegal."""
    g = wdc_game(["red 1/pink 3", "red 5/teal 5", WDC], bluffing=False)
    assert not any(a.startswith(f"play {WDC}") for a in legal(g))
    fair = wdc_game(["red 1/pink 3", "red 2/purple draw_five", WDC], bluffing=False)
    fair.apply(f"play {WDC} orange")
    assert fair.decision == "turn"
    assert fair.to_act == 2
    assert len(fair.hands[1]) == 1 + 4


def test_r3_6_drawing_stops_when_no_card_of_the_colour_is_left() -> None:
    """R-3.6: with no card of the named colour in the draw pile or the discard pile (but its
    top), the drawing stops when both are empty."""
    deck = Counter(csv_pairs())
    ann = ["red 1/pink 3", "red 2/purple draw_five", WDC]
    ben = ["red 9/purple 5"]
    discard = ["red 5/pink 2", "red skip/wild", "green flip/teal 3"]
    draw = ["blue 1/purple skip_everyone", "green 4/pink 8", "green 5/teal 4"]
    rest = deck - Counter(ann + ben + discard + draw)
    cat = sorted(rest.elements())  # every orange card is in Cat's hand
    assert sum(1 for c in cat if c.split("/")[1].startswith("orange")) == 26
    g = game("flip", side="dark", hands=[ann, ben, cat], discard=discard, color="teal", draw=draw)
    assert len(g.draw) == 3
    g.apply(f"play {WDC} orange")
    events = g.apply("accept")
    assert hand(g, 1) == sorted(ben + draw + discard)
    assert g.draw == []
    assert pile(g, g.discard) == [WDC]
    assert "draw_failed" in event_types(events)
    assert g.to_act == 2


# --------------------------------------------------------------------------- R-3.7 / D-12 Flip
def flip_game(discard: list[str], **options: Any) -> Game:
    """The doc's example: Ann, Ben, Cat, Dan; Cat (seat 2) holds yellow flip/pink 4."""
    return game(
        "flip",
        hands=[
            ["green 4/pink 8"],
            ["green 5/orange 7"],
            ["yellow flip/pink 4", "blue 2/orange 8", "blue 3/teal 2"],
            ["red 9/purple 5"],
        ],
        discard=discard,
        color="yellow",
        turn=2,
        draw=["blue 3/purple 8", "green 9/orange draw_five", "yellow 9/purple 4"],
        options=options,
    )


def test_r3_7_flip_reverses_the_discard_pile_and_turns_to_the_dark_side() -> None:
    """R-3.7, D-12: the discard pile is turned over: order reversed, dark faces up."""
    g = flip_game(["red 7/orange 1", "red 2/orange reverse", "yellow 2/teal 1"])
    g.apply("play yellow flip/pink 4")
    assert g.side == 1
    assert g.side_name == "dark"
    assert pile(g, g.discard) == ["yellow flip/pink 4", "yellow 2/teal 1", "red 2/orange reverse", "red 7/orange 1"]
    assert [g.face_text(t) for t in g.discard] == ["pink 4", "teal 1", "orange reverse", "orange 1"]
    assert g.color == COLOR_BY_NAME["orange"]
    assert g.to_act == 3
    assert g.decision == "turn"


def test_r3_7_d12_flip_reverses_the_draw_pile() -> None:
    """R-3.7, D-12: the draw pile is turned over too; its old bottom card is now on top."""
    g = flip_game(["red 7/orange 1", "red 2/orange reverse", "yellow 2/teal 1"])
    before = pile(g, g.draw)
    assert before[-1] == "blue 3/purple 8"
    g.apply("play yellow flip/pink 4")
    assert pile(g, g.draw) == before[::-1]
    assert g.observe(0)["draw_top_back"] == before[0].split("/")[0]
    g.apply("draw")  # Dan draws the old bottom card
    assert before[0] in hand(g, 3)


def test_r3_7_flip_turns_hands_over_but_players_keep_their_cards() -> None:
    """R-3.7: every hand turns over; nobody gains or loses a card; the dark faces count."""
    g = flip_game(["red 7/orange 1", "red 2/orange reverse", "yellow 2/teal 1"])
    before = [hand(g, s) for s in range(4)]
    g.apply("play yellow flip/pink 4")
    after = [hand(g, s) for s in range(4)]
    assert after == [before[0], before[1], ["blue 2/orange 8", "blue 3/teal 2"], before[3]]
    assert [g.face_text(t) for t in g.hands[3]] == ["purple 5"]
    # Dan (purple 5) cannot play on orange 1; Ben's orange 7 would.
    assert legal(g) == {"draw"}


@pytest.mark.parametrize(
    "bottom",
    ["red 2/orange reverse", "yellow 3/pink draw_five", "red 6/pink skip_everyone", "red 4/orange flip"],
)
def test_r3_7_the_new_top_cards_action_is_ignored(bottom: str) -> None:
    """R-3.7: the action of the card that comes on top after a flip is not carried out."""
    g = flip_game([bottom, "yellow 2/teal 1"])
    g.apply("play yellow flip/pink 4")
    assert g.card_text(g.discard[-1]) == bottom
    assert g.side == 1
    assert g.direction == 1
    assert g.to_act == 3
    assert g.decision == "turn"
    assert [len(h) for h in g.hands] == [1, 1, 2, 1]
    assert g.face_text(g.discard[-1]).split()[0] == COLOR_NAMES[g.color]


def test_r3_7_flip_back_to_light_ignores_the_light_action_on_top() -> None:
    """R-3.7: flipping from dark to light: a light Draw One on top does nothing."""
    g = game(
        "flip",
        side="dark",
        hands=[["green 4/pink 8"], ["green 3/pink flip", "blue 2/orange 8"], ["green 5/orange 7"]],
        discard=["red draw_one/pink 4", "red 5/pink 2"],
        color="pink",
        turn=1,
    )
    g.apply("play green 3/pink flip")
    assert g.side == 0
    assert g.face_text(g.discard[-1]) == "red draw_one"
    assert g.color == COLOR_BY_NAME["red"]
    assert g.to_act == 2
    assert hand(g, 2) == ["green 5/orange 7"]


def test_r3_7_wild_on_top_after_flip_the_flipper_chooses_the_colour() -> None:
    """R-3.7: if the new top is a wild, the player who played the Flip names the colour."""
    g = flip_game(["red skip/wild", "yellow 2/teal 1"])
    g.apply("play yellow flip/pink 4")
    assert g.decision == "choose_color"
    assert g.to_act == 2
    assert legal(g) == {f"color {c}" for c in DARK_COLORS}
    g.apply("color teal")
    assert g.to_act == 3
    assert g.decision == "turn"
    assert g.color == COLOR_BY_NAME["teal"]


def test_r3_7_wild_draw_color_on_top_after_flip_draws_nothing() -> None:
    """R-3.7: a Wild Draw Color turned up by a flip only needs a colour; nobody draws."""
    g = flip_game(["green 6/wild_draw_color", "yellow 2/teal 1"])
    g.apply("play yellow flip/pink 4")
    assert g.decision == "choose_color"
    assert g.to_act == 2
    g.apply("color purple")
    assert g.to_act == 3
    assert g.decision == "turn"
    assert [len(h) for h in g.hands] == [1, 1, 2, 1]


def test_r3_7_flip_wild_chooser_next_lets_the_next_player_choose() -> None:
    """R-3.7: with flip_wild_chooser="next" the next player names the colour and plays."""
    g = flip_game(["red skip/wild", "yellow 2/teal 1"], flip_wild_chooser="next")
    g.apply("play yellow flip/pink 4")
    assert g.decision == "choose_color"
    assert g.to_act == 3
    g.apply("color purple")
    assert g.to_act == 3
    assert g.decision == "turn"
    assert "play red 9/purple 5" in legal(g)


# --------------------------------------------------------------------------- first card
def test_r3_8_first_card_number_first_player_starts() -> None:
    """R-3.8: a number: the player left of the dealer plays on its colour."""
    g, events = find_new_game(lambda g, ev: first_card_event(ev).split()[-1].isdigit())
    first = (g.dealer + 1) % 3
    assert g.to_act == first
    assert g.decision == "turn"
    assert g.direction == 1
    assert g.side == 0
    assert COLOR_NAMES[g.color] == first_card_event(events).split()[0]
    assert [len(h) for h in g.hands] == [7, 7, 7]


def test_r3_8_first_card_skip_skips_the_first_player() -> None:
    """R-3.8 (as R-2.4): Skip: the first player is skipped."""
    g, _ = find_new_game(lambda g, ev: first_card_event(ev).endswith(" skip"))
    assert g.to_act == (g.dealer + 2) % 3
    assert g.decision == "turn"
    assert [len(h) for h in g.hands] == [7, 7, 7]


def test_r3_8_first_card_reverse_dealer_starts_going_right() -> None:
    """R-3.8 (as R-2.4): Reverse: the dealer plays first and play goes right."""
    g, _ = find_new_game(lambda g, ev: first_card_event(ev).endswith(" reverse"))
    assert g.to_act == g.dealer
    assert g.direction == -1
    g.apply("draw")
    if g.decision == "play_or_keep":
        g.apply("keep")
    assert g.to_act == (g.dealer - 1) % 3


def test_r3_8_first_card_draw_one_first_player_draws_one_and_is_skipped() -> None:
    """R-3.8: Draw One (for Draw Two): the first player draws 1 and loses the turn."""
    g, _ = find_new_game(lambda g, ev: first_card_event(ev).endswith(" draw_one"))
    first = (g.dealer + 1) % 3
    assert len(g.hands[first]) == 8
    assert sum(len(h) for h in g.hands) == 22
    assert g.to_act == (g.dealer + 2) % 3
    assert g.decision == "turn"


def test_r3_8_first_card_wild_first_player_names_the_colour() -> None:
    """R-3.8 (as R-2.4): Wild: the first player chooses the colour, then plays."""
    g, _ = find_new_game(lambda g, ev: first_card_event(ev) == "wild")
    first = (g.dealer + 1) % 3
    assert g.decision == "choose_color"
    assert g.to_act == first
    assert legal(g) == {f"color {c}" for c in LIGHT_COLORS}
    g.apply("color green")
    assert g.to_act == first
    assert g.decision == "turn"


def test_r3_8_first_card_wild_draw_two_goes_back_into_the_deck() -> None:
    """R-3.8: a Wild Draw Two goes back and another card is turned."""
    g, events = find_new_game(lambda g, ev: "first_card_returned" in event_types(ev))
    returned = [e["card"] for e in events if e["type"] == "first_card_returned"]
    assert set(returned) == {"wild_draw_two"}
    assert first_card_event(events) != "wild_draw_two"
    assert len(g.discard) == 1
    assert g.face_text(g.discard[0]) != "wild_draw_two"
    cards = all_cards(g)
    assert len(cards) == 112
    in_draw = [c for c in pile(g, g.draw) if c.startswith("wild_draw_two/")]
    in_hands = [g.card_text(t) for h in g.hands for t in h if g.card_text(t).startswith("wild_draw_two/")]
    assert len(in_draw) + len(in_hands) == 4
    assert len(in_draw) >= 1


def test_r3_8_first_card_flip_turns_everything_to_the_dark_side() -> None:
    """R-3.8: a Flip turns everything to the dark side before the first player plays; the
    first player plays on the dark face."""
    g, events = find_new_game(
        lambda g, ev: first_card_event(ev).endswith(" flip") and g.face_text(g.discard[-1], 1) != "wild_draw_color"
    )
    first = (g.dealer + 1) % 3
    assert g.side == 1
    assert len(g.discard) == 1
    dark = g.card_text(g.discard[-1]).split("/")[1]
    assert g.face_text(g.discard[-1]) == dark
    assert COLOR_NAMES[g.color] == dark.split()[0]
    assert g.to_act == first
    assert g.decision == "turn"
    assert "flip" in event_types(events)


def test_r3_8_first_card_flip_showing_a_wild_first_player_names_colour_action_ignored() -> None:
    """R-3.8: after a first-card Flip the new top's action is ignored; its wild colour is
    chosen by the first player (green flip / wild_draw_color: nobody draws)."""
    g, _ = find_new_game(lambda g, ev: g.card_text(g.discard[-1]) == "green flip/wild_draw_color")
    first = (g.dealer + 1) % 3
    assert g.side == 1
    assert g.decision == "choose_color"
    assert g.to_act == first
    assert [len(h) for h in g.hands] == [7, 7, 7]
    assert legal(g) == {f"color {c}" for c in DARK_COLORS}
    g.apply("color orange")
    assert g.to_act == first
    assert g.decision == "turn"


# --------------------------------------------------------------------------- points
def score_of_going_out(side: str, color: str, last: str, left: list[str]) -> int:
    g = game(
        "flip",
        side=side,
        hands=[[last], left],
        discard=[LIGHT_TOP],
        color=color,
        options={"rounds": 1},
    )
    g.apply(f"play {last}")
    assert g.is_over
    assert g.winners == [0]
    assert g.scores[1] == 0
    return g.scores[0]


def test_r3_9_points_on_the_light_side() -> None:
    """R-3.9: numbers face value; Draw One 10; Reverse, Skip, Flip 20; Wild 40; Wild Draw Two 50."""
    left = [
        "red draw_one/pink 3",  # 10
        "red reverse/purple 3",  # 20
        "red skip/orange draw_five",  # 20
        "red flip/pink 8",  # 20
        "wild/pink 5",  # 40
        "wild_draw_two/orange 4",  # 50
        "red 7/purple 5",  # 7
    ]
    assert score_of_going_out("light", "red", "red 5/pink 2", left) == 167


def test_r3_9_points_on_the_dark_side() -> None:
    """R-3.9: Draw Five 20, Skip Everyone 30, Wild 40, Wild Draw Color 60, Reverse and Flip
    20, numbers face value (the doc's 114 example plus three more cards)."""
    left = [
        "yellow flip/pink 4",  # 4
        "green 2/teal draw_five",  # 20
        "yellow 6/orange skip_everyone",  # 30
        "red 3/wild_draw_color",  # 60
        "red skip/wild",  # 40
        "red 8/purple reverse",  # 20
        "red 4/orange flip",  # 20
    ]
    assert score_of_going_out("dark", "orange", "blue 2/orange 8", left) == 194
    assert score_of_going_out("dark", "orange", "blue 2/orange 8", left[:4]) == 114


def test_r3_9_going_out_on_a_flip_scores_the_new_side() -> None:
    """R-3.9 with R-1.6: the last card is a Flip: everything turns first, dark faces count."""
    left = ["red skip/wild", "yellow 6/wild_draw_color", "red 6/pink skip_everyone"]
    # light values would be 20 + 6 + 6 = 32; dark: 40 + 60 + 30
    assert score_of_going_out("light", "red", "red flip/pink 8", left) == 130
