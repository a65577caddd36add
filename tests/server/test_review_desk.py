"""The server's reviews (:mod:`unokit.server.features.reviews.desk`, :mod:`unokit.server.features.reviews.rows`), on a
real SQLite and a real PostgreSQL: computed in the bot pool, kept in the database with the
record, one at a time and a few an hour per player identity; served by another process without
being computed again; a claim of a process that died is taken over; no game or no seat is
refused and starts nothing (``docs/review.md``, "In the browser")."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import insert, update

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.bots.temper import temperature
from unokit.record import RecordingGame
from unokit.review import review_record
from unokit.review.analysis import review_steps
from unokit.server.botpool import BotPool
from unokit.server.client import new_identity
from unokit.server.edge import client_key
from unokit.server.features import store_hooks
from unokit.server.features.reviews import rows as reviewstore
from unokit.server.features.reviews.desk import SLICE, ReviewDesk
from unokit.server.features.reviews.rows import ReviewKey, reviews
from unokit.server.room import RoomError
from unokit.server.storage import Store, migrate, records

from .support import ServerProcess

GAME, _ = RecordingGame.new("classic", 2, seed=5, rounds=1)
play_game(GAME, [make_bot("normal", 1), make_bot("normal", 2)])
RECORD = GAME.to_record()
TEXT = RECORD.dumps()


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    """The database with one finished game, room ``ROOM`` game 1."""
    kept = Store(database, hooks=store_hooks())  # with every feature's rows, as a server has
    migrate(kept.engine)
    with kept.begin() as c:
        c.execute(insert(records).values(room="ROOM", game_no=1, created_at=time.time(), record=TEXT))
    yield kept
    kept.close()


class CountingPool(BotPool):
    """The bot pool, counting the work it was given (a process that serves a kept review
    gives it none)."""

    def __init__(self) -> None:
        super().__init__(1, 1.0)
        self.calls = 0

    async def spare(self, owner, act, argument):  # type: ignore[no-untyped-def]
        self.calls += 1
        return await super().spare(owner, act, argument)


def _desk(store: Store, per_hour: int = 5, node: str = "one") -> ReviewDesk:
    return ReviewDesk(CountingPool(), store, node, "low", per_hour)


async def _finished(desk: ReviewDesk) -> None:
    await asyncio.gather(*desk.tasks.values())


def test_a_review_is_made_in_the_pool_kept_and_one_at_a_time_per_player(store: Store) -> None:
    async def scenario() -> None:
        desk = _desk(store)
        status, body = await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1")
        assert status == 202 and body["status"] == "working"
        with pytest.raises(RoomError) as busy:  # Ann's first is still being made
            await desk.ask("ROOM", 1, 1, "ann", "127.0.0.1")
        assert busy.value.code == "too_many_reviews"
        assert (await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1"))[0] in (200, 202)  # asking about it again is free
        await _finished(desk)
        status, body = await desk.ask("ROOM", 1, 0, "bob", "127.0.0.1")  # kept: anyone gets it at once
        assert status == 200 and body["review"] == review_record(RECORD, 0, "low").to_json()
        status, _ = await desk.ask("ROOM", 1, 1, "ann", "127.0.0.1")  # Ann's first is done: she may ask again
        assert status == 202
        await _finished(desk)

    asyncio.run(scenario())


def test_a_kept_review_survives_a_restart_and_is_served_by_another_process_without_computing(
    store: Store, database: str
) -> None:
    async def scenario() -> None:
        first = _desk(store, node="first")
        await first.ask("ROOM", 1, 0, "ann", "127.0.0.1")
        # while the first process computes it, another one says so and starts nothing
        other_store = Store(database)
        try:
            other = _desk(other_store, node="other")
            status, body = await other.ask("ROOM", 1, 0, "bob", "127.0.0.1")
            assert status == 202 and body["status"] == "working" and not other.tasks
            await _finished(first)
            made = first.pool.calls  # type: ignore[attr-defined]
            assert made > 2
            await first.close()
            # the first process is gone (its engine closed): a fresh process on the same
            # database serves the review at once, computing nothing
            store.close()
            status, body = await other.ask("ROOM", 1, 0, "bob", "127.0.0.1")
            assert status == 200 and body["review"] == review_record(RECORD, 0, "low").to_json()
            assert other.pool.calls == 0 and not other.tasks  # type: ignore[attr-defined]
        finally:
            other_store.close()

    asyncio.run(scenario())


def test_the_claim_of_a_process_that_died_is_taken_over_and_the_loser_stops(store: Store) -> None:
    async def scenario() -> None:
        key = ReviewKey("ROOM", 1, 0, "low")
        assert await asyncio.to_thread(reviewstore.claim, store, key, "ann", "dead")
        assert not await asyncio.to_thread(reviewstore.claim, store, key, "bob", "late")  # one claim
        desk = _desk(store, node="alive")
        status, _ = await desk.ask("ROOM", 1, 0, "bob", "127.0.0.1")  # fresh: someone is on it
        assert status == 202 and not desk.tasks
        with store.begin() as c:  # the dead process wrote nothing for longer than STALE
            c.execute(update(reviews).values(updated_at=time.time() - reviewstore.STALE - 1))
        status, _ = await desk.ask("ROOM", 1, 0, "bob", "127.0.0.1")
        assert status == 202 and key in desk.tasks  # taken over
        assert not await asyncio.to_thread(reviewstore.progress, store, key, "dead", 1, 2)  # the loser is told
        await _finished(desk)
        row = await asyncio.to_thread(reviewstore.read, store, key)
        assert row is not None and row.status == reviewstore.READY and row.player == "ann"

    asyncio.run(scenario())


def test_one_address_has_only_so_many_reviews_in_progress_whatever_identities_ask(store: Store) -> None:
    """Identities cost nothing: ten fresh ones from one address asking for ten reviews start
    two, not ten; an IPv6 address counts by its /64 network; another process counts the same
    (the database); another address is not held back."""
    with store.begin() as c:  # five finished games: ten seats to review
        for number in range(2, 6):
            c.execute(insert(records).values(room="ROOM", game_no=number, created_at=time.time(), record=TEXT))
    wanted = [(number, seat) for number in range(1, 6) for seat in (0, 1)]

    async def scenario() -> None:
        desk = _desk(store)
        household = [client_key(f"2001:db8:1:2::{i:x}") for i in range(1, 11)]  # one /64
        answers: list[int | str] = []
        for (number, seat), address in zip(wanted, household, strict=True):
            try:
                answers.append((await desk.ask("ROOM", number, seat, new_identity(), address))[0])
            except RoomError as exc:
                answers.append(exc.code)
        assert answers[:2] == [202, 202] and set(answers[2:]) == {"too_many_reviews"}, answers
        assert len(desk.tasks) == 2
        elsewhere = _desk(store, node="two")
        with pytest.raises(RoomError) as limited:  # a second process of the cluster counts them too
            await elsewhere.ask("ROOM", 5, 1, new_identity(), client_key("2001:db8:1:2:ffff::1"))
        assert limited.value.code == "too_many_reviews" and not elsewhere.tasks
        assert (await elsewhere.ask("ROOM", 5, 1, new_identity(), "203.0.113.7"))[0] == 202  # another address
        await _finished(desk)
        await _finished(elsewhere)
        # its two done, the household may start again
        assert (await desk.ask("ROOM", 2, 0, new_identity(), household[0]))[0] == 202
        await _finished(desk)

    asyncio.run(scenario())


def test_an_identity_starts_only_so_many_reviews_an_hour(store: Store) -> None:
    async def scenario() -> None:
        desk = _desk(store, per_hour=1)
        await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1")
        await _finished(desk)
        with pytest.raises(RoomError) as limited:
            await desk.ask("ROOM", 1, 1, "ann", "127.0.0.1")
        assert limited.value.code == "too_many_reviews" and not desk.tasks
        # counted in the database: another process counts the same
        elsewhere = _desk(store, per_hour=1, node="two")
        with pytest.raises(RoomError):
            await elsewhere.ask("ROOM", 1, 1, "ann", "127.0.0.1")
        assert (await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1"))[0] == 200  # the one made is still hers to read

    asyncio.run(scenario())


@pytest.mark.parametrize(("code", "number", "seat", "error"), [("ROOM", 2, 0, "no_record"), ("ROOM", 1, 2, "bad_seat")])
def test_no_game_or_no_seat_is_refused_and_starts_nothing(
    store: Store, code: str, number: int, seat: int, error: str
) -> None:
    async def scenario() -> None:
        desk = _desk(store, per_hour=1)
        with pytest.raises(RoomError) as refused:
            await desk.ask(code, number, seat, "ann", "127.0.0.1")
        assert refused.value.code == error and not desk.tasks
        assert (await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1"))[0] == 202  # the hour's one review is still Ann's
        await _finished(desk)

    asyncio.run(scenario())


def test_a_process_that_stops_gives_up_its_claims(store: Store) -> None:
    async def scenario() -> None:
        desk = _desk(store)
        await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1")
        await desk.close()
        assert await asyncio.to_thread(reviewstore.read, store, ReviewKey("ROOM", 1, 0, "low")) is None
        again = _desk(store, node="next")
        assert (await again.ask("ROOM", 1, 0, "ann", "127.0.0.1"))[0] == 202 and again.tasks  # started again at once
        await _finished(again)

    asyncio.run(scenario())


def _post(url: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_a_servers_review_is_served_after_a_restart_and_by_another_process(
    store: Store, database: str, make_server: Callable[..., ServerProcess]
) -> None:
    """``unokit serve``: one process computes the review; stopped, another process on the same
    database (the same one restarted, on SQLite) answers it at once, as it was."""
    store.close()
    ask = {"player": new_identity(), "seat": 1}
    first = make_server(database)
    end = time.monotonic() + 300
    while True:
        status, body = _post(f"{first.url}/api/rooms/ROOM/records/1/review", ask)
        assert status in (200, 202), body
        if status == 200:
            break
        assert time.monotonic() < end, "the review took more than 300 s"
        time.sleep(0.5)
    made = body["review"]
    first.stop()
    second = make_server(database)
    status, body = _post(f"{second.url}/api/rooms/ROOM/records/1/review", {"player": new_identity(), "seat": 1})
    assert status == 200 and body["review"] == made


def test_a_review_kept_from_before_the_temperature_is_made_again(store: Store) -> None:
    async def scenario() -> None:
        key = ReviewKey("ROOM", 1, 0, "low")
        old = {**review_record(RECORD, 0, "low").to_json(), "power": 1.0}  # as made before 2-player Classic's power
        assert await asyncio.to_thread(reviewstore.claim, store, key, "ann", "old")
        assert await asyncio.to_thread(reviewstore.finish, store, key, "old", old)
        desk = _desk(store)
        status, _ = await desk.ask("ROOM", 1, 0, "bob", "127.0.0.1")
        assert status == 202 and key in desk.tasks
        await _finished(desk)
        status, body = await desk.ask("ROOM", 1, 0, "bob", "127.0.0.1")
        assert status == 200 and body["review"] == review_record(RECORD, 0, "low").to_json()
        assert body["review"]["power"] == temperature("classic", 2) != 1.0

    asyncio.run(scenario())


def test_the_seats_decisions_come_first_and_are_sent_marked_while_the_rest_is_estimated(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every progress written carries the decisions marked so far; the first ones are written
    before any other state is estimated, and each is the finished review's decision."""
    written: list[tuple[int, int, dict[str, Any] | None]] = []
    real = reviewstore.progress

    def progress(store_: Store, key: ReviewKey, node: str, done: int, total: int, partial=None) -> bool:  # type: ignore[no-untyped-def]
        written.append((done, total, partial))
        return real(store_, key, node, done, total, partial)

    monkeypatch.setattr(reviewstore, "progress", progress)

    async def scenario() -> None:
        desk = _desk(store)
        await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1")
        await _finished(desk)
        status, body = await desk.ask("ROOM", 1, 0, "ann", "127.0.0.1")
        assert status == 200
        final = {d["step"]: d for d in body["review"]["decisions"]}
        steps = review_steps(RECORD)
        own = len(final)
        partials = [(done, p) for done, _, p in written if p is not None]
        assert partials, "no progress carried the decisions marked so far"
        first_done, first = partials[0]
        assert first_done <= own and first["decisions"] and first["names"] == list(RECORD.names)
        for _, partial in partials:
            for decision in partial["decisions"]:
                assert decision == final[decision["step"]]
        # every decision is known before the first state where another player acts is estimated
        whole = [done for done, p in partials if len(p["decisions"]) == own]
        assert whole and whole[0] < own + SLICE < len(steps)

    asyncio.run(scenario())
