"""The feature ``hints``: hints at a room's table (``docs/review.md``, "Hints"): a player asks,
at their own decision, for the engine's choice and their chance to win the hand with it.

A room gives hints in a game against bots (every other seat a bot) and where its host allowed
them (the room setting ``hints``); elsewhere the request is refused (``no_hints``) and the page
shows no button. The hint is :func:`unokit.review.hint` on the game as a record, from the seat's
view only, computed in the bot pool with its CPU time charged to the room like its bots' moves.
Each hint given is a ``hint`` entry of the room's log, so that the game's record marks it
(``meta.hints``) and the review says ``hint used`` beside that decision.

The client sends a ``hint`` (:class:`~.messages.Hint`); the answer, to that connection only, is
the server's ``hint`` (:class:`~.messages.HintAnswer`: the step, the action, its line and the
chance; then its ``ack``), or an ``error``.

A hint costs a search, so a seat gets one per decision: asked again at the same decision, the
answer is read from the log at once, without searching and without a new entry. While it is
being searched, more requests for it (from any connection of the seat) wait for the same search
(:class:`Pending`), so however many are sent, one search is made. The search is the room's work,
like its bots': it first waits for the room's CPU budget (:meth:`Host.think_delay`), then takes
its turn in the bot pool before any spare work. The room's queue does not wait for it: the
search runs beside the queue and hands its result back through it (a :class:`~..items.Queued`).
A search nobody waits for any more, all its askers' connections closed, or whose decision has
passed (the seat acted, the game moved on) is dropped before it starts, and its result, if it
was under way, is thrown away: no entry, no answer.

What a hint leaves in the room (its ``hint`` entry, the room setting ``hints``, the record's
``meta.hints``) is the log's and the record's, so that a log written with hints replays the same
on a server that runs without them (``--without hints``); that server's rooms refuse a ``hint``
(``no_hints``) and its page shows no button.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ...bots.advice import Advice
from ...bots.ismcts import searched_actions
from ...narration import action_line
from ...record.hints import HintMark
from ...review import hint
from .. import messages
from ..entries import Hint
from ..items import Queued
from ..messages import Ack, HintAnswer, error
from ..peers import RemoteMarker
from ..room import PLAYING, RoomError
from ..seam import Feature, FeatureContext, FeatureServer, RoomMessage

if TYPE_CHECKING:
    from ..authority import Peer, Room
    from ..room import RoomState

log = logging.getLogger("unokit.server")

#: The effort of a hint (``docs/review.md``, "Effort").
HINT_EFFORT = "normal"


def hints_allowed(state: RoomState, seat: int) -> bool:
    """Whether ``seat`` of the room may ask for hints: its host allowed them, or every other
    seat is a bot."""
    if state.settings_allow_hints:
        return True
    return all(other.kind == "bot" for i, other in enumerate(state.seats) if i != seat)


def hint_entry(mark: HintMark) -> Hint:
    """The room's log entry of a hint given."""
    return Hint(step=mark.step, seat=mark.seat, action=mark.action, chance=mark.chance, effort=mark.effort)


