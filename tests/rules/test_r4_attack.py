"""Scenario tests for UNO Attack (R-4.1 to R-4.5) and decisions D-6 and D-8.

Every scenario uses the ``scripted`` launcher so that each press has an exact outcome: a script
entry 0 ejects nothing, ``k`` ejects the top ``k`` cards of the launcher (``draw`` in a
position, top first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from tests.helpers import attack_deck, game, hand, legal
from unokit import Game, IllegalActionError, PositionError
from unokit.core.cards import COLOR_NAMES

COLORS = ("red", "yellow", "green", "blue")

#: Card points of UNO Attack (R-4.5): number cards score their face value.
POINTS = {
    "reverse": 20,
    "skip": 20,
    "hit_2": 20,
    "discard_all": 30,
    "trade_hands": 30,
    "wild": 50,
    "wild_all_hit": 50,
    "wild_hit_fire": 50,
}


def card_points(text: str) -> int:
    """Points of one card left in a hand (R-4.5)."""
    kind = text.rsplit(maxsplit=1)[-1]
    return int(kind) if kind.isdigit() else POINTS[kind]


def attack(
    hands: list[list[str]],
    discard: list[str],
    color: str,
    script: list[int],
    draw: list[str] | None = None,
    **fields: Any,
) -> Game:
    """An UNO Attack position with a scripted launcher."""
    options: dict[str, Any] = {"launcher": "scripted", "launcher_script": script}
    options.update(fields.pop("options", {}))
    return game("attack", hands=hands, discard=discard, color=color, draw=draw, options=options, **fields)


def presses(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The press events, in order."""
    return [e for e in events if e["type"] == "press"]


def whole_game_cards(g: Game) -> Counter[str]:
    """Every card of the game, wherever it is."""
    cards: Counter[str] = Counter()
    for h in g.hands:
        cards.update(g.card_text(t) for t in h)
    cards.update(g.card_text(t) for t in g.discard)
    cards.update(g.card_text(t) for t in g.draw)
    return cards


# --------------------------------------------------------------------------- launcher
def test_r4_1_press_replaces_draw() -> None:
    """R-4.1: there is no draw action in UNO Attack; pressing is offered even with a playable card."""
    g = attack([["red 5", "blue 3"], ["green 1"], ["yellow 1"]], ["red 3"], "red", [0])
    actions = legal(g)
    assert "press" in actions
    assert "draw" not in actions
    assert "play red 5" in actions  # a playable card, which the player may decline
    with pytest.raises(IllegalActionError):
        g.apply("draw")


def test_r4_1_empty_press_ends_the_turn() -> None:
    """R-4.1: a press that ejects nothing still ends the turn."""
    g = attack([["red 5", "blue 3"], ["green 1"], ["yellow 1"]], ["red 3"], "red", [0])
    stack = len(g.draw)
    g.apply("press")
    assert hand(g, 0) == ["blue 3", "red 5"]
    assert len(g.draw) == stack
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r4_1_turn_ends_even_when_an_ejected_card_is_playable() -> None:
    """R-4.1: pressing ends the turn even when a card the press ejected could be played."""
    g = attack(
        [["blue 3", "green 4"], ["green 1"], ["yellow 1"]],
        ["red 3"],
        "red",
        [2],
        draw=["red 7", "wild"],
    )
    g.apply("press")
    assert hand(g, 0) == ["blue 3", "green 4", "red 7", "wild"]
    assert g.to_act == 1
    assert g.decision == "turn"
    with pytest.raises(IllegalActionError):
        g.apply("play red 7", seat=0)
    assert legal(g, 0) == set()


# --------------------------------------------------------------------------- deck
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 7), (10, 99)])
def test_r4_2_deck_is_the_112_cards_of_the_1999_original(players: int, seed: int) -> None:
    """R-4.2: a new game holds exactly the 112 cards of the original UNO Attack deck."""
    g, _ = Game.new("attack", players, seed)
    cards = whole_game_cards(g)
    assert sum(cards.values()) == 112
    assert cards == attack_deck()


