"""The protocol's limits on what a client sends: plain data, without the JSON library of the wire
(:mod:`.protocol`), so that the declarations of the messages (:mod:`.messages`) and the rooms'
rules import where only the standard library is installed (the offline room in the browser's
Pyodide: ``docs/offline.md``).
"""

from __future__ import annotations

#: The largest client message read, in bytes (a larger one is refused; the websocket itself
#: closes the connection above :data:`HARD_MAX_BYTES`).
MAX_MESSAGE_BYTES = 4096
HARD_MAX_BYTES = 65536
#: The deepest nesting of objects and lists allowed in a client message.
MAX_DEPTH = 4


__all__ = ["HARD_MAX_BYTES", "MAX_DEPTH", "MAX_MESSAGE_BYTES"]
