"""Scenario tests for the rules common to every variant (R-1.1 to R-1.10) and the engine
decisions D-2, D-4, D-10 and D-11, mostly played with Classic UNO.

Every expected value is derived from the rule text (docs/rules, ../shared/RULES.md), not read
back from the engine.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

import unokit
from tests.helpers import classic_deck, classic_points, event_types, game, hand, legal, of_type
from unokit import Game, IllegalActionError, OptionError
from unokit.core.cards import COLOR_BY_NAME, COLOR_NAMES

COLORS = ("red", "yellow", "green", "blue")
Event = dict[str, Any]


# --------------------------------------------------------------------------- helpers


def rest_of_deck(*used: list[str]) -> list[str]:
    """Every Classic card not named in ``used``, in a fixed order."""
    rest = Counter(classic_deck())
    for cards in used:
        rest -= Counter(cards)
    return sorted(rest.elements())


def cut_value(face: str) -> int:
    """R-1.2: the number on the card; action and wild cards count 0."""
    kind = face.rsplit(maxsplit=1)[-1]
    return int(kind) if kind.isdigit() else 0


# --------------------------------------------------------------------------- players
@pytest.mark.parametrize(
    ("variant", "low", "high"),
    [("classic", 2, 10), ("flip", 2, 10), ("attack", 2, 10), ("flip_attack", 2, 6)],
)
def test_r1_1_player_count_limits(variant: str, low: int, high: int) -> None:
    """R-1.1: each variant accepts exactly its player range; other counts are refused."""
    for players in (low, high):
        g, _ = Game.new(variant, players, 1)
        assert g.players == players
        assert len(g.hands) == players
    for players in (low - 1, high + 1):
        with pytest.raises(OptionError) as info:
            Game.new(variant, players, 1)
        assert str(players) in str(info.value)


def test_r1_1_new_game_refuses_eleven_players_in_classic() -> None:
    """R-1.1: the public helper refuses 11 Classic players with an OptionError."""
    with pytest.raises(OptionError):
        unokit.new_game("classic", 11, seed=3)
    with pytest.raises(OptionError):
        unokit.new_game("classic(players=1)", seed=3)


# --------------------------------------------------------------------------- dealer and deal
def test_r1_2_dealer_is_the_highest_cut() -> None:
    """R-1.2: the dealer holds the single highest card of the (last) cut; actions count 0."""
    saw_action_card = False
    for seed in range(60):
        players = 2 + seed % 9
        g, events = Game.new("classic", players, seed)
        cuts = of_type(events, "cut")
        assert cuts, "the dealer must be chosen by a cut"
        assert set(cuts[0]["cards"]) == {str(s) for s in range(players)}
        last = {int(s): cut_value(face) for s, face in cuts[-1]["cards"].items()}
        best = max(last.values())
        assert [s for s, v in last.items() if v == best] == [g.dealer]
        assert of_type(events, "dealer")[0]["seat"] == g.dealer
        saw_action_card |= any(not f.split()[-1].isdigit() for c in cuts for f in c["cards"].values())
    assert saw_action_card


def test_r1_2_tied_cut_is_cut_again_by_the_tied_players() -> None:
    """R-1.2: when the highest cut is shared, the tied players (only they) cut again."""
    found = 0
    for seed in range(300):
        g, events = Game.new("classic", 4, seed)
        cuts = of_type(events, "cut")
        if len(cuts) < 2:
            continue
        found += 1
        for before, after in itertools.pairwise(cuts):
            values = {int(s): cut_value(face) for s, face in before["cards"].items()}
            best = max(values.values())
            tied = {s for s, v in values.items() if v == best}
            assert len(tied) >= 2
            assert {int(s) for s in after["cards"]} == tied
        last = {int(s): cut_value(face) for s, face in cuts[-1]["cards"].items()}
        assert max(last, key=lambda s: last[s]) == g.dealer
        assert sorted(last.values()).count(last[g.dealer]) == 1
    assert found >= 3, "expected some seeds with a tied cut"


def test_r1_2_flip_cut_uses_the_light_side() -> None:
    """R-1.2: in a two-sided game the first (light) side of the cut cards counts."""
    for seed in range(20):
        _, events = Game.new("flip", 5, seed)
        for cut in of_type(events, "cut"):
            for face in cut["cards"].values():
                words = face.split()
                assert words[0] in (*COLORS, "wild", "wild_draw_two"), face


def test_r1_2_seven_cards_each() -> None:
    """R-1.2: every player is dealt seven cards."""
    for seed in range(9):
        players = 2 + seed
        _, events = Game.new("classic", players, seed)
        deals = of_type(events, "deal")
        assert sorted(e["seat"] for e in deals) == list(range(players))
        assert all(e["count"] == 7 and len(e["cards"]) == 7 for e in deals)


@pytest.mark.parametrize(("dealer", "next_dealer"), [(0, 1), (1, 2), (2, 0)])
def test_r1_2_deal_passes_to_the_left_after_a_round(dealer: int, next_dealer: int) -> None:
    """R-1.2: the next round is dealt by the next seat clockwise."""
    g = game(
        hands=[["red 5"], ["blue 1", "blue 2"], ["green 1", "green 2"]],
        discard=["red 3"],
        color="red",
        turn=0,
        dealer=dealer,
    )
    events = g.apply("play red 5")
    start = of_type(events, "round_start")
    assert start and start[0]["dealer"] == next_dealer
    assert g.dealer == next_dealer


def test_r1_2_deal_rotates_every_round_of_a_whole_game() -> None:
    """R-1.2: over a whole game each round's dealer is the previous dealer's left neighbour."""
    chooser = random.Random(7)
    g, events = Game.new("classic", 3, 12)
    dealers = [e["dealer"] for e in of_type(events, "round_start")]
    for _ in range(100_000):
        if g.is_over:
            break
        dealers += [e["dealer"] for e in of_type(g.apply(chooser.choice(g.legal_actions())), "round_start")]
    assert g.is_over
    assert len(dealers) >= 2
    for a, b in itertools.pairwise(dealers):
        assert b == (a + 1) % 3


# --------------------------------------------------------------------------- who starts
def test_r1_3_player_left_of_dealer_starts_clockwise() -> None:
    """R-1.3: with a number first card, the dealer's left neighbour plays first, clockwise."""
    checked = 0
    for seed in range(80):
        players = 2 + seed % 7
        g, events = Game.new("classic", players, seed)
        first = of_type(events, "first_card")[0]["card"]
        if not first.split()[-1].isdigit():
            continue
        checked += 1
        assert g.to_act == (g.dealer + 1) % players
        assert g.decision == "turn"
        assert g.direction == 1
    assert checked >= 20


