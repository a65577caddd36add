"""A review uses only what the reviewed seat saw: its own cards, what was played, hand sizes,
and a belief over the rest (never the hidden hands or the order of the draw pile)."""

from __future__ import annotations

from typing import Any

from unokit.record import GameRecord, RecordingGame
from unokit.review import review_record

from ..helpers import position

MINE = ["red 5", "red 8", "blue 2", "green 6", "yellow 9"]
#: The actions of both records: seat 1 plays the same cards and draws a card seat 0 never sees.
ACTIONS = [(0, "play red 5"), (1, "play red 1"), (0, "draw"), (1, "draw"), (0, "play red 8"), (1, "play red 9")]


def record_with(theirs: list[str], draw: list[str]) -> GameRecord:
    pos: dict[str, Any] = position(
        "classic", hands=[MINE, theirs], discard=["red 3"], color="red", draw=draw, options={"rounds": 1}
    )
    game = RecordingGame.from_position(pos)
    for seat, text in ACTIONS:
        game.apply(text, seat=seat)
    return game.to_record()


#: Two tables that look the same from seat 0: seat 1's other cards, the card it draws and the
#: rest of the draw pile differ; seat 0 draws the same blue 5 in both.
FIRST = record_with(["red 1", "red 9", "blue 7", "green 2", "yellow 3", "wild"], ["blue 5", "green 4", "blue 9"])
SECOND = record_with(
    ["red 1", "red 9", "blue 4", "green 9", "yellow 7", "wild_draw_four"], ["blue 5", "yellow 2", "green 7"]
)


def without_digest(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k != "record_sha256"}


def test_two_records_alike_for_the_seat_give_the_same_review_decision_by_decision() -> None:
    first, second = review_record(FIRST, 0, "low", seed=5), review_record(SECOND, 0, "low", seed=5)
    assert FIRST.actions == SECOND.actions and first.record_sha256 != second.record_sha256
    assert [d.step for d in first.decisions] == [0, 2, 4]
    for a, b in zip(first.decisions, second.decisions, strict=True):
        assert a == b
    assert without_digest(first.to_json()) == without_digest(second.to_json())


def test_the_check_can_fail_the_other_seat_sees_its_own_different_cards() -> None:
    """Reviewed from seat 1, whose own cards differ between the records, the reviews differ:
    the comparison above is not empty."""
    first, second = review_record(FIRST, 1, "low", seed=5), review_record(SECOND, 1, "low", seed=5)
    assert without_digest(first.to_json()) != without_digest(second.to_json())
