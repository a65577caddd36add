"""Game records: every action of a game with its seat, replayed to rebuild any state.

* :class:`RecordingGame` / :func:`record_game` write a record while a game is played;
* :class:`GameRecord`, :func:`save_record`, :func:`load_record` are the JSON format
  (``docs/records.md``);
* :class:`Replay` rebuilds the game at any step; :func:`verify` checks that a record
  reproduces on this engine.
"""

from __future__ import annotations

from .format import (
    FORMAT,
    GameRecord,
    IncompatibleRecordError,
    RecordError,
    Result,
    Seat,
    compatible,
    load_record,
    position_digest,
    save_record,
)
from .recorder import RecordingGame, record_game
from .replay import Replay, ReplayError, Verdict, verify

__all__ = [
    "FORMAT",
    "GameRecord",
    "IncompatibleRecordError",
    "RecordError",
    "RecordingGame",
    "Replay",
    "ReplayError",
    "Result",
    "Seat",
    "Verdict",
    "compatible",
    "load_record",
    "position_digest",
    "record_game",
    "save_record",
    "verify",
]
