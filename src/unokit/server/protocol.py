"""The websocket protocol ``unokit-server/2``: reading client messages within hard limits.

Every message is one JSON object with a ``type`` (``docs/protocol.md`` lists them all). A client
message is refused with an error naming the problem when it is too large, not JSON, nested too
deeply, not an object, of an unknown type, or has a field of the wrong type; nothing about it
reaches a room. :func:`parse_message` is the only door in.

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

from .room import RoomError

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


#: The largest client message read, in bytes (a larger one is refused; the websocket itself
#: closes the connection above :data:`HARD_MAX_BYTES`).
MAX_MESSAGE_BYTES = 4096
HARD_MAX_BYTES = 65536
#: The deepest nesting of objects and lists allowed in a client message.
MAX_DEPTH = 4

#: The close code of a connection whose client did not read what it was sent (1008, policy
#: violation); the reason says so: ``too slow: over N bytes unread``.
TOO_SLOW = 1008
#: The close code of a connection whose player no longer holds its seat (kicked, replaced by a
#: bot, or left from another connection): its token is void, the client must join again.
SEAT_LOST = 4001
#: The close code of a connection that did not say ``hello`` in time (``--hello-timeout``).
NO_HELLO = 4008


class MessageError(RoomError):
    """A client message refused as it was read; ``reply_to`` is its ``id`` when it had a
    usable one, so that the refusal still answers it."""

    def __init__(self, code: str, message: str, reply_to: object = None) -> None:
        super().__init__(code, message)
        self.reply_to = reply_to


#: Each client message type and its fields: name -> (accepted types, required).
_STR, _INT, _BOOL, _ANY_ID = (str,), (int,), (bool,), (str, int)
FIELDS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {
        "protocol": (_STR, False),
        "room": (_STR, True),
        "role": (_STR, False),
        "name": (_STR, False),
        "token": (_STR, False),
        "host_token": (_STR, False),
        "redirects": (_BOOL, False),
        "unreachable": (_STR, False),
        "player": (_STR, False),
        "visible": (_BOOL, False),
        "id": (_ANY_ID, False),
    },
    "action": {
        "action": (_STR, True),
        "version": (_INT, True),
        "token": (_STR, True),
        "seat": (_INT, False),
        "decision": (_STR, False),
        "id": (_ANY_ID, False),
    },
    "host": {
        "command": (_STR, True),
        "host_token": (_STR, True),
        "version": (_INT, True),
        "seat": (_INT, False),
        "bot": (_STR, False),
        "id": (_ANY_ID, False),
    },
    "chat": {"text": (_STR, False), "reaction": (_STR, False), "token": (_STR, False), "id": (_ANY_ID, False)},
    "quiet": {"token": (_STR, True), "quiet": (_BOOL, True), "id": (_ANY_ID, False)},
    "hint": {"token": (_STR, True), "id": (_ANY_ID, False)},
    "report": {
        "about": (_STR, True),
        "token": (_STR, False),
        "message": (_INT, False),
        "seat": (_INT, False),
        "from": (_STR, False),
        "id": (_ANY_ID, False),
    },
    "ready": {"token": (_STR, True), "ready": (_BOOL, False), "id": (_ANY_ID, False)},
    "back": {"token": (_STR, True), "id": (_ANY_ID, False)},
    "leave": {"token": (_STR, True), "id": (_ANY_ID, False)},
    "visibility": {"visible": (_BOOL, True), "id": (_ANY_ID, False)},
    "sync": {"id": (_ANY_ID, False)},
    "ping": {"id": (_ANY_ID, False)},
}


_TYPE_WORDS = {str: "text", int: "a whole number", bool: "true or false"}


def _depth(value: Any, limit: int) -> bool:
    """Whether ``value`` nests no deeper than ``limit`` (iterative: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """Read one client message; raise :class:`MessageError` with code ``too_large``,
    ``bad_json``, ``too_deep``, ``bad_message`` or ``unknown_type``, carrying the message's
    ``id`` whenever the message is a JSON object with a text or whole-number ``id``."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes, this one is {size}")
    try:
        obj = decode(raw)
    except ValueError as exc:
        if "depth limit" in str(exc):
            raise MessageError("too_deep", f"the message nests deeper than {MAX_DEPTH} levels") from None
        raise MessageError("bad_json", f"the message is not valid JSON: {str(exc)[:120]}") from None
    if not isinstance(obj, dict):
        raise MessageError("bad_message", "a message must be a JSON object with a 'type'")
    given = obj.get("id")
    usable = (isinstance(given, int) and not isinstance(given, bool)) or (isinstance(given, str) and len(given) <= 400)
    reply_to = given if usable else None
    try:
        return _check_fields(obj)
    except RoomError as exc:
        raise MessageError(exc.code, exc.message, reply_to) from None


def _check_fields(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` if its type and fields are those of a client message; raise :class:`RoomError`."""
    if not _depth(obj, MAX_DEPTH):
        raise RoomError("too_deep", f"the message nests objects or lists deeper than {MAX_DEPTH} levels")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise RoomError("bad_message", "a message needs a text 'type'")
    spec = FIELDS.get(kind)
    if spec is None:
        raise RoomError("unknown_type", f"unknown message type {kind[:40]!r}; types are {', '.join(FIELDS)}")
    for name, value in obj.items():
        if name == "type":
            continue
        if name not in spec:
            raise RoomError("bad_message", f"a {kind!r} message has no field {name[:40]!r}")
        types, _required = spec[name]
        if isinstance(value, bool) is not (types == _BOOL) or not isinstance(value, types):
            wanted = " or ".join(_TYPE_WORDS[t] for t in types)
            raise RoomError("bad_message", f"the field {name!r} of a {kind!r} message must be {wanted}")
        if isinstance(value, str) and len(value) > 400:
            raise RoomError("bad_message", f"the field {name!r} is too long")
    missing = [name for name, (_types, required) in spec.items() if required and name not in obj]
    if missing:
        raise RoomError("bad_message", f"a {kind!r} message needs {', '.join(repr(m) for m in missing)}")
    return obj


def websocket_url(base_url: str) -> str:
    """The websocket address of the server at ``base_url`` (``http://host:port/prefix``)."""
    base = base_url.rstrip("/")
    return base.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/ws"


def error(
    code: str, message: str, reply_to: object = None, state: dict[str, Any] | None = None, **detail: Any
) -> dict[str, Any]:
    """An ``error`` message; ``state`` is the connection's current ``state`` message, if any;
    ``detail`` adds ``params`` and the engine's ``reason`` and ``reason_params``
    (:meth:`RoomError.detail`)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, **detail}
    if reply_to is not None:
        out["reply_to"] = reply_to
    if state is not None:
        out["state"] = state
    return out


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
