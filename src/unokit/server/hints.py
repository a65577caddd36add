"""Hints at a room's table (``docs/review.md``, "Hints"): a player asks, at their own decision,
for the engine's choice and their chance to win the hand with it.

A room gives hints in a game against bots (every other seat a bot) and where its host allowed
them (the room setting ``hints``); elsewhere the request is refused (``no_hints``) and the page
shows no button. The hint is :func:`unokit.review.hint` on the game as a record, from the seat's
view only, computed in the bot pool with its CPU time charged to the room like its bots' moves.
Each hint given is a ``hint`` entry of the room's log, so that the game's record marks it
(``meta.hints``) and the review says ``hint used`` beside that decision.

The client sends ``{"type": "hint", "token": T, "id": ID}``; the answer, to that connection
only, is ``{"type": "hint", "reply_to": ID, "step": K, "action": TEXT, "line": {key, params},
"chance": P}``, or an ``error``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..bots.advice import Advice
from ..bots.ismcts import searched_actions
from ..narration import action_line
from ..record.hints import HintMark
from ..review import hint
from .entries import Hint
from .room import PLAYING, RoomError

if TYPE_CHECKING:
    from . import messages
    from .authority import Peer, Room
    from .room import RoomState

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


async def give_hint(room: Room, peer: Peer, msg: messages.Hint) -> None:
    """Answer ``peer``'s request for a hint at its seat's open decision in ``room`` (raise
    :class:`RoomError` to refuse it: no hints here, not its decision, the game moved on)."""
    seat = room.seating.own_seat(peer, msg.token)
    state = room.state
    if not hints_allowed(state, seat):
        raise RoomError("no_hints", "this room gives no hints (its host did not allow them)")
    game = state.game
    if state.phase != PLAYING or game is None or game.to_act != seat:
        raise RoomError("out_of_turn", "a hint is for your own decision")
    if len(searched_actions(game.legal_actions(seat))) < 2:
        raise RoomError("out_of_turn", "this decision has one choice only")
    record = state.record()
    version = state.seq
    # The room's bot thinking (Host.think): the pool's thread, the room's CPU budget.
    work = cast(Any, lambda r: hint(r, seat, HINT_EFFORT))
    advice = cast(Advice, await room.host.think(room.code, work, cast(Any, record)))
    if state.seq != version or state.game is not game or game.to_act != seat:
        raise RoomError("stale", "the game moved on while the hint was computed")
    mark = HintMark(advice.step, seat, advice.best.text, round(float(advice.chance), 4), HINT_EFFORT)
    line = action_line(game, advice.best.text, seat)
    await room.commit([hint_entry(mark)])
    peer.deliver(
        {
            "type": "hint",
            "reply_to": msg.id,
            "step": mark.step,
            "action": mark.action,
            "line": line.to_json(),
            "chance": mark.chance,
        }
    )


__all__ = ["HINT_EFFORT", "give_hint", "hint_entry", "hints_allowed"]