@dataclass
class Pending:
    """A hint being searched for a decision: who waits for it (connection id -> the connection
    and its requests' ids, each answered; as many as the connection's message rate lets it
    send meanwhile) and the search."""

    waiting: dict[str, tuple[Peer, list[Any]]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


#: A decision: (game number, seat, step).
Decision = tuple[int, int, int]


def _decision_open(state: RoomState, decision: Decision) -> bool:
    """Whether ``decision`` is still the one the game waits for."""
    game_no, seat, step = decision
    game = state.game
    return (
        state.phase == PLAYING
        and game is not None
        and state.game_no == game_no
        and game.to_act == seat
        and len(state.moves) == step
    )


def _listening(room: Room, peer: Peer) -> bool:
    """Whether ``peer`` is still connected to ``room`` (one forwarded by another process is
    that process's to drop)."""
    return isinstance(peer, RemoteMarker) or peer.conn_id in room.peers


def _answer(room: Room, peer: Peer, reply_to: Any, mark: HintMark) -> None:
    game = room.state.game
    assert game is not None
    line = action_line(game, mark.action, mark.seat).to_json()
    peer.deliver(
        HintAnswer(reply_to=reply_to, step=mark.step, action=mark.action, line=line, chance=mark.chance).to_json()
    )


class Hints(FeatureServer):
    """The hints of one server: the searches under way, by room and decision."""

    def __init__(self, context: FeatureContext) -> None:
        super().__init__(context)
        self.pending: dict[tuple[str, Decision], Pending] = {}

    def room_messages(self) -> Mapping[type[messages.ClientMessage], RoomMessage]:
        return {messages.Hint: self.give}

    async def give(self, room: Room, peer: Peer, msg: messages.Hint) -> bool | None:
        """Answer ``peer``'s request for a hint at its seat's open decision in ``room`` (raise
        :class:`RoomError` to refuse it: no hints here, not its decision). A hint given at this
        decision already is answered from the log; otherwise the answer comes later (``False``),
        from the one search of this decision."""
        seat = room.seating.own_seat(peer, msg.token)
        state = room.state
        if not hints_allowed(state, seat):
            raise RoomError("no_hints", "this room gives no hints (its host did not allow them)")
        game = state.game
        if state.phase != PLAYING or game is None or game.to_act != seat:
            raise RoomError("out_of_turn", "a hint is for your own decision")
        if len(searched_actions(game.legal_actions(seat))) < 2:
            raise RoomError("out_of_turn", "this decision has one choice only")
        step = len(state.moves)
        given = next((mark for mark in state.hints if mark.seat == seat and mark.step == step), None)
        if given is not None:  # one hint per decision: the same again, without searching
            _answer(room, peer, msg.id, given)
            return None
        decision = (state.game_no, seat, step)
        pending = self.pending.get((room.code, decision))
        if pending is None:
            pending = self.pending[room.code, decision] = Pending()
            pending.task = asyncio.create_task(self._search(room, decision, state.record()), name=f"hint-{room.code}")
        pending.waiting.setdefault(peer.conn_id, (peer, []))[1].append(msg.id)
        return False

    async def _search(self, room: Room, decision: Decision, record: Any) -> None:
        """Search ``decision``'s hint in the bot pool once the room's CPU budget allows, unless
        nobody waits for it or it passed meanwhile; hand the result back to the room's queue."""
        _game_no, seat, _step = decision
        mark: HintMark | None = None
        try:
            await asyncio.sleep(room.host.think_delay(room.code))  # the room's CPU budget, as for its bots
            pending = self.pending.get((room.code, decision))
            if (
                pending is not None
                and _decision_open(room.state, decision)
                and any(_listening(room, peer) for peer, _ids in pending.waiting.values())
            ):
                # The room's bot thinking (Host.think): the pool's thread, before spare work.
                work = cast(Any, lambda r: hint(r, seat, HINT_EFFORT))
                advice = cast(Advice, await room.host.think(room.code, work, cast(Any, record)))
                mark = HintMark(advice.step, seat, advice.best.text, round(float(advice.chance), 4), HINT_EFFORT)
        except asyncio.CancelledError:
            raise
        except Exception:  # told to whoever waits as a decision that moved on, never lost silently
            log.exception("room %s: a hint failed", room.code, extra={"room": room.code})
        room.submit(Queued(lambda: self._found(room, decision, mark)))

    async def _found(self, room: Room, decision: Decision, mark: HintMark | None) -> None:
        """In the room's queue: commit and tell the hint ``mark`` found for ``decision``, if it
        is still open and someone still waits for it; else tell those waiting that the game
        moved on."""
        pending = self.pending.pop((room.code, decision), None)
        if pending is None:
            return
        waiting = [(peer, ids) for peer, ids in pending.waiting.values() if _listening(room, peer)]
        if mark is None or not _decision_open(room.state, decision):
            for peer, ids in waiting:
                state = room.teller.state_message(peer.seat, [])
                for reply_to in ids:
                    peer.deliver(error("stale", "the game moved on while the hint was computed", reply_to, state))
            return
        if not waiting:  # everyone who asked has gone: nothing kept, nobody told
            return
        await room.commit([hint_entry(mark)])
        for peer, ids in waiting:
            for reply_to in ids:
                _answer(room, peer, reply_to, mark)
                if reply_to is not None:
                    peer.deliver(Ack(reply_to=reply_to, version=room.state.seq).to_json())


FEATURE = Feature(
    name="hints",
    summary="a player's hint at their own decision, in games against bots or where the host allows them",
    server=Hints,
    refusals={messages.Hint: ("no_hints", "this server gives no hints")},
)

__all__ = ["FEATURE", "HINT_EFFORT", "Decision", "Hints", "Pending", "hint_entry", "hints_allowed"]
