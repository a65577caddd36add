"""What one seat may know: ``observe(game, seat)`` and event redaction.

An observation holds exactly what a player at the table sees (R-3.2, R-5.1, D-1): their own
hand (both faces on double-sided decks), the backs of every other hand and of the draw pile's
top card in UNO Flip, hand sizes, the discard pile, colour in play, direction, side, scores,
the open decision and the seat's legal actions. Never the seed, the RNG state, the draw
pile's order or the launcher's script.
"""

from __future__ import annotations

from typing import Any

from .cards import COLOR_NAMES
from .errors import IllegalActionError
from .game import Event, Game
from .position import public_pending


def observe(game: Game, seat: int) -> dict[str, Any]:
    """The JSON-serialisable view of ``game`` for ``seat``."""
    if not 0 <= seat < game.n:
        raise IllegalActionError(f"there is no seat {seat}; seats are 0 to {game.n - 1}")
    deck = game.deck
    side = game.side
    active = deck.face_texts[side]
    obs: dict[str, Any] = {
        "variant": game.variant,
        "options": game.options.as_dict(game.rules),
        "players": game.n,
        "seat": seat,
        "round": game.round_number,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "side": game.side_name,
        "direction": "clockwise" if game.direction == 1 else "counterclockwise",
        "turn": game.turn,
        "to_act": game.to_act,
        "decision": game.decision,
        "pending": public_pending(game, seat),
        "color": COLOR_NAMES[game.color] if game.color >= 0 else None,
        "top": active[game.discard[-1]] if game.discard else None,
        "discard": [active[t] for t in game.discard],
        "hand": [deck.text[t] for t in sorted(game.hands[seat])],
        "hand_sizes": [len(h) for h in game.hands],
        "draw_size": len(game.draw),
        "stack": game.stack_total,
        "uno_exposed": game.uno_exposed if game.uno_exposed >= 0 else None,
        "legal_actions": [str(a) for a in game.legal_actions(seat)],
        "over": game.is_over,
        "winners": game.winners,
    }
    if deck.double_sided:
        back = deck.face_texts[1 - side]
        obs["backs"] = [None if s == seat else sorted(back[t] for t in hand) for s, hand in enumerate(game.hands)]
        obs["draw_top_back"] = back[game.draw[-1]] if game.draw and game.launcher is None else None
    if game.launcher is not None:
        obs["launcher"] = game.launcher.public_state()
    return obs


def redact(events: list[Event], seat: int | None) -> list[Event]:
    """The copy of ``events`` that ``seat`` may see (``None``: a spectator who sees no hand).

    Events with a ``private`` list keep their ``cards`` (and ``revealed``) only for those
    seats; everyone else keeps the count and, on double-sided decks, the backs.
    """
    out: list[Event] = []
    for event in events:
        private = event.get("private")
        if private is None or (seat is not None and seat in private):
            out.append({k: v for k, v in event.items() if k != "private"})
        else:
            out.append({k: v for k, v in event.items() if k not in ("private", "cards", "revealed")})
    return out
