"""The ``state`` message each reader of a room is told (its own view of the game, the change's
events redacted for it, the same events as lines to say, after a hello the game so far, and when
a round ends its summary): made from the room's state alone, with no I/O and nothing beyond the
standard library, so that the server's rooms (:mod:`.telling`) and the offline room in the
browser (:mod:`.local`, ``docs/offline.md``) tell their tables the same messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .. import Event, redact
from ..i18n.lines import Line
from ..narration import Narrator, side_before
from ..play.session import summarize
from .messages import State

if TYPE_CHECKING:
    from .room import RoomState


class Told(Protocol):
    """What a room offers the telling of its state: the state, and the ``room`` part of its
    messages (its public state with what only its owner knows: timers, presence)."""

    @property
    def state(self) -> RoomState: ...

    def room_info(self) -> dict[str, Any]: ...


def round_summary(variant: str, names: list[str], events: list[Event]) -> dict[str, Any] | None:
    """The summary of the round that ``events`` end: every hand with each card (its face on the
    side the round ended on) and its points, the points gained and the totals (``None`` when no
    round ends here). The reader's page names the cards in its language."""
    summary = summarize(variant, names, events)
    if summary is None:
        return None
    return {
        "round": summary.round,
        "winner": summary.winner,
        "side": summary.side,
        "blocked": summary.blocked,
        "over": summary.over,
        "winners": summary.winners,
        "lines": [
            {
                "seat": line.seat,
                "name": line.name,
                "cards": [{"card": face, "points": points} for face, points in line.cards],
                "hand_points": line.hand_points,
                "gained": line.gained,
                "total": line.total,
            }
            for line in summary.lines
        ],
    }


class StateTeller:
    """The ``state`` messages of one room, made for each reader."""

    def __init__(self, room: Told) -> None:
        self.room = room

    def state_message(
        self,
        seat: int | None,
        events: list[Event],
        reply_to: str | int | None = None,
        info: Any = None,
        log: bool = False,
        said: Sequence[Line] = (),
    ) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator) after ``events``; ``info``
        is the room's :meth:`~.authority.Room.room_info`, possibly already encoded (:func:`fragment`); ``log``
        adds the whole game's log as that seat saw it (:meth:`game_log`), for a client that
        has just said hello; ``said`` are the change's lines about the room itself (more time,
        a pause: :attr:`~.room.RoomState.said`), told after the game's."""
        state = self.room.state
        game = state.game
        seen = redact(events, seat)
        return State(
            version=state.seq,
            seat=seat,
            room=info if info is not None else self.room.room_info(),
            game_step=len(state.moves),
            observation=state.observe(seat),
            events=seen,
            lines=self.lines(seen) + [line.to_json() for line in said],
            standin=state.last_standin,
            log=self.game_log(seat) if log and game is not None else None,
            summary=round_summary(state.spec.variant, state.names(), seen),
            reply_to=reply_to,
        ).to_json()

    def lines(self, seen: list[Event]) -> list[dict[str, Any]]:
        """The events as one reader saw them, in sentences: codes with parameters, which each
        browser says in its reader's language (:class:`~unokit.narration.Narrator`)."""
        game = self.room.state.game
        if game is None or not seen:
            return []
        side = side_before(seen, game.side, game.rules.side_names)
        return [line.to_json() for line in Narrator(side, game.rules.double_sided).lines(seen)]

    def game_log(self, seat: int | None) -> list[dict[str, Any]]:
        """The current game's log as ``seat`` saw it, move by move: the deal, then each move's
        events in sentences (:meth:`lines`), with ``standin`` naming the seat a stand-in bot
        played the move for. The same lines, in the same groups, as the ``state`` messages
        that a client connected since the deal received."""
        game = self.room.state.game
        assert game is not None
        narrator = Narrator(0, game.rules.double_sided)
        out: list[dict[str, Any]] = []
        for events, standin in self.room.state.steps:
            lines = [line.to_json() for line in narrator.lines(redact(events, seat))]
            if lines:
                out.append({"lines": lines} if standin is None else {"lines": lines, "standin": standin})
        return out


__all__ = ["StateTeller", "Told", "round_summary"]
