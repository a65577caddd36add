"""What a language model needs to play a seat, from text to text: the seat's legal moves in
unokit's notation, a JSON proxy of what the seat sees, a prompt, and the reading of a free-text
answer back into one legal move, with a typed reason when it names none.

This is the harness of ``unokit eval``'s ``llm:`` agent (:mod:`unokit.llm.bot`), of the
TextArena games (:mod:`unokit.textarena`) and of the Kaggle-style package
(:mod:`unokit.kaggle.uno`); it is standard library only and knows nothing of where the
observation comes from.

**Moves** are the notation of ``docs/records.md`` (``play red 5``, ``play wild blue``, ``draw``,
``keep``, ``challenge`` ...) as the engine lists the seat's legal actions, and ``pass`` for a
Jump-In offer declined (the environments' offers, ``docs/envs.md``).

**Reading an answer** (:func:`parse_move`): the answer may be a JSON object ``{"move": "..."}``
(in a fenced block or not), or text holding the move in square brackets (``[play red 5]``, as
TextArena's games ask), or the move alone. Case and spacing do not matter. When it names several,
the last legal one counts (a model that reasons aloud names its final choice last). A reply that
names no legal move is refused with a :class:`Refusal`: ``empty`` (nothing
but blanks), ``too_long`` (over :data:`MAX_ANSWER_CHARS`), ``no_move`` (nothing that reads as a
move of the notation), ``not_legal`` (a move of the notation that this seat may not make now).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..core.actions import parse_syntax
from ..core.errors import InvalidActionError

#: The longest answer read, in characters (a longer one is refused as ``too_long``).
MAX_ANSWER_CHARS = 20_000
#: How many of the last moves a proxy lists.
RECENT_MOVES = 8
#: The move that declines a Jump-In offer.
PASS = "pass"

_BRACKETS = re.compile(r"\[([^\[\]\n]{1,80})\]")
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


class Refusal(StrEnum):
    """Why an answer names no legal move (see the module docstring)."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    NO_MOVE = "no_move"
    NOT_LEGAL = "not_legal"


@dataclass(frozen=True)
class Parsed:
    """What :func:`parse_move` read: the legal ``move`` (as listed), or the ``refusal`` and what
    was read (``read``, empty when nothing) with a sentence for the model (``detail``)."""

    move: str | None
    refusal: Refusal | None = None
    read: str = ""
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.move is not None


def normalise(text: str) -> str:
    """``text`` as a move is compared: lower case, single spaces, no quotes or final stop."""
    return " ".join(text.strip().strip("`'\".").lower().split())


def _candidates(answer: str) -> list[str]:
    """The texts of ``answer`` that may be its move, the most likely last."""
    found: list[tuple[int, str]] = []
    for match in _JSON_OBJECT.finditer(answer):
        try:
            obj = json.loads(match.group(0))
        except ValueError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("move"), str):
            found.append((match.start(), obj["move"]))
    found += [(m.start(), m.group(1)) for m in _BRACKETS.finditer(answer)]
    if found:
        return [text for _, text in sorted(found)]
    return [answer]


def parse_move(answer: str, legal: Sequence[str]) -> Parsed:
    """The legal move ``answer`` names, or why it names none (see the module docstring)."""
    if not isinstance(answer, str) or not answer.strip():
        return Parsed(None, Refusal.EMPTY, "", "The answer was empty.")
    if len(answer) > MAX_ANSWER_CHARS:
        return Parsed(None, Refusal.TOO_LONG, "", f"The answer was longer than {MAX_ANSWER_CHARS} characters.")
    by_text = {normalise(move): move for move in legal}
    candidates = _candidates(answer)
    for text in reversed(candidates):
        move = by_text.get(normalise(text))
        if move is not None:
            return Parsed(move)
    read = normalise(candidates[-1])[:80]
    if read == PASS or _reads_as_move(read):
        return Parsed(None, Refusal.NOT_LEGAL, read, f"'{read}' is not one of your legal moves now.")
    return Parsed(None, Refusal.NO_MOVE, read, "The answer named no move; answer with one of the legal moves.")


def _reads_as_move(text: str) -> bool:
    try:
        parse_syntax(text)
    except InvalidActionError:
        return False
    return True


# --------------------------------------------------------------------------- the proxy


