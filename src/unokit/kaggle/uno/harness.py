"""The LLM harness of the UNO games, in the three functions kaggle-environments' harnesses
have: :func:`get_legal_moves`, :func:`generate_prompt` and :func:`parse_response`, over the
observation a Kaggle agent receives (:func:`unokit.kaggle.uno.uno_proxy.observation`). The
text work is :mod:`unokit.llm.harness`'s, which ``unokit eval``'s ``llm:`` agent and the
TextArena games use too."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ...llm.harness import Parsed, parse_move, prompt


def _proxy(observation: Mapping[str, Any]) -> dict[str, Any]:
    raw = observation.get("observationString") or "{}"
    try:
        obj = json.loads(raw)
    except ValueError:
        return {}
    return obj if isinstance(obj, dict) else {}


def get_legal_moves(observation: Mapping[str, Any]) -> dict[int, str]:
    """``{action id: move}`` of the observation's player."""
    ids = observation.get("legalActions") or []
    texts = observation.get("legalActionStrings") or []
    return {int(i): str(t) for i, t in zip(ids, texts, strict=True)}


def generate_prompt(
    observation: Mapping[str, Any],
    move_history: Sequence[str] = (),
    previous_response: str | None = None,
    previous_action: str | None = None,
) -> str:
    """The prompt for the observation's player; with ``previous_response``, the answer that
    named no legal move (``previous_action``: what was read of it) and why."""
    p = _proxy(observation)
    p["legal_moves"] = list(get_legal_moves(observation).values())
    previous = None
    if previous_response is not None:
        previous = parse_move(previous_response, p["legal_moves"])
    text = prompt(p, previous_response, previous)
    if move_history:
        text += "\n\nYour moves so far: " + ", ".join(move_history)
    return text


def parse_response(response: str, legal_action_strings: Sequence[str]) -> Parsed:
    """The legal move ``response`` names, or the typed reason it names none."""
    return parse_move(response, list(legal_action_strings))


__all__ = ["generate_prompt", "get_legal_moves", "parse_response"]
