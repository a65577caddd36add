"""Game reviews: the engine's view of each decision of a seat, from what that seat knew.

* :func:`review_record` reviews one seat's game in a record: its chance to win the hand (and
  the game, where rounds are scored) at every state, each of its decisions with every choice's
  chance and a mark by how much it cost, and the key moments (``docs/review.md``);
* :class:`Review` is the result, with its JSON form (``unokit-review/1``);
* :func:`hint` gives the engine's hint for a seat's open decision in a game in progress (its
  record so far), with :func:`unokit.bots.advice.advise`, which the terminal game calls too.

The words a person reads come from :mod:`unokit.review.words` (the catalogues), the graph from
:mod:`unokit.review.graph` (text) and :mod:`unokit.review.plot` (a PNG, with matplotlib).
"""

from __future__ import annotations

from .analysis import hint, record_digest, review_record
from .model import (
    FORMAT,
    MARKS,
    MOMENT_KINDS,
    THRESHOLDS,
    Choice,
    Decision,
    Moment,
    Point,
    Review,
    ReviewError,
    RoundOutcome,
    mark_for,
)

__all__ = [
    "FORMAT",
    "MARKS",
    "MOMENT_KINDS",
    "THRESHOLDS",
    "Choice",
    "Decision",
    "Moment",
    "Point",
    "Review",
    "ReviewError",
    "RoundOutcome",
    "hint",
    "mark_for",
    "record_digest",
    "review_record",
]
