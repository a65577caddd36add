"""Where search bots think: a bounded pool of threads of their own, and a CPU budget per room.

A search bot (``ismcts``) spends a fifth of a second or more of CPU on a move. Thought on the
event loop it would stall every room; thought in asyncio's default thread pool it would queue
the database reads that HTTP requests and room loads wait on behind it. So bots think here: in
:class:`BotPool`'s own threads (``--bot-threads``), never in the pool that serves requests.

Each room also has a CPU budget (``--bot-cpu``): its bots may spend that share of one core on
average, with a reserve of :data:`RESERVE_SECONDS` of it. The CPU time of every move (the
thread's own, ``time.thread_time``) is charged to the room; a room in debt has its next bot
move wait until the debt is repaid (:meth:`BotPool.delay`). So a room that asks for fast
search bots cannot take more than its share from the others, however many moves it makes.

Work comes in two classes. A room's work (:meth:`BotPool.think`: its bots' moves, its hints)
goes first: it starts as soon as a thread is free, in the order it was asked. Spare work
(:meth:`BotPool.spare`: the reviews of finished games) starts only when no room's work waits,
and the spare work of several owners (a client address each) takes turns, one piece each in
turn, so that one owner's ten pieces queued do not make another's one wait behind them. A
thread never stops a piece it started: a room's move asked while every thread thinks spare
work waits for the shortest of those pieces to end, so spare work comes in short pieces.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar, cast

T = TypeVar("T")
A = TypeVar("A")

#: Seconds of its share a room may bank while its bots are idle (a burst of thinking).
RESERVE_SECONDS = 10.0
#: Owners of spare work whose last turn is remembered (beyond it, only those waiting).
SERVED_KEPT = 1024


def warm_engine() -> float:
    """Import the search bots' compiled engine and compile it (numba's cache on disk makes that
    a load after the first time), by playing a ``hard`` bot's first move of a fresh game and a
    hint's search: seconds of CPU that must not fall on the event loop at the first room with
    a search bot. Returns the seconds it took (0 where numba is not installed: the searches
    then play on the Python engine, nothing to compile). Run it in a thread."""
    from .room import installed_bots

    start = time.monotonic()
    if "ismcts_fast" not in installed_bots():
        return 0.0
    from .. import Game
    from ..bots import make_bot
    from ..core.observation import View
    from ..record import RecordingGame
    from ..review import hint

    game, _ = Game.new("classic", 2, 1)
    seat = game.to_act
    assert seat is not None
    make_bot("hard", 0).act(View(game, seat))
    recording, _ = RecordingGame.new("classic", 2, seed=1, rounds=1)
    with contextlib.suppress(ValueError):  # the first seat has one choice only: nothing more to compile
        hint(recording.to_record(), seat, "low")
    return time.monotonic() - start


def default_threads() -> int:
    """One thread fewer than the machine has cores (at least one): a core stays free for the
    event loop and the database."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass
class _Job:
    """One piece of work waiting for a thread: ``call`` returns its result and its CPU time;
    ``future`` (of the asker's loop) is told them."""

    call: Callable[[], tuple[Any, float]]
    future: asyncio.Future[tuple[Any, float]]
    loop: asyncio.AbstractEventLoop
    spare: bool


