"""Reviews of finished games for the browser (``docs/review.md``, "In the browser").

``POST /api/rooms/{code}/records/{number}/review`` ``{"player": IDENTITY, "seat": S}`` asks
for the review of seat ``S``'s game (:func:`unokit.review.review_record`, at
:data:`REVIEW_EFFORT`). The searches take seconds to a minute of CPU, so the answer is one of:

* ``200 {"status": "ready", "review": {...unokit-review/1...}}``: the review, kept with the
  record in the database (:mod:`.reviewstore`): computed once per record, seat and effort, then
  sent at once by any process of a cluster, across restarts;
* ``202 {"status": "working", "done": D, "total": T}``: it is being computed, by this process or
  another (the page asks again); the first request starts it;
* ``429`` (``too_many_reviews``): the identity has a review in progress already, or has started
  :data:`REVIEWS_PER_HOUR` in the last hour, or the asker's address (an IPv6 one by its /64
  network, :func:`~.edge.client_key`) has :data:`REVIEWS_PER_ADDRESS` in progress (all counted
  in the database: the same for every process); ``400``/``404`` for a bad request or no such game.

Identities cost nothing, so what holds a stranger back is the address, and the pool's order.
The review is computed by the server's bot pool (:class:`~unokit.server.botpool.BotPool`) of the
process that claimed it, as *spare* work (:meth:`~.botpool.BotPool.spare`): in its threads,
never on the event loop, one state (:data:`SLICE`) at a time, each slice started only when no
room's bot or hint waits for a thread, and the slices of several addresses taking turns. Its CPU
time is charged to the asking address as a room's bots' time is charged to the room, so one
address's reviews together get at most a room's share of a core. The process writes its progress
to the claim at most every :data:`PROGRESS_EVERY` seconds; a claim left unwritten for
:data:`~.reviewstore.STALE` seconds (its process died) is taken over by the next process asked.
Reading a kept or working review costs nothing; only starting one counts against the limits.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ....bots.temper import temperature
from ....record import GameRecord, RecordError
from ....review.analysis import (
    Estimate,
    assemble_review,
    estimate_steps,
    ordered_steps,
    own_choices,
    partial_decisions,
)
from ...botpool import BotPool
from ...edge import client_key
from ...peers import identity_hash
from ...room import RoomError
from ...storage import Store
from ...web import game_number
from ...webapi import problem, refusal, sealed_error
from . import rows as reviewstore
from .rows import ReviewKey, ReviewRow

#: The effort of the server's reviews (``docs/review.md``, "Effort").
REVIEW_EFFORT = "normal"
#: Reviews an identity may start in an hour (reading them again is free).
REVIEWS_PER_HOUR = 12
#: Reviews in progress from one client address (an IPv6 /64) at once, whatever identities ask.
REVIEWS_PER_ADDRESS = 2
#: States estimated in one turn of the pool's thread (tens of milliseconds at ``normal``
#: effort, a few tenths at most): a room's bot asked meanwhile waits at most that long.
SLICE = 1
#: Seconds between two writes of a review's progress to its claim (well under ``STALE``).
PROGRESS_EVERY = 1.0
#: The searches' seed (``unokit review --seed``'s default: the browser's review is the terminal's).
SEED = 0
#: The largest request body, in bytes.
BODY_LIMIT = 1024


def _current(review: dict[str, Any]) -> bool:
    """Whether a kept ``review`` was made under the temperature in force for its table."""
    variant, players = review.get("variant"), review.get("players")
    if not isinstance(variant, str) or not isinstance(players, int):
        return False
    return bool(review.get("power", 1.0) == temperature(variant, players))


def _working(row: ReviewRow | None) -> tuple[int, dict[str, Any]]:
    """The 202 answer: the progress, and the seat's decisions marked so far with the seats'
    names and the steps of the seat's own actions, to number its moves (``decisions`` as in
    ``unokit-review/1``; the first ones come first)."""
    done, total = (row.done, row.total) if row is not None else (0, 0)
    partial = row.body() if row is not None else {}
    decisions = partial.get("decisions", [])
    return 202, {
        "status": "working",
        "done": done,
        "total": total,
        "names": partial.get("names"),
        "decisions": decisions,
    }


async def never_sealed(_code: str) -> float | None:
    """No game is sealed (a desk of no server: a benchmark's, a test's)."""
    return None


class ReviewDesk:
    """Reviews of finished games: computed in ``pool`` at ``effort`` by the process ``node``,
    kept in ``store`` with the records, at most one in progress and ``per_hour`` started an
    hour per identity, at most ``per_address`` in progress per client address; a game that
    ``sealed(code)`` says is sealed is reviewed for its seat's own player only."""

    def __init__(
        self,
        pool: BotPool,
        store: Store,
        node: str,
        effort: str = REVIEW_EFFORT,
        per_hour: int = REVIEWS_PER_HOUR,
        per_address: int = REVIEWS_PER_ADDRESS,
        *,
        sealed: Callable[[str], Awaitable[float | None]] = never_sealed,
    ) -> None:
        self.pool = pool
        self.store = store
        self.node = node
        self.sealed = sealed
        self.effort = effort
        self.per_hour = per_hour
        self.per_address = per_address
        #: The reviews this process is computing (its claims), by key.
        self.tasks: dict[ReviewKey, asyncio.Task[None]] = {}
        self._starting = asyncio.Lock()  # one identity's limits checked and its claim made at once

    async def ask(self, code: str, number: int, seat: int, player: str, address: str) -> tuple[int, dict[str, Any]]:
        """The answer (status, body) to ``player``, from client ``address`` (as per-client limits
        count it, :func:`~.edge.client_key`), asking for the review of ``seat`` in game
        ``number`` of room ``code``. Raises :class:`RoomError` for no such game or seat, a
        review that failed, or a player over the limits."""
        until = await self.sealed(code)
        if until is not None and not await asyncio.to_thread(self.store.played, player, code, number, seat):
            raise sealed_error(until)  # a sealed game's review is its own player's only
        key = ReviewKey(code, number, seat, self.effort)
        row = await asyncio.to_thread(reviewstore.read, self.store, key)
        if row is not None and row.status == reviewstore.READY:
            review = row.body()
            if _current(review):
                return 200, {"status": "ready", "review": review}
            await asyncio.to_thread(reviewstore.drop_outdated, self.store, key, row)
            row = None  # made again, as a new review
        if row is not None and row.status == reviewstore.FAILED:
            await asyncio.to_thread(reviewstore.drop_failed, self.store, key)
            raise RoomError("bad_record", row.error or "the review failed")
        if row is not None and (key in self.tasks or row.fresh(time.time())):
            return _working(row)
        text = await asyncio.to_thread(self.store.record, code, number)
        if text is None:
            raise RoomError("no_record", "there is no such finished game")
        try:
            record = GameRecord.loads(text)
        except RecordError as exc:
            raise RoomError("bad_record", f"the record cannot be replayed: {exc}") from exc
        if not 0 <= seat < record.players:
            raise RoomError("bad_seat", f"'seat' must be from 0 to {record.players - 1}")
        async with self._starting:
            if row is None:  # a new review: the asker's limits; a stale claim is taken over freely
                asked = await asyncio.to_thread(reviewstore.asked, self.store, player, address, time.time() - 3600)
                if asked.busy or asked.started >= self.per_hour or asked.from_address >= self.per_address:
                    raise RoomError(
                        "too_many_reviews", "a review is in progress for you, or you have asked for many lately"
                    )
            claimed = await asyncio.to_thread(reviewstore.claim, self.store, key, player, self.node, row, address)
        if not claimed:  # another process claimed it first: its progress
            again = await asyncio.to_thread(reviewstore.read, self.store, key)
            if again is not None and again.status == reviewstore.READY and _current(again.body()):
                return 200, {"status": "ready", "review": again.body()}
            return _working(again)
        self.tasks[key] = asyncio.create_task(self._compute(key, record, address))
        return _working(None)

    async def _compute(self, key: ReviewKey, record: GameRecord, address: str) -> None:
        charged = f"review:{address}"  # the address's spare work and its share of a core
        seat, effort = key.seat, key.effort

        def estimate(steps: list[int]) -> list[Estimate]:
            return estimate_steps(record, seat, effort, SEED, steps)

        def assemble(estimates: dict[int, Estimate]) -> dict[str, Any]:
            return assemble_review(record, seat, effort, SEED, estimates).to_json()

        def known(estimates: dict[int, Estimate]) -> dict[str, Any]:
            decisions = partial_decisions(record, seat, estimates)
            own = [step for step, (actor, _) in enumerate(record.actions) if actor == seat]
            return {"names": list(record.names), "own": own, "decisions": [d.to_json() for d in decisions]}

        try:
            # The seat's own decisions first: the page shows their marks while the rest is estimated.
            def plan(r: GameRecord) -> tuple[int, list[int]]:
                own = own_choices(r, seat)  # as review_order puts them, with how many they are
                return len(own), ordered_steps(r, own)

            decisions, steps = await self.pool.spare(charged, plan, record)
            estimates: dict[int, Estimate] = {}
            partial: dict[str, Any] | None = None
            fresh = False  # whether decisions were estimated since ``partial`` was made
            written = -PROGRESS_EVERY
            for first in range(0, len(steps), SLICE):
                # at most once a second, and at once when the seat's last decision is estimated
                if time.monotonic() - written >= PROGRESS_EVERY or (fresh and len(estimates) >= decisions):
                    if fresh:
                        partial, fresh = await self.pool.spare(charged, known, estimates), False
                    ours = await asyncio.to_thread(
                        reviewstore.progress, self.store, key, self.node, len(estimates), len(steps), partial
                    )
                    if not ours:  # taken over, or deleted with its record or identity: stop
                        return
                    written = time.monotonic()
                await asyncio.sleep(self.pool.delay(charged))  # the address's share of a core
                found = await self.pool.spare(charged, estimate, steps[first : first + SLICE])
                for one in found:
                    estimates[one.step] = one
                fresh = fresh or any(one.decision for one in found)
            review = await self.pool.spare(charged, assemble, estimates)
            await asyncio.to_thread(reviewstore.finish, self.store, key, self.node, review)
        except (RecordError, ValueError) as exc:
            await asyncio.to_thread(
                reviewstore.fail, self.store, key, self.node, f"the record cannot be reviewed: {exc}"
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # reported to whoever asks next, never lost silently
            await asyncio.to_thread(
                reviewstore.fail, self.store, key, self.node, f"the review failed: {type(exc).__name__}"
            )
        finally:
            self.tasks.pop(key, None)

    async def close(self) -> None:
        """Stop the reviews in progress (the server stops) and give up their claims, so that the
        next process asked starts them at once."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if tasks:
            await asyncio.to_thread(reviewstore.abandon, self.store, self.node)


_STATUS = {"no_record": 404, "too_many_reviews": 429, "bad_record": 500, "sealed": 403}


def review_routes(desk: ReviewDesk) -> list[Route]:
    """The review's route over ``desk``."""

    async def review_route(request: Request) -> Response:
        code = str(request.path_params["code"]).upper()
        number = game_number(request.path_params["number"])
        if number is None or not code.isalnum() or len(code) > 16:
            return problem("no_record", "there is no such finished game", 404)
        raw = await request.body()
        if len(raw) > BODY_LIMIT:
            return problem("too_large", f"a review request may be at most {BODY_LIMIT} bytes", 413)
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            return problem("bad_json", "the request body is not valid JSON", 400)
        if not isinstance(body, dict) or set(body) - {"player", "seat"}:
            return problem("bad_request", 'the body is {"player": ..., "seat": ...}', 400)
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 100:
            return problem("bad_seat", "'seat' must be a seat number (0 for the first)", 400)
        try:
            player = identity_hash(body.get("player"))
            address = client_key(request.client.host if request.client else "unknown")
            status, answer = await desk.ask(code, number, seat, player, address)
        except RoomError as exc:
            return refusal(exc, _STATUS.get(exc.code, 400))
        return JSONResponse(answer, status)

    return [Route("/api/rooms/{code}/records/{number}/review", review_route, methods=["POST"])]


__all__ = ["REVIEWS_PER_ADDRESS", "REVIEWS_PER_HOUR", "REVIEW_EFFORT", "ReviewDesk", "review_routes"]