# --------------------------------------------------------------------------- matching
def test_r1_4_matches_by_colour_or_number_and_wilds_always() -> None:
    """R-1.4: colour match, number match and any wild are playable; nothing else."""
    g = game(
        hands=[["red 9", "green 5", "blue 7", "yellow skip", "wild"], ["blue 1"], ["green 1"]],
        discard=["red 5"],
        color="red",
    )
    wilds = {f"play wild {c}" for c in COLORS}
    assert legal(g) == {"play red 9", "play green 5", "draw"} | wilds


def test_r1_4_matches_by_symbol() -> None:
    """R-1.4: an action card matches the same action type, not a different one."""
    g = game(
        hands=[["red skip", "red reverse", "red draw_two", "blue 3"], ["blue 1"], ["green 1"]],
        discard=["green skip"],
        color="green",
    )
    assert legal(g) == {"play red skip", "draw"}


def test_r1_4_wild_is_playable_on_anything() -> None:
    """R-1.4: a wild may be played even when nothing else matches."""
    g = game(
        hands=[["wild", "blue 3"], ["blue 1"]],
        discard=["red draw_two"],
        color="red",
    )
    events = g.apply("play wild yellow")
    assert of_type(events, "play")[0]["card"] == "wild"
    assert COLOR_NAMES[g.color] == "yellow"


def test_r1_4_chosen_colour_counts_after_a_wild() -> None:
    """R-1.4: after a wild the named colour is the colour to match."""
    g = game(
        hands=[["wild", "red 1", "red 2"], ["green 2", "red 7", "yellow 5"], ["blue 1"]],
        discard=["red 5"],
        color="red",
    )
    g.apply("play wild green")
    assert g.to_act == 1
    assert legal(g) == {"play green 2", "draw"}


def test_r1_4_non_matching_card_is_refused() -> None:
    """R-1.4: a card that matches neither colour, number nor symbol cannot be played."""
    g = game(hands=[["blue 7", "red 1"], ["blue 1"]], discard=["green 5"], color="green")
    with pytest.raises(IllegalActionError):
        g.apply("play blue 7")
    assert hand(g, 0) == ["blue 7", "red 1"]
    assert g.to_act == 0


def test_r1_4_player_may_decline_a_playable_card_and_draw() -> None:
    """R-1.4: drawing is allowed while holding a playable card."""
    g = game(
        hands=[["red 9", "red 2"], ["blue 1"], ["green 1"]],
        discard=["red 5"],
        color="red",
        draw=["yellow 3"],
    )
    assert "draw" in legal(g)
    assert "play red 9" in legal(g)
    g.apply("draw")
    assert hand(g, 0) == ["red 2", "red 9", "yellow 3"]
    assert g.to_act == 1  # yellow 3 cannot be played, so the turn has passed