@pytest.mark.parametrize(
    "hand_cards",
    [
        ["red 0"],  # no 0 cards
        ["blue discard_all", "blue discard_all"],  # one Discard All per colour
        ["green trade_hands", "green trade_hands"],  # one Trade Hands per colour
        ["wild_hit_fire"] * 3,  # two Wild Hit-Fire
        ["wild_all_hit"] * 3,  # two Wild All Hit
    ],
)
def test_r4_2_deck_has_no_more_than_its_cards(hand_cards: list[str]) -> None:
    """R-4.2: a position naming a card the Attack deck lacks, or too many copies, is refused."""
    with pytest.raises(PositionError):
        attack([hand_cards, ["green 1"]], ["red 3"], "red", [0])


# --------------------------------------------------------------------------- Hit 2
def test_r4_3_hit_2_next_presses_twice_and_loses_the_turn() -> None:
    """R-4.3: after Hit 2 the next player presses twice, keeps the cards and loses the turn."""
    g = attack(
        [["red hit_2", "red 5"], ["green 1"], ["yellow 1"], ["blue 1"]],
        ["red 3"],
        "red",
        [0, 3],
        draw=["blue 7", "green 8", "yellow 9", "red 9"],
    )
    events = g.apply("play red hit_2")
    assert [e["presser"] for e in presses(events)] == [1, 1]
    assert hand(g, 1) == ["blue 7", "green 1", "green 8", "yellow 9"]
    assert hand(g, 2) == ["yellow 1"]
    assert g.to_act == 2
    assert g.color == COLOR_NAMES.index("red")


def test_r4_3_hit_2_with_two_players_gives_the_turn_straight_back() -> None:
    """R-4.3, R-1.10: with two players Hit 2 makes the other press twice and the turn comes back."""
    g = attack(
        [["red hit_2", "red 5"], ["green 1"]],
        ["red 3"],
        "red",
        [1, 0],
        draw=["blue 7", "green 8"],
    )
    events = g.apply("play red hit_2")
    assert len(presses(events)) == 2
    assert hand(g, 1) == ["blue 7", "green 1"]
    assert g.to_act == 0
    assert g.decision == "turn"


# --------------------------------------------------------------------------- Discard All
def test_r4_3_discard_all_discards_every_card_of_its_colour() -> None:
    """R-4.3: Discard All takes every card of its colour from the hand, the Discard All on top."""
    g = attack(
        [["blue 2", "blue 9", "blue discard_all", "red 4", "blue skip", "green 2"], ["green 1"], ["yellow 1"]],
        ["green 6", "blue 7"],
        "blue",
        [0],
    )
    g.apply("play blue discard_all")
    assert hand(g, 0) == ["green 2", "red 4"]
    top = [g.card_text(t) for t in g.discard]
    assert top[-1] == "blue discard_all"
    assert sorted(top[-4:-1]) == ["blue 2", "blue 9", "blue skip"]
    assert top[:2] == ["green 6", "blue 7"]
    assert g.color == COLOR_NAMES.index("blue")
    assert g.to_act == 1


def test_r4_3_discard_all_plays_on_another_discard_all() -> None:
    """R-4.3, R-1.4: a Discard All matches a Discard All of another colour and discards its own colour."""
    g = attack(
        [["blue discard_all", "blue 4", "red 2", "green 5"], ["green 1"], ["yellow 1"]],
        ["red discard_all"],
        "red",
        [0],
    )
    assert "play blue discard_all" in legal(g)
    g.apply("play blue discard_all")
    assert hand(g, 0) == ["green 5", "red 2"]
    assert g.card_text(g.discard[-1]) == "blue discard_all"
    assert g.color == COLOR_NAMES.index("blue")


def test_r4_3_discard_all_not_playable_off_colour() -> None:
    """R-4.3, R-1.4: a Discard All is played on its own colour or another Discard All only."""
    g = attack([["blue discard_all", "blue 4"], ["green 1"], ["yellow 1"]], ["green 7"], "green", [0])
    assert not any("discard_all" in a for a in legal(g))
    with pytest.raises(IllegalActionError):
        g.apply("play blue discard_all")


