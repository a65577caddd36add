"""Scenario tests for the UNO Flip Attack rules: R-5.1 to R-5.8 and decisions D-7, D-9, D-12.

Cards are written in full ``mild/wild`` form; every pair used here is a card of the shipped
pairing (``src/unokit/core/data/uno_flip_attack_card_pairs.csv``). Presses use the scripted
launcher: 0 = nothing, k = k cards off the top of ``draw``.
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
from unokit import Game, IllegalActionError
from unokit.core.cards import COLOR_BY_NAME, COLOR_NAMES, COLOR_SYMBOLS

Events = list[dict[str, Any]]

MILD_COLORS = ("red", "yellow", "green", "blue")
WILD_COLORS = ("pink", "teal", "orange", "purple")
MILD_TOP = "red 7/orange 3"  # mild red 7, wild orange 3


# --------------------------------------------------------------------------- helpers
def presses(events: Events) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "press"]


def scripted(*script: int, **more: Any) -> dict[str, Any]:
    return {"launcher": "scripted", "launcher_script": list(script), **more}


def fa(**fields: Any) -> Game:
    return game("flip_attack", **fields)


def csv_pairs() -> list[str]:
    text = resources.files("unokit.core").joinpath("data", "uno_flip_attack_card_pairs.csv").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[0] == "light,dark"
    return [line.replace(",", "/") for line in lines[1:]]


def expected_mild_faces() -> Counter[str]:
    """R-5.1, mild side."""
    faces: Counter[str] = Counter()
    for color in MILD_COLORS:
        for kind in [*map(str, range(1, 10)), "discard_all", "flip", "hit_2x"]:
            faces[f"{color} {kind}"] += 2
        faces[f"{color} reverse"] += 1
        faces[f"{color} skip"] += 1
    faces["wild"] += 4
    faces["wild_press_your_luck"] += 4
    return faces


def expected_wild_faces() -> Counter[str]:
    """R-5.1, wild side."""
    faces: Counter[str] = Counter()
    for color in WILD_COLORS:
        for kind in [*map(str, range(1, 10)), "flip", "hit_5x", "reverse", "skip_everyone"]:
            faces[f"{color} {kind}"] += 2
    faces["wild_all_out_attack"] += 4
    faces["wild_discard_all"] += 4
    return faces


# --------------------------------------------------------------------------- deck, visibility
def test_r5_1_deck_has_112_cards_with_the_mild_and_wild_faces_of_the_rules() -> None:
    """R-5.1: 112 double-sided cards with the listed mild and wild faces."""
    g = unokit.new_game("flip_attack", 4, seed=2)
    cards = all_cards(g)
    assert len(cards) == 112
    assert Counter(c.split("/")[0] for c in cards) == expected_mild_faces()
    assert Counter(c.split("/")[1] for c in cards) == expected_wild_faces()


def test_r5_1_default_deck_is_the_shipped_fixed_pairing() -> None:
    """R-5.1: one fixed pairing, stored as data and generated from the documented seed."""
    from unokit.core.decks import flip_attack_generated_pairs

    pairs = csv_pairs()
    assert len(pairs) == 112
    for seed in (1, 2):
        g = unokit.new_game("flip_attack", 3, seed=seed)
        assert Counter(all_cards(g)) == Counter(pairs)
    generated = Counter(f"{light}/{dark}" for light, dark in flip_attack_generated_pairs())
    assert generated == Counter(pairs)


def test_r5_1_random_pairing_keeps_the_faces_but_pairs_them_differently() -> None:
    """R-5.1: pairing="random" as in R-3.1."""
    physical = Counter(csv_pairs())
    seen = []
    for seed in (5, 6):
        g = unokit.new_game("flip_attack", 3, seed=seed, pairing="random")
        cards = all_cards(g)
        assert Counter(c.split("/")[0] for c in cards) == expected_mild_faces()
        assert Counter(c.split("/")[1] for c in cards) == expected_wild_faces()
        assert Counter(cards) != physical
        seen.append(Counter(cards))
    assert seen[0] != seen[1]


def test_r5_1_colour_blind_symbols() -> None:
    """R-5.1: circle red/pink, diamond yellow/orange, triangle green/teal, square blue/purple."""
    symbol = {name: COLOR_SYMBOLS[COLOR_BY_NAME[name]] for name in MILD_COLORS + WILD_COLORS}
    assert symbol["red"] == symbol["pink"] == "circle"
    assert symbol["yellow"] == symbol["orange"] == "diamond"
    assert symbol["green"] == symbol["teal"] == "triangle"
    assert symbol["blue"] == symbol["purple"] == "square"


def visibility_position(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "hands": [
            ["red 3/pink 7", "blue 6/purple 9"],
            ["red 4/pink 5", "yellow 2/purple reverse"],
            ["green 5/pink skip_everyone"],
        ],
        "discard": [MILD_TOP],
        "color": "red",
        "draw": ["blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5", "blue 8/purple 2"],
        "options": scripted(1),
    }
    fields.update(changes)
    return position("flip_attack", **fields)


def test_r5_1_hands_show_their_wild_side_to_the_others_and_the_launcher_nothing() -> None:
    """R-5.1 (visibility as R-3.2): other hands by their inactive faces; the launcher's cards
    are hidden, so there is no draw-top back."""
    g = Game.from_position(visibility_position())
    obs = g.observe(0)
    assert obs["backs"][0] is None
    assert sorted(obs["backs"][1]) == ["pink 5", "purple reverse"]
    assert obs["backs"][2] == ["pink skip_everyone"]
    assert obs.get("draw_top_back") is None
    assert sorted(obs["hand"]) == ["blue 6/purple 9", "red 3/pink 7"]  # D-1: both faces
    text = json.dumps(obs)
    for hidden in ("red 4", "yellow 2", "green 5", "blue 1", "pink 4", "green 8", "orange 8"):
        assert hidden not in text, hidden


def test_r5_1_swapping_launcher_cards_or_same_backed_hand_cards_is_invisible() -> None:
    """R-5.1, R-5.3: the launcher hides its cards, even the top one; an opponent's card and a
    launcher card with the same back are indistinguishable."""
    before = Game.from_position(visibility_position())
    top_swapped = Game.from_position(
        visibility_position(draw=["blue 8/purple 2", "green 8/orange 8", "yellow 9/pink 5", "blue 1/pink 4"])
    )
    assert before.observe(0) == top_swapped.observe(0)
    assert before.observe(1) == top_swapped.observe(1)
    same_back = Game.from_position(
        visibility_position(
            hands=[
                ["red 3/pink 7", "blue 6/purple 9"],
                ["yellow 9/pink 5", "yellow 2/purple reverse"],
                ["green 5/pink skip_everyone"],
            ],
            draw=["blue 1/pink 4", "green 8/orange 8", "red 4/pink 5", "blue 8/purple 2"],
        )
    )
    assert same_back.observe(0) == before.observe(0)
    assert same_back.observe(1) != before.observe(1)


# --------------------------------------------------------------------------- R-5.2 / D-7 first card
def find_new_game(pred: Callable[[Game, Events], bool], limit: int = 6000) -> tuple[Game, Events]:
    for seed in range(limit):
        g, events = Game.new("flip_attack", 3, seed)
        if pred(g, events):
            return g, events
    raise AssertionError("no seed found")


def ignored(events: Events) -> list[str]:
    return [str(e["card"]) for e in events if e["type"] == "first_card_ignored"]


def test_r5_2_first_card_number_starts_normally() -> None:
    """R-5.2: a number card: nothing is ignored; the player left of the dealer starts."""
    g, _ = find_new_game(lambda g, ev: not ignored(ev))
    assert len(g.discard) == 1
    assert g.face_text(g.discard[-1]).split()[-1].isdigit()
    assert g.to_act == (g.dealer + 1) % 3


@pytest.mark.parametrize(
    "kind",
    ["flip", "skip", "reverse", "hit_2x", "discard_all", "wild", "wild_press_your_luck"],
)
def test_r5_2_d7_action_first_cards_are_ignored_until_a_number(kind: str) -> None:
    """R-5.2, D-7: action cards turned first have no effect; cards are turned until a number
    shows; the ignored cards stay in the discard pile beneath it."""
    g, events = find_new_game(lambda g, ev: any(c.split()[-1] == kind for c in ignored(ev)))
    skipped = ignored(events)
    assert skipped
    assert all(not c.split()[-1].isdigit() for c in skipped)
    top = g.face_text(g.discard[-1])
    assert top.split()[-1].isdigit()
    assert [g.face_text(t, 0) for t in g.discard] == [*skipped, top]
    assert g.side == 0
    assert g.direction == 1
    assert g.decision == "turn"
    assert g.to_act == (g.dealer + 1) % 3
    assert COLOR_NAMES[g.color] == top.split()[0]
    assert [len(h) for h in g.hands] == [7, 7, 7]
    assert "press" not in event_types(events)
    assert len(all_cards(g)) == 112


# --------------------------------------------------------------------------- launcher, flip
def test_r5_3_pressing_takes_the_ejected_cards_and_ends_the_turn() -> None:
    """R-5.3 (R-4.1): a press ejects cards off the launcher; the turn ends even when one of
    them is playable."""
    g = fa(
        hands=[["blue 6/purple 9", "green 3/pink 6"], ["red 4/pink 5"], ["yellow 2/pink 6"]],
        discard=[MILD_TOP],
        color="red",
        draw=["red 9/pink 1", "blue 1/pink 4"],
        options=scripted(2),
    )
    assert legal(g) == {"press"}
    g.apply("press")
    assert hand(g, 0) == sorted(["blue 6/purple 9", "green 3/pink 6", "red 9/pink 1", "blue 1/pink 4"])
    assert g.to_act == 1
    assert g.decision == "turn"


def flip_attack_flip_game(discard: list[str], **options: Any) -> Game:
    return fa(
        hands=[["red flip/purple hit_5x", "blue 6/purple 9", "green 3/pink 6"], ["red 4/pink 5"], ["yellow 2/pink 6"]],
        discard=discard,
        color="red",
        draw=["blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5"],
        options=options,
    )


def test_r5_3_d12_flip_reverses_discard_pile_and_launcher_contents() -> None:
    """R-5.3, D-12: a Flip turns hands, the discard pile (reversed) and the launcher's
    contents (reversed); the old bottom card of the launcher comes out first."""
    g = flip_attack_flip_game(["red 4/teal 8", MILD_TOP], **scripted(1))
    launcher_before = pile(g, g.draw)
    hands_before = [hand(g, s) for s in range(3)]
    g.apply("play red flip/purple hit_5x")
    assert g.side == 1
    assert g.side_name == "wild"
    assert pile(g, g.discard) == ["red flip/purple hit_5x", MILD_TOP, "red 4/teal 8"]
    assert g.face_text(g.discard[-1]) == "teal 8"
    assert g.color == COLOR_BY_NAME["teal"]
    assert pile(g, g.draw) == launcher_before[::-1]
    assert [hand(g, s) for s in (1, 2)] == hands_before[1:]
    assert g.to_act == 1
    g.apply("press")
    assert launcher_before[0] in hand(g, 1)
    assert len(g.hands[1]) == 2


def test_r5_3_flip_uncovering_a_wild_ignores_its_action_and_the_flipper_names_colour() -> None:
    """R-5.3 with R-3.7: the new top Wild All-Out Attack does nothing (no press); the player
    who flipped names the colour."""
    g = flip_attack_flip_game(["red 6/wild_all_out_attack", MILD_TOP], **scripted())
    g.apply("play red flip/purple hit_5x")
    assert g.decision == "choose_color"
    assert g.to_act == 0
    assert legal(g) == {f"color {c}" for c in WILD_COLORS}
    g.apply("color pink")
    assert g.to_act == 1
    assert g.decision == "turn"
    assert [len(h) for h in g.hands] == [2, 1, 1]


def test_r5_3_flip_wild_chooser_next_in_flip_attack() -> None:
    """R-5.3 with R-3.7: flip_wild_chooser="next": the next player names the colour."""
    g = flip_attack_flip_game(["red 6/wild_all_out_attack", MILD_TOP], **scripted(), flip_wild_chooser="next")
    g.apply("play red flip/purple hit_5x")
    assert g.decision == "choose_color"
    assert g.to_act == 1
    g.apply("color pink")
    assert g.to_act == 1
    assert g.decision == "turn"


def test_d12_flip_restarts_the_pattern_launcher() -> None:
    """D-12 (R-6.3): a Flip restarts the pattern: the next press is press 1 (no fire) and the
    one after is press 2 (fires)."""
    g = Game.from_position(
        position(
            "flip_attack",
            hands=[
                ["red flip/purple hit_5x", "blue 6/purple 9", "green 3/pink 6"],
                ["red 4/pink 5"],
                ["yellow 2/pink 6"],
            ],
            discard=["red 4/teal 8", MILD_TOP],
            color="red",
            options={"launcher": "pattern"},
            launcher={"model": "pattern", "index": 5},  # next press would be press 6 (fires)
        )
    )
    g.apply("play red flip/purple hit_5x")
    g.apply("press")  # seat 1: press 1
    assert len(g.hands[1]) == 1
    g.apply("press")  # seat 2: press 2
    assert len(g.hands[2]) > 1


# --------------------------------------------------------------------------- cards
def test_r5_4_discard_all_discards_every_card_of_its_colour() -> None:
    """R-5.4: Discard All also discards every card of its colour; the Discard All on top."""
    g = fa(
        hands=[
            ["red discard_all/teal 7", "red 3/pink 7", "red 9/pink 1", "blue 6/purple 9", "green 3/pink 6"],
            ["red 4/pink 5"],
            ["yellow 2/pink 6"],
        ],
        discard=[MILD_TOP],
        color="red",
        options=scripted(),
    )
    g.apply("play red discard_all/teal 7")
    assert hand(g, 0) == ["blue 6/purple 9", "green 3/pink 6"]
    assert g.card_text(g.discard[-1]) == "red discard_all/teal 7"
    assert sorted(pile(g, g.discard[1:-1])) == ["red 3/pink 7", "red 9/pink 1"]
    assert g.color == COLOR_BY_NAME["red"]
    assert g.to_act == 1


def test_r5_4_discard_all_on_discard_all_and_uno_with_it() -> None:
    """R-5.4: a Discard All matches another Discard All; leaving one card needs the UNO call."""
    g = fa(
        hands=[
            ["red discard_all/teal 7", "red 3/pink 7", "blue 6/purple 9"],
            ["red 4/pink 5"],
            ["yellow 2/pink 6"],
        ],
        discard=["blue discard_all/pink flip"],
        color="blue",
        options=scripted(),
    )
    assert "play red discard_all/teal 7 uno" in legal(g)
    g.apply("play red discard_all/teal 7 uno")
    assert hand(g, 0) == ["blue 6/purple 9"]
    assert g.color == COLOR_BY_NAME["red"]
    assert "catch 0" not in legal(g, 1)
    assert "catch 0" not in legal(g, 2)


def test_r5_4_hit_2x_next_presses_twice_and_loses_the_turn_no_passing_on() -> None:
    """R-5.4: Hit 2X: the next player presses twice, keeps the cards, loses the turn; holding
    a Hit 2X does not let them pass it on."""
    g = fa(
        hands=[
            ["red hit_2x/orange 9", "blue 6/purple 9"],
            ["yellow hit_2x/orange 3", "red 4/pink 5"],
            ["yellow 2/pink 6"],
        ],
        discard=[MILD_TOP],
        color="red",
        draw=["blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5", "blue 8/purple 2"],
        options=scripted(0, 3),
    )
    events = g.apply("play red hit_2x/orange 9")
    ps = presses(events)
    assert len(ps) == 2
    assert all(p["seat"] == 1 and p["presser"] == 1 for p in ps)
    assert hand(g, 1) == sorted(
        ["yellow hit_2x/orange 3", "red 4/pink 5", "blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5"]
    )
    assert g.to_act == 2
    assert g.decision == "turn"


def test_r5_4_hit_5x_next_presses_five_times_and_loses_the_turn() -> None:
    """R-5.4: Hit 5X: the next player presses 5 times and loses the turn."""
    g = fa(
        side="wild",
        hands=[["red 2/pink hit_5x", "blue 6/purple 9"], ["blue 3/purple hit_5x", "red 4/pink 5"], ["yellow 2/pink 6"]],
        discard=["red 3/pink 7"],
        color="pink",
        draw=["blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5", "blue 8/purple 2"],
        options=scripted(0, 1, 0, 2, 0),
    )
    events = g.apply("play red 2/pink hit_5x")
    ps = presses(events)
    assert len(ps) == 5
    assert all(p["presser"] == 1 for p in ps)
    assert hand(g, 1) == sorted(
        ["blue 3/purple hit_5x", "red 4/pink 5", "blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5"]
    )
    assert g.to_act == 2
    assert g.decision == "turn"


def test_r5_4_skip_everyone_the_player_plays_again() -> None:
    """R-5.4: Skip Everyone: the player plays again."""
    g = fa(
        side="wild",
        hands=[
            ["yellow 7/pink skip_everyone", "blue 6/purple 9", "red 3/pink 7"],
            ["red 4/pink 5"],
            ["yellow 2/pink 6"],
            ["blue 2/teal 2"],
        ],
        discard=["blue 1/pink 4"],
        color="pink",
        options=scripted(),
    )
    g.apply("play yellow 7/pink skip_everyone")
    assert g.to_act == 0
    assert g.turn == 0
    assert g.decision == "turn"
    assert "play red 3/pink 7" in legal(g)
    assert [len(h) for h in g.hands] == [2, 1, 1, 1]


# --------------------------------------------------------------------------- R-5.5 / D-9 Press Your Luck
WPYL = "wild_press_your_luck/purple 4"
ANN = [WPYL, "red 9/pink 1", "green skip/orange 5", "yellow 1/pink 3", "blue 7/purple 6", "green 9/teal 4"]
EJECT = ["blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5", "blue 8/purple 2"]


def luck_game(ann: list[str], script: list[int], **options: Any) -> Game:
    return fa(
        hands=[ann, ["red 4/pink 5"], ["yellow 2/pink 6"], ["blue 2/teal 2"]],
        discard=[MILD_TOP],
        color="red",
        draw=list(EJECT),
        options=scripted(*script, **options),
    )


def test_r5_5_press_your_luck_stopping_in_time() -> None:
    """R-5.5: name a colour, press; after each empty press discard any card (no matching);
    stop at will: the Wild Press Your Luck stays on top, the colour stands."""
    g = luck_game(ANN, [0, 0])
    g.apply(f"play {WPYL} blue")
    assert g.decision == "press_your_luck"
    assert g.to_act == 0
    assert legal(g) == {"press_again", "stop"}
    g.apply("press_again")
    assert g.decision == "choose_discard"
    choices = legal(g)
    assert "discard yellow 1/pink 3" in choices  # matches nothing
    assert "discard green skip/orange 5" in choices
    g.apply("discard red 9/pink 1")
    assert g.decision == "press_your_luck"
    g.apply("press_again")
    g.apply("discard green skip/orange 5")
    g.apply("stop")
    assert hand(g, 0) == sorted(["yellow 1/pink 3", "blue 7/purple 6", "green 9/teal 4"])
    assert pile(g, g.discard) == [MILD_TOP, "red 9/pink 1", "green skip/orange 5", WPYL]
    assert g.color == COLOR_BY_NAME["blue"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r5_5_press_your_luck_a_firing_press_gives_the_cards_and_takes_back_the_discards() -> None:
    """R-5.5: a press that ejects cards: take them and every card discarded this turn."""
    g = luck_game(ANN, [0, 0, 4])
    g.apply(f"play {WPYL} blue")
    g.apply("press_again")
    g.apply("discard red 9/pink 1")
    g.apply("press_again")
    g.apply("discard green skip/orange 5")
    g.apply("press_again")
    assert hand(g, 0) == sorted([*ANN[1:], *EJECT])
    assert len(g.hands[0]) == 3 + 4 + 2
    assert pile(g, g.discard) == [MILD_TOP, WPYL]
    assert g.color == COLOR_BY_NAME["blue"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r5_5_press_your_luck_may_stop_before_pressing_or_fire_at_once() -> None:
    """R-5.5: stopping at once is allowed; a first press that fires gives the cards only."""
    g = luck_game(ANN, [])
    g.apply(f"play {WPYL} green")
    g.apply("stop")
    assert len(g.hands[0]) == 5
    assert g.to_act == 1
    assert g.color == COLOR_BY_NAME["green"]
    g2 = luck_game(ANN, [2])
    g2.apply(f"play {WPYL} green")
    g2.apply("press_again")
    assert hand(g2, 0) == sorted([*ANN[1:], *EJECT[:2]])
    assert g2.card_text(g2.discard[-1]) == WPYL
    assert g2.to_act == 1


def test_r5_5_press_your_luck_going_out_by_discarding_the_last_card() -> None:
    """R-5.5: a player may go out by discarding the last card after an empty press."""
    g = luck_game([WPYL, "yellow 3/orange 2"], [0], rounds=1)
    g.apply(f"play {WPYL} green uno")
    g.apply("press_again")
    events = g.apply("discard yellow 3/orange 2")
    assert g.hands[0] == []
    assert g.is_over
    assert g.winners == [0]
    ends = [e for e in events if e["type"] == "round_end"]
    assert len(ends) == 1
    assert ends[0]["winner"] == 0
    assert g.scores[0] == 4 + 2 + 2  # red 4, yellow 2, blue 2 on the mild side


def test_d9_discard_leaving_one_card_needs_the_uno_call() -> None:
    """D-9: a discard during Press Your Luck that leaves one card counts as a play: without
    'uno' the player can be caught (2 presses, R-5.8); with it, not."""
    cards = [WPYL, "red 9/pink 1", "yellow 1/pink 3"]
    g = luck_game(cards, [0, 1, 2])
    g.apply(f"play {WPYL} blue")
    g.apply("press_again")
    assert "discard red 9/pink 1 uno" in legal(g)
    g.apply("discard red 9/pink 1")
    assert "catch 0" in legal(g, 2)
    events = g.apply("catch 0", seat=2)
    ps = presses(events)
    assert len(ps) == 2
    assert all(p["seat"] == 0 for p in ps)
    assert hand(g, 0) == sorted(["yellow 1/pink 3", *EJECT[:3]])

    safe = luck_game(cards, [0])
    safe.apply(f"play {WPYL} blue")
    safe.apply("press_again")
    safe.apply("discard red 9/pink 1 uno")
    assert "catch 0" not in legal(safe, 1)
    assert "catch 0" not in legal(safe, 2)


def test_d9_taking_back_discards_after_an_uno_discard() -> None:
    """D-9: after 'discard ... uno' a firing press returns the discards: several cards again."""
    cards = [WPYL, "red 9/pink 1", "yellow 1/pink 3"]
    g = luck_game(cards, [0, 3])
    g.apply(f"play {WPYL} blue")
    g.apply("press_again")
    g.apply("discard red 9/pink 1 uno")
    g.apply("press_again")
    assert hand(g, 0) == sorted(["red 9/pink 1", "yellow 1/pink 3", *EJECT[:3]])
    assert g.to_act == 1
    assert "catch 0" not in legal(g)


# --------------------------------------------------------------------------- All-Out Attack
WAOA = "blue 5/wild_all_out_attack"


def attack_game(script: list[int]) -> Game:
    return fa(
        side="wild",
        hands=[[WAOA, "blue 6/purple 9"], ["red 4/pink 5"], ["yellow 2/pink 6"], ["blue 2/teal 2"]],
        discard=[MILD_TOP],
        color="orange",
        draw=[
            "blue 1/pink 4",
            "green 8/orange 8",
            "yellow 9/pink 5",
            "blue 8/purple 2",
            "red 8/orange 4",
            "red 9/pink 1",
        ],
        options=scripted(*script),
    )


def test_r5_6_all_out_attack_presses_from_the_target_until_it_fires_target_takes_all() -> None:
    """R-5.6: starting with the target, players press in turn until it fires; the target takes
    all the cards; play continues with the target."""
    g = attack_game([0, 0, 6])
    launcher_top = pile(g, g.draw)[::-1][:6]
    events = g.apply(f"play {WAOA} pink")
    ps = presses(events)
    assert [p["presser"] for p in ps] == [1, 2, 3]
    assert hand(g, 1) == sorted(["red 4/pink 5", *launcher_top])
    assert hand(g, 2) == ["yellow 2/pink 6"]
    assert hand(g, 3) == ["blue 2/teal 2"]
    assert g.to_act == 1
    assert g.turn == 1
    assert g.decision == "turn"
    assert g.color == COLOR_BY_NAME["pink"]


def test_r5_6_all_out_attack_target_firing_at_once_still_plays() -> None:
    """R-5.6: the target's own first press fires: the target takes the cards and is not
    skipped."""
    g = attack_game([2])
    events = g.apply(f"play {WAOA} teal")
    assert [p["presser"] for p in presses(events)] == [1]
    assert len(g.hands[1]) == 3
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r5_6_all_out_attack_goes_round_to_the_attacker() -> None:
    """R-5.6: pressing goes on in turn order, the attacker included, until it fires."""
    g = attack_game([0, 0, 0, 2])
    events = g.apply(f"play {WAOA} purple")
    assert [p["presser"] for p in presses(events)] == [1, 2, 3, 0]
    assert len(g.hands[1]) == 3
    assert len(g.hands[0]) == 1
    assert g.to_act == 1


# --------------------------------------------------------------------------- Wild Discard All
WDA = "green 2/wild_discard_all"
ANN_WDA = ["blue 8/purple 3", "green 7/purple skip_everyone", "yellow skip/purple 8", "red 3/pink 7", WDA]


def discard_all_game() -> Game:
    return fa(
        side="wild",
        hands=[list(ANN_WDA), ["red 4/pink 5"], ["yellow 2/pink 6"], ["blue 2/teal 2"]],
        discard=[MILD_TOP],
        color="orange",
        options=scripted(0, 0),
    )


def test_r5_7_wild_discard_all_discards_the_named_colour_then_names_the_pile_colour() -> None:
    """R-5.7: name a colour to discard, discard every card of it, then name the colour in
    play (UNO called with the play that leaves one card)."""
    g = discard_all_game()
    assert f"play {WDA} purple uno" in legal(g)
    g.apply(f"play {WDA} purple uno")
    assert hand(g, 0) == ["red 3/pink 7"]
    assert g.card_text(g.discard[-1]) == WDA
    assert sorted(pile(g, g.discard[1:-1])) == sorted(ANN_WDA[:3])
    assert g.decision == "choose_color"
    assert g.to_act == 0
    assert legal(g) == {f"color {c}" for c in WILD_COLORS}
    g.apply("color pink")
    assert g.color == COLOR_BY_NAME["pink"]
    assert g.to_act == 1
    assert g.decision == "turn"
    assert "catch 0" not in legal(g)


def test_r5_7_wild_discard_all_without_uno_can_be_caught() -> None:
    """R-5.7 with R-1.5, R-5.8: a Wild Discard All leaving one card owes the UNO call."""
    g = discard_all_game()
    g.apply(f"play {WDA} purple")
    g.apply("color teal")
    assert "catch 0" in legal(g, 2)
    events = g.apply("catch 0", seat=2)
    assert len(presses(events)) == 2


# --------------------------------------------------------------------------- penalty, points
def test_r5_8_uno_penalty_is_two_presses() -> None:
    """R-5.8: a player caught without UNO presses the launcher twice and keeps the cards."""
    g = fa(
        hands=[["red 3/pink 7", "red 9/pink 1"], ["red 4/pink 5"], ["yellow 2/pink 6"]],
        discard=[MILD_TOP],
        color="red",
        draw=["blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5", "blue 8/purple 2"],
        options=scripted(1, 2),
    )
    g.apply("play red 3/pink 7")
    assert "catch 0" in legal(g, 2)
    events = g.apply("catch 0", seat=2)
    ps = presses(events)
    assert len(ps) == 2
    assert all(p["seat"] == 0 and p["presser"] == 0 for p in ps)
    assert hand(g, 0) == sorted(["red 9/pink 1", "blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5"])
    assert g.to_act == 1


def score_of_going_out(side: str, color: str, last: str, left: list[str], discard: list[str]) -> int:
    g = fa(side=side, hands=[[last], left], discard=discard, color=color, options=scripted(rounds=1))
    g.apply(f"play {last}")
    assert g.is_over
    assert g.winners == [0]
    assert g.scores[1] == 0
    return g.scores[0]


def test_r5_8_worked_example_215_on_the_wild_side() -> None:
    """R-5.8: 2, 5, 8, Flip, Hit 5X, Reverse, Skip Everyone, Wild Discard All, Wild All-Out
    Attack on the wild side score 215 (their mild faces would be worth 69)."""
    left = [
        "blue skip/pink 2",
        "red reverse/teal 5",
        "green 8/orange 8",
        "red 2/pink flip",
        "red 2/pink hit_5x",
        "yellow 2/purple reverse",
        "red 5/orange skip_everyone",
        "yellow 5/wild_discard_all",
        "red 6/wild_all_out_attack",
    ]
    assert score_of_going_out("wild", "orange", "yellow 4/orange 6", left, [MILD_TOP]) == 215


def test_r5_8_points_on_the_mild_side() -> None:
    """R-5.8: Hit 2X 10; Discard All, Flip, Reverse, Skip 20; Wild 40; Press Your Luck 60."""
    left = [
        "red hit_2x/orange 9",  # 10
        "red discard_all/teal 7",  # 20
        "red flip/purple hit_5x",  # 20
        "red reverse/teal 5",  # 20
        "red skip/teal 9",  # 20
        "wild/pink 2",  # 40
        "wild_press_your_luck/purple 4",  # 60
        "red 9/pink 1",  # 9
    ]
    assert score_of_going_out("mild", "red", "red 3/pink 7", left, [MILD_TOP]) == 199


def test_r5_8_going_out_on_a_flip_scores_the_wild_side() -> None:
    """R-5.8 with R-1.6: going out on a Flip turns everything first; wild faces count."""
    left = ["red hit_2x/wild_discard_all", "yellow discard_all/wild_all_out_attack", "yellow 7/pink skip_everyone"]
    # mild: 10 + 20 + 7 = 37; wild: 50 + 60 + 30
    assert score_of_going_out("mild", "red", "red flip/purple hit_5x", left, [MILD_TOP]) == 140


def test_r5_8_last_card_hit_counts_the_ejected_cards() -> None:
    """R-5.8 with R-1.6: going out on a Hit 2X: the presses happen first and count."""
    g = fa(
        hands=[["red hit_2x/orange 9"], ["red 4/pink 5"], ["yellow 2/pink 6"]],
        discard=[MILD_TOP],
        color="red",
        draw=["blue 1/pink 4", "green 8/orange 8", "yellow 9/pink 5"],
        options=scripted(0, 2, rounds=1),
    )
    g.apply("play red hit_2x/orange 9")
    assert g.is_over
    assert g.scores[0] == 4 + 2 + 1 + 8


def test_r5_5_discarding_is_only_possible_after_an_empty_press() -> None:
    """R-5.5: a discard comes only after a press that ejected nothing."""
    g = luck_game(ANN, [0])
    g.apply(f"play {WPYL} blue")
    with pytest.raises(IllegalActionError):
        g.apply("discard red 9/pink 1")
    assert len(g.hands[0]) == 5
