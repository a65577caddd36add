"""The JSON proxy of a seat's observation of an OpenSpiel UNO state (:mod:`unokit.openspiel`),
as kaggle-environments' game proxies give it: what the harness and a visualizer read instead
of OpenSpiel's own observation string.

:func:`observation_json` is the proxy (:func:`unokit.llm.harness.proxy`: phase, hand, top card
and colour, counts, the recent moves, the legal moves); :func:`observation` is the mapping a
Kaggle agent receives (``observationString``, ``legalActions``, ``legalActionStrings``,
``playerId``, and the game's string and the state's record in ``game`` and ``serializedState``:
OpenSpiel's ``serialize_game_and_state`` needs a sampled game's generator, which a Python game
cannot give it).
"""

from __future__ import annotations

import json
from typing import Any

from ...llm.harness import proxy
from ...llm.moves import session_moves
from ...openspiel.games import UnoState


def legal_moves(state: UnoState) -> dict[int, str]:
    """``{action id: move}`` for the player to act (unokit's notation; ``pass`` for a Jump-In
    offer declined); empty at a chance node and at the end."""
    session = state._t.session
    if session is None or state.is_chance_node() or state.is_terminal():
        return {}
    return {action_id: move for move, action_id in session_moves(session).items()}


def observation_json(state: UnoState, player: int) -> dict[str, Any]:
    """The proxy of ``player``'s observation (before the deal: ``phase`` ``deal``)."""
    session = state._t.session
    if session is None:
        return {"phase": "deal", "seat": player, "legal_moves": []}
    recent = [(seat, text) for seat, text in state._t.actions]
    out = proxy(session.game.observe(player), recent)
    if state.is_terminal():
        out["phase"] = "over"
        out["returns"] = state.returns()
    mine = player == state.current_player()
    out["legal_moves"] = list(legal_moves(state).values()) if mine else []
    return out


def observation(state: UnoState, player: int) -> dict[str, Any]:
    """What a Kaggle agent receives for ``player`` at ``state``."""
    moves = legal_moves(state) if player == state.current_player() else {}
    return {
        "observationString": json.dumps(observation_json(state, player), separators=(",", ":")),
        "legalActions": list(moves),
        "legalActionStrings": list(moves.values()),
        "playerId": player,
        "game": str(state.get_game()),
        "serializedState": state.serialize(),
    }


__all__ = ["legal_moves", "observation", "observation_json"]
