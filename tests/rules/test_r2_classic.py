"""Scenario tests for Classic UNO (R-2.1 to R-2.5) and engine decision D-3.

Every expected value is derived from the rule text (docs/rules/classic.md, ../shared/RULES.md),
not read back from the engine.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.helpers import all_cards, classic_deck, classic_points, event_types, game, hand, legal, of_type, position
from unokit import Game, IllegalActionError, InvalidActionError, PositionError
from unokit.core.cards import COLOR_NAMES
from unokit.core.rng import Rng

COLORS = ("red", "yellow", "green", "blue")
Event = dict[str, Any]


# --------------------------------------------------------------------------- helpers


# --------------------------------------------------------------------------- deck
def test_r2_1_deck_has_108_cards_of_the_listed_kinds() -> None:
    """R-2.1: per colour one 0, two each of 1-9, Skip, Reverse, Draw Two; 4 Wild, 4 WD4."""
    for seed in (1, 2, 3):
        g, _ = Game.new("classic", 4, seed)
        cards = Counter(all_cards(g))
        assert sum(cards.values()) == 108
        assert cards == Counter(classic_deck())


def test_r2_1_counts_per_kind() -> None:
    """R-2.1: the deck holds 4 zeros, 8 of every other number, 8 of each coloured action."""
    g, _ = Game.new("classic", 2, 5)
    by_kind = Counter(text.split()[-1] for text in all_cards(g))
    assert by_kind["0"] == 4
    for n in range(1, 10):
        assert by_kind[str(n)] == 8
    for kind in ("skip", "reverse", "draw_two"):
        assert by_kind[kind] == 8
    assert by_kind["wild"] == 4
    assert by_kind["wild_draw_four"] == 4


@pytest.mark.parametrize(("card", "copies"), [("red 0", 1), ("blue 7", 2), ("green skip", 2), ("wild", 4)])
def test_r2_1_positions_cannot_name_more_copies_than_the_deck_has(card: str, copies: int) -> None:
    """R-2.1: naming one copy more than the deck holds is refused."""
    ok = position(hands=[[card] * copies, ["yellow 1"]], discard=["yellow 2"], color="yellow")
    Game.from_position(ok)
    bad = position(hands=[[card] * (copies + 1), ["yellow 1"]], discard=["yellow 2"], color="yellow")
    with pytest.raises(PositionError):
        Game.from_position(bad)


# --------------------------------------------------------------------------- drawing
def drawing_game(drawn: str, held: list[str] | None = None, **kwargs: Any) -> Game:
    """Seat 0 (of 3) on a red 5 holds ``held`` and will draw ``drawn``."""
    return game(
        hands=[held or ["blue 7", "green 8"], ["yellow 1", "yellow 2"], ["green 1", "green 2"]],
        discard=["red 5"],
        color="red",
        draw=[drawn, "blue 1", "blue 2"],
        **kwargs,
    )


def test_r2_2_playable_drawn_card_may_be_played_at_once() -> None:
    """R-2.2: a drawn playable card may be played straight away."""
    g = drawing_game("red 9")
    g.apply("draw")
    assert g.decision == "play_or_keep"
    assert g.to_act == 0
    assert legal(g) == {"play_drawn", "keep"}
    events = g.apply("play_drawn")
    assert of_type(events, "play")[0]["card"] == "red 9"
    assert g.card_text(g.discard[-1]) == "red 9"
    assert hand(g, 0) == ["blue 7", "green 8"]
    assert g.to_act == 1


def test_r2_2_only_the_drawn_card_may_be_played() -> None:
    """R-2.2: after drawing, another playable card from the hand may not be played."""
    g = drawing_game("red 9", held=["red 3", "green 8"])
    g.apply("draw")
    assert not any(a.startswith("play ") for a in legal(g))
    with pytest.raises(IllegalActionError):
        g.apply("play red 3")
    assert hand(g, 0) == ["green 8", "red 3", "red 9"]


def test_r2_2_keeping_the_drawn_card_ends_the_turn() -> None:
    """R-2.2: a player who does not play the drawn card loses the rest of the turn."""
    g = drawing_game("red 9")
    g.apply("draw")
    g.apply("keep")
    assert hand(g, 0) == ["blue 7", "green 8", "red 9"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r2_2_unplayable_drawn_card_ends_the_turn() -> None:
    """R-2.2: if the drawn card cannot be played, the turn passes."""
    g = drawing_game("yellow 4")
    g.apply("draw")
    assert hand(g, 0) == ["blue 7", "green 8", "yellow 4"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r2_2_a_turn_draw_tells_the_card_to_its_drawer_only() -> None:
    """R-2.2: the draw of a turn is one event whose card only the drawer sees; it has the form
    of every other draw's event (the one-card draw builds it on its own path)."""
    g = drawing_game("yellow 4")
    (event,) = g.apply("draw")
    assert event == {"type": "draw", "seat": 0, "count": 1, "reason": "turn", "cards": ["yellow 4"], "private": [0]}
    other = drawing_game("yellow 4")
    recorded: list[dict[str, Any]] = []
    other._ev = recorded
    other._cards_event("draw", 0, [other.draw[-1]], "turn")
    assert recorded == [event]