# --------------------------------------------------------------------------- calling UNO
def uno_game(**kwargs: Any) -> Game:
    """Seat 0 holds red 5 and blue 7 on a red 3; seats 1 and 2 hold a few cards."""
    return game(
        hands=[["red 5", "blue 7"], ["red 8", "green 1", "green 2"], ["yellow 1", "yellow 2"]],
        discard=["red 3"],
        color="red",
        draw=["green 6", "green 7", "green 8", "green 9"],
        **kwargs,
    )


def test_r1_5_declared_uno_cannot_be_caught() -> None:
    """R-1.5: a player who declares UNO with the play is safe."""
    g = uno_game()
    events = g.apply("play red 5 uno")
    assert of_type(events, "play")[0]["uno"] is True
    assert "catch 0" not in legal(g)
    assert "catch 0" not in legal(g, seat=2)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 7"]


def test_r1_5_undeclared_player_caught_by_next_player_draws_two() -> None:
    """R-1.5: the next player catches a missing call; the culprit draws 2 (Classic)."""
    g = uno_game()
    g.apply("play red 5")
    assert g.uno_exposed == 0
    assert "catch 0" in legal(g)
    events = g.apply("catch 0")
    assert "catch" in event_types(events)
    assert hand(g, 0) == ["blue 7", "green 6", "green 7"]
    assert g.to_act == 1  # catching is not a turn


def test_r1_5_any_other_player_may_catch_out_of_turn() -> None:
    """R-1.5: a player who is not next may catch too."""
    g = uno_game()
    g.apply("play red 5")
    assert "catch 0" in legal(g, seat=2)
    g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 7", "green 6", "green 7"]
    assert g.to_act == 1
    assert g.decision == "turn"


def test_r1_5_late_declaration_before_a_catch_is_safe() -> None:
    """R-1.5: declaring late, before anyone catches, makes the player safe."""
    g = uno_game()
    g.apply("play red 5")
    assert "uno" in legal(g, seat=0)
    g.apply("uno", seat=0)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=1)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 7"]


def test_r1_5_penalty_in_flip_is_two_cards() -> None:
    """R-1.5: in UNO Flip the penalty is two cards drawn."""
    g = game(
        "flip",
        hands=[["red 1/pink 3", "blue 7/orange 3"], ["green 3/purple 2", "green 4/teal 9"]],
        discard=["red 5/pink 2"],
        color="red",
    )
    g.apply("play red 1")
    g.apply("catch 0", seat=1)
    assert len(g.hands[0]) == 1 + 2


def test_r1_5_penalty_in_attack_is_two_presses() -> None:
    """R-1.5, R-4.5: in UNO Attack the penalty is two presses of the launcher."""
    g = game(
        "attack",
        hands=[["red 5", "blue 7"], ["red 8", "green 1"], ["yellow 1", "yellow 2"]],
        discard=["red 3"],
        color="red",
        draw=["green 6", "green 7", "green 8", "green 9"],
        options={"launcher": "scripted", "launcher_script": [2, 1]},
    )
    g.apply("play red 5")
    events = g.apply("catch 0", seat=2)
    presses = [e for e in of_type(events, "press") if e["presser"] == 0]
    assert len(presses) == 2
    assert hand(g, 0) == ["blue 7", "green 6", "green 7", "green 8"]  # 2 + 1 ejected cards


def test_r1_5_discard_all_leaving_one_card_owes_the_call() -> None:
    """R-1.5: a Discard All that leaves one card must be declared, else it can be caught."""
    g = game(
        "attack",
        hands=[["blue discard_all", "blue 2", "blue 9", "red 4"], ["red 8", "green 1"], ["yellow 1"]],
        discard=["blue 7"],
        color="blue",
        draw=["green 6", "green 7"],
        options={"launcher": "scripted", "launcher_script": [1, 1]},
    )
    assert "play blue discard_all uno" in legal(g)
    g.apply("play blue discard_all")
    assert hand(g, 0) == ["red 4"]
    assert "catch 0" in legal(g, seat=1)
    g.apply("catch 0", seat=1)
    assert hand(g, 0) == ["green 6", "green 7", "red 4"]


def test_r1_5_skip_everyone_leaving_one_card_still_owes_the_call() -> None:
    """R-1.5: after a Skip Everyone the player plays again but may still be caught."""
    g = game(
        "flip",
        side="dark",
        hands=[["red 6/pink skip_everyone", "blue 7/orange 3"], ["green 3/purple 2", "green 4/teal 9"]],
        discard=["red 5/pink 2"],
        color="pink",
    )
    g.apply("play pink skip_everyone")
    assert g.to_act == 0
    assert "catch 0" in legal(g, seat=1)
    g.apply("catch 0", seat=1)
    assert len(g.hands[0]) == 1 + 2