def test_r4_3_discard_all_leaving_one_card_calls_uno() -> None:
    """R-4.3, R-1.5: a Discard All that leaves one card offers the UNO call, which makes the player safe."""
    g = attack(
        [["blue 2", "blue 9", "blue discard_all", "red 4"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]],
        ["blue 7"],
        "blue",
        [0],
    )
    assert "play blue discard_all uno" in legal(g)
    events = g.apply("play blue discard_all uno")
    assert events[0]["uno"] is True
    assert hand(g, 0) == ["red 4"]
    assert "catch 0" not in legal(g, 2)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)


def test_r4_3_discard_all_without_uno_call_can_be_caught() -> None:
    """R-4.3, R-1.5, R-4.5: a Discard All leaving one card without the call is caught: 2 presses."""
    g = attack(
        [["blue 2", "blue 9", "blue discard_all", "red 4"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]],
        ["blue 7"],
        "blue",
        [1, 1],
        draw=["green 5", "yellow 6"],
    )
    g.apply("play blue discard_all")
    assert "catch 0" in legal(g, 2)
    events = g.apply("catch 0", seat=2)
    assert [e["presser"] for e in presses(events)] == [0, 0]
    assert hand(g, 0) == ["green 5", "red 4", "yellow 6"]
    assert g.to_act == 1


def test_r4_3_discard_all_leaving_several_cards_has_no_uno_call() -> None:
    """R-4.3, R-1.5: the UNO call goes only with a Discard All that leaves exactly one card."""
    g = attack(
        [["blue 2", "blue discard_all", "red 4", "green 4"], ["green 1"], ["yellow 1"]],
        ["blue 7"],
        "blue",
        [0],
    )
    assert "play blue discard_all uno" not in legal(g)
    with pytest.raises(IllegalActionError):
        g.apply("play blue discard_all uno")


def test_r4_3_discard_all_can_empty_the_hand() -> None:
    """R-4.3, R-1.6: a Discard All that takes the last cards of the hand goes out."""
    g = attack(
        [["blue discard_all", "blue 2", "blue 5"], ["green 1", "red 9"], ["yellow 1"]],
        ["blue 7"],
        "blue",
        [0],
        options={"rounds": 1},
    )
    g.apply("play blue discard_all")
    assert g.hands[0] == []
    assert g.is_over
    assert g.winners == [0]
    assert g.scores[0] == 1 + 9 + 1


# --------------------------------------------------------------------------- Trade Hands
DAN = ["red 1", "red 2", "yellow 7", "blue 8", "wild", "green skip"]


def test_r4_3_trade_hands_swaps_with_the_chosen_player() -> None:
    """R-4.3: Trade Hands asks whom to trade with; the two hands are swapped; play goes on."""
    g = attack(
        [["green trade_hands", "yellow 5", "blue 1"], ["green 1"], ["yellow 1", "yellow 2"], DAN],
        ["green 3"],
        "green",
        [0],
    )
    g.apply("play green trade_hands")
    assert g.decision == "choose_player"
    assert g.to_act == 0
    assert sorted(legal(g)) == ["trade 1", "trade 2", "trade 3"]
    g.apply("trade 3")
    assert hand(g, 0) == sorted(DAN)
    assert hand(g, 3) == ["blue 1", "yellow 5"]
    assert hand(g, 1) == ["green 1"]
    assert hand(g, 2) == ["yellow 1", "yellow 2"]
    assert g.card_text(g.discard[-1]) == "green trade_hands"
    assert g.color == COLOR_NAMES.index("green")
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r4_3_trade_hands_not_with_oneself() -> None:
    """R-4.3: the trade is with another player."""
    g = attack([["green trade_hands", "yellow 5", "blue 1"], ["green 1"], ["yellow 1"]], ["green 3"], "green", [0])
    g.apply("play green trade_hands")
    with pytest.raises(IllegalActionError):
        g.apply("trade 0")
    assert g.decision == "choose_player"


@pytest.mark.parametrize(("top", "color"), [("green 3", "green"), ("red trade_hands", "red")])
def test_r4_3_trade_hands_cannot_be_the_last_card(top: str, color: str) -> None:
    """R-4.3: a player may not go out on Trade Hands; with it as the only card they must press."""
    g = attack([["green trade_hands"], ["green 1"], ["yellow 1"]], [top], color, [0])
    assert legal(g) == {"press"}
    with pytest.raises(IllegalActionError):
        g.apply("play green trade_hands")
    assert hand(g, 0) == ["green trade_hands"]