def proxy(observation: Mapping[str, Any], recent: Sequence[tuple[int, str]] = ()) -> dict[str, Any]:
    """The JSON proxy of a seat's observation: ``observation`` is what the engine shows the
    seat (:meth:`unokit.Game.observe`), ``recent`` the last public moves as (seat, move), oldest
    first. Keys: ``variant``, ``players``, ``seat``, ``phase`` (the open decision, ``over`` at
    the end), ``to_act``, ``hand``, ``top``, ``color``, ``side`` (Flip; ``None`` on one-sided decks), ``direction``,
    ``hand_sizes``, ``draw_size``, ``stack`` (cards a stacked draw has piled up), ``recent``
    (``[{"seat": s, "move": m}]``, at most :data:`RECENT_MOVES`) and ``legal_moves``."""
    over = bool(observation.get("over"))
    out: dict[str, Any] = {
        "variant": observation.get("variant"),
        "players": observation.get("players"),
        "seat": observation.get("seat"),
        "phase": "over" if over else observation.get("decision"),
        "to_act": None if over else observation.get("to_act"),
        "hand": list(observation.get("hand") or []),
        "top": observation.get("top"),
        "color": observation.get("color"),
        "side": observation.get("side") if "backs" in observation else None,
        "direction": observation.get("direction"),
        "hand_sizes": list(observation.get("hand_sizes") or []),
        "draw_size": observation.get("draw_size"),
        "stack": observation.get("stack", 0),
        "recent": [{"seat": s, "move": m} for s, m in list(recent)[-RECENT_MOVES:]],
        "legal_moves": [] if over else list(observation.get("legal_actions") or []),
    }
    return out


# --------------------------------------------------------------------------- the prompt

_RULES = {
    "classic": "Classic UNO",
    "flip": "UNO Flip (a light and a dark side; a flip card turns every card over)",
    "attack": "UNO Attack (drawing presses the card launcher, which ejects a random number of cards)",
    "flip_attack": "UNO Flip Attack (a light and a dark side, and the card launcher)",
}


def game_title(variant: object) -> str:
    """The variant's name in the prompt (a themed edition is named as it is written)."""
    text = str(variant)
    return _RULES.get(text, text.replace("_", " "))


def board_lines(p: Mapping[str, Any]) -> list[str]:
    """What the seat sees, as lines of text (the proxy ``p`` in words)."""
    seat = p["seat"]
    counts = ", ".join(
        f"Player {s}{' (you)' if s == seat else ''}: {n}" for s, n in enumerate(p.get("hand_sizes") or [])
    )
    lines = [
        f"Your hand: {', '.join(p['hand']) if p['hand'] else '(empty)'}",
        f"Top card: {p['top']} (colour to match: {p['color']})",
        f"Cards held: {counts}",
        f"Draw pile: {p['draw_size']} cards; direction of play: {p['direction']}",
    ]
    if p.get("side") is not None:
        lines.append(f"Side in play: {p['side']}")
    if p.get("stack"):
        lines.append(f"Draw stack: {p['stack']} cards are piled up against the next player")
    return lines


def moves_line(legal: Sequence[str]) -> str:
    """The legal moves in square brackets, as TextArena's games list them."""
    return ", ".join(f"[{m}]" for m in legal)


def prompt(
    p: Mapping[str, Any],
    previous_answer: str | None = None,
    previous: Parsed | None = None,
) -> str:
    """The prompt for the seat of the proxy ``p``; with ``previous_answer`` and its reading
    ``previous``, the answer that named no legal move and why (a retry)."""
    recent = p.get("recent") or []
    lines = [
        f"You are Player {p['seat']} in a game of {game_title(p['variant'])} with {p['players']} players.",
        "Get rid of all your cards first. Play a card that matches the top card's colour or its number or symbol,",
        "or a wild card; if you cannot or do not want to, draw.",
        "",
        *board_lines(p),
        "",
        "Last moves: " + ("; ".join(f"Player {m['seat']}: {m['move']}" for m in recent) if recent else "(none yet)"),
        f"Decision: {p['phase']}",
        f"Your legal moves: {moves_line(p['legal_moves'])}",
        "",
        "Think if you like, then end your answer with your move in square brackets, e.g. [draw],",
        'or as JSON: {"move": "draw"}.',
    ]
    if previous is not None and not previous.ok:
        lines += [
            "",
            f"Your previous answer was: {(previous_answer or '')[:300]!r}",
            f"It was not accepted: {previous.detail} Choose one of the legal moves above.",
        ]
    return "\n".join(lines)


__all__ = [
    "MAX_ANSWER_CHARS",
    "PASS",
    "RECENT_MOVES",
    "Parsed",
    "Refusal",
    "board_lines",
    "game_title",
    "moves_line",
    "normalise",
    "parse_move",
    "prompt",
    "proxy",
]
