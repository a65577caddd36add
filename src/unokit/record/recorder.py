"""Writing records: :class:`RecordingGame` is a :class:`~unokit.Game` that logs every action.

Because it *is* a game, anything that drives a game records it unchanged: the bots' runner,
the terminal UI, your own loop::

    game, _setup = RecordingGame.new("flip", players=4, seed=7)
    play_game(game, bots)                       # unokit.bots.runner
    save_record(game.to_record(seats), "game.json")

:func:`record_game` wraps a game that already exists (built from a position, or part-way
through) by copying it; the record then starts from its position.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ..core.actions import Action
from ..core.game import Event, Game
from ..core.round_end import RoundResult
from ..core.state import GameState
from .format import GameRecord, Result, Seat


class RecordingGame(Game):
    """A game that keeps ``moves``: every applied action as ``(seat, text)``.

    ``apply`` stores the canonical text of the action (full card names), also for short
    forms such as ``play red 5``; rejected actions are not stored. ``step`` stores too.
    ``start`` is ``None`` when the game came from :meth:`new` (the seed is enough to rebuild
    it), else the position it started from.
    """

    __slots__ = ("moves", "start")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves: list[tuple[int, str]] = []
        self.start: dict[str, Any] | None = None

    @classmethod
    def new(
        cls, variant: str, players: int | None = None, seed: int | None = None, **options: object
    ) -> tuple[RecordingGame, list[Event]]:
        """As :meth:`Game.new`; the record starts from the variant, options and seed."""
        game, events = super().new(variant, players, seed, **options)
        assert isinstance(game, RecordingGame)
        return game, events

    @classmethod
    def from_position(cls, obj: dict[str, Any]) -> RecordingGame:
        """As :meth:`Game.from_position`; the record starts from the (completed) position."""
        return record_game(Game.from_position(obj))

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        if self.is_over:
            return super().apply(action, seat)  # raises the engine's own error
        if seat is not None:
            self._check_seat(seat)
        actor = self.to_act if seat is None else seat
        assert actor is not None
        resolved = self.parse_action(action, actor) if isinstance(action, str) else action
        events = super().apply(resolved, actor)
        self.moves.append((actor, resolved.text))
        return events

    def step(self, action: Action) -> RoundResult | None:
        actor = self.to_act
        ended = super().step(action)
        assert actor is not None
        self.moves.append((actor, action.text))
        return ended

    def to_record(
        self, seats: Sequence[Seat] | None = None, meta: dict[str, Any] | None = None, *, result: bool = True
    ) -> GameRecord:
        """The record of the game so far. ``seats`` defaults to ``seat 0``, ``seat 1``, ...;
        ``result=False`` leaves out the final result (a record still being written)."""
        if seats is not None and len(seats) != self.n:
            raise ValueError(f"{self.n} seats need {self.n} Seat entries, got {len(seats)}")
        return GameRecord(
            variant=self.variant,
            players=self.n,
            options=self.options.as_dict(self.rules),
            seed=self.seed,
            seats=list(seats) if seats is not None else [Seat(f"seat {i}", "unknown") for i in range(self.n)],
            actions=list(self.moves),
            start=self.start,
            result=Result.of(self) if result else None,
            created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            meta=dict(meta or {}),
        )


def record_game(game: Game) -> RecordingGame:
    """A recording copy of ``game`` (the original is left alone); its record starts from
    ``game``'s current position, so it can be replayed whatever state it was in."""
    copy = game.clone()
    recording = object.__new__(RecordingGame)
    for name in GameState.__slots__:
        setattr(recording, name, getattr(copy, name))
    recording.moves = []
    recording.start = copy.to_position()
    return recording