# --------------------------------------------------------------------------- D-2 the catch window
def test_d2_window_closes_when_the_next_player_plays() -> None:
    """D-2: once the next player plays, the missing call can no longer be caught."""
    g = uno_game()
    g.apply("play red 5")
    g.apply("play red 8")
    assert "catch 0" not in legal(g, seat=2)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 7"]


def test_d2_window_closes_when_the_next_player_draws() -> None:
    """D-2: drawing also begins the next player's turn and closes the window."""
    g = uno_game()
    g.apply("play red 5")
    g.apply("draw")
    if g.decision == "play_or_keep":
        g.apply("keep")
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 7"]


def test_d2_window_stays_open_when_the_turn_comes_straight_back() -> None:
    """D-2: with two players a Skip gives the turn back; until the player acts, the opponent
    may still catch, and the player may still declare."""
    g = game(
        hands=[["red skip", "blue 7"], ["green 1", "green 2"]],
        discard=["red 3"],
        color="red",
        draw=["yellow 6", "yellow 7"],
    )
    g.apply("play red skip")
    assert g.to_act == 0
    assert "uno" in legal(g)
    assert "catch 0" in legal(g, seat=1)
    g.apply("catch 0", seat=1)
    assert hand(g, 0) == ["blue 7", "yellow 6", "yellow 7"]
    assert g.to_act == 0


def test_d2_window_open_while_the_next_player_decides_a_challenge() -> None:
    """D-2: a Wild Draw Four leaving one card can be caught before the next player answers."""
    g = game(
        hands=[["wild_draw_four", "green 1"], ["red 8", "red 9"], ["yellow 1", "yellow 2"]],
        discard=["green 5"],
        color="green",
        draw=["blue 1", "blue 2"],
    )
    g.apply("play wild_draw_four blue")
    assert g.decision == "challenge"
    g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 1", "blue 2", "green 1"]
    assert g.decision == "challenge"
    assert g.to_act == 1


def test_d2_window_closes_when_the_next_player_accepts_the_wild_draw_four() -> None:
    """D-2: answering the challenge decision is the next player's action; it closes the window."""
    g = game(
        hands=[["wild_draw_four", "blue 1"], ["red 8", "red 9"], ["yellow 1", "yellow 2"]],
        discard=["green 5"],
        color="green",
    )
    g.apply("play wild_draw_four blue")
    g.apply("accept")
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 1"]


def test_d2_late_uno_at_the_start_of_the_returned_turn() -> None:
    """D-2: when the turn comes straight back, the player may still declare before acting."""
    g = game(
        hands=[["red skip", "blue 7"], ["green 1", "green 2"]],
        discard=["red 3"],
        color="red",
    )
    g.apply("play red skip")
    g.apply("uno")
    assert g.to_act == 0
    assert g.decision == "turn"
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=1)
    assert hand(g, 0) == ["blue 7"]


def test_r1_5_play_drawn_leaving_one_card_owes_the_call() -> None:
    """R-1.5: playing the drawn card as the next-to-last card must be declared too."""
    g = game(
        hands=[["blue 7"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]],
        discard=["red 5"],
        color="red",
        draw=["red 9", "green 6", "green 7"],
    )
    g.apply("draw")
    assert legal(g) == {"play_drawn", "play_drawn uno", "keep"}
    g.apply("play_drawn")
    assert g.uno_exposed == 0
    g.apply("catch 0", seat=2)
    assert hand(g, 0) == ["blue 7", "green 6", "green 7"]


def test_d2_only_one_catch() -> None:
    """D-2: a caught player holds three cards and cannot be caught again."""
    g = uno_game()
    g.apply("play red 5")
    g.apply("catch 0", seat=1)
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=2)
    assert len(g.hands[0]) == 3


def test_d2_player_cannot_catch_themselves() -> None:
    """D-2: only another player may catch; the player declares with ``uno`` instead."""
    g = uno_game()
    g.apply("play red 5")
    with pytest.raises(IllegalActionError):
        g.apply("catch 0", seat=0)
    assert hand(g, 0) == ["blue 7"]


# --------------------------------------------------------------------------- round end
def test_r1_6_round_ends_the_moment_a_hand_is_empty() -> None:
    """R-1.6: playing the last card ends the round at once."""
    g = game(
        hands=[["red 5"], ["red 8"], ["red 9"]],
        discard=["red 3"],
        color="red",
        options={"rounds": 1},
    )
    events = g.apply("play red 5")
    assert g.is_over
    assert g.winners == [0]
    assert of_type(events, "round_end")[0]["winner"] == 0
    assert hand(g, 1) == ["red 8"]
    assert hand(g, 2) == ["red 9"]


