"""Reviews of finished games for the browser (``docs/review.md``, "In the browser").

``POST /api/rooms/{code}/records/{number}/review`` ``{"player": IDENTITY, "seat": S}`` asks
for the review of seat ``S``'s game (:func:`unokit.review.review_record`, at
:data:`REVIEW_EFFORT`). The searches take seconds to a minute of CPU, so the answer is one of:

* ``200 {"status": "ready", "review": {...unokit-review/1...}}``: the review, kept with the
  record (a review of a record is computed once; asked again it is sent at once);
* ``202 {"status": "working", "done": D, "total": T}``: it is being computed (the page asks
  again); the first request starts it;
* ``429`` (``too_many_reviews``): the identity has a review in progress already, or has started
  :data:`REVIEWS_PER_HOUR` in the last hour; ``400``/``404`` for a bad request or no such game.

The review is computed by the server's bot pool (:class:`~unokit.server.botpool.BotPool`), in
its threads, never on the event loop, :data:`SLICE` states at a time, so that the rooms' bots
get the thread between two slices; its CPU time is charged to the asking identity as a room's
bots' time is charged to the room, so one player's reviews wait their turn for their share of
a core. Reading a cached or working review
costs nothing; only starting one counts against the identity's limits.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..record import GameRecord, RecordError
from ..review.analysis import Estimate, assemble_review, estimate_steps, review_steps
from .authority import identity_hash
from .botpool import BotPool
from .edge import Buckets
from .room import RoomError
from .web import game_number

#: The effort of the server's reviews (``docs/review.md``, "Effort").
REVIEW_EFFORT = "normal"
#: Reviews an identity may start in an hour (reading them again is free).
REVIEWS_PER_HOUR = 12
#: Reviews kept in memory: the most recently asked for (each is some tens of kilobytes).
REVIEWS_KEPT = 256
#: States estimated in one turn of the pool's thread (a fraction of a second at ``normal``
#: effort): between two turns the rooms' bots get the thread, so a review never holds it long.
SLICE = 4
#: The searches' seed (``unokit review --seed``'s default: the browser's review is the terminal's).
SEED = 0
#: The largest request body, in bytes.
BODY_LIMIT = 1024


@dataclass
class _Job:
    """A review being computed: its progress (written by the pool's thread) and its owner."""

    player: str
    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    error: str | None = None


class ReviewDesk:
    """Reviews of finished games: computed in ``pool`` at ``effort``, kept in memory, at most
    one in progress and :data:`REVIEWS_PER_HOUR` started an hour per identity.
    ``record_text(code, number)`` reads a finished game's record (blocking) or ``None``."""

    def __init__(
        self,
        pool: BotPool,
        record_text: Callable[[str, int], str | None],
        effort: str = REVIEW_EFFORT,
        per_hour: int = REVIEWS_PER_HOUR,
    ) -> None:
        self.pool = pool
        self.record_text = record_text
        self.effort = effort
        self.starts = Buckets(per_hour / 3600, float(per_hour))
        self.kept: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self.jobs: dict[tuple[str, int, int], _Job] = {}

    def busy(self, player: str) -> bool:
        """Whether ``player`` has a review in progress."""
        return any(job.player == player and job.task is not None and not job.task.done() for job in self.jobs.values())

    async def ask(self, code: str, number: int, seat: int, player: str) -> tuple[int, dict[str, Any]]:
        """The answer (status, body) to ``player`` asking for the review of ``seat`` in game
        ``number`` of room ``code``. Raises :class:`RoomError` for no such game or seat, or a
        player over the limits."""
        key = (code, number, seat)
        if key in self.kept:
            self.kept.move_to_end(key)
            return 200, {"status": "ready", "review": self.kept[key]}
        job = self.jobs.get(key)
        if job is not None and job.error is not None:
            del self.jobs[key]
            raise RoomError("bad_record", job.error)
        if job is not None:
            return 202, {"status": "working", "done": job.done, "total": job.total}
        text = await asyncio.to_thread(self.record_text, code, number)
        if text is None:
            raise RoomError("no_record", "there is no such finished game")
        try:
            record = GameRecord.loads(text)
        except RecordError as exc:
            raise RoomError("bad_record", f"the record cannot be replayed: {exc}") from exc
        if not 0 <= seat < record.players:
            raise RoomError("bad_seat", f"'seat' must be from 0 to {record.players - 1}")
        if self.busy(player) or not self.starts.allow(player):
            raise RoomError("too_many_reviews", "a review is in progress for you, or you have asked for many lately")
        job = _Job(player)
        self.jobs[key] = job
        job.task = asyncio.create_task(self._compute(key, record, job))
        return 202, {"status": "working", "done": 0, "total": 0}

    async def _compute(self, key: tuple[str, int, int], record: GameRecord, job: _Job) -> None:
        charged = f"review:{job.player}"

        seat, effort = key[2], self.effort

        def estimate(steps: list[int]) -> list[Estimate]:
            return estimate_steps(record, seat, effort, SEED, steps)

        def assemble(estimates: dict[int, Estimate]) -> dict[str, Any]:
            return assemble_review(record, seat, effort, SEED, estimates).to_json()

        try:
            steps = await self.pool.think(charged, review_steps, record)
            job.total = len(steps)
            estimates: dict[int, Estimate] = {}
            for first in range(0, len(steps), SLICE):
                await asyncio.sleep(self.pool.delay(charged))  # the identity's share of a core
                for found in await self.pool.think(charged, estimate, steps[first : first + SLICE]):
                    estimates[found.step] = found
                job.done = len(estimates)
            review = await self.pool.think(charged, assemble, estimates)
        except (RecordError, ValueError) as exc:
            job.error = f"the record cannot be reviewed: {exc}"
            return
        except Exception as exc:  # reported to whoever asks next, never lost silently
            job.error = f"the review failed: {type(exc).__name__}"
            return
        self.kept[key] = review
        while len(self.kept) > REVIEWS_KEPT:
            self.kept.popitem(last=False)
        self.jobs.pop(key, None)

    async def close(self) -> None:
        """Stop the reviews in progress (the server stops)."""
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()


def _problem(code: str, message: str, status: int) -> Response:
    return JSONResponse({"error": code, "message": message}, status)


_STATUS = {"no_record": 404, "too_many_reviews": 429, "bad_record": 500}


def review_routes(desk: ReviewDesk) -> list[Route]:
    """The review's route over ``desk``."""

    async def review_route(request: Request) -> Response:
        code = str(request.path_params["code"]).upper()
        number = game_number(request.path_params["number"])
        if number is None or not code.isalnum() or len(code) > 16:
            return _problem("no_record", "there is no such finished game", 404)
        raw = await request.body()
        if len(raw) > BODY_LIMIT:
            return _problem("too_large", f"a review request may be at most {BODY_LIMIT} bytes", 413)
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            return _problem("bad_json", "the request body is not valid JSON", 400)
        if not isinstance(body, dict) or set(body) - {"player", "seat"}:
            return _problem("bad_request", 'the body is {"player": ..., "seat": ...}', 400)
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 100:
            return _problem("bad_seat", "'seat' must be a seat number (0 for the first)", 400)
        try:
            player = identity_hash(body.get("player"))
            status, answer = await desk.ask(code, number, seat, player)
        except RoomError as exc:
            return _problem(exc.code, exc.message, _STATUS.get(exc.code, 400))
        return JSONResponse(answer, status)

    return [Route("/api/rooms/{code}/records/{number}/review", review_route, methods=["POST"])]


__all__ = ["REVIEWS_KEPT", "REVIEWS_PER_HOUR", "REVIEW_EFFORT", "ReviewDesk", "review_routes"]
