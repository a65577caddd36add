"""unokit.server: ``unokit serve``, an authoritative game server for online play.

* :mod:`.room` — a room's state as the fold of its log (seats, phases, the game);
* :mod:`.authority` — one ordered queue per room: messages, timers, bots, per-seat views;
* :mod:`.storage` — SQLite or PostgreSQL through SQLAlchemy, Alembic migrations, group commit;
* :mod:`.hub` — the rooms of one process, leases, and the link between processes;
* :mod:`.protocol` — the ``unokit-server/2`` messages and their limits;
* :mod:`.app` — the Starlette application (HTTP API and websocket);
* :mod:`.sendbuffer` — the bound on what a connection holds for a client that does not read;
* :mod:`.client` — a small Python client for scripts, bots and tests.

Needs the ``server`` extra. ``docs/server.md`` and ``docs/protocol.md`` describe it.
"""

from __future__ import annotations

#: The protocol's name and version, sent in ``welcome`` and checked in ``hello`` (defined here,
#: not in :mod:`.protocol`, so that ``unokit serve`` can say which extra is missing before
#: anything that needs it is imported).
PROTOCOL = "unokit-server/2"

#: The default of ``unokit serve --send-buffer``: the bytes sent to a client and not yet read by
#: it that the server holds for one connection (about two hundred of the largest ``state``
#: messages) before closing it as too slow (:mod:`.sendbuffer`).
DEFAULT_SEND_BUFFER = 1 << 20
#: The bounds of ``--send-buffer``: below 64 KiB an ordinary burst could cut a client that
#: reads; above 1 GiB the bound protects nothing.
SEND_BUFFER_RANGE = (64 * 1024, 1 << 30)

#: Default retention, in days (``--retain-rooms``, ``--retain-records``, ``--retain-players``): a
#: closed room with its log and chat, a finished game's record, and a player identity nobody has
#: used, with its list of games (:mod:`.upkeep`).
RETAIN_ROOMS_DAYS = 30.0
RETAIN_RECORDS_DAYS = 365.0
RETAIN_PLAYERS_DAYS = 365.0

#: How long the bots of a deal of the day pause before each move (``--daily-bot-seconds``).
DAILY_BOT_SECONDS = 0.5

#: How long a player is away from the table before "your turn" is pushed (``--push-away``).
AWAY_SECONDS = 15.0

__all__ = [
    "AWAY_SECONDS",
    "DAILY_BOT_SECONDS",
    "DEFAULT_SEND_BUFFER",
    "PROTOCOL",
    "RETAIN_PLAYERS_DAYS",
    "RETAIN_RECORDS_DAYS",
    "RETAIN_ROOMS_DAYS",
    "SEND_BUFFER_RANGE",
]