def test_r2_2_drawn_wild_is_played_with_a_colour() -> None:
    """R-2.2, R-1.4: a drawn wild is playable; its player names the colour."""
    g = drawing_game("wild")
    g.apply("draw")
    assert legal(g) == {f"play_drawn {c}" for c in COLORS} | {"keep"}
    g.apply("play_drawn green")
    assert COLOR_NAMES[g.color] == "green"
    assert g.to_act == 1


def test_r2_2_a_drawn_wild_played_without_a_colour_asks_for_one() -> None:
    """R-2.2, R-1.4: 'play_drawn' for a drawn wild is refused like 'play wild' without a colour:
    the message asks for the colour, and nothing changes."""
    g = drawing_game("wild")
    g.apply("draw")
    before = g.to_position()
    with pytest.raises(IllegalActionError, match=r"name a colour for wild, e\.g\. 'play_drawn red'"):
        g.apply("play_drawn")
    with pytest.raises(IllegalActionError, match="name a colour for wild"):
        g.apply(g.actions.drawn)  # the same as an Action
    assert g.to_position() == before


def test_r2_2_a_drawn_coloured_card_takes_no_colour() -> None:
    """R-2.2: only a wild names a colour when played."""
    g = drawing_game("red 9")
    g.apply("draw")
    with pytest.raises(InvalidActionError, match="not a wild card"):
        g.apply("play_drawn blue")


def test_r2_2_one_card_only() -> None:
    """R-2.2: a turn's draw is exactly one card."""
    g = drawing_game("yellow 4")
    before = len(g.draw)
    g.apply("draw")
    assert len(g.draw) == before - 1
    assert len(g.hands[0]) == 3


# --------------------------------------------------------------------------- Draw Two, WD4
def test_r2_3_draw_two_next_draws_two_and_loses_the_turn() -> None:
    """R-2.3: Draw Two: the next player draws 2 and loses the turn."""
    g = game(
        hands=[["red draw_two", "red 1", "red 2"], ["blue 1"], ["green 1"]],
        discard=["red 5"],
        color="red",
        draw=["yellow 6", "yellow 7", "yellow 8"],
    )
    events = g.apply("play red draw_two")
    assert hand(g, 1) == ["blue 1", "yellow 6", "yellow 7"]
    assert of_type(events, "draw")[0]["seat"] == 1
    assert g.to_act == 2
    assert g.decision == "turn"


def wd4_game(seat0: list[str], top: str = "green 5", color: str = "green", **kwargs: Any) -> Game:
    """Seat 0 of 3 holds ``seat0`` (with a Wild Draw Four) on ``top``; six named draw cards."""
    return game(
        hands=[seat0, ["red 8", "red 9"], ["yellow 1", "yellow 2"]],
        discard=[top],
        color=color,
        draw=["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6"],
        **kwargs,
    )


