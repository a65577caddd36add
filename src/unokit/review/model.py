"""What a review says, as typed values with a JSON form (``unokit-review/1``) that round-trips.

A :class:`Review` is language-neutral: actions are in the engine's notation and, for people,
as lines (a catalogue key and its parameters, :class:`~unokit.i18n.lines.Line`) that each
surface says in its reader's language; marks and kinds of moment are codes of the closed sets
:data:`MARKS` and :data:`MOMENT_KINDS`. ``docs/review.md`` describes every field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The format this unokit writes and reads.
FORMAT = "unokit-review/1"

#: The marks of a decision, from the best to the worst, by the drop in the chance to win the
#: hand from the best choice to the choice made.
MARKS = ("good", "inaccuracy", "mistake", "blunder")
#: The smallest drop (a share of 1, so 0.05 is 5 points of percentage) that earns each mark but
#: ``good``: below 5 points the choice is good, from 5 an inaccuracy, from 10 a mistake, from 20
#: a blunder. Estimates at ``normal`` effort move by about a point from one seed to another
#: (``docs/review.md``), well under the smallest threshold.
THRESHOLDS: dict[str, float] = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}

#: What moved the reviewed seat's chance at a key moment: its own ``decision`` (the drop from
#: its best choice), the ``luck`` of what it drew or what a challenge showed (the chance once it
#: saw the cards, against the chance its choice had before), or another player's ``move``.
MOMENT_KINDS = ("decision", "luck", "move")


def mark_for(drop: float) -> str:
    """The mark of a decision whose choice was ``drop`` below the best (:data:`THRESHOLDS`)."""
    mark = "good"
    for name in MARKS[1:]:
        if drop >= THRESHOLDS[name] - 1e-12:
            mark = name
    return mark


class ReviewError(ValueError):
    """A review that cannot be made or read: a seat that is not at the table, an unknown effort,
    a review's JSON that is malformed or of another format."""


@dataclass(frozen=True)
class Choice:
    """One choice of a decision: its ``action`` (notation) and ``line`` (words), the chance to
    win the hand after it (``chance``, 0 to 1), to win the game where rounds are scored
    (``game``, else ``None``), and the search iterations behind it (``visits``)."""

    action: str
    line: dict[str, Any]
    chance: float
    game: float | None
    visits: int

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "line": self.line,
            "chance": self.chance,
            "game": self.game,
            "visits": self.visits,
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Choice:
        return Choice(
            _text(obj, "action"), _object(obj, "line"), _share(obj, "chance"), _share(obj, "game", True), _count(obj)
        )


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the state after ``step`` actions of the record, in
    ``round``, a decision of kind ``decision`` (``turn``, ``challenge``, ...); every ``choice``
    it had, the ``played`` one and the ``best`` one (indices into ``choices``), the ``drop`` in
    the chance to win the hand from the best to the choice made and its ``mark``; ``hinted``:
    a hint was shown before it; ``uno_missed``: it played down to one card without calling UNO
    (the search values a play as if UNO were called)."""

    step: int
    round: int
    decision: str
    choices: tuple[Choice, ...]
    played: int
    best: int
    drop: float
    mark: str
    hinted: bool = False
    uno_missed: bool = False

    @property
    def played_choice(self) -> Choice:
        return self.choices[self.played]

    @property
    def best_choice(self) -> Choice:
        return self.choices[self.best]

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "round": self.round,
            "decision": self.decision,
            "choices": [c.to_json() for c in self.choices],
            "played": self.played,
            "best": self.best,
            "drop": self.drop,
            "mark": self.mark,
            "hinted": self.hinted,
            "uno_missed": self.uno_missed,
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Decision:
        choices = tuple(Choice.from_json(_mapping(c, "a choice")) for c in _list(obj, "choices"))
        played, best = _int(obj, "played"), _int(obj, "best")
        if not choices or not (0 <= played < len(choices) and 0 <= best < len(choices)):
            raise ReviewError("a decision needs choices, and 'played' and 'best' among them")
        mark = _text(obj, "mark")
        if mark not in MARKS:
            raise ReviewError(f"unknown mark {mark!r}; marks are {', '.join(MARKS)}")
        return Decision(
            _int(obj, "step"),
            _int(obj, "round"),
            _text(obj, "decision"),
            choices,
            played,
            best,
            _share(obj, "drop"),
            mark,
            _flag(obj, "hinted"),
            _flag(obj, "uno_missed"),
        )


@dataclass(frozen=True)
class Point:
    """The reviewed seat's chance at one state of the game (after ``step`` actions, in
    ``round``): to win the hand (``chance``) and the game where rounds are scored (``game``).
    At a state where it is to act this is its best choice's chance; ``actor`` is the seat that
    took the next action (``None`` after the last)."""

    step: int
    round: int
    chance: float
    game: float | None
    actor: int | None

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "round": self.round, "chance": self.chance, "game": self.game, "actor": self.actor}

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Point:
        actor = obj.get("actor")
        if actor is not None and not _is_int(actor):
            raise ReviewError("a point's 'actor' must be a seat or null")
        return Point(_int(obj, "step"), _int(obj, "round"), _share(obj, "chance"), _share(obj, "game", True), actor)


@dataclass(frozen=True)
class Moment:
    """A key moment: the action after ``step`` (``seat`` took ``action``, said by ``line``) moved
    the reviewed seat's chance to win the hand from ``before`` to ``after``; ``kind`` is one of
    :data:`MOMENT_KINDS`. For a ``decision`` ``before`` is the best choice's chance."""

    step: int
    round: int
    kind: str
    seat: int
    action: str
    line: dict[str, Any]
    before: float
    after: float

    @property
    def swing(self) -> float:
        return self.after - self.before

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "round": self.round,
            "kind": self.kind,
            "seat": self.seat,
            "action": self.action,
            "line": self.line,
            "before": self.before,
            "after": self.after,
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Moment:
        kind = _text(obj, "kind")
        if kind not in MOMENT_KINDS:
            raise ReviewError(f"unknown kind of moment {kind!r}; kinds are {', '.join(MOMENT_KINDS)}")
        return Moment(
            _int(obj, "step"),
            _int(obj, "round"),
            kind,
            _int(obj, "seat"),
            _text(obj, "action"),
            _object(obj, "line"),
            _share(obj, "before"),
            _share(obj, "after"),
        )