def test_r1_6_last_draw_two_is_drawn_before_scoring() -> None:
    """R-1.6: the next player draws for a last Draw Two, and those cards count."""
    g = game(
        hands=[["red draw_two"], ["blue 3"], ["green 4"]],
        discard=["red 3"],
        color="red",
        draw=["yellow 9", "yellow 8"],
        options={"rounds": 1},
    )
    g.apply("play red draw_two")
    assert hand(g, 1) == ["blue 3", "yellow 8", "yellow 9"]
    expected = sum(classic_points(c) for c in ["blue 3", "yellow 8", "yellow 9", "green 4"])
    assert g.scores[0] == expected


def test_r1_6_last_hit_2_presses_before_scoring_in_attack() -> None:
    """R-1.6: the next player presses twice for a last Hit 2, and the cards count."""
    g = game(
        "attack",
        hands=[["red hit_2"], ["blue 3"]],
        discard=["red 3"],
        color="red",
        draw=["green 4", "green 6", "yellow 8"],
        options={"launcher": "scripted", "launcher_script": [2, 1], "rounds": 1},
    )
    g.apply("play red hit_2")
    assert hand(g, 1) == ["blue 3", "green 4", "green 6", "yellow 8"]
    assert g.scores[0] == 3 + 4 + 6 + 8


def test_r1_6_last_flip_scores_on_the_new_side() -> None:
    """R-1.6, R-3.9: going out on a Flip scores the other hands on the dark side."""
    dark_points = {"3": 3, "reverse": 20}
    g = game(
        "flip",
        hands=[["red flip/pink 8"], ["red 1/pink 3", "red 2/orange reverse"]],
        discard=["red 5/pink 2"],
        color="red",
        options={"rounds": 1},
    )
    events = g.apply("play red flip")
    assert of_type(events, "round_end")[0]["side"] == "dark"
    assert g.scores[0] == dark_points["3"] + dark_points["reverse"]  # not 1 + 2 on the light side


# --------------------------------------------------------------------------- scoring
def going_out(others: list[list[str]], scores: list[int] | None = None, **kwargs: Any) -> tuple[Game, list[Event]]:
    """Seat 0 goes out with red 5 on red 3; ``others`` are the other hands."""
    hands = [["red 5"], *others]
    extra: dict[str, Any] = {"scores": scores} if scores is not None else {}
    g = game(hands=hands, discard=["red 3"], color="red", **extra, **kwargs)
    return g, g.apply("play red 5")


def test_r1_7_winner_scores_the_other_hands() -> None:
    """R-1.7: by default the player who went out collects the others' card points."""
    others = [["blue 3", "green 7", "blue skip", "wild"], ["yellow 0", "yellow 9", "red draw_two"]]
    g, events = going_out(others)
    expected = sum(classic_points(c) for h in others for c in h)
    end = of_type(events, "round_end")[0]
    assert end["points"] == [expected, 0, 0]
    assert g.scores == [expected, 0, 0]
    assert not g.is_over


def test_r1_7_reaching_500_wins_the_game() -> None:
    """R-1.7: the first total of 500 or more wins."""
    g, _ = going_out([["blue 9", "green 9"], ["yellow 2"]], scores=[480, 300, 0])
    assert g.is_over
    assert g.winner == 0
    assert g.scores[0] == 480 + 9 + 9 + 2


def test_r1_7_below_500_the_game_goes_on() -> None:
    """R-1.7: a total below 500 does not end the game."""
    g, _ = going_out([["blue 9", "green 9"], ["yellow 0"]], scores=[481, 499, 0])
    assert g.scores[0] == 499
    assert not g.is_over
    assert g.round_number == 2


def test_r1_7_target_option_changes_the_winning_total() -> None:
    """R-1.7: with target=50 a total of 50 or more wins (500 is only the default)."""
    g, _ = going_out([["blue 9", "green 9"], ["yellow 2"]], scores=[30, 0, 0], options={"target": 50})
    assert g.scores[0] == 50
    assert g.is_over
    assert g.winner == 0


def test_r1_7_own_hand_each_player_scores_their_own_cards() -> None:
    """R-1.7: with scoring="own_hand" every player adds their own hand's points."""
    others = [["blue 3", "wild"], ["yellow 9", "red draw_two"]]
    g, _ = going_out(others, options={"scoring": "own_hand"})
    assert g.scores == [0, 3 + 50, 9 + 20]
    assert not g.is_over


def test_r1_7_own_hand_lowest_total_wins_when_someone_reaches_500() -> None:
    """R-1.7: with own-hand scoring the game ends at 500 and the lowest total wins."""
    g, _ = going_out([["blue skip"], ["yellow 8", "yellow 2"]], scores=[100, 490, 50], options={"scoring": "own_hand"})
    assert g.scores == [100, 510, 60]
    assert g.is_over
    assert g.winners == [2]
    assert g.winner == 2


