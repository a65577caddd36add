"""Hints: the engine side (``unokit.bots.advice.advise``), their marks in a record
(``meta.hints``, versioned, read by old readers), the terminal's H key, and the review's note."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from unokit.bots.advice import advise
from unokit.play.app import TableScreen
from unokit.record import GameRecord, RecordError, RecordingGame, load_record, verify
from unokit.record.hints import HINTS_KEY, HintMark, mark_hint, read_hints
from unokit.review import review_record

from ..helpers import position
from ..play.support import ScriptBot, app_for, screen_text, session_from

TABLE = position(
    "classic",
    hands=[["red 5", "blue 7", "green 2"], ["blue 1", "blue 2", "green 3", "yellow 4"]],
    discard=["red 3"],
    color="red",
    options={"rounds": 1},
)


def test_advice_is_the_best_choice_from_the_seats_view() -> None:
    """The hint for a seat holding its last card that fits is that card, a sure win."""
    game = RecordingGame.from_position(
        position("classic", hands=[["red 5"], ["blue 1", "blue 2"]], discard=["red 3"], color="red")
    )
    advice = advise(game, [], 0, "low", seed=1)
    assert (advice.best.text, advice.chance, advice.step) == ("play red 5", 1.0, 0)
    assert {c.action.text for c in advice.choices} == {"play red 5", "draw"}
    with pytest.raises(ValueError, match="seat 1 has no decision"):
        advise(game, [], 1, "low")


def test_hint_marks_are_versioned_and_read_back() -> None:
    game = RecordingGame.from_position(TABLE)
    game.apply("play red 5", seat=0)
    meta: dict[str, Any] = {"player": "kept"}
    mark_hint(meta, HintMark(0, 0, "play blue 7", 0.4, "low"))
    mark_hint(meta, HintMark(0, 0, "play red 5", 0.61, "normal"))  # asked again: replaces
    record = game.to_record(meta=meta)
    assert meta[HINTS_KEY]["version"] == 1 and meta["player"] == "kept"
    assert read_hints(GameRecord.loads(record.dumps())) == [HintMark(0, 0, "play red 5", 0.61, "normal")]
    assert verify(record).ok  # replay ignores meta: a reader that knows nothing of hints is unaffected


@pytest.mark.parametrize(
    ("hints", "message"),
    [
        ({"version": 2, "marks": []}, "version 2"),
        ({"version": 1}, "list of 'marks'"),
        ({"version": 1, "marks": [{"step": 5, "seat": 0, "action": "draw", "chance": 0.5, "effort": "low"}]}, "step"),
        ({"version": 1, "marks": [{"step": 0, "seat": 0, "action": "draw", "chance": 2, "effort": "low"}]}, "chance"),
    ],
)
def test_bad_hint_marks_are_refused_by_name(hints: dict[str, Any], message: str) -> None:
    record = RecordingGame.from_position(TABLE).to_record(meta={HINTS_KEY: hints})
    with pytest.raises(RecordError, match=message):
        read_hints(record)
    with pytest.raises(RecordError, match=message):
        review_record(record, 0, "low")


@pytest.mark.parametrize(
    ("mark", "message"),
    [
        ({"action": "draw", "effort": "extreme"}, "hint 1: unknown effort 'extreme'"),
        ({"action": "play purple 9", "effort": "low"}, "'play purple 9' is not an action seat 0 could take at step 0"),
        ({"action": "play green 3", "effort": "low"}, "'play green 3' is not an action seat 0"),  # not in its hand
        ({"action": "draw", "effort": "low", "seat": 1}, "'draw' is not an action seat 1"),  # not its turn
    ],
)
def test_a_review_refuses_hint_marks_that_cannot_have_been_shown(mark: dict[str, Any], message: str) -> None:
    raw = {"step": 0, "seat": 0, "chance": 0.5, **mark}
    record = RecordingGame.from_position(TABLE).to_record(meta={HINTS_KEY: {"version": 1, "marks": [raw]}})
    with pytest.raises(RecordError, match=message):
        review_record(record, 0, "low")


async def wait_for(pilot: Any, until: Any, seconds: float = 120.0) -> None:
    """Wait (by the clock: a hint searches in a thread) until ``until()`` holds."""
    for _ in range(int(seconds / 0.05)):
        if until():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"never reached; screen:\n{screen_text(pilot.app)}")


def test_the_hint_key_shows_the_engines_choice_and_marks_the_record(tmp_path: Path) -> None:
    """H at your decision: the hint and your chance are shown, the record marks it, and the
    review of that record says the decision was hinted."""
    path = tmp_path / "game.json"
    pos = position("classic", hands=[["red 5", "blue 7"], ["blue 1", "blue 2", "green 3"]], discard=["red 3"],
                   color="red", options={"rounds": 1})  # fmt: skip

    async def scenario() -> None:
        app = app_for(lambda: session_from(pos, ["You", ScriptBot()], record=path))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.ready)
            assert "H hint" in screen_text(app)
            await pilot.press("h")
            await wait_for(pilot, lambda: "Hint:" in screen_text(app))
            text = screen_text(app)
            assert "Hint: Play Red 5, saying UNO!" in text and "your chance to win this hand:" in text
            await pilot.press("1", "enter")  # the red 5, the card the hint named
            await wait_for(pilot, lambda: len(app.table.session.game.moves) >= 2)
            app.table.session.save()

    asyncio.run(scenario())
    record = load_record(path)
    (mark,) = read_hints(record)
    assert (mark.step, mark.seat, mark.action, mark.effort) == (0, 0, "play red 5 uno", "normal")
    assert 0.0 <= mark.chance <= 1.0
    review = review_record(record, 0, "low")
    assert [d.hinted for d in review.decisions if d.step == 0] == [True]
    assert not any(d.hinted for d in review.decisions if d.step != 0)


def test_no_hints_at_a_table_of_two_people() -> None:
    """Hot seat: H says hints are for games against bots, and the record marks nothing."""

    async def scenario() -> None:
        session = session_from(TABLE, ["Ann", "Bo"])
        app = app_for(lambda: session)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: not isinstance(app.screen, TableScreen))
            await pilot.press("enter")  # Ann takes the device
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.ready)
            assert "H hint" not in screen_text(app)
            await pilot.press("H")  # Shift+H, as the help shows it: the hint key too
            await wait_for(pilot, lambda: "Hints are offered in games of one person against bots" in screen_text(app))
            assert HINTS_KEY not in session.meta

    asyncio.run(scenario())
