"""CPU work that a request asks for runs here, never on the event loop that serves the rooms.

Scoring a pasted hand or a score sheet, the summary of a table's rules and a replay's step are
computed in a thread of their own (:data:`REQUEST_THREADS`), apart from the threads that read
the database for requests and from the bots' pool: the loop only reads the request and sends
the answer, so a costly request delays its own answer and nobody's game. Requests queue for the
thread in arrival order; their input is bounded where it is read (the body's size, a hand's
cards), so each one is short.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

#: Threads for requests' CPU work: one, so that it takes at most one core from the rooms.
REQUEST_THREADS = 1

P = ParamSpec("P")
T = TypeVar("T")


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(REQUEST_THREADS, thread_name_prefix="unokit-request")


async def off_loop(work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``work(*args, **kwargs)`` computed in the requests' thread; its result, or its exception."""
    return await asyncio.get_running_loop().run_in_executor(_pool(), functools.partial(work, *args, **kwargs))


__all__ = ["REQUEST_THREADS", "off_loop"]