class BotPool:
    """Bot thinking in ``threads`` threads of its own, each room held to ``cpu_share`` of a
    core on average; rooms' work before spare work (the module's docstring). ``observe(seconds)``,
    if given, is told each piece's CPU time."""

    def __init__(self, threads: int, cpu_share: float, observe: Callable[[float], None] | None = None) -> None:
        if threads < 1:
            raise ValueError(f"the bot pool needs at least one thread, not {threads}")
        if cpu_share <= 0:
            raise ValueError(f"a room's CPU share must be above 0, not {cpu_share}")
        self.threads = threads
        self.share = cpu_share
        self.reserve = RESERVE_SECONDS * cpu_share
        self.observe = observe
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="unokit-bot")
        self._credit: dict[str, tuple[float, float]] = {}  # room -> (CPU seconds in hand, when)
        self._rooms: deque[_Job] = deque()  # rooms' work waiting, in arrival order
        self._spare: dict[str, deque[_Job]] = {}  # owner -> its spare work waiting
        self._served: dict[str, int] = {}  # owner -> the turn its last piece started
        self._turns = 0
        self._running = 0
        self._closed = False

    async def think(self, room: str, act: Callable[[A], T], argument: A) -> T:
        """``act(argument)`` in one of the pool's threads, before any spare work waiting; its CPU
        time is charged to ``room``."""
        return await self._run(room, act, argument, None)

    async def spare(self, owner: str, act: Callable[[A], T], argument: A) -> T:
        """``act(argument)`` in one of the pool's threads once no room's work waits, in turn with
        other owners' spare work; its CPU time is charged to ``owner``. Cancelled while it waits,
        it is dropped without running."""
        return await self._run(owner, act, argument, owner)

    def waiting(self) -> tuple[int, int]:
        """How many pieces of rooms' work and of spare work wait for a thread."""
        return len(self._rooms), sum(len(jobs) for jobs in self._spare.values())

    async def _run(self, account: str, act: Callable[[A], T], argument: A, owner: str | None) -> T:
        if self._closed:
            raise RuntimeError("the bot pool has stopped")

        def timed() -> tuple[T, float]:
            start = time.thread_time()
            try:
                result = act(argument)
            finally:
                spent = time.thread_time() - start
            return result, spent

        loop = asyncio.get_running_loop()
        job = _Job(timed, loop.create_future(), loop, owner is not None)
        if owner is None:
            self._rooms.append(job)
        else:
            self._spare.setdefault(owner, deque()).append(job)
        self._pump()
        result, spent = await job.future
        self._charge(account, spent)
        if self.observe is not None:
            self.observe(spent)
        return cast(T, result)

    def _next(self) -> _Job | None:
        """The next piece of work to start: a room's first, else the next owner's in turn."""
        while self._rooms:
            job = self._rooms.popleft()
            if not job.future.done():  # its asker gave up waiting: dropped
                return job
        while self._spare:
            # the owner served longest ago (or never) goes next: a piece each in turn
            owner = min(self._spare, key=lambda name: self._served.get(name, -1))
            jobs = self._spare[owner]
            job = jobs.popleft()
            if not jobs:
                del self._spare[owner]
            if job.future.done():
                continue
            self._served[owner] = self._turns
            self._turns += 1
            if len(self._served) > SERVED_KEPT:  # forget the owners that wait for nothing
                self._served = {name: turn for name, turn in self._served.items() if name in self._spare}
            return job
        return None

    def _pump(self) -> None:
        while self._running < self.threads and not self._closed:
            job = self._next()
            if job is None:
                return
            self._running += 1
            try:
                running = self._executor.submit(job.call)
            except RuntimeError as exc:  # shut down meanwhile
                self._running -= 1
                job.future.set_exception(exc)
                return
            running.add_done_callback(functools.partial(self._ended, job))

    def _ended(self, job: _Job, done: Future[tuple[Any, float]]) -> None:
        """In the worker thread: hand ``job``'s outcome to its loop, and start the next piece."""

        def settle() -> None:
            self._running -= 1
            if not job.future.done():
                if done.cancelled():
                    job.future.cancel()
                elif (error := done.exception()) is not None:
                    job.future.set_exception(error)
                else:
                    job.future.set_result(done.result())
            self._pump()

        with contextlib.suppress(RuntimeError):  # the asker's loop is closed: nobody waits
            job.loop.call_soon_threadsafe(settle)

    def _balance(self, room: str, now: float) -> float:
        credit, stamp = self._credit.get(room, (self.reserve, now))
        return min(self.reserve, credit + (now - stamp) * self.share)

    def _charge(self, room: str, seconds: float) -> None:
        now = time.monotonic()
        self._credit[room] = (self._balance(room, now) - seconds, now)

    def delay(self, room: str) -> float:
        """Seconds until ``room`` has repaid its debt (0 when it has CPU time in hand)."""
        balance = self._balance(room, time.monotonic())
        return 0.0 if balance >= 0 else -balance / self.share

    def forget(self, room: str) -> None:
        """``room`` left this process: drop its account."""
        self._credit.pop(room, None)

    def shutdown(self) -> None:
        """Stop taking work; pieces being thought finish on their own, waiting ones are dropped."""
        self._closed = True
        for job in [*self._rooms, *(j for jobs in self._spare.values() for j in jobs)]:
            with contextlib.suppress(RuntimeError):
                job.loop.call_soon_threadsafe(job.future.cancel)
        self._rooms.clear()
        self._spare.clear()
        self._executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["RESERVE_SECONDS", "BotPool", "default_threads", "warm_engine"]