def test_r4_3_trade_hands_playable_on_trade_hands() -> None:
    """R-4.3, R-1.4: Trade Hands matches a Trade Hands of another colour when it is not the last card."""
    g = attack([["green trade_hands", "blue 1", "blue 2"], ["green 1"], ["yellow 1"]], ["red trade_hands"], "red", [0])
    assert "play green trade_hands" in legal(g)


def test_d8_trade_hands_as_next_to_last_card_calls_uno() -> None:
    """D-8: Trade Hands as the next-to-last card offers the UNO call; after a swap to a big hand it is safe."""
    g = attack(
        [["green trade_hands", "yellow 5"], ["green 1"], ["yellow 1", "yellow 2"], DAN],
        ["green 3"],
        "green",
        [0],
    )
    assert "play green trade_hands uno" in legal(g)
    g.apply("play green trade_hands uno")
    g.apply("trade 3")
    assert hand(g, 0) == sorted(DAN)
    assert hand(g, 3) == ["yellow 5"]
    assert "catch 0" not in legal(g, 2)


def test_d8_trade_hands_without_uno_call_safe_with_a_big_new_hand() -> None:
    """D-8: without the call, a player who received several cards in the trade cannot be caught."""
    g = attack(
        [["green trade_hands", "yellow 5"], ["green 1"], ["yellow 1", "yellow 2"], DAN],
        ["green 3"],
        "green",
        [0, 0],
    )
    g.apply("play green trade_hands")
    g.apply("trade 3")
    assert "catch 0" not in legal(g, 2)
    assert "catch 0" not in legal(g, 1)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)
    assert hand(g, 0) == sorted(DAN)


def test_d8_trade_hands_without_uno_call_caught_when_holding_one_card() -> None:
    """D-8: without the call, a player holding exactly one card after the swap can be caught."""
    g = attack(
        [["green trade_hands", "yellow 5"], ["green 1", "green 2"], ["yellow 1", "yellow 2"], ["blue 4"]],
        ["green 3"],
        "green",
        [2, 0],
        draw=["red 6", "red 7"],
    )
    g.apply("play green trade_hands")
    g.apply("trade 3")
    assert hand(g, 0) == ["blue 4"]
    assert "catch 0" in legal(g, 2)
    events = g.apply("catch 0", seat=2)
    assert [e["presser"] for e in presses(events)] == [0, 0]
    assert hand(g, 0) == ["blue 4", "red 6", "red 7"]


def test_d8_trade_hands_with_uno_call_safe_when_holding_one_card() -> None:
    """D-8: with the call made, a one-card hand after the swap cannot be caught."""
    g = attack(
        [["green trade_hands", "yellow 5"], ["green 1", "green 2"], ["yellow 1", "yellow 2"], ["blue 4"]],
        ["green 3"],
        "green",
        [0],
    )
    g.apply("play green trade_hands uno")
    g.apply("trade 3")
    assert hand(g, 0) == ["blue 4"]
    assert "catch 0" not in legal(g, 2)


# --------------------------------------------------------------------------- Wild All Hit
def test_r4_3_wild_all_hit_every_other_player_presses_once() -> None:
    """R-4.3: Wild All Hit: each other player presses once from the next player on and keeps their cards."""
    g = attack(
        [["wild_all_hit", "red 5", "red 6"], ["green 1"], ["yellow 1"], ["blue 1"]],
        ["blue 3"],
        "blue",
        [0, 2, 0],
        draw=["red 8", "yellow 8", "green 9"],
    )
    events = g.apply("play wild_all_hit green")
    assert [e["presser"] for e in presses(events)] == [1, 2, 3]
    assert hand(g, 0) == ["red 5", "red 6"]
    assert hand(g, 1) == ["green 1"]
    assert hand(g, 2) == ["red 8", "yellow 1", "yellow 8"]
    assert hand(g, 3) == ["blue 1"]
    assert g.color == COLOR_NAMES.index("green")
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r4_3_wild_all_hit_follows_the_direction() -> None:
    """R-4.3: the presses of Wild All Hit go in turn order, counterclockwise after a Reverse."""
    g = attack(
        [["wild_all_hit", "red 5", "red 6"], ["green 1"], ["yellow 1"], ["blue 1"]],
        ["blue 3"],
        "blue",
        [1, 0, 2],
        draw=["red 8", "yellow 8", "green 9"],
        direction="counterclockwise",
    )
    events = g.apply("play wild_all_hit red")
    assert [e["presser"] for e in presses(events)] == [3, 2, 1]
    assert hand(g, 3) == ["blue 1", "red 8"]
    assert hand(g, 2) == ["yellow 1"]
    assert hand(g, 1) == ["green 1", "green 9", "yellow 8"]
    assert g.to_act == 3
    assert g.color == COLOR_NAMES.index("red")