def test_d11_own_hand_shared_lowest_total_makes_all_of_them_winners() -> None:
    """D-11: a shared lowest total gives several winners and no single ``winner``."""
    g, _ = going_out([["blue skip"], ["yellow 8", "yellow 2"]], scores=[60, 490, 50], options={"scoring": "own_hand"})
    assert g.scores == [60, 510, 60]
    assert g.is_over
    assert g.winners == [0, 2]
    assert g.winner is None


def test_r1_7_loser_mode_target_200_whoever_reaches_it_loses() -> None:
    """R-1.7: scoring="loser" defaults to target 200; the player reaching it loses, all others win."""
    g, _ = going_out([["blue 9", "blue 6"], ["yellow 5"]], scores=[0, 190, 50], options={"scoring": "loser"})
    assert g.scores == [0, 205, 55]
    assert g.is_over
    assert g.winners == [0, 2]


def test_r1_7_loser_mode_below_target_goes_on() -> None:
    """R-1.7: in loser mode totals below 200 do not end the game."""
    g, _ = going_out([["blue 9", "blue 6"], ["yellow 5"]], scores=[0, 180, 50], options={"scoring": "loser"})
    assert g.scores == [0, 195, 55]
    assert not g.is_over


def test_r1_7_rounds_1_plays_one_hand_won_by_who_went_out() -> None:
    """R-1.7: rounds=1 plays a single hand with no running score; the player who went out
    wins it alone, even when another hand is worth 0 points under own-hand scoring."""
    g, _ = going_out([["blue 1"], ["yellow 0"]], options={"rounds": 1, "scoring": "own_hand"})
    assert g.is_over
    assert g.round_number == 1
    assert g.winners == [0]


@pytest.mark.parametrize("scoring", ["loser", "own_hand"])
def test_d15_one_hand_reaching_the_target_is_won_by_who_went_out(scoring: str) -> None:
    """D-15, R-1.7: with rounds=1 the player who went out wins alone, even when another seat's
    own-hand total passes the target in that hand (which would end a longer game with every
    seat under the target, or the lowest total, winning)."""
    others = [["wild_draw_four", "wild", "blue skip"], ["yellow 1"]]
    g, events = going_out(others, options={"rounds": 1, "scoring": scoring, "target": 50})
    end = of_type(events, "round_end")[0]
    assert end["points"] == [0, 50 + 50 + 20, 1]  # seat 1 passes the target of 50
    assert g.is_over
    assert g.winners == [0]
    assert of_type(events, "game_end")[0]["winners"] == [0]


def test_r1_7_rounds_option_plays_that_many_rounds() -> None:
    """R-1.7: rounds=2 deals a second round after the first and ends after the second."""
    g, _ = going_out([["blue 1"], ["yellow 1"]], options={"rounds": 2})
    assert not g.is_over
    assert g.round_number == 2
    g, _ = going_out([["blue 1"], ["yellow 1"]], options={"rounds": 2}, round=2)
    assert g.is_over


# --------------------------------------------------------------------------- D-10 next round
def test_d10_next_round_is_dealt_at_once_after_a_result_event() -> None:
    """D-10: a finished round is reported, then the next one is dealt straight away."""
    others = [["blue 3", "green 7"], ["yellow 9"]]
    g, events = going_out(others, dealer=2)
    types = event_types(events)
    assert types.index("round_end") < types.index("round_start")
    end = of_type(events, "round_end")[0]
    assert end["winner"] == 0
    assert end["scores"] == [3 + 7 + 9, 0, 0]
    assert g.round_number == 2
    assert g.dealer == 0
    assert not g.is_over
    assert [e["count"] for e in of_type(events, "deal")] == [7, 7, 7]
    assert sum(len(h) for h in g.hands) + len(g.draw) + len(g.discard) == 108


# --------------------------------------------------------------------------- empty draw pile
def test_r1_8_empty_draw_pile_reshuffles_the_discard_pile_but_its_top() -> None:
    """R-1.8: the discard pile except its top card becomes the new draw pile."""
    hands = [["blue 1", "blue 2"], ["yellow 1"]]
    below = rest_of_deck(*hands, ["red 5"])
    g = game(hands=hands, discard=[*below, "red 5"], color="red")
    assert g.draw == []
    events = g.apply("draw")
    reshuffle = of_type(events, "reshuffle")
    assert reshuffle and reshuffle[0]["count"] == len(below)
    assert [g.card_text(t) for t in g.discard] == ["red 5"]
    assert len(g.hands[0]) == 3
    assert len(g.draw) == len(below) - 1
    assert Counter(g.card_text(t) for h in g.hands for t in h) + Counter(
        g.card_text(t) for t in g.draw + g.discard
    ) == Counter(classic_deck())


