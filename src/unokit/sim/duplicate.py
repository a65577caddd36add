"""Duplicate scoring: each result compared with the others who held the same seat of the same deal.

In a duplicate match every table plays the same seeded deals and the players' seats are rotated
from one table to the next, so the same cards are held in the same seat by several players. A
**board** is one seat of one deal (``deal``, ``seat``); its **results** are the scores of the
players who held it, one per table. The luck of the deal is the same for everyone on a board, so
comparing them cancels it out.

The method is bridge's **matchpoints** (docs/arena.md has a worked example):

* On each board, a result earns **1 matchpoint** for every other result on that board it beats
  (a higher score), **½** for every one it ties, nothing for one that beats it. A forfeited result
  (a bot over its time, a player who left) ranks below every played one and ties with other
  forfeits.
* A board's **top** for a result is the number of other results on the board (a board held only
  once has nothing to compare and scores nobody).
* A player's duplicate score is the sum of their matchpoints over the sum of their tops, as a
  percentage: 50% is even with the field, 100% beat everyone on every board.

A score is whatever the caller compares (higher is better): :mod:`unokit.eval.protocol` uses a
hand's points for the seat (the winner the cards left in the other hands, the others minus their
own). The module is pure: results in, scores out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatResult:
    """What ``entry`` scored holding ``seat`` of deal ``deal`` at one table."""

    deal: int
    seat: int
    entry: str
    score: float
    #: The seat's hand was forfeited: it ranks below every played result on its board.
    forfeit: bool = False

    @property
    def board(self) -> tuple[int, int]:
        """The board: one seat of one deal."""
        return self.deal, self.seat

    def _rank_key(self) -> tuple[bool, float]:
        return (not self.forfeit, 0.0 if self.forfeit else self.score)


@dataclass(frozen=True)
class DuplicateScore:
    """One entry's duplicate score over every board it held (see the module docstring)."""

    entry: str
    matchpoints: float
    top: int
    #: The boards it held that had someone to compare with.
    boards: int

    @property
    def percent(self) -> float | None:
        """``100 * matchpoints / top``; ``None`` when nothing was compared."""
        return 100.0 * self.matchpoints / self.top if self.top else None

    def to_json(self) -> dict[str, object]:
        percent = self.percent
        return {
            "entry": self.entry,
            "matchpoints": self.matchpoints,
            "top": self.top,
            "boards": self.boards,
            "percent": None if percent is None else round(percent, 4),
        }


def matchpoints(results: Sequence[SeatResult]) -> list[tuple[float, int]]:
    """Each result's matchpoints and top on its board, in the order given."""
    boards: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, result in enumerate(results):
        boards[result.board].append(i)
    out: list[tuple[float, int]] = [(0.0, 0)] * len(results)
    for members in boards.values():
        for i in members:
            mine = results[i]._rank_key()
            points = 0.0
            for j in members:
                if j == i:
                    continue
                other = results[j]._rank_key()
                points += 1.0 if mine > other else 0.5 if mine == other else 0.0
            out[i] = (points, len(members) - 1)
    return out


def duplicate_scores(results: Iterable[SeatResult]) -> list[DuplicateScore]:
    """Every entry's duplicate score, best first (a higher percentage; then the entry's name).

    An entry whose every board was held by it alone has a top of 0 and is listed last."""
    listed = list(results)
    totals: dict[str, list[float]] = {}
    for result, (points, top) in zip(listed, matchpoints(listed), strict=True):
        total = totals.setdefault(result.entry, [0.0, 0.0, 0.0])
        total[0] += points
        total[1] += top
        total[2] += 1 if top else 0
    scores = [DuplicateScore(entry, mp, int(top), int(boards)) for entry, (mp, top, boards) in totals.items()]
    return sorted(scores, key=lambda s: (s.percent is None, -(s.percent or 0.0), s.entry))