# --------------------------------------------------------------------------- Wild Hit-Fire
def test_r4_3_wild_hit_fire_next_presses_until_it_fires() -> None:
    """R-4.3: Wild Hit-Fire: the next player presses until the launcher fires, keeps the cards, loses the turn."""
    g = attack(
        [["wild_hit_fire", "red 5"], ["green 1"], ["yellow 1"], ["blue 1"]],
        ["blue 3"],
        "blue",
        [0, 0, 0, 5],
        draw=["red 8", "yellow 8", "green 9", "blue 9", "red 2", "red 1"],
    )
    events = g.apply("play wild_hit_fire yellow")
    assert [e["presser"] for e in presses(events)] == [1, 1, 1, 1]
    assert hand(g, 1) == ["blue 9", "green 1", "green 9", "red 2", "red 8", "yellow 8"]
    assert hand(g, 2) == ["yellow 1"]
    assert hand(g, 3) == ["blue 1"]
    assert g.color == COLOR_NAMES.index("yellow")
    assert g.to_act == 2
    assert g.decision == "turn"


# --------------------------------------------------------------------------- first card
def seed_where(
    check: Callable[[list[dict[str, Any]]], bool], players: int = 3, **options: object
) -> tuple[int, Game, list[dict[str, Any]]]:
    """The first seed whose set-up events pass ``check``, with its game and events."""
    for seed in range(20_000):
        g, events = Game.new("attack", players, seed, **options)
        if check(events):
            return seed, g, events
    raise AssertionError("no seed found")  # pragma: no cover


def first_card(events: list[dict[str, Any]]) -> str:
    """The first card turned up, as its set-up event names it."""
    return next(str(e["card"]) for e in events if e["type"] == "first_card")


def first_kind_is(kind: str) -> Callable[[list[dict[str, Any]]], bool]:
    """A ``seed_where`` check: the first card is of ``kind`` and no card was sent back."""

    def check(events: list[dict[str, Any]]) -> bool:
        returned = any(e["type"] == "first_card_returned" for e in events)
        return not returned and first_card(events).split()[-1] == kind

    return check


def test_r4_4_first_card_number() -> None:
    """R-4.4, R-1.3: a number first card has no effect: the player left of the dealer starts."""
    _, g, events = seed_where(first_kind_is("5"), launcher="one_card")
    first = (g.dealer + 1) % 3
    assert g.to_act == first
    assert g.decision == "turn"
    assert g.color == COLOR_NAMES.index(first_card(events).split()[0])
    assert all(len(h) == 7 for h in g.hands)


def test_r4_4_first_card_reverse() -> None:
    """R-4.4: a Reverse first card: the dealer plays first and play goes to the right."""
    _, g, _ = seed_where(first_kind_is("reverse"), launcher="one_card")
    dealer = g.dealer
    assert g.to_act == dealer
    g.apply("press")
    assert g.to_act == (dealer - 1) % 3


def test_r4_4_first_card_skip() -> None:
    """R-4.4: a Skip first card skips the player left of the dealer."""
    _, g, _ = seed_where(first_kind_is("skip"), launcher="one_card")
    dealer = g.dealer
    assert g.to_act == (dealer + 2) % 3
    g.apply("press")
    assert g.to_act == dealer  # play still goes to the left


def test_r4_4_first_card_wild() -> None:
    """R-4.4: a Wild first card: the first player names the colour, then plays."""
    _, g, _ = seed_where(first_kind_is("wild"), launcher="one_card")
    first = (g.dealer + 1) % 3
    assert g.decision == "choose_color"
    assert g.to_act == first
    g.apply("color yellow")
    assert g.decision == "turn"
    assert g.to_act == first
    assert g.color == COLOR_NAMES.index("yellow")


