"""A review is reproducible and its JSON round-trips; bad input is refused with a typed error."""

from __future__ import annotations

import json
from functools import cache

import pytest

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.record import GameRecord, RecordError, RecordingGame
from unokit.review import FORMAT, Review, ReviewError, review_record
from unokit.review.analysis import estimate_steps


def short_game() -> GameRecord:
    """A short scored game of 2-player Classic between rule-based bots (target 40 points)."""
    game, _ = RecordingGame.new("classic", 2, seed=21, target=40)
    play_game(game, [make_bot("normal", 1), make_bot("normal", 2)])
    return game.to_record()


RECORD = short_game()


@cache
def reviewed() -> Review:
    """The review of seat 1 at low effort, seed 2 (made once)."""
    return review_record(RECORD, 1, "low", seed=2)


def test_same_record_effort_and_seed_give_the_same_review() -> None:
    first = review_record(RECORD, 0, "low", seed=9)
    again = review_record(RECORD, 0, "low", seed=9)
    assert first.to_json() == again.to_json()
    assert first.scored and first.rounds and all(p.game is not None for p in first.points if p.actor is not None)
    other = review_record(RECORD, 0, "low", seed=10)
    assert other.to_json() != first.to_json()  # the seed is used


def test_the_estimates_do_not_depend_on_how_the_steps_are_shared() -> None:
    """Each state's estimate is seeded by its step: estimated alone, in another chunk, or in
    the whole walk, a step gets the same numbers (so any number of workers gives one review)."""
    steps = list(range(0, 40, 3))
    together = estimate_steps(RECORD, 1, "low", 4, steps)
    apart = [e for step in reversed(steps) for e in estimate_steps(RECORD, 1, "low", 4, [step])]
    assert together == sorted(apart, key=lambda e: e.step)


def test_the_json_round_trips() -> None:
    review = reviewed()
    assert len(review.rounds) >= 2
    text = json.dumps(review.to_json())
    back = Review.from_json(json.loads(text))
    assert back == review
    assert json.dumps(back.to_json()) == text
    assert review.to_json()["format"] == FORMAT


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o.update(format="unokit-review/9"), "format"),
        (lambda o: o["decisions"][0].update(mark="awful"), "mark"),
        (lambda o: o["points"][0].update(chance=1.5), "chance"),
        (lambda o: o.pop("seat"), "seat"),
        (lambda o: o["decisions"][0].update(played=99), "played"),
    ],
)
def test_a_malformed_review_is_refused_naming_the_problem(change: object, message: str) -> None:
    obj = reviewed().to_json()
    change(obj)  # type: ignore[operator]
    with pytest.raises(ReviewError, match=message):
        Review.from_json(obj)


def test_bad_requests_are_refused_and_nothing_runs() -> None:
    with pytest.raises(ReviewError, match="seat 2 is not at this table"):
        review_record(RECORD, 2)
    with pytest.raises(ReviewError, match="unknown effort 'huge'"):
        review_record(RECORD, 0, "huge")
    with pytest.raises(ReviewError, match="workers"):
        review_record(RECORD, 0, workers=0)
    broken = GameRecord.from_json({**RECORD.to_json(), "actions": [[0, "play wild_draw_four red"]]})
    with pytest.raises(RecordError, match="action 1 of 1"):
        review_record(broken, 0)
