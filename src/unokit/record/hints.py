"""Hints marked in a record: which decisions a player took after asking the engine for a hint.

A record keeps them under ``meta["hints"]``, which every reader of ``unokit-record/1`` accepts
and replay ignores, so a record with hints still replays and verifies on a unokit that knows
nothing of them. The field is versioned on its own::

    "meta": {"hints": {"version": 1, "marks": [
        {"step": 12, "seat": 0, "action": "play red 5", "chance": 0.62, "effort": "low"}
    ]}}

Each mark says that before the decision of ``seat`` at ``step`` (the number of actions played
before it) the hint showed ``action`` with the chance ``chance`` (0 to 1) to win the hand,
computed with ``effort``. :func:`read_hints` reads them back, refusing a malformed field or a
version it does not know with a :class:`~unokit.record.format.RecordError` naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from .format import GameRecord, RecordError

#: The key of ``meta`` that holds the hints, and the version of its form this unokit writes.
HINTS_KEY = "hints"
HINTS_VERSION = 1


@dataclass(frozen=True)
class HintMark:
    """One hint shown: before ``seat``'s decision at ``step``, the engine's ``action`` (notation)
    and its ``chance`` to win the hand, computed with ``effort``."""

    step: int
    seat: int
    action: str
    chance: float
    effort: str

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seat": self.seat,
            "action": self.action,
            "chance": self.chance,
            "effort": self.effort,
        }


def mark_hint(meta: dict[str, Any], mark: HintMark) -> None:
    """Add ``mark`` to the hints of a record's ``meta`` (once per seat and step: a hint asked
    for again at the same decision replaces the earlier one)."""
    field = meta.get(HINTS_KEY)
    marks = [m for m in (field or {}).get("marks", []) if (m.get("step"), m.get("seat")) != (mark.step, mark.seat)]
    marks.append(mark.to_json())
    marks.sort(key=lambda m: (m["step"], m["seat"]))
    meta[HINTS_KEY] = {"version": HINTS_VERSION, "marks": marks}


def read_hints(record: GameRecord) -> list[HintMark]:
    """The hints marked in ``record`` (none when it has no such field), in step order.

    Raises :class:`RecordError` naming the problem for a malformed field, a mark outside the
    record's steps or seats, or a version of the field this unokit does not read."""
    field = record.meta.get(HINTS_KEY)
    if field is None:
        return []
    if not isinstance(field, dict) or not isinstance(field.get("marks"), list):
        raise RecordError("the record's 'meta.hints' must be an object with a list of 'marks'")
    version = field.get("version")
    if version != HINTS_VERSION:
        raise RecordError(f"the record's hints are of version {version!r}; this unokit reads version {HINTS_VERSION}")
    marks = []
    for i, raw in enumerate(field["marks"]):
        if not isinstance(raw, dict):
            raise RecordError(f"hint {i + 1} of the record must be an object")
        step, seat, action, chance, effort = (raw.get(k) for k in ("step", "seat", "action", "chance", "effort"))
        if not _whole(step) or not 0 <= step <= len(record.actions):
            raise RecordError(f"hint {i + 1}: 'step' must be a step of the record, 0 to {len(record.actions)}")
        if not _whole(seat) or not 0 <= seat < record.players:
            raise RecordError(f"hint {i + 1}: 'seat' must be a seat, 0 to {record.players - 1}")
        if not isinstance(action, str) or not isinstance(effort, str):
            raise RecordError(f"hint {i + 1}: 'action' and 'effort' must be text")
        if not isinstance(chance, int | float) or isinstance(chance, bool) or not 0 <= chance <= 1:
            raise RecordError(f"hint {i + 1}: 'chance' must be a number from 0 to 1")
        marks.append(HintMark(step, seat, action, float(chance), effort))
    return sorted(marks, key=lambda m: (m.step, m.seat))


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["HINTS_KEY", "HINTS_VERSION", "HintMark", "mark_hint", "read_hints"]
