"""The server's reviews (:mod:`unokit.server.reviews`): computed in the bot pool, kept once
made, one at a time and a few an hour per player identity; no game or no seat is refused and
starts nothing (``docs/review.md``, "In the browser")."""

from __future__ import annotations

import asyncio

import pytest

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.record import RecordingGame
from unokit.review import review_record
from unokit.server.botpool import BotPool
from unokit.server.reviews import ReviewDesk
from unokit.server.room import RoomError

GAME, _ = RecordingGame.new("classic", 2, seed=5, rounds=1)
play_game(GAME, [make_bot("normal", 1), make_bot("normal", 2)])
RECORD = GAME.to_record()
TEXT = RECORD.dumps()


def _record_text(code: str, number: int) -> str | None:
    return TEXT if (code, number) == ("ROOM", 1) else None


def _desk(per_hour: int) -> ReviewDesk:
    return ReviewDesk(BotPool(1, 1.0), _record_text, "low", per_hour)


async def _finished(desk: ReviewDesk) -> None:
    await asyncio.gather(*(job.task for job in desk.jobs.values() if job.task is not None))


def test_a_review_is_made_in_the_pool_kept_and_one_at_a_time_per_player() -> None:
    async def scenario() -> None:
        desk = _desk(per_hour=5)
        status, body = await desk.ask("ROOM", 1, 0, "ann")
        assert status == 202 and body["status"] == "working"
        with pytest.raises(RoomError) as busy:  # Ann's first is still being made
            await desk.ask("ROOM", 1, 1, "ann")
        assert busy.value.code == "too_many_reviews"
        assert (await desk.ask("ROOM", 1, 0, "ann"))[0] in (200, 202)  # asking about it again is free
        await _finished(desk)
        status, body = await desk.ask("ROOM", 1, 0, "bob")  # kept: anyone gets it at once
        assert status == 200 and body["review"] == review_record(RECORD, 0, "low").to_json()
        status, _ = await desk.ask("ROOM", 1, 1, "ann")  # Ann's first is done: she may ask again
        assert status == 202
        await _finished(desk)

    asyncio.run(scenario())


def test_an_identity_starts_only_so_many_reviews_an_hour() -> None:
    async def scenario() -> None:
        desk = _desk(per_hour=1)
        await desk.ask("ROOM", 1, 0, "ann")
        await _finished(desk)
        with pytest.raises(RoomError) as limited:
            await desk.ask("ROOM", 1, 1, "ann")
        assert limited.value.code == "too_many_reviews" and not desk.jobs
        assert (await desk.ask("ROOM", 1, 0, "ann"))[0] == 200  # the one made is still hers to read

    asyncio.run(scenario())


@pytest.mark.parametrize(("code", "number", "seat", "error"), [("ROOM", 2, 0, "no_record"), ("ROOM", 1, 2, "bad_seat")])
def test_no_game_or_no_seat_is_refused_and_starts_nothing(code: str, number: int, seat: int, error: str) -> None:
    async def scenario() -> None:
        desk = _desk(per_hour=1)
        with pytest.raises(RoomError) as refused:
            await desk.ask(code, number, seat, "ann")
        assert refused.value.code == error and not desk.jobs
        assert (await desk.ask("ROOM", 1, 0, "ann"))[0] == 202  # the hour's one review is still Ann's
        await _finished(desk)

    asyncio.run(scenario())