def test_r4_4_first_card_hit_2() -> None:
    """R-4.4: a Hit 2 first card: the first player presses twice and loses the turn."""
    _, g, events = seed_where(first_kind_is("hit_2"), launcher="scripted", launcher_script=[0, 3])
    first = (g.dealer + 1) % 3
    assert [e["presser"] for e in presses(events)] == [first, first]
    assert len(g.hands[first]) == 7 + 3
    assert len(g.hands[g.dealer]) == 7
    assert g.to_act == (first + 1) % 3
    assert g.decision == "turn"
    assert g.color == COLOR_NAMES.index(first_card(events).split()[0])


def test_r4_4_first_card_trade_hands_goes_back() -> None:
    """R-4.4: a Trade Hands first card goes back into the deck and another card is turned."""

    def check(events: list[dict[str, Any]]) -> bool:
        returned = [e["card"] for e in events if e["type"] == "first_card_returned"]
        return bool(returned) and all(c.endswith("trade_hands") for c in returned)

    _, g, events = seed_where(check, launcher="one_card")
    top = [g.card_text(t) for t in g.discard]
    assert len(top) == 1
    assert not top[0].endswith("trade_hands")
    assert top[0] == first_card(events)
    cards = whole_game_cards(g)
    assert cards == attack_deck()
    in_launcher = Counter(g.card_text(t) for t in g.draw)
    in_hands = Counter(g.card_text(t) for h in g.hands for t in h)
    for color in COLORS:
        name = f"{color} trade_hands"
        assert in_launcher[name] + in_hands[name] == 1


def test_r4_4_first_card_discard_all() -> None:
    """R-4.4: a Discard All first card: the first player plays its colour or a Discard All, or presses."""
    _, g, events = seed_where(first_kind_is("discard_all"), launcher="one_card")
    first = (g.dealer + 1) % 3
    color = first_card(events).split()[0]
    assert g.to_act == first
    assert g.color == COLOR_NAMES.index(color)
    held = [g.card_text(t) for t in g.hands[first]]
    expected = {
        c for c in held if c.split()[0] == color or c.endswith("discard_all") or c.split()[0].startswith("wild")
    }
    # A wild is offered once per colour ("play wild red"): keep only the card's name.
    played = [a.removeprefix("play ").removesuffix(" uno").split() for a in legal(g) if a.startswith("play ")]
    offered = {words[0] if words[0].startswith("wild") else " ".join(words) for words in played}
    assert offered == expected
    assert "press" in legal(g)
    assert all(len(h) == 7 for h in g.hands)


def test_r4_4_d6_first_card_wild_all_hit() -> None:
    """R-4.4, D-6: a Wild All Hit first card: all but the dealer press once from the dealer's left,
    then the first player names the colour and plays."""
    _, g, events = seed_where(first_kind_is("wild_all_hit"), players=4, launcher="scripted", launcher_script=[1, 0, 2])
    dealer = g.dealer
    order = [(dealer + k) % 4 for k in (1, 2, 3)]
    assert [e["presser"] for e in presses(events)] == order
    assert [len(g.hands[s]) for s in order] == [8, 7, 9]
    assert len(g.hands[dealer]) == 7
    assert g.decision == "choose_color"
    assert g.to_act == order[0]
    g.apply("color blue")
    assert g.decision == "turn"
    assert g.to_act == order[0]
    assert g.color == COLOR_NAMES.index("blue")


def test_r4_4_d6_first_card_wild_hit_fire() -> None:
    """R-4.4, D-6: a Wild Hit-Fire first card: the first player presses until it fires and loses
    the turn; the player after them names the colour and plays."""
    _, g, events = seed_where(first_kind_is("wild_hit_fire"), launcher="scripted", launcher_script=[0, 0, 4])
    first = (g.dealer + 1) % 3
    second = (first + 1) % 3
    assert [e["presser"] for e in presses(events)] == [first, first, first]
    assert len(g.hands[first]) == 7 + 4
    assert g.decision == "choose_color"
    assert g.to_act == second
    g.apply("color green")
    assert g.decision == "turn"
    assert g.to_act == second
    assert g.color == COLOR_NAMES.index("green")


