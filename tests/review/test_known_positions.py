"""Reviews of constructed positions whose answer is known: each record starts from an exact
position (``docs/formats.md``) and holds the one decision the test reviews."""

from __future__ import annotations

from typing import Any

import pytest

from unokit.bots import temper
from unokit.record import GameRecord, RecordingGame
from unokit.review import MARKS, THRESHOLDS, Decision, mark_for, review_record

from ..helpers import position

OPPONENT = ["blue 1", "blue 2", "green 3", "yellow 4", "green 8"]


def record_of(pos: dict[str, Any], actions: list[tuple[int, str]]) -> GameRecord:
    """A record that starts at ``pos`` and holds ``actions``."""
    game = RecordingGame.from_position(pos)
    for seat, text in actions:
        game.apply(text, seat=seat)
    return game.to_record()


def only_decision(record: GameRecord, effort: str = "low") -> Decision:
    """Seat 0's decision at the record's first step, reviewed."""
    review = review_record(record, 0, effort, seed=3)
    assert [d.step for d in review.decisions] == [0]
    return review.decisions[0]


def chance_of(decision: Decision, action: str) -> float:
    return next(c.chance for c in decision.choices if c.action == action)


def test_playing_the_last_card_wins_and_drawing_instead_is_a_blunder() -> None:
    """R-1.6: a player who plays their last card wins the hand; the review knows it for sure."""
    pos = position("classic", hands=[["red 5"], OPPONENT], discard=["red 3"], color="red", options={"rounds": 1})
    decision = only_decision(record_of(pos, [(0, "draw")]))
    assert decision.best_choice.action == "play red 5"
    assert decision.best_choice.chance == 1.0
    assert decision.played_choice.action == "draw"
    assert decision.mark == "blunder"
    assert decision.drop == pytest.approx(1.0 - decision.played_choice.chance)


def test_a_challengeable_wild_draw_four_while_holding_the_colour_is_marked_and_a_fair_one_is_not() -> None:
    """R-2.3: a Wild Draw Four played while holding a card of the colour in play loses the
    challenge that the other player (who cannot see the hand) is likely to make; the same card
    played fairly is good."""
    bluff = position("classic", hands=[["wild_draw_four", "red 2", "blue 7"], OPPONENT], discard=["red 3"], color="red")
    decision = only_decision(record_of(bluff, [(0, "play wild_draw_four blue")]))
    assert decision.best_choice.action == "play red 2"
    assert decision.drop >= THRESHOLDS["mistake"]
    assert decision.mark in ("mistake", "blunder")
    fair = position(
        "classic", hands=[["wild_draw_four", "green 2", "blue 7"], OPPONENT], discard=["red 3"], color="red"
    )
    decision = only_decision(record_of(fair, [(0, "play wild_draw_four blue")]))
    assert decision.mark == "good"


def test_a_seven_o_trade_with_the_player_holding_one_card() -> None:
    """H-2 (Seven-O): playing a 7 trades hands; against an opponent down to one card, trading
    a hand of five for it is best by far, and playing another card instead is a blunder. The
    kernel does not play Seven-O: the Python engine searches it."""
    pos = position(
        "classic",
        hands=[["red 7", "blue 3", "green 4", "yellow 8", "blue 9"], ["green 1"]],
        discard=["red 3"],
        color="red",
        options={"seven_o": True, "rounds": 1},
    )
    record = record_of(pos, [(0, "play blue 3")])
    review = review_record(record, 0, "normal", seed=3)
    assert review.engine == "python"
    (decision,) = review.decisions
    assert decision.best_choice.action == "play red 7"
    assert decision.mark == "blunder"
    assert chance_of(decision, "play red 7") - chance_of(decision, "draw") >= THRESHOLDS["blunder"]


WPYL = "wild_press_your_luck/purple 4"
DISCARDED = ["red 9/pink 1", "green skip/orange 5", "yellow 1/pink 3"]


def test_pressing_your_luck_when_the_launcher_must_fire_is_marked() -> None:
    """R-5.5, R-6 (UNO Flip Attack's Wild Press Your Luck): after three empty presses in a row
    the launcher fires for sure (``launcher.FIRE_HAZARD``), which the seat has seen: pressing
    again takes its three discards back with the ejected cards, stopping keeps two cards."""
    pos = position(
        "flip_attack",
        hands=[
            ["blue 7/purple 6", "green 9/teal 4"],
            ["red 4/pink 5", "blue 2/teal 2", "green 3/orange 7", "green 5/orange 2", "red 4/teal 8", "blue 3/pink 9"],
        ],
        discard=["red 3/pink 7", *DISCARDED, WPYL],
        color="blue",
        launcher={"model": "random", "empty_streak": 3},
        pending={"kind": "press_your_luck", "seat": 0, "discarded": DISCARDED},
    )
    decision = only_decision(record_of(pos, [(0, "press_again")]), "normal")
    assert decision.decision == "press_your_luck"
    assert decision.best_choice.action == "stop"
    assert decision.drop >= THRESHOLDS["mistake"]


