"""The rules held as data: the card-kind table, the variants, typed decisions, out-of-turn
windows, the round result that ``step`` reports, and determinisation."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any

import pytest

import unokit
from tests.helpers import game
from unokit import KINDS, VARIANT_NAMES, VARIANTS, Game, IllegalActionError, RoundResult, View
from unokit.core import cards as C
from unokit.core.actions import Action
from unokit.core.decisions import DECISION_TYPES, Decision
from unokit.core.determinise import Determiniser
from unokit.core.effects import Effects
from unokit.core.rng import Rng
from unokit.core.types import ActionKind, DecisionKind, Seat, WindowKind
from unokit.core.windows import UnoCatch, Window

# --------------------------------------------------------------------------- the card-kind table


def test_kind_ids_are_their_index_and_the_named_constants_agree() -> None:
    assert [kind.id for kind in KINDS] == list(range(len(KINDS)))
    for name in C.__all__:
        value = getattr(C, name)
        if name.isupper() and isinstance(value, int) and name.lower() in C.KIND_BY_NAME:
            assert KINDS[value].name == name.lower()
    assert len({kind.name for kind in KINDS}) == len(KINDS)
    assert len({kind.short for kind in KINDS}) == len(KINDS)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_card_of_every_deck_has_what_the_engine_needs(variant: str) -> None:
    """Each kind in a deck has points in the variant's family; on a variant whose first card
    follows its kind, each light kind says what it does first (or that it goes back)."""
    rules = VARIANTS[variant]
    deck = rules.standard_deck()
    for side in (0, 1) if rules.double_sided else (0,):
        for kind in deck.kinds[side]:
            assert rules.card_points(kind.id) >= 0
            if side == 0 and rules.first_card == "kind":
                assert kind.first is not None or kind.returned_first, kind


def test_the_table_says_what_each_card_does_to_its_victim() -> None:
    """R-2.3, R-3.4, R-4.3, R-5.4: the facts bots read instead of keeping their own lists."""
    by_name = {kind.name: kind for kind in KINDS}
    assert [by_name[n].draws for n in ("draw_one", "draw_two", "draw_five", "wild_draw_two", "wild_draw_four")] == [
        1,
        2,
        5,
        2,
        4,
    ]
    assert [by_name[n].presses for n in ("hit_2", "hit_2x", "hit_5x")] == [2, 2, 5]
    skipping = {kind.name for kind in KINDS if kind.skips}
    assert skipping == {
        "skip",
        "draw_one",
        "draw_two",
        "draw_five",
        "wild_draw_two",
        "wild_draw_four",
        "wild_draw_color",
        "hit_2",
        "hit_2x",
        "hit_5x",
        "wild_hit_fire",
    }
    assert {kind.name for kind in KINDS if kind.challengeable} == {"wild_draw_four", "wild_draw_two", "wild_draw_color"}
    assert by_name["trade_hands"].may_go_out is False
    assert by_name["wild"].points_in("classic") == 50 and by_name["wild"].points_in("flip") == 40


def test_variant_names_and_decks_are_public() -> None:
    assert VARIANT_NAMES[:4] == ("classic", "flip", "attack", "flip_attack")
    assert set(VARIANT_NAMES) == set(VARIANTS)
    sizes = {name: len(unokit.deck_cards(name)) for name in VARIANT_NAMES}
    assert sizes["classic"] == 108
    assert all(size == 112 for name, size in sizes.items() if name != "classic")
    cards = unokit.deck_cards("flip")
    assert Counter(cards)["wild/pink 5"] == 1 and all("/" in card for card in cards)


# --------------------------------------------------------------------------- typed decisions


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_each_decision_writes_and_reads_its_own_json(variant: str) -> None:
    """Every open decision met in a played game is rebuilt equal from its position JSON, and
    its public form only drops hidden facts."""
    g = unokit.new_game(variant, 3, 5, rounds=1)
    rng = Rng(3)
    seen: set[DecisionKind] = set()
    while not g.is_over:
        decision = g.open_decision
        seen.add(decision.kind)
        rebuilt = Game.from_position(json.loads(json.dumps(g.to_position())))
        assert rebuilt.open_decision == decision
        assert isinstance(decision, DECISION_TYPES[decision.kind])
        full = decision.to_json(g)
        for viewer in range(3):
            public = decision.public(g, viewer)
            assert set(public) - {"back"} <= set(full)
            assert "fair" not in public
        actions = g.legal_actions()
        g.apply(actions[rng.below(len(actions))])
    assert DecisionKind.TURN in seen


def test_decisions_are_frozen_values() -> None:
    g = unokit.new_game("classic", 2, 1)
    decision = g.open_decision
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.seat = 1  # type: ignore[misc]
    assert isinstance(decision, Decision) and decision.kind == "turn" == g.decision


# --------------------------------------------------------------------------- windows


def test_the_uno_catch_is_a_window_with_its_responders_in_order() -> None:
    """R-1.5, D-2: the exposed seat answers first (late uno), then the others in turn order."""
    g = game(
        hands=[["red 5", "blue 7"], ["yellow 3", "red 1"], ["green 1", "green 4"]],
        discard=["red 9"],
        color="red",
    )
    assert g.windows == () and g.responders() == []
    g.apply("play red 5")
    windows: list[Window] = list(g.windows)
    assert len(windows) == 1
    window = windows[0]
    assert isinstance(window, UnoCatch) and window.kind == WindowKind.UNO_CATCH and window.seat == 0
    assert g.responders() == [0, 1, 2]
    assert [str(a) for a in g.legal_actions(0)] == ["uno"]
    assert [str(a) for a in g.legal_actions(2)] == ["catch 0"]
    g.apply("play red 1 uno")  # seat 1 acts: the window closes (D-2)
    assert g.windows == () and g.legal_actions(0) == []


@dataclasses.dataclass(frozen=True, slots=True)
class CopyCat(Window):
    """A window of the shape Jump-In needs (not a rule of unokit): any seat but the one to act
    holding a card identical to the top card may play it out of turn; the first to do so takes
    the turn from there, and any in-turn action closes the window."""

    kind = WindowKind.UNO_CATCH  # a test stand-in: no kind of its own

    def _matching(self, game: Effects, seat: Seat) -> list[Action]:
        top = game.discard[-1]
        if seat == game.turn or top not in game.hands[seat]:
            return []
        wild = game.deck.kinds[game.side][top].color_with_play
        return [game.actions.play_action(top, game.color if wild else -1, False)]

    def responders(self, game: Any) -> list[Seat]:
        return [s for s in range(game.n) if self._matching(game, s)]

    def actions(self, game: Any, seat: Seat) -> list[Action]:
        return self._matching(game, seat)

    def answers(self, action: Action, seat: Seat, game: Any) -> bool:
        return action.kind == ActionKind.PLAY and seat != game.turn

    def respond(self, game: Any, seat: Seat, action: Action) -> None:
        game._close_window(self)
        game._play(seat, action.card, action.color, action.uno)

    def closed_by(self, game: Any, seat: Seat) -> bool:
        return True


def test_a_window_lets_several_seats_respond_and_takes_the_first_response() -> None:
    """The window mechanism: legal_actions(seat) lists each seat's out-of-turn actions, the
    first response applied wins, a later one is refused like any illegal action."""
    g = game(
        hands=[["red 5", "blue 7"], ["wild", "yellow 2"], ["wild", "green 4"]],
        discard=["wild"],
        color="red",
    )
    g._open_window(CopyCat())
    assert g.responders() == [1, 2]
    assert [str(a) for a in g.legal_actions(1)] == ["play wild red"]
    assert [str(a) for a in g.legal_actions(2)] == ["play wild red"]
    assert "play wild red" not in [str(a) for a in g.legal_actions(0)]
    events = g.apply("play wild red", seat=2)
    assert events[0]["type"] == "play" and events[0]["seat"] == 2
    assert g.to_act == 0  # play goes on from seat 2
    with pytest.raises(IllegalActionError):
        g.apply("play wild red", seat=1)


# --------------------------------------------------------------------------- step reports round ends


def test_step_returns_the_result_of_the_round_it_ends() -> None:
    """R-1.6, R-1.7: step() returns None until an action ends a round, then its RoundResult;
    apply() leaves the same result in round_ended."""
    g = game(hands=[["red 5"], ["yellow 0", "blue skip"]], discard=["red 3"], color="red", options={"rounds": 2})
    twin = Game.from_position(g.to_position())
    result = g.step(g.legal_actions()[0])
    assert isinstance(result, RoundResult)
    assert (result.round, result.winner, result.points, result.hand_points) == (1, 0, (20, 0), (0, 20))
    assert not result.game_over and not result.blocked
    assert g.round_number == 2 and g.last_round is result
    twin.apply("play red 5")
    assert twin.round_ended == result
    nothing = g.step(g.legal_actions()[-1])
    assert nothing is None and g.round_ended is None


def test_step_reports_the_end_of_the_game() -> None:
    g = game(hands=[["red 5"], ["yellow 3"]], discard=["red 3"], color="red", options={"rounds": 1})
    result = g.step(g.legal_actions()[0])
    assert result is not None and result.game_over and result.winners == (0,) and g.is_over


# --------------------------------------------------------------------------- determinisation


def test_determinisations_keep_the_hand_a_challenge_revealed() -> None:
    """A challenger saw the challenged hand (R-2.3): its samples keep that hand, minus what was
    played since; another seat's samples do not know it."""
    g = game(
        hands=[
            ["wild_draw_four", "red 1", "green 2", "blue 3"],
            ["yellow 3", "yellow 4", "blue 5"],
            ["green 7", "green 8", "red 8"],
        ],
        discard=["blue 8"],
        color="blue",
    )
    g.apply("play wild_draw_four red")
    g.apply("challenge", seat=1)  # unfair: seat 0 held blue 3; seat 0 draws four
    revealed = ["blue 3", "green 2", "red 1"]
    view = View(g, 1)
    assert sorted(g.card_text(t) for t in view.known(0)) == revealed
    assert g.observe(1)["known"] == {"0": revealed}
    assert "known" not in g.observe(2)
    sampler = Determiniser(view)
    for seed in range(10):
        hands, _draw = sampler.sample(seed)
        held = Counter(g.card_text(t) for t in hands[0])
        assert all(held[c] >= 1 for c in revealed)