def test_r1_8_no_card_left_the_draw_does_not_happen() -> None:
    """R-1.8: with no card anywhere to draw, the draw is skipped and recorded as an event."""
    hands = [["blue 1", "blue 2"], ["yellow 1", "yellow 2"]]
    hands.append(rest_of_deck(*hands, ["green 5"]))
    g = game(hands=hands, discard=["green 5"], color="green")
    events = g.apply("draw")
    failed = of_type(events, "draw_failed")
    assert failed and failed[0]["seat"] == 0
    assert hand(g, 0) == ["blue 1", "blue 2"]
    assert g.to_act == 1


def test_r1_8_draw_two_takes_what_the_reshuffle_gives() -> None:
    """R-1.8: a Draw Two with one card beneath the top reshuffles it and draws only that card."""
    hands = [["red draw_two", "red 1"], ["yellow 1", "yellow 2"]]
    hands.append(rest_of_deck(*hands, ["red 5"]))
    g = game(hands=hands, discard=["red 5"], color="red")
    events = g.apply("play red draw_two")
    types = event_types(events)
    assert "reshuffle" in types
    assert "draw_failed" in types
    assert hand(g, 1) == ["red 5", "yellow 1", "yellow 2"]
    assert g.to_act == 2
    assert [g.card_text(t) for t in g.discard] == ["red draw_two"]


# --------------------------------------------------------------------------- D-4 blocked round
def blocked_game(hands: list[list[str]], turn: int, **kwargs: Any) -> Game:
    """All 108 cards in hands but the green 5 on the discard pile; nothing to draw."""
    last = rest_of_deck(*[h for h in hands if h], ["green 5"])
    filled = [h if h else last for h in hands]
    return game(hands=filled, discard=["green 5"], color="green", turn=turn, **kwargs)


def test_d4_a_full_circuit_of_passes_ends_the_round() -> None:
    """D-4: when every player in turn passes without drawing, the round ends; the lowest
    hand wins it."""
    g = blocked_game([["red 1", "red 3"], [], ["blue 1"]], turn=0, options={"rounds": 1})
    g.apply("draw")
    g.apply("draw")
    assert not g.is_over
    assert g.to_act == 2
    events = g.apply("draw")
    assert "blocked" in event_types(events)
    assert of_type(events, "blocked")[0]["winner"] == 2
    assert of_type(events, "round_end")[0]["winner"] == 2
    assert g.is_over
    assert g.winners == [2]


def test_d4_tie_goes_to_the_first_in_turn_order() -> None:
    """D-4: a shared lowest hand goes to the first of the tied players in turn order from the
    current player (the circuit starts at seat 2: seats 2 and 0 tie, seat 2 comes first)."""
    g = blocked_game([["red 1", "red 2"], [], ["blue 1", "blue 2"]], turn=2, options={"rounds": 1})
    for _ in range(3):
        events = g.apply("draw")
    assert of_type(events, "blocked")[0]["winner"] == 2
    assert g.winners == [2]


def test_d4_blocked_round_is_scored_in_the_usual_way() -> None:
    """D-4, R-1.7: the blocked round's winner collects the points of the OTHER hands."""
    g = blocked_game([["red 1"], [], ["blue 2", "yellow 4"]], turn=0, options={"rounds": 1})
    others = [hand(g, 1), hand(g, 2)]
    for _ in range(3):
        g.apply("draw")
    assert g.winners == [0]
    assert g.scores[0] == sum(classic_points(c) for h in others for c in h)


# --------------------------------------------------------------------------- stacking
def draw_two_game(**kwargs: Any) -> Game:
    return game(
        hands=[["red draw_two", "red 1", "red 2"], ["blue draw_two", "red 7", "wild"], ["yellow 1", "yellow 2"]],
        discard=["red 5"],
        color="red",
        draw=["green 1", "green 2", "green 3", "green 4"],
        **kwargs,
    )


def test_r1_9_no_stacking_by_default() -> None:
    """R-1.9: by default a Draw Two cannot be passed on: the next player draws at once."""
    g = draw_two_game()
    g.apply("play red draw_two")
    assert hand(g, 1) == ["blue draw_two", "green 1", "green 2", "red 7", "wild"]
    assert g.to_act == 2
    assert g.decision == "turn"


def test_r1_9_stacking_passes_the_growing_total_on() -> None:
    """R-1.9: with stacking=True a Draw Two answers a Draw Two; the first who does not answer
    draws the whole total and loses the turn."""
    g = draw_two_game(options={"stacking": True})
    g.apply("play red draw_two")
    assert g.to_act == 1
    assert g.decision == "stack"
    assert g.stack_total == 2
    assert legal(g) == {"play blue draw_two", "draw"}
    g.apply("play blue draw_two")
    assert g.to_act == 2
    assert g.stack_total == 4
    assert COLOR_NAMES[g.color] == "blue"
    assert legal(g) == {"draw"}
    g.apply("draw")
    assert hand(g, 2) == ["green 1", "green 2", "green 3", "green 4", "yellow 1", "yellow 2"]
    assert g.to_act == 0
    assert g.decision == "turn"
    assert g.stack_total == 0


