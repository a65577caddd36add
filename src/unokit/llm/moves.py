"""The legal moves of the seat to act in an environments' :class:`~unokit.envs.session.Session`
as text, each with its action id: what the TextArena games and the OpenSpiel games' harness
list (:mod:`unokit.llm.harness`)."""

from __future__ import annotations

from ..envs.session import Session
from .harness import PASS


def session_moves(session: Session) -> dict[str, int]:
    """``{move: action id}`` for the seat to act (:attr:`Session.actor`), in ascending id order:
    the engine's text of each legal action, ``pass`` for a Jump-In offer declined; empty when
    nobody acts (the hand is over)."""
    seat = session.actor
    if seat is None or session.game.is_over:
        return {}
    if session.offers:
        out = {}
        for action_id in sorted(session.offer_ids(seat)):
            if action_id == session.encoding.pass_id:
                out[PASS] = action_id
            else:
                action = session.encoding.decode(action_id, session.game.side, seat)
                assert action is not None
                out[action.text] = action_id
        return out
    return {session.decode(i, seat).text: i for i in sorted(session.encoding.legal_ids(session.views[seat]))}