def test_r2_3_wild_draw_four_accepted_next_draws_four_and_loses_the_turn() -> None:
    """R-2.3: an unchallenged Wild Draw Four: the next player draws 4 and loses the turn."""
    g = wd4_game(["wild_draw_four", "red 1", "blue 9"])
    g.apply("play wild_draw_four blue")
    assert g.decision == "challenge"
    assert g.to_act == 1
    assert legal(g) == {"challenge", "accept"}
    g.apply("accept")
    assert hand(g, 1) == ["blue 1", "blue 2", "blue 3", "blue 4", "red 8", "red 9"]
    assert len(g.hands[0]) == 2
    assert g.to_act == 2
    assert COLOR_NAMES[g.color] == "blue"


def test_r2_3_unfair_wild_draw_four_is_a_legal_bluff() -> None:
    """R-2.3: with bluffing on (default) the card may be played while holding the colour."""
    g = wd4_game(["wild_draw_four", "green 2", "blue 7"])
    assert {f"play wild_draw_four {c}" for c in COLORS} <= legal(g)


def test_r2_3_unfair_wild_draw_four_challenge_succeeds() -> None:
    """R-2.3: an unfair play challenged: its player draws 4, the challenger keeps the turn."""
    g = wd4_game(["wild_draw_four", "green 2", "blue 7"])
    g.apply("play wild_draw_four blue")
    events = g.apply("challenge")
    assert of_type(events, "challenge")[0]["success"] is True
    assert hand(g, 0) == ["blue 1", "blue 2", "blue 3", "blue 4", "blue 7", "green 2"]
    assert hand(g, 1) == ["red 8", "red 9"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r2_3_fair_wild_draw_four_challenge_fails() -> None:
    """R-2.3: a fair play challenged: the challenger draws 4 + 2 = 6 and loses the turn."""
    g = wd4_game(["wild_draw_four", "red 1", "blue 7"])
    g.apply("play wild_draw_four blue")
    events = g.apply("challenge")
    assert of_type(events, "challenge")[0]["success"] is False
    assert len(g.hands[1]) == 2 + 6
    assert hand(g, 0) == ["blue 7", "red 1"]
    assert g.to_act == 2
    assert g.decision == "turn"


def test_r2_3_number_match_does_not_make_wild_draw_four_unfair() -> None:
    """R-2.3: only a card of the current colour makes the play unfair, not one of the same number."""
    g = wd4_game(["wild_draw_four", "red 5", "blue 7"])
    g.apply("play wild_draw_four yellow")
    g.apply("challenge")
    assert len(g.hands[1]) == 2 + 6
    assert len(g.hands[0]) == 2


def test_r2_3_held_wild_does_not_make_wild_draw_four_unfair() -> None:
    """R-2.3: a wild has no colour, so holding one does not make the play unfair."""
    g = wd4_game(["wild_draw_four", "wild", "blue 7"])
    g.apply("play wild_draw_four red")
    g.apply("challenge")
    assert len(g.hands[1]) == 2 + 6
    assert len(g.hands[0]) == 2


def test_r2_3_current_colour_after_a_wild_is_the_named_colour() -> None:
    """R-2.3: on a wild, the named colour is the one that must not be held."""
    g = wd4_game(["wild_draw_four", "blue 7", "red 1"], top="wild", color="blue")
    g.apply("play wild_draw_four green")
    g.apply("challenge")
    assert len(g.hands[0]) == 2 + 4
    assert g.to_act == 1
    g = wd4_game(["wild_draw_four", "green 7", "red 1"], top="wild", color="blue")
    g.apply("play wild_draw_four green")
    g.apply("challenge")
    assert len(g.hands[1]) == 2 + 6
    assert g.to_act == 2


def test_r1_4_a_colour_of_another_game_is_refused_in_the_games_words() -> None:
    """R-1.4: a wild names one of the four Classic colours; pink is refused with a message that
    names the game (Classic has no sides), and nothing changes."""
    g = drawing_game("wild")
    g.apply("draw")
    before = g.to_position()
    with pytest.raises(IllegalActionError, match=r"^pink is not a colour of Classic UNO$"):
        g.apply("play_drawn pink")
    assert g.to_position() == before


def test_r2_3_only_the_next_player_may_challenge() -> None:
    """R-2.3: the challenge belongs to the next player."""
    g = wd4_game(["wild_draw_four", "green 2", "blue 7"])
    g.apply("play wild_draw_four blue")
    assert "challenge" not in legal(g, seat=2)
    with pytest.raises(IllegalActionError):
        g.apply("challenge", seat=2)
    assert len(g.hands[0]) == 2


def test_r2_3_no_bluffing_unfair_wild_draw_four_is_not_legal() -> None:
    """R-2.3: with bluffing=False an unfair Wild Draw Four is not listed and is refused."""
    g = wd4_game(["wild_draw_four", "green 2", "blue 7"], options={"bluffing": False})
    assert not any(a.startswith("play wild_draw_four") for a in legal(g))
    with pytest.raises(IllegalActionError):
        g.apply("play wild_draw_four blue")
    assert len(g.hands[0]) == 3


def test_r2_3_no_bluffing_fair_wild_draw_four_is_not_challenged() -> None:
    """R-2.3: with bluffing=False a fair Wild Draw Four hits at once; no challenge is offered."""
    g = wd4_game(["wild_draw_four", "red 1", "blue 7"], options={"bluffing": False})
    assert "play wild_draw_four blue" in legal(g)
    events = g.apply("play wild_draw_four blue")
    assert "challenge" not in event_types(events)
    assert g.decision == "turn"
    assert hand(g, 1) == ["blue 1", "blue 2", "blue 3", "blue 4", "red 8", "red 9"]
    assert g.to_act == 2


def test_r2_3_no_bluffing_drawn_unfair_wild_draw_four_cannot_be_played() -> None:
    """R-2.3: with bluffing=False a drawn Wild Draw Four is not playable while holding the colour."""
    g = game(
        hands=[["green 2", "blue 7"], ["red 8"], ["yellow 1"]],
        discard=["green 5"],
        color="green",
        draw=["wild_draw_four"],
        options={"bluffing": False},
    )
    g.apply("draw")
    assert g.decision == "turn"
    assert g.to_act == 1
    assert hand(g, 0) == ["blue 7", "green 2", "wild_draw_four"]


# --------------------------------------------------------------------------- D-27
WILDS_COUNT = {"wild_counts_as_color_match": True}


def test_d27_a_held_wild_counts_as_the_colour_but_another_wild_draw_four_does_not() -> None:
    """D-27 (R-2.3 with wild_counts_as_color_match): a held Wild makes the play unfair; a second
    Wild Draw Four does not, so the challenge of a hand of two fails (4 + 2 cards)."""
    held_wild = wd4_game(["wild_draw_four", "wild", "blue 7"], options=WILDS_COUNT)
    held_wild.apply("play wild_draw_four red")
    assert of_type(held_wild.apply("challenge"), "challenge")[0]["success"] is True
    assert len(held_wild.hands[0]) == 2 + 4
    two = wd4_game(["wild_draw_four", "wild_draw_four", "blue 7"], options=WILDS_COUNT)
    two.apply("play wild_draw_four red")
    assert of_type(two.apply("challenge"), "challenge")[0]["success"] is False
    assert len(two.hands[1]) == 2 + 6
    assert hand(two, 0) == ["blue 7", "wild_draw_four"]
    assert two.to_act == 2


def test_d27_without_bluffing_two_wild_draw_fours_can_each_be_played() -> None:
    """D-27: with bluffing=false the pair is playable: a hand of two Wild Draw Fours (and no
    card of the colour) plays the first, then the second, which it could never do if each
    counted as a card of the colour for the other."""
    options = {**WILDS_COUNT, "bluffing": False}
    g = game(
        hands=[["wild_draw_four", "wild_draw_four", "blue 7"], ["red 8", "red 9"]],
        discard=["green 5"],
        color="green",
        draw=["blue 1", "blue 2", "blue 3", "blue 4", "yellow 1", "yellow 2", "yellow 3", "yellow 4"],
        options=options,
    )
    assert legal(g) == {f"play wild_draw_four {c}" for c in COLORS} | {"draw"}
    g.apply("play wild_draw_four red")  # two players: the other draws four and is skipped
    assert hand(g, 1) == ["blue 1", "blue 2", "blue 3", "blue 4", "red 8", "red 9"]
    assert g.to_act == 0
    plays = {f"play wild_draw_four {c}" for c in COLORS}
    assert legal(g) == plays | {f"{play} uno" for play in plays} | {"draw"}  # blue 7 is not red


def test_d27_without_bluffing_a_held_wild_blocks_a_wild_draw_four_and_is_playable_itself() -> None:
    """D-27: the card that makes a Wild Draw Four unfair (a Wild, or a card of the colour) can
    always be played, so no hand is ever stuck with a Wild Draw Four it may not play."""
    g = wd4_game(["wild_draw_four", "wild", "blue 7"], options={**WILDS_COUNT, "bluffing": False})
    assert legal(g) == {f"play wild {c}" for c in COLORS} | {"draw"}
    g = wd4_game(["wild_draw_four", "green 2", "blue 7"], options={**WILDS_COUNT, "bluffing": False})
    assert legal(g) == {"play green 2", "draw"}


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_d27_without_bluffing_every_round_ends(variant: str) -> None:
    """D-27: random play under bluffing=false and wild_counts_as_color_match=true finishes
    every round (two players, the table where two Wild Draw cards each could lock a round)."""
    for seed in range(20):
        g = Game.new(variant, 2, seed, bluffing=False, wild_counts_as_color_match=True, rounds=1)[0]
        chooser = Rng(seed)
        for _ in range(5000):
            if g.is_over:
                break
            g.apply(chooser.choice(g.legal_actions()))
        assert g.is_over, (variant, seed)


# --------------------------------------------------------------------------- D-3
def test_d3_last_wild_draw_four_is_not_challenged_but_drawn_before_scoring() -> None:
    """D-3: a Wild Draw Four as last card ends the round; no challenge; the 4 cards count."""
    g = game(
        hands=[["wild_draw_four"], ["blue 3"], ["red 4"]],
        discard=["green 5"],
        color="green",
        draw=["yellow 1", "yellow 2", "yellow 3", "yellow 4"],
        options={"rounds": 1},
    )
    events = g.apply("play wild_draw_four red")
    assert "challenge" not in event_types(events)
    assert g.decision == "over"
    assert hand(g, 1) == ["blue 3", "yellow 1", "yellow 2", "yellow 3", "yellow 4"]
    expected = sum(classic_points(c) for c in hand(g, 1) + hand(g, 2))
    assert g.scores[0] == expected


def test_d3_last_wild_draw_four_then_next_round() -> None:
    """D-3: in a running game the round ends at once (no challenge decision) and the
    drawn cards are in the reported hand points."""
    g = game(
        hands=[["wild_draw_four"], ["blue 3"], ["red 4"]],
        discard=["green 5"],
        color="green",
        draw=["yellow 1", "yellow 2", "yellow 3", "yellow 4"],
    )
    events = g.apply("play wild_draw_four red")
    end = of_type(events, "round_end")[0]
    assert end["hand_points"] == [0, 3 + 1 + 2 + 3 + 4, 4]
    assert g.round_number == 2
    assert g.decision != "challenge"


# --------------------------------------------------------------------------- first card
def first_card_game(kind: str, players: int = 4) -> tuple[Game, list[Event]]:
    """A new Classic game whose first turned-up card (after any returned WD4) is of ``kind``."""
    for seed in range(3000):
        g, events = Game.new("classic", players, seed)
        first = of_type(events, "first_card")
        if first and first[0]["card"].split()[-1] == kind:
            return g, events
    raise AssertionError(f"no seed gives a first {kind}")


def test_r2_4_first_wild_draw_four_goes_back_and_another_is_turned() -> None:
    """R-2.4: a Wild Draw Four turned up first goes back into the deck."""
    found = 0
    for seed in range(400):
        g, events = Game.new("classic", 4, seed)
        types = event_types(events)
        if "first_card_returned" not in types:
            continue
        found += 1
        returned = of_type(events, "first_card_returned")
        assert all(e["card"] == "wild_draw_four" for e in returned)
        assert types.index("first_card_returned") < types.index("first_card")
        first = of_type(events, "first_card")[0]["card"]
        assert first != "wild_draw_four"
        assert [g.card_text(t) for t in g.discard] == [first]
        assert Counter(all_cards(g)) == Counter(classic_deck())
        in_play = [g.card_text(t) for h in g.hands for t in h] + [g.card_text(t) for t in g.draw]
        assert in_play.count("wild_draw_four") == 4
    assert found >= 2


def test_r2_4_first_wild_first_player_chooses_colour_then_plays() -> None:
    """R-2.4: a Wild first: the first player names the colour and then plays."""
    g, _ = first_card_game("wild")
    first = (g.dealer + 1) % 4
    assert g.decision == "choose_color"
    assert g.to_act == first
    assert legal(g) == {f"color {c}" for c in COLORS}
    g.apply("color green")
    assert COLOR_NAMES[g.color] == "green"
    assert g.to_act == first
    assert g.decision == "turn"


def test_r2_4_first_draw_two_first_player_draws_two_and_loses_the_turn() -> None:
    """R-2.4: a Draw Two first: the first player draws 2 and the next player starts."""
    g, _ = first_card_game("draw_two")
    first = (g.dealer + 1) % 4
    assert len(g.hands[first]) == 7 + 2
    assert [len(g.hands[s]) for s in range(4) if s != first] == [7, 7, 7]
    assert g.to_act == (g.dealer + 2) % 4
    assert g.decision == "turn"


def test_r2_4_first_skip_first_player_is_skipped() -> None:
    """R-2.4: a Skip first: the player left of the dealer is skipped."""
    g, _ = first_card_game("skip")
    assert g.to_act == (g.dealer + 2) % 4
    assert [len(h) for h in g.hands] == [7, 7, 7, 7]
    assert g.direction == 1


def test_r2_4_first_reverse_dealer_starts_and_play_goes_right() -> None:
    """R-2.4: a Reverse first: the dealer plays first and play goes to the right."""
    g, _ = first_card_game("reverse")
    dealer = g.dealer
    assert g.to_act == dealer
    assert g.direction == -1
    g.apply("draw")
    if g.decision == "play_or_keep":
        g.apply("keep")
    assert g.to_act == (dealer - 1) % 4


def test_r2_4_first_number_nothing_happens() -> None:
    """R-2.4 (with R-1.3): a number first: the player left of the dealer starts, clockwise."""
    g, events = first_card_game("7")
    assert g.to_act == (g.dealer + 1) % 4
    assert g.direction == 1
    assert COLOR_NAMES[g.color] == of_type(events, "first_card")[0]["card"].split()[0]


# --------------------------------------------------------------------------- points
@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("blue 0", 0),
        ("blue 1", 1),
        ("yellow 7", 7),
        ("green 9", 9),
        ("yellow skip", 20),
        ("green reverse", 20),
        ("blue draw_two", 20),
        ("wild", 50),
        ("wild_draw_four", 50),
    ],
)
def test_r2_5_card_points(card: str, points: int) -> None:
    """R-2.5: numbers face value, coloured actions 20, wilds 50."""
    g = game(hands=[["red 5"], [card]], discard=["red 3"], color="red", options={"rounds": 1})
    events = g.apply("play red 5")
    assert of_type(events, "round_end")[0]["hand_points"] == [0, points]
    assert g.scores[0] == points


def test_r2_5_worked_example_scores_112() -> None:
    """R-2.5, R-1.7: the worked example of docs/rules/classic.md: 80 + 29 + 3 = 112."""
    others = [["red 3", "green 7", "blue skip", "wild"], ["yellow 0", "yellow 9", "red draw_two"], ["blue 1", "blue 2"]]
    g = game(hands=[["red 5"], *others], discard=["red 8"], color="red", options={"rounds": 1})
    events = g.apply("play red 5")
    assert of_type(events, "round_end")[0]["hand_points"] == [0, 80, 29, 3]
    assert g.scores == [112, 0, 0, 0]
