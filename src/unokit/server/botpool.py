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
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
A = TypeVar("A")

#: Seconds of its share a room may bank while its bots are idle (a burst of thinking).
RESERVE_SECONDS = 10.0


def default_threads() -> int:
    """One thread fewer than the machine has cores (at least one): a core stays free for the
    event loop and the database."""
    return max(1, (os.cpu_count() or 2) - 1)


class BotPool:
    """Bot thinking in ``threads`` threads of its own, each room held to ``cpu_share`` of a
    core on average. ``observe(seconds)``, if given, is told each move's CPU time."""

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

    async def think(self, room: str, act: Callable[[A], T], argument: A) -> T:
        """``act(argument)`` in one of the pool's threads; its CPU time is charged to ``room``."""

        def timed() -> tuple[T, float]:
            start = time.thread_time()
            try:
                result = act(argument)
            finally:
                spent = time.thread_time() - start
            return result, spent

        result, spent = await asyncio.get_running_loop().run_in_executor(self._executor, timed)
        self._charge(room, spent)
        if self.observe is not None:
            self.observe(spent)
        return result

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
        """Stop taking work; moves being thought finish on their own."""
        self._executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["RESERVE_SECONDS", "BotPool", "default_threads"]
