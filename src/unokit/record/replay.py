"""Replaying records: rebuild the game at any step, and verify that a record reproduces.

Step ``k`` is the state after the first ``k`` actions: step 0 is the start (after the deal),
step ``len(replay)`` the end of the record.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import UnokitError
from ..core.game import Event, Game
from ..narration import plural
from .format import GameRecord, IncompatibleRecordError, RecordError, Result, check_compatible

#: A copy of the game is kept every this many steps, so that any step is quick to rebuild.
CHECKPOINT_EVERY = 64


class ReplayError(RecordError):
    """An action of the record cannot be applied: the record does not fit this engine."""

    def __init__(self, message: str, step: int) -> None:
        super().__init__(message)
        self.step = step


def start_game(record: GameRecord) -> tuple[Game, list[Event]]:
    """The game at step 0 and the events of its set-up (none for a start position)."""
    try:
        if record.start is not None:
            game = Game.from_position(record.start)
            events: list[Event] = []
        else:
            game, events = Game.new(record.variant, record.players, record.seed, **record.options)
    except UnokitError as exc:
        raise ReplayError(f"the record's game cannot be set up: {exc}", 0) from None
    if game.variant != record.variant or game.n != record.players:
        raise ReplayError(
            f"the start position is a {game.n}-player {game.variant} game, "
            f"but the record says {record.players}-player {record.variant}",
            0,
        )
    return game, events


def seat_name(record: GameRecord, seat: int) -> str:
    """The name of ``seat`` in ``record`` (``seat N`` when the record names nobody there)."""
    return record.seats[seat].name if 0 <= seat < len(record.seats) else f"seat {seat}"


class Replay:
    """A record replayed once, end to end; then any step can be rebuilt and inspected.

    Raises :class:`ReplayError` (naming the step and the action) when an action is refused,
    and :class:`IncompatibleRecordError` for a record of an incompatible unokit unless
    ``check_version=False``.
    """

    def __init__(self, record: GameRecord, *, check_version: bool = True) -> None:
        if check_version:
            check_compatible(record)
        self.record = record
        game, setup = start_game(record)
        self._checkpoints: dict[int, Game] = {0: game.clone()}
        self._events: list[list[Event]] = [setup]
        for step, (seat, text) in enumerate(record.actions, start=1):
            try:
                events = game.apply(text, seat=seat)
            except UnokitError as exc:
                name = seat_name(record, seat)
                raise ReplayError(
                    f"action {step} of {len(record.actions)} ({name}, seat {seat}: {text!r}) "
                    f"is refused by this engine: {exc}",
                    step,
                ) from None
            self._events.append(events)
            if step % CHECKPOINT_EVERY == 0:
                self._checkpoints[step] = game.clone()
        self.final = game

    def __len__(self) -> int:
        return len(self.record.actions)

    def game_at(self, step: int) -> Game:
        """An independent copy of the game after ``step`` actions (0 to ``len(self)``)."""
        if not 0 <= step <= len(self):
            raise IndexError(f"step {step} is outside 0..{len(self)}")
        if step == len(self):
            return self.final.clone()
        base = step - step % CHECKPOINT_EVERY
        game = self._checkpoints[base].clone()
        for seat, text in self.record.actions[base:step]:
            game.apply(text, seat=seat)
        return game

    def events_at(self, step: int) -> list[Event]:
        """The events of action ``step`` (1-based); step 0 gives the set-up events."""
        if not 0 <= step <= len(self):
            raise IndexError(f"step {step} is outside 0..{len(self)}")
        return [dict(event) for event in self._events[step]]

    def action_at(self, step: int) -> tuple[int, str] | None:
        """``(seat, text)`` of action ``step`` (1-based); ``None`` for step 0."""
        return self.record.actions[step - 1] if step > 0 else None

    def round_starts(self) -> list[int]:
        """The steps at which a round begins (their action dealt it), 0 first."""
        return [
            step
            for step, events in enumerate(self._events)
            if step == 0 or any(e["type"] == "round_start" for e in events)
        ]


@dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`verify`: ``ok`` and a message for people."""

    ok: bool
    message: str
    steps: int = 0


def verify(record: GameRecord, *, check_version: bool = True) -> Verdict:
    """Replay ``record`` and say whether it reproduces: every action is accepted, and the
    scores, winners, round and final position equal the recorded result."""
    try:
        replay = Replay(record, check_version=check_version)
    except IncompatibleRecordError as exc:
        return Verdict(False, f"incompatible: {exc}")
    except ReplayError as exc:
        return Verdict(False, f"does not reproduce: {exc}", exc.step)
    steps = len(replay)
    if record.result is None:
        accepted = f"{plural(steps, 'action')} {'is' if steps == 1 else 'are'} accepted"
        return Verdict(True, f"replays: {accepted} (no final result recorded to compare)", steps)
    got, want = Result.of(replay.final), record.result
    problems = []
    for label, mine, theirs in (
        ("the game is over", got.over, want.over),
        ("winners", got.winners, want.winners),
        ("scores", got.scores, want.scores),
        ("team scores", got.team_scores, want.team_scores),
        ("rounds", got.rounds, want.rounds),
    ):
        if mine != theirs:
            problems.append(f"{label}: the replay gives {mine}, the record says {theirs}")
    if not problems and got.position_sha256 != want.position_sha256:
        problems.append("the final position differs from the recorded one (position_sha256)")
    if problems:
        return Verdict(False, "does not reproduce: " + "; ".join(problems), steps)
    how = f"won by {', '.join(seat_name(record, s) for s in got.winners)}" if got.over else "game unfinished"
    scores = ", ".join(f"{seat_name(record, s)} {points}" for s, points in enumerate(got.scores))
    if got.team_scores:
        scores += f", team scores {got.team_scores}"
    return Verdict(
        True, f"reproduces: {plural(steps, 'action')}, {plural(got.rounds, 'round')}, scores {scores}; {how}", steps
    )