def test_r1_9_going_out_on_a_stacked_draw_two_passes_the_whole_total() -> None:
    """R-1.9 with R-1.6: a player who goes out by answering a stack makes the next player
    draw the whole total before the round is scored."""
    g = game(
        hands=[["red draw_two", "red 1", "red 2"], ["blue draw_two"], ["yellow 1"]],
        discard=["red 5"],
        color="red",
        draw=["green 1", "green 2", "green 3", "green 4", "green 5"],
        options={"stacking": True, "rounds": 1},
    )
    g.apply("play red draw_two")
    g.apply("play blue draw_two")
    assert g.is_over
    assert g.winners == [1]
    assert hand(g, 2) == ["green 1", "green 2", "green 3", "green 4", "yellow 1"]
    assert g.scores[1] == sum(
        classic_points(c) for c in ["red 1", "red 2", "green 1", "green 2", "green 3", "green 4", "yellow 1"]
    )


def test_r1_9_wild_draw_four_cannot_answer_a_draw_two() -> None:
    """R-1.9: only the same card type stacks."""
    g = game(
        hands=[["red draw_two", "red 1", "red 2"], ["wild_draw_four", "red 7"], ["yellow 1"]],
        discard=["red 5"],
        color="red",
        options={"stacking": True},
    )
    g.apply("play red draw_two")
    assert legal(g) == {"draw"}
    with pytest.raises(IllegalActionError):
        g.apply("play wild_draw_four blue")


def test_r1_9_stacking_draw_one_in_flip() -> None:
    """R-1.9: in UNO Flip a Draw One answers a Draw One and the total grows by one."""
    g = game(
        "flip",
        hands=[
            ["red draw_one/pink 3", "red 1/purple 2"],
            ["blue draw_one/pink 6", "green 4/teal 9"],
            ["green 3/purple 2", "blue 7/orange 3"],
        ],
        discard=["red 5/pink 2"],
        color="red",
        options={"stacking": True},
    )
    g.apply("play red draw_one")
    g.apply("play blue draw_one")
    assert g.stack_total == 2
    g.apply("draw")
    assert len(g.hands[2]) == 2 + 2
    assert g.to_act == 0


# --------------------------------------------------------------------------- two players
def test_r1_10_two_player_reverse_acts_as_skip() -> None:
    """R-1.10: with two players a Reverse gives the turn straight back."""
    g = game(hands=[["red reverse", "red 1", "red 2"], ["blue 1", "blue 2"]], discard=["red 5"], color="red")
    g.apply("play red reverse")
    assert g.to_act == 0
    assert g.decision == "turn"
    assert hand(g, 1) == ["blue 1", "blue 2"]


def test_r1_10_attack_two_player_skip_gives_the_turn_back() -> None:
    """R-1.10: in two-player UNO Attack a Skip gives the turn straight back."""
    g = game(
        "attack",
        hands=[["red skip", "red 1", "red 2"], ["blue 1", "blue 2"]],
        discard=["red 5"],
        color="red",
        options={"launcher": "scripted", "launcher_script": [0]},
    )
    g.apply("play red skip")
    assert g.to_act == 0


def test_r1_10_attack_two_player_hit_2_gives_the_turn_back() -> None:
    """R-1.10: in two-player UNO Attack a Hit 2 makes the opponent press twice, then the
    player plays again."""
    g = game(
        "attack",
        hands=[["red hit_2", "red 1", "red 2"], ["blue 1", "blue 2"]],
        discard=["red 5"],
        color="red",
        draw=["green 3"],
        options={"launcher": "scripted", "launcher_script": [0, 1]},
    )
    events = g.apply("play red hit_2")
    assert len([e for e in of_type(events, "press") if e["presser"] == 1]) == 2
    assert hand(g, 1) == ["blue 1", "blue 2", "green 3"]
    assert g.to_act == 0


def test_r1_10_two_player_draw_two_gives_the_turn_back() -> None:
    """R-1.10 with R-2.3: with two players a Draw Two's victim loses the turn, so the player
    plays again."""
    g = game(
        hands=[["red draw_two", "red 1"], ["blue 1"]],
        discard=["red 5"],
        color="red",
        draw=["green 1", "green 2"],
    )
    g.apply("play red draw_two")
    assert hand(g, 1) == ["blue 1", "green 1", "green 2"]
    assert g.to_act == 0
    assert COLOR_BY_NAME["red"] == g.color
