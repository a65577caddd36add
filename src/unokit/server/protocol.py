"""The websocket protocol ``unokit-server/2``'s wire: JSON, the hard limits on what a client
sends, the close codes, and the rate limit of a connection. The messages themselves are declared
once in :mod:`.messages`, which reads every client message (its ``read_message`` is the only
door in).

JSON is read and written with orjson (:func:`encode`, :func:`decode`): the server writes four
personal views per action, and encoding them is a large part of its work. orjson is stricter than
the standard library when reading: ``NaN``, numbers too large for a double, lone surrogates and
invalid UTF-8 are ``bad_json``; a whole number beyond 64 bits is read as a float (so a field that
needs a whole number refuses it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import orjson

# The limits, declared apart for the offline room; read here as before.
from .limits import HARD_MAX_BYTES, MAX_DEPTH, MAX_MESSAGE_BYTES

#: Dict keys that are not text (a seat number) are written as text, as JSON requires.
_ENCODE_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> str:
    """``value`` as compact JSON text. A :class:`Fragment` inside it is copied in as it is."""
    return orjson.dumps(value, option=_ENCODE_OPTIONS).decode()


def fragment(value: Any) -> orjson.Fragment:
    """``value`` encoded once, to be placed inside several messages without encoding it again."""
    return orjson.Fragment(orjson.dumps(value, option=_ENCODE_OPTIONS))


def decode(text: str | bytes) -> Any:
    """The value of JSON ``text``; raise ``ValueError`` (``orjson.JSONDecodeError``) if it is not
    valid JSON, or nests deeper than orjson's limit of 1024."""
    return orjson.loads(text)


#: The close code of a connection whose client did not read what it was sent (1008, policy
#: violation); the reason says so: ``too slow: over N bytes unread``.
TOO_SLOW = 1008
#: The close code of a connection whose player no longer holds its seat (kicked, replaced by a
#: bot, or left from another connection): its token is void, the client must join again.
SEAT_LOST = 4001
#: The close code of a connection that did not say ``hello`` in time (``--hello-timeout``).
NO_HELLO = 4008


def websocket_url(base_url: str) -> str:
    """The websocket address of the server at ``base_url`` (``http://host:port/prefix``)."""
    base = base_url.rstrip("/")
    return base.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/ws"


@dataclass
class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    rate: float
    burst: float
    tokens: float = 0.0
    stamp: float = 0.0

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


__all__ = [
    "HARD_MAX_BYTES",
    "MAX_DEPTH",
    "MAX_MESSAGE_BYTES",
    "NO_HELLO",
    "SEAT_LOST",
    "TOO_SLOW",
    "RateLimit",
    "decode",
    "encode",
    "fragment",
    "websocket_url",
]