@dataclass(frozen=True)
class RoundOutcome:
    """How round ``round`` ended: ``winner`` went out (``None``: the record stops inside it),
    ``won`` whether the reviewed seat won it (with its partner, with ``teams=true``); its states
    are steps ``first`` to ``last``."""

    round: int
    first: int
    last: int
    winner: int | None
    won: bool

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "first": self.first, "last": self.last, "winner": self.winner, "won": self.won}

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> RoundOutcome:
        winner = obj.get("winner")
        if winner is not None and not _is_int(winner):
            raise ReviewError("a round's 'winner' must be a seat or null")
        return RoundOutcome(_int(obj, "round"), _int(obj, "first"), _int(obj, "last"), winner, _flag(obj, "won"))


@dataclass(frozen=True)
class Review:
    """A review of one seat's game (:func:`unokit.review.review_record`); see ``docs/review.md``.

    ``record_sha256`` identifies the record reviewed (:func:`record_digest`); ``names`` are the
    seats' names; ``scored``: rounds are scored (the game chances are given); ``engine``: the
    engine that searched (``kernel``, ``python``, or ``mixed``); ``power``: the temperature put
    on the search's chances (:mod:`unokit.bots.temper`; 1 for none)."""

    record_sha256: str
    seat: int
    names: tuple[str, ...]
    variant: str
    players: int
    effort: str
    seed: int
    engine: str
    scored: bool
    rounds: tuple[RoundOutcome, ...]
    points: tuple[Point, ...]
    decisions: tuple[Decision, ...]
    moments: tuple[Moment, ...]
    unokit: str = ""
    format: str = FORMAT
    thresholds: dict[str, float] = field(default_factory=lambda: dict(THRESHOLDS))
    power: float = 1.0

    def marks(self) -> dict[str, int]:
        """How many decisions earned each mark (every mark listed)."""
        counts = dict.fromkeys(MARKS, 0)
        for decision in self.decisions:
            counts[decision.mark] += 1
        return counts

    def worst(self, count: int = 3) -> list[Decision]:
        """The ``count`` decisions that cost the most (inaccuracies and worse), the costliest
        first (the earlier on a tie)."""
        costly = [d for d in self.decisions if d.mark != "good"]
        return sorted(costly, key=lambda d: (-d.drop, d.step))[:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "unokit": self.unokit,
            "record_sha256": self.record_sha256,
            "seat": self.seat,
            "names": list(self.names),
            "variant": self.variant,
            "players": self.players,
            "effort": self.effort,
            "seed": self.seed,
            "engine": self.engine,
            "power": self.power,
            "scored": self.scored,
            "thresholds": dict(self.thresholds),
            "marks": self.marks(),
            "rounds": [r.to_json() for r in self.rounds],
            "points": [p.to_json() for p in self.points],
            "decisions": [d.to_json() for d in self.decisions],
            "moments": [m.to_json() for m in self.moments],
        }

    @staticmethod
    def from_json(obj: object) -> Review:
        """Read a review from parsed JSON; :class:`ReviewError` names what is wrong."""
        if not isinstance(obj, dict):
            raise ReviewError("a review is a JSON object")
        if obj.get("format") != FORMAT:
            raise ReviewError(f"not a review this unokit reads: 'format' is {obj.get('format')!r}, expected {FORMAT!r}")
        names = _list(obj, "names")
        if not all(isinstance(n, str) for n in names):
            raise ReviewError("'names' must be a list of text")
        thresholds = _object(obj, "thresholds")
        if set(thresholds) != set(THRESHOLDS) or not all(isinstance(v, int | float) for v in thresholds.values()):
            raise ReviewError(f"'thresholds' must give a number for each of {', '.join(THRESHOLDS)}")
        return Review(
            record_sha256=_text(obj, "record_sha256"),
            seat=_int(obj, "seat"),
            names=tuple(names),
            variant=_text(obj, "variant"),
            players=_int(obj, "players"),
            effort=_text(obj, "effort"),
            seed=_int(obj, "seed"),
            engine=_text(obj, "engine"),
            scored=_flag(obj, "scored"),
            rounds=tuple(RoundOutcome.from_json(_mapping(r, "a round")) for r in _list(obj, "rounds")),
            points=tuple(Point.from_json(_mapping(p, "a point")) for p in _list(obj, "points")),
            decisions=tuple(Decision.from_json(_mapping(d, "a decision")) for d in _list(obj, "decisions")),
            moments=tuple(Moment.from_json(_mapping(m, "a moment")) for m in _list(obj, "moments")),
            unokit=_text(obj, "unokit"),
            format=FORMAT,
            thresholds={k: float(v) for k, v in thresholds.items()},
            power=_power(obj),
        )


