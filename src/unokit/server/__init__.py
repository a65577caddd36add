"""unokit.server: ``unokit serve``, an authoritative game server for online play.

* :mod:`.room` — a room's state as the fold of its log (seats, phases, the game);
* :mod:`.authority` — one ordered queue per room: messages, timers, bots, per-seat views;
* :mod:`.storage` — SQLite or PostgreSQL through SQLAlchemy, Alembic migrations, group commit;
* :mod:`.hub` — the rooms of one process, leases, and the link between processes;
* :mod:`.protocol` — the ``unokit-server/1`` messages and their limits;
* :mod:`.app` — the Starlette application (HTTP API and websocket);
* :mod:`.client` — a small Python client for scripts, bots and tests.

Needs the ``server`` extra. ``docs/server.md`` and ``docs/protocol.md`` describe it.
"""

from __future__ import annotations

from .protocol import PROTOCOL

__all__ = ["PROTOCOL"]
