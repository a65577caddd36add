"""The protocol's limits on what a client sends and the ``error`` message: plain data, without
the JSON library of the wire (:mod:`.protocol`), so that the declarations of the messages
(:mod:`.messages`) and the rooms' rules import where only the standard library is installed (the
offline room in the browser's Pyodide: ``docs/offline.md``).
"""

from __future__ import annotations

from typing import Any

#: The largest client message read, in bytes (a larger one is refused; the websocket itself
#: closes the connection above :data:`HARD_MAX_BYTES`).
MAX_MESSAGE_BYTES = 4096
HARD_MAX_BYTES = 65536
#: The deepest nesting of objects and lists allowed in a client message.
MAX_DEPTH = 4


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


__all__ = ["HARD_MAX_BYTES", "MAX_DEPTH", "MAX_MESSAGE_BYTES", "error"]