@pytest.mark.parametrize(
    ("drop", "mark"),
    [(0.0, "good"), (0.0499, "good"), (0.05, "inaccuracy"), (0.0999, "inaccuracy"), (0.10, "mistake"),
     (0.1999, "mistake"), (0.20, "blunder"), (1.0, "blunder")],
)  # fmt: skip
def test_the_mark_follows_the_drop(drop: float, mark: str) -> None:
    assert mark_for(drop) == mark


def test_every_reviewed_decision_is_marked_by_its_drop() -> None:
    """In a whole hand, each decision's drop is its best choice's chance less its played one's,
    and its mark is the one its drop earns."""
    game, _ = RecordingGame.new("classic", 2, seed=11, rounds=1)
    from unokit.bots import make_bot
    from unokit.bots.runner import play_game

    play_game(game, [make_bot("easy", 1), make_bot("easy", 2)])
    review = review_record(game.to_record(), 1, "low", seed=1)
    assert review.decisions
    for decision in review.decisions:
        best, played = decision.best_choice, decision.played_choice
        assert best.chance == max(c.chance for c in decision.choices)
        assert decision.drop == pytest.approx(best.chance - played.chance, abs=1e-4)
        assert decision.mark == mark_for(decision.drop)
    assert set(review.marks()) == set(MARKS)


def test_key_moments_tell_the_luck_of_the_draw_from_other_players_moves_and_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A forced draw that brings a wild (or a card that fits nothing) is luck, up (or down); the
    other player's Draw Two is its move, down; drawing instead of playing the last card is a
    decision. The chances as searched (no temperature: the unlucky draw's swing, 7 points, is
    under the threshold of a moment once tempered; ``test_temper.py`` checks the temperature)."""
    monkeypatch.setitem(temper.TEMPERATURES, ("classic", 2), 1.0)
    lone = ["green 4", "yellow 1", "yellow 5"]
    for drawn, up in (("wild", True), ("yellow 8", False)):
        pos = position("classic", hands=[["blue 7"], lone], discard=["red 3"], color="red", draw=[drawn, "green 8"],
                       options={"rounds": 1})  # fmt: skip
        (moment,) = review_record(record_of(pos, [(0, "draw")]), 0, "low", seed=1).moments
        assert (moment.kind, moment.seat, moment.action, moment.step) == ("luck", 0, "draw", 0)
        assert (moment.after > moment.before) is up
    pos = position("classic", hands=[["red 5", "blue 7"], ["red draw_two", *lone[:2]]], discard=["red 3"],
                   color="red", draw=["red 9", "green 8"], options={"rounds": 1})  # fmt: skip
    review = review_record(record_of(pos, [(0, "play red 5 uno"), (1, "play red draw_two")]), 0, "low", seed=1)
    (moment,) = review.moments
    assert (moment.kind, moment.seat, moment.step, moment.line["key"]) == ("move", 1, 1, "action.play")
    assert moment.after < moment.before - THRESHOLDS["inaccuracy"]
    last = position("classic", hands=[["red 5"], OPPONENT], discard=["red 3"], color="red", options={"rounds": 1})
    moments = review_record(record_of(last, [(0, "draw")]), 0, "low", seed=1).moments
    assert [(m.kind, m.before) for m in moments if m.kind == "decision"] == [("decision", 1.0)]


def test_a_play_down_to_one_card_without_uno_is_noted() -> None:
    """R-1.5: a play that leaves one card must call UNO; the search values it as called, and the
    review notes that it was not."""
    pos = position("classic", hands=[["red 5", "blue 7"], OPPONENT], discard=["red 3"], color="red",
                   options={"rounds": 1})  # fmt: skip
    forgot = only_decision(record_of(pos, [(0, "play red 5")]))
    assert forgot.uno_missed and forgot.played_choice.action == "play red 5 uno"
    called = only_decision(record_of(pos, [(0, "play red 5 uno")]))
    assert not called.uno_missed and called.played_choice.action == "play red 5 uno"