# --------------------------------------------------------------------------- UNO and points
def test_r4_5_uno_penalty_is_two_presses() -> None:
    """R-4.5: a player caught without the UNO call presses the launcher twice and keeps the cards."""
    g = attack(
        [["red 5", "red 6"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]],
        ["red 3"],
        "red",
        [0, 2],
        draw=["blue 1", "blue 2", "blue 3"],
    )
    g.apply("play red 5")
    events = g.apply("catch 0", seat=2)
    assert [e["presser"] for e in presses(events)] == [0, 0]
    assert hand(g, 0) == ["blue 1", "blue 2", "red 6"]
    assert hand(g, 2) == ["yellow 1", "yellow 2"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r4_5_uno_called_is_safe() -> None:
    """R-4.5, R-1.5: a player who calls UNO with the play cannot be made to press."""
    g = attack([["red 5", "red 6"], ["green 1", "green 2"], ["yellow 1"]], ["red 3"], "red", [0])
    g.apply("play red 5 uno")
    assert "catch 0" not in legal(g, 2)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)


BEN = ["red 4", "blue hit_2", "yellow trade_hands", "wild_all_hit"]
CAT = ["green reverse", "yellow skip", "blue discard_all", "wild", "wild_hit_fire", "green 9"]


def test_r4_5_points() -> None:
    """R-4.5: numbers score face value; Reverse, Skip, Hit 2 20; Discard All, Trade Hands 30; wilds 50."""
    g = attack([["red 5"], BEN, CAT], ["red 3"], "red", [0], options={"rounds": 1})
    g.apply("play red 5")
    assert g.is_over
    assert g.winners == [0]
    assert sum(card_points(c) for c in BEN) == 104  # the worked example of docs/rules/attack.md
    assert g.scores == [104 + 179, 0, 0]
    assert sum(card_points(c) for c in CAT) == 179


def test_r4_5_points_count_cards_pressed_after_a_last_hit_2() -> None:
    """R-4.5, R-1.6: a last card Hit 2 makes the next player press first; those cards score."""
    g = attack(
        [["red hit_2"], BEN, CAT],
        ["red 3"],
        "red",
        [0, 2],
        draw=["yellow 8", "wild"],
        options={"rounds": 1},
    )
    g.apply("play red hit_2")
    assert g.is_over
    assert hand(g, 1) == sorted([*BEN, "yellow 8", "wild"])
    assert g.scores == [104 + 8 + 50 + 179, 0, 0]


def test_r4_5_points_count_cards_pressed_after_a_last_wild_all_hit() -> None:
    """R-4.5, R-1.6: a last card Wild All Hit makes every other player press first; those cards score."""
    g = attack(
        [["wild_all_hit"], ["red 4"], ["blue 7"]],
        ["red 3"],
        "red",
        [1, 2],
        draw=["yellow 8", "wild", "green skip"],
        options={"rounds": 1},
    )
    g.apply("play wild_all_hit blue")
    assert g.is_over
    assert hand(g, 1) == ["red 4", "yellow 8"]
    assert hand(g, 2) == ["blue 7", "green skip", "wild"]
    assert g.scores == [4 + 8 + 7 + 50 + 20, 0, 0]


def test_r4_5_points_count_cards_pressed_after_a_last_wild_hit_fire() -> None:
    """R-4.5, R-1.6: a last card Wild Hit-Fire makes the next player press until it fires; those cards score."""
    g = attack(
        [["wild_hit_fire"], ["red 4"], ["blue 7"]],
        ["red 3"],
        "red",
        [0, 0, 2],
        draw=["yellow 8", "blue skip", "green 1"],
        options={"rounds": 1},
    )
    events = g.apply("play wild_hit_fire green")
    assert [e["presser"] for e in presses(events)] == [1, 1, 1]
    assert g.is_over
    assert hand(g, 1) == ["blue skip", "red 4", "yellow 8"]
    assert hand(g, 2) == ["blue 7"]
    assert g.scores == [4 + 8 + 20 + 7, 0, 0]