# --------------------------------------------------------------------------- reading JSON


def _power(obj: Mapping[str, Any]) -> float:
    """The review's ``power`` (1 when a review written before temperatures does not say)."""
    value = obj.get("power", 1.0)
    if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
        raise ReviewError("'power' must be a number above 0")
    return float(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ReviewError(f"{what} must be an object")
    return value


def _field(obj: Mapping[str, Any], name: str) -> Any:
    if name not in obj:
        raise ReviewError(f"the review has no {name!r}")
    return obj[name]


def _int(obj: Mapping[str, Any], name: str) -> int:
    value = _field(obj, name)
    if not _is_int(value):
        raise ReviewError(f"{name!r} must be a whole number")
    return int(value)


def _count(obj: Mapping[str, Any]) -> int:
    value = _int(obj, "visits")
    if value < 0:
        raise ReviewError("'visits' must not be negative")
    return value


def _text(obj: Mapping[str, Any], name: str) -> str:
    value = _field(obj, name)
    if not isinstance(value, str):
        raise ReviewError(f"{name!r} must be text")
    return value


def _flag(obj: Mapping[str, Any], name: str) -> bool:
    value = _field(obj, name)
    if not isinstance(value, bool):
        raise ReviewError(f"{name!r} must be true or false")
    return value


def _object(obj: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = _field(obj, name)
    if not isinstance(value, dict):
        raise ReviewError(f"{name!r} must be an object")
    return value


def _list(obj: Mapping[str, Any], name: str) -> list[Any]:
    value = _field(obj, name)
    if not isinstance(value, list):
        raise ReviewError(f"{name!r} must be a list")
    return value


def _share(obj: Mapping[str, Any], name: str, optional: bool = False) -> Any:
    value = _field(obj, name)
    if value is None and optional:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
        raise ReviewError(f"{name!r} must be a number from 0 to 1")
    return float(value)


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
    "mark_for",
]