def test_determinisations_keep_the_hand_given_away_in_a_trade() -> None:
    """R-4.3: after Trade Hands each of the two knows the hand the other now holds."""
    g = game(
        "attack",
        hands=[["red trade_hands", "blue 7", "green 2"], ["yellow 3", "red 1"], ["green 1", "green 4"]],
        discard=["red 9"],
        color="red",
    )
    g.apply("play red trade_hands")
    g.apply("trade 2")
    assert sorted(g.card_text(t) for t in View(g, 0).known(2)) == ["blue 7", "green 2"]
    assert sorted(g.card_text(t) for t in View(g, 2).known(0)) == ["green 1", "green 4"]
    assert View(g, 1).known(0) == []
    sampler = Determiniser(View(g, 0))
    for seed in range(10):
        hands, _ = sampler.sample(seed)
        assert sorted(g.card_text(t) for t in hands[2]) == ["blue 7", "green 2"]


def test_a_hand_back_in_its_seat_is_not_known_as_another_hand_after_two_trades() -> None:
    """R-4.3 twice between the same seats: each seat's hand comes back to it. What a seat knows
    lists other hands only: seat 0 knows the hand it gave seat 1, not its own."""
    g = game(
        "attack",
        hands=[["red trade_hands", "blue trade_hands", "blue 7"], ["yellow 3", "red 1"], ["green 1", "green 4"]],
        discard=["red 9"],
        color="red",
    )
    g.apply("play red trade_hands")
    g.apply("trade 1")  # seat 0 holds yellow 3, red 1; seat 1 holds blue trade_hands, blue 7
    g.apply("play blue trade_hands")  # a Trade Hands goes on a Trade Hands
    g.apply("trade 0")  # back: seat 0 holds blue 7, seat 1 holds yellow 3, red 1
    assert g.observe(0)["known"] == {"1": ["red 1", "yellow 3"]}
    assert g.observe(1)["known"] == {"0": ["blue 7"]}
    assert "known" not in g.observe(2)
    for seat in range(3):
        assert View(g, seat).known(seat) == []


def test_a_hand_back_in_its_seat_is_not_known_as_another_hand_after_a_zero_and_a_seven() -> None:
    """H-2.1: a 0 passes every hand on (each player saw the hand it passed), then seat 1 plays
    the 7 of seat 0's old hand and trades with seat 0, who gets the rest of its hand back."""
    g = game(
        hands=[["red 0", "red 7", "blue 1", "blue 2"], ["green 1", "green 2"], ["yellow 1", "yellow 2", "yellow 3"]],
        discard=["red 4"],
        color="red",
        options={"seven_o": True},
    )
    g.apply("play red 0")  # seat 1: red 7, blue 1, blue 2; seat 2: green 1, green 2; seat 0: the yellows
    g.apply("play red 7")
    g.apply("trade 0")  # seat 0: blue 1, blue 2; seat 1: the yellows
    yellows = ["yellow 1", "yellow 2", "yellow 3"]
    assert g.observe(0)["known"] == {"1": yellows}
    assert g.observe(1)["known"] == {"0": ["blue 1", "blue 2"], "2": ["green 1", "green 2"]}
    assert g.observe(2)["known"] == {"1": yellows}
