"""Scenario tests for the themed UNO Flip editions (R-7) and decisions D-19 to D-25.

Each edition plays by the UNO Flip rules (R-3) with its own pair of special wild cards. Cards
are written in full ``light/dark`` form; every card used here is in the edition's default deck
(``src/unokit/core/data/<variant>.deck``). Expected values come from the rule text
(docs/rules/themed_editions.md, ../shared/RULES.md), not from the engine.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import unokit
from tests.helpers import event_types, game, hand, legal, of_type
from unokit import Game, IllegalActionError, InvalidActionError
from unokit.core.cards import COLOR_NAMES

Events = list[dict[str, Any]]
DARK_COLORS = ("pink", "teal", "orange", "purple")
LIGHT_COLORS = ("red", "yellow", "green", "blue")


def replaced(variant: str) -> tuple[Counter[str], Counter[str]]:
    """The cards of ``variant``'s deck that are not in UNO Flip's, and those of UNO Flip's that
    it lacks."""
    theirs, flip = Counter(unokit.deck_cards(variant)), Counter(unokit.deck_cards("flip"))
    return theirs - flip, flip - theirs


def colors_named(g: Game) -> str:
    return COLOR_NAMES[g.color]


# =========================================================================== UNO Flip Marvel
SUPER_HERO = "wild_super_hero/pink 5"
SUPER_HERO_2 = "wild_super_hero/pink flip"
VILLAIN = "red skip/wild_villain"
VILLAIN_2 = "yellow 1/wild_villain"


def test_r7_marvel_deck_is_flips_with_two_wilds_a_side_printed_as_specials() -> None:
    """R-7, D-25: 112 cards; two light Wilds are Wild Super Hero, two dark Wilds Wild Villain,
    each keeping the other face of the UNO Flip card it replaces."""
    cards = unokit.deck_cards("flip_marvel")
    assert len(cards) == 112
    added, removed = replaced("flip_marvel")
    assert added == Counter({SUPER_HERO: 1, SUPER_HERO_2: 1, VILLAIN: 1, VILLAIN_2: 1})
    assert removed == Counter({"wild/pink 5": 1, "wild/pink flip": 1, "red skip/wild": 1, "yellow 1/wild": 1})
    assert unokit.VARIANTS["flip_marvel"].title == "UNO Flip Marvel"


def marvel(hands: list[list[str]], **kwargs: Any) -> Game:
    """A Marvel table on the light side, seat 0 to play on a red 9."""
    return game("flip_marvel", hands=hands, discard=["red 9/teal reverse"], color="red", **kwargs)


def test_r7_super_hero_is_played_without_a_colour() -> None:
    """R-7: the colour is named later, by the player who discards; the play names none."""
    g = marvel([[SUPER_HERO, "red 5/pink 2", "blue 2/pink 6"], ["yellow 3/purple 1"]])
    assert f"play {SUPER_HERO}" in legal(g)
    assert not any(a.startswith(f"play {SUPER_HERO} ") and a.split()[-1] in LIGHT_COLORS for a in legal(g))
    with pytest.raises(InvalidActionError, match="names no colour"):
        g.apply(f"play {SUPER_HERO} red")


def test_r7_super_hero_the_most_cards_discard_one_then_name_the_colour() -> None:
    """R-7: the player with the most cards discards one card of their choice, then names the
    colour; then the player after the one who played the card takes the turn."""
    g = marvel(
        [
            [SUPER_HERO, "red 5/pink 2"],
            ["yellow 3/purple 1", "green 2/teal draw_five"],
            ["blue 4/purple 1", "blue 7/orange 3", "green 5/orange 7", "yellow 9/purple 4"],
        ]
    )
    g.apply(f"play {SUPER_HERO} uno")
    assert g.decision == "discard_cards" and g.to_act == 2
    assert legal(g) == {f"discard {c}" for c in hand(g, 2)}
    g.apply("discard green 5/orange 7")
    assert hand(g, 2) == sorted(["blue 4/purple 1", "blue 7/orange 3", "yellow 9/purple 4"])
    assert g.card_text(g.discard[-2]) == "green 5/orange 7"  # under the Super Hero
    assert g.card_text(g.top_card) == SUPER_HERO
    assert g.decision == "choose_color" and g.to_act == 2
    g.apply("color blue", seat=2)
    assert colors_named(g) == "blue"
    assert g.to_act == 1 and g.decision == "turn"


def test_d19_ties_for_most_cards_go_to_the_first_from_the_player_who_counts_first() -> None:
    """D-19: seats 1 and 2 tie for the most cards; counting from the player of the card (who
    comes first), seat 1 is reached first. The player itself can be the one with the most."""
    g = marvel(
        [
            [SUPER_HERO, "red 5/pink 2", "blue 2/pink 6"],
            ["yellow 3/purple 1", "green 2/teal draw_five", "green 3/purple 2"],
            ["blue 4/purple 1", "blue 7/orange 3", "green 5/orange 7"],
        ]
    )
    g.apply(f"play {SUPER_HERO}")
    assert g.to_act == 1
    g = marvel(
        [
            [SUPER_HERO, "red 5/pink 2", "blue 2/pink 6", "green 1/orange 5"],
            ["yellow 3/purple 1", "green 2/teal draw_five", "green 3/purple 2"],
            ["blue 4/purple 1"],
        ],
        direction="counterclockwise",
    )
    g.apply(f"play {SUPER_HERO}")
    assert g.to_act == 0  # three cards left, tied with seat 1, and the player counts first
    g.apply("discard green 1/orange 5")
    g.apply("color green")
    assert g.to_act == 2  # counterclockwise from seat 0


def test_d20_a_discard_that_leaves_one_card_owes_the_uno_call() -> None:
    """D-20: a discard that leaves one card must declare UNO with it, or it can be caught."""
    g = marvel(
        [[SUPER_HERO, "red 5/pink 2", "blue 1/purple skip_everyone"], ["yellow 3/purple 1", "green 2/teal draw_five"]]
    )
    g.apply(f"play {SUPER_HERO}")
    assert g.to_act == 0  # two cards each: the player counts first (D-19)
    assert "discard red 5/pink 2 uno" in legal(g)
    g.apply("discard red 5/pink 2")
    assert "catch 0" in legal(g, 1)
    events = g.apply("catch 0", seat=1)
    assert event_types(events) == ["catch", "draw"]
    assert len(g.hands[0]) == 3


def test_d20_a_discard_that_empties_the_hand_wins_the_round() -> None:
    """D-20: the player with the most cards may go out by discarding its last card."""
    g = marvel([[SUPER_HERO, "red 5/pink 2"], ["yellow 3/purple 1"]])
    events = g.apply(f"play {SUPER_HERO} uno")
    assert g.to_act == 0  # one card each after the play: the player counts first
    events = g.apply("discard red 5/pink 2")
    end = of_type(events, "round_end")[0]
    assert end["winner"] == 0
    assert end["points"][0] == 3  # seat 1's yellow 3


def villain_table(third: list[str]) -> Game:
    """A dark-side Marvel table: seat 0 holds a Wild Villain and two cards, seat 1 three cards,
    seat 2 ``third``; three known cards on the draw pile."""
    return game(
        "flip_marvel",
        side="dark",
        hands=[
            [VILLAIN, "red 5/pink 2", "blue 2/pink 6"],
            ["yellow 3/purple 1", "green 2/teal draw_five", "green 3/purple 2"],
            third,
        ],
        discard=["red 9/teal reverse"],
        color="teal",
        draw=["red 1/pink 3", "red 2/orange reverse", "red 3/pink 7"],
    )


def test_r7_villain_the_fewest_cards_draw_three_then_name_the_colour() -> None:
    """R-7: on the dark side, the player with the fewest cards draws three and names the colour;
    the player after the one who played the card plays next."""
    g = villain_table(["blue 4/purple 1"])
    g.apply(f"play {VILLAIN}")
    assert len(g.hands[2]) == 4
    assert g.decision == "choose_color" and g.to_act == 2
    assert legal(g) == {f"color {c}" for c in DARK_COLORS}
    g.apply("color orange", seat=2)
    assert g.to_act == 1 and colors_named(g) == "orange"


def test_d19_the_player_of_a_villain_with_the_fewest_cards_draws_itself() -> None:
    """D-19: after the play the player of the card holds two cards, as few as seat 2; it counts
    first, so it draws the three cards."""
    g = villain_table(["blue 4/purple 1", "blue 7/orange 3"])
    g.apply(f"play {VILLAIN}")
    assert len(g.hands[0]) == 5 and g.to_act == 0 and g.decision == "choose_color"


def test_r7_marvel_specials_score_40() -> None:
    """R-7: each special card is worth 40 points; a Wild still 40 (R-3.9)."""
    g = marvel([["red 5/pink 2"], [SUPER_HERO, VILLAIN_2, "wild/purple 7"]])
    events = g.apply("play red 5/pink 2")
    end = of_type(events, "round_end")[0]
    assert end["hand_points"][1] == 40 + 1 + 40  # light side: Super Hero, yellow 1, Wild
    assert end["points"][0] == 81


def test_d24_a_special_played_last_ends_the_round_without_its_effect() -> None:
    """D-24, R-1.6: the round ends the moment the hand is empty; nobody discards or draws."""
    g = marvel([[SUPER_HERO], ["yellow 3/purple 1", "green 2/teal draw_five"]])
    events = g.apply(f"play {SUPER_HERO}")
    assert event_types(events)[:2] == ["play", "round_end"]
    assert of_type(events, "round_end")[0]["winner"] == 0


def test_d23_a_super_hero_turned_up_first_lets_the_first_player_name_the_colour() -> None:
    """R-7, D-23: as the first card it acts as a plain Wild: the player left of the dealer names
    the colour and plays."""
    for seed in range(400):
        g, events = Game.new("flip_marvel", 3, seed)
        first = [e["card"] for e in events if e["type"] == "first_card"]
        if first == ["wild_super_hero"]:
            assert g.decision == "choose_color"
            assert g.to_act == (g.dealer + 1) % 3
            assert "discard" not in event_types(events)
            g.apply("color yellow")
            assert g.to_act == (g.dealer + 1) % 3 and g.decision == "turn"
            return
    pytest.fail("no seed turned up a Wild Super Hero first")


def test_r7_a_discard_decision_accepts_only_discards_of_that_seat() -> None:
    g = marvel([[SUPER_HERO, "red 5/pink 2"], ["yellow 3/purple 1", "green 2/teal draw_five", "green 3/purple 2"]])
    g.apply(f"play {SUPER_HERO}")
    with pytest.raises(IllegalActionError, match="seat 1's decision"):
        g.apply("discard red 5/pink 2", seat=0)
    with pytest.raises(IllegalActionError):
        g.apply("color red", seat=1)


# =========================================================================== UNO Flip Stranger Things
HOPPER = "wild_jim_hopper/pink 5"
WAFFLE = "red skip/wild_elevens_waffle"


def test_r7_stranger_things_deck_and_defaults() -> None:
    """R-7, D-25, D-21: Flip's deck with two Wilds a side printed as the specials; one hand by
    default (scores may still be kept); the waffle icon on the 24 dark faces showing 1-3."""
    added, removed = replaced("flip_stranger_things")
    assert added == Counter({HOPPER: 1, "wild_jim_hopper/pink flip": 1, WAFFLE: 1, "yellow 1/wild_elevens_waffle": 1})
    assert sum(removed.values()) == 4
    g = unokit.new_game("flip_stranger_things", 3, 1)
    assert g.options.rounds == 1
    assert unokit.new_game("flip_stranger_things", 3, 1, rounds=None).options.rounds is None
    waffles = [g.deck.text[t] for t in sorted(g.deck.icons["waffle"])]
    assert sum(g.deck.counts[g.deck.type_id(text) or 0] for text in waffles) == 24
    assert all(text.split("/")[1].split()[-1] in ("1", "2", "3") for text in waffles)


def test_r7_stranger_things_first_card_must_be_a_number() -> None:
    """R-7 (as R-5.2, D-7): action cards turned up first are ignored and stay in the pile."""
    ignored = 0
    for seed in range(60):
        g, events = Game.new("flip_stranger_things", 3, seed)
        first = of_type(events, "first_card")[0]["card"]
        assert first.split()[-1].isdigit()
        ignored += len(of_type(events, "first_card_ignored"))
        assert len(g.discard) == 1 + len(of_type(events, "first_card_ignored"))
    assert ignored > 0


def stranger(hands: list[list[str]], **kwargs: Any) -> Game:
    return game("flip_stranger_things", hands=hands, discard=["red 9/teal reverse"], color="red", **kwargs)


def test_r7_jim_hopper_the_most_cards_discard_half_rounded_up() -> None:
    """R-7: the player of the card names the colour with the play; the player with the most
    cards (seven: four discards) discards one card at a time; then the next player plays."""
    seven = ["blue 4/purple 1", "blue 7/orange 3", "green 5/orange 7", "yellow 9/purple 4"]
    seven += ["green 1/orange 5", "yellow 2/teal 1", "blue 8/teal 4"]
    g = stranger([[HOPPER, "red 5/pink 2"], ["yellow 3/purple 1", "green 2/teal draw_five"], seven])
    g.apply(f"play {HOPPER} blue uno")
    assert colors_named(g) == "blue"
    for left in (4, 3, 2, 1):
        assert g.decision == "discard_cards" and g.to_act == 2
        assert g.pending()["count"] == left
        g.apply(f"discard {g.card_text(g.hands[2][0])}")
    assert len(g.hands[2]) == 3
    assert g.to_act == 1 and g.decision == "turn" and colors_named(g) == "blue"


def test_d20_jim_hopper_can_let_a_one_card_hand_go_out() -> None:
    """D-20: with one card each the player of the card counts first: half of one, rounded up,
    is its last card, and it goes out."""
    g = stranger([[HOPPER, "red 5/pink 2"], ["yellow 3/purple 1"]])
    g.apply(f"play {HOPPER} green uno")
    events = g.apply("discard red 5/pink 2")
    assert of_type(events, "round_end")[0]["winner"] == 0
    assert g.is_over  # one hand by default


def test_r7_elevens_waffle_the_fewest_cards_draw_until_a_waffle() -> None:
    """R-7, D-21: the player with the fewest cards draws until a card whose dark face shows the
    waffle icon (pink 2: a 2), keeps them all; the player of the card named the colour."""
    g = game(
        "flip_stranger_things",
        side="dark",
        hands=[
            [WAFFLE, "red 5/teal 5", "blue 2/pink 6", "green 4/pink 8"],
            ["yellow 3/purple 1", "green 2/teal draw_five"],
            ["blue 4/purple 1", "blue 7/orange 3", "yellow 9/purple 4"],
        ],
        discard=["red 9/teal reverse"],
        color="teal",
        draw=["red 3/pink 7", "red 2/orange reverse", "red 5/pink 2", "green 7/teal 2"],
    )
    g.apply(f"play {WAFFLE} purple")
    assert colors_named(g) == "purple"
    assert hand(g, 1) == sorted(
        ["yellow 3/purple 1", "green 2/teal draw_five", "red 3/pink 7", "red 2/orange reverse", "red 5/pink 2"]
    )
    assert g.to_act == 1  # not skipped


def test_r7_stranger_things_specials_score_40() -> None:
    g = stranger(
        [["red 5/pink 2"], [HOPPER, "wild_jim_hopper/pink flip", "yellow 3/purple 1"]], options={"rounds": None}
    )
    events = g.apply("play red 5/pink 2")
    assert of_type(events, "round_end")[0]["hand_points"][1] == 40 + 40 + 3


# =========================================================================== UNO Flip Transformers
OPTIMUS = "wild_optimus_prime/pink 5"
MEGATRON = "red skip/wild_megatron"


def test_r7_transformers_deck_and_defaults() -> None:
    """R-7, D-25: Flip's deck with two Wilds a side printed as the specials; one hand, and a
    number card must start the discard pile."""
    added, removed = replaced("flip_transformers")
    assert added == Counter({OPTIMUS: 1, "wild_optimus_prime/pink flip": 1, MEGATRON: 1, "yellow 1/wild_megatron": 1})
    assert sum(removed.values()) == 4
    assert unokit.new_game("flip_transformers", 3, 1).options.rounds == 1
    for seed in range(30):
        _, events = Game.new("flip_transformers", 3, seed)
        assert of_type(events, "first_card")[0]["card"].split()[-1].isdigit()


def transformers(hands: list[list[str]], **kwargs: Any) -> Game:
    return game("flip_transformers", hands=hands, discard=["red 9/teal reverse"], color="red", **kwargs)


def test_r7_optimus_prime_the_higher_best_number_wins_and_discards_two() -> None:
    """R-7: the player chooses whom to challenge; each shows its highest number card (public);
    the higher wins and discards two cards of its choice; then the next player plays."""
    g = transformers(
        [
            [OPTIMUS, "red 5/pink 2", "blue 2/pink 6", "green 4/pink 8"],
            ["yellow 3/purple 1", "green 2/teal draw_five"],
            ["blue 9/orange 5", "blue 7/orange 3", "yellow 2/teal 1"],
        ]
    )
    g.apply(f"play {OPTIMUS} green")
    assert g.decision == "choose_target" and g.to_act == 0
    assert legal(g) == {"target 1", "target 2"}
    with pytest.raises(IllegalActionError, match="challenge another player"):
        g.apply("target 0")
    events = g.apply("target 2")
    duel = of_type(events, "duel")[0]
    assert duel["shown"] == ["red 5", "blue 9"] and duel["winner"] == 2 and "private" not in duel
    assert g.decision == "discard_cards" and g.to_act == 2 and g.pending()["count"] == 2
    g.apply("discard blue 7/orange 3")
    g.apply("discard yellow 2/teal 1")
    assert hand(g, 2) == ["blue 9/orange 5"]
    assert g.to_act == 1 and colors_named(g) == "green"


@pytest.mark.parametrize(
    ("target_hand", "player_discards"),
    [
        (["yellow 5/purple 9", "green 2/teal draw_five"], 2),  # a tie goes to the player
        (["yellow draw_one/pink 1", "green flip/teal 3"], 2),  # no number card: the player wins
    ],
)
def test_d22_optimus_prime_ties_and_no_numbers_go_to_the_player(target_hand: list[str], player_discards: int) -> None:
    g = transformers([[OPTIMUS, "red 5/pink 2", "blue 2/pink 6", "green 4/pink 8"], target_hand])
    g.apply(f"play {OPTIMUS} green")
    events = g.apply("target 1")
    assert of_type(events, "duel")[0]["winner"] == 0
    assert g.to_act == 0 and g.pending()["count"] == player_discards


def test_r7_optimus_prime_never_discards_the_last_card() -> None:
    """R-7: a winner holding two cards discards one; holding one, none (play goes on)."""
    g = transformers([[OPTIMUS, "red 5/pink 2", "blue 2/pink 6"], ["yellow 3/purple 1", "green 2/teal draw_five"]])
    g.apply(f"play {OPTIMUS} green")
    g.apply("target 1")
    assert g.to_act == 0 and g.pending()["count"] == 1
    assert "discard red 5/pink 2 uno" in legal(g)
    g.apply("discard red 5/pink 2 uno")
    assert len(g.hands[0]) == 1 and g.to_act == 1
    g = transformers([[OPTIMUS, "red 5/pink 2"], ["yellow 3/purple 1", "green 2/teal draw_five"]])
    g.apply(f"play {OPTIMUS} green uno")
    g.apply("target 1")
    assert len(g.hands[0]) == 1 and g.to_act == 1 and g.decision == "turn"


def megatron_game(mine: list[str], theirs: list[str]) -> Game:
    return game(
        "flip_transformers",
        side="dark",
        hands=[[MEGATRON, *mine], theirs, ["blue 9/orange 5"]],
        discard=["red 9/teal reverse"],
        color="teal",
        draw=["red 1/pink 3", "red 2/orange reverse", "red 3/pink 7"],
    )


def test_r7_megatron_the_lower_lowest_number_draws_two_the_winner_names_the_colour() -> None:
    """R-7: both hands are revealed to the two players; the lower lowest number draws two; the
    other names the colour; then the next player after the card's player plays."""
    g = megatron_game(["red 5/pink 2", "blue 2/pink 6"], ["yellow 3/purple 1", "green 2/teal draw_five"])
    g.apply(f"play {MEGATRON}")
    assert g.decision == "choose_target" and g.color == -1  # the winner names it later
    events = g.apply("target 1")
    duel = of_type(events, "duel")[0]
    assert duel["shown"] == ["pink 2", "purple 1"] and duel["winner"] == 0
    assert duel["private"] == [0, 1] and set(duel["revealed"]) == {"0", "1"}
    assert "revealed" not in unokit.redact(events, 2)[[e["type"] for e in events].index("duel")]
    assert len(g.hands[1]) == 4  # seat 1 drew two
    assert g.decision == "choose_color" and g.to_act == 0
    g.apply("color orange")
    assert g.to_act == 1 and colors_named(g) == "orange"


@pytest.mark.parametrize(
    ("mine", "theirs", "loser"),
    [
        (["red 5/pink 2"], ["green 2/teal draw_five", "yellow 5/purple 9", "red 1/purple 2"], 1),  # tie: target
        (["red 5/pink 2"], ["green 2/teal draw_five"], 0),  # target has no number: the player is lower
        (["yellow draw_one/purple 8"], ["yellow 3/purple 1"], 1),  # 8 against 1: the target is lower
    ],
)
def test_d22_megatron_ties_go_against_the_target(mine: list[str], theirs: list[str], loser: int) -> None:
    g = megatron_game(mine, theirs)
    g.apply(f"play {MEGATRON}")
    before = [len(h) for h in g.hands]
    g.apply("target 1")
    after = [len(h) for h in g.hands]
    assert after[loser] == before[loser] + 2
    assert g.to_act == 1 - loser
