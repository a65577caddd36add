"""Events told in words, for logs and the terminal ("seat 1 played Wild Draw Four — blue").

Works on full or redacted events (see :func:`unokit.redact`); names default to "seat N".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .core.types import EventType as E


def _name(names: Sequence[str] | None, seat: int) -> str:
    return names[seat] if names is not None else f"seat {seat}"


def _cards(event: dict[str, Any]) -> str:
    if "cards" in event:
        return ", ".join(event["cards"]) or "nothing"
    count = event.get("count", 0)
    backs = event.get("backs")
    text = f"{count} card{'s' if count != 1 else ''}"
    return f"{text} (backs: {', '.join(backs)})" if backs else text


def describe(event: dict[str, Any], names: Sequence[str] | None = None) -> str | None:
    """One line for ``event``, or ``None`` for events not worth a line (deals, cuts)."""
    kind = event["type"]
    who = _name(names, event["seat"]) if "seat" in event else ""
    if kind == E.DEALER:
        return f"{who} deals"
    if kind == E.ROUND_START:
        return f"— round {event['round']} —"
    if kind == E.FIRST_CARD:
        return f"first card: {event['card']}"
    if kind == E.FIRST_CARD_RETURNED:
        return f"{event['card']} goes back into the deck"
    if kind == E.FIRST_CARD_IGNORED:
        return f"{event['card']} is ignored; another card is turned"
    if kind == E.PLAY:
        line = f"{who} played {event['card']}"
        if "color" in event:
            line += f" — {event['color']}"
        if event.get("discarded"):
            line += f", discarding {', '.join(event['discarded'])}"
        return line + (" — UNO!" if event.get("uno") else "")
    if kind == E.DRAW:
        return f"{who} drew {_cards(event)}" + ("" if event["reason"] == "turn" else f" ({event['reason']})")
    if kind == E.PRESS:
        presser = _name(names, event.get("presser", event["seat"]))
        if event.get("empty"):
            return f"{presser} pressed the empty launcher"
        if not event["fired"]:
            return f"{presser} pressed the launcher: nothing"
        receiver = "" if event.get("presser", event["seat"]) == event["seat"] else f" for {who}"
        return f"{presser} pressed the launcher{receiver}: {_cards(event)}"
    if kind == E.DRAW_FAILED:
        return f"{who} could not draw: no cards left"
    if kind == E.KEEP:
        return f"{who} kept the card"
    if kind == E.SKIP:
        return f"{who} is skipped"
    if kind == E.SKIP_EVERYONE:
        return f"{who} skips everyone and plays again"
    if kind == E.REVERSE:
        return f"play goes {event['direction']}"
    if kind == E.FLIP:
        return f"everything flips to the {event['side']} side; top card {event['top']}"
    if kind == E.COLOR:
        return f"{who} names {event['color']}"
    if kind == E.ACCEPT:
        return f"{who} accepts"
    if kind == E.CHALLENGE:
        outcome = "succeeds" if event["success"] else "fails"
        return f"{who} challenges {_name(names, event['target'])}: the challenge {outcome}"
    if kind == E.UNO:
        return f"{who}: UNO!"
    if kind == E.CATCH:
        return f"{who} catches {_name(names, event['target'])} without UNO"
    if kind == E.TRADE:
        return f"{who} trades hands with {_name(names, event['target'])}"
    if kind == E.PASS_HANDS:
        return f"every hand passes on, {event['direction']}"
    if kind == E.JUMP_IN:
        return f"{who} jumps in on {_name(names, event['on'])}'s card!"
    if kind == E.STOP:
        return f"{who} stops pressing"
    if kind == E.DISCARD:
        return f"{who} discards {', '.join(event['cards'])}" + (" — UNO!" if event.get("uno") else "")
    if kind == E.DUEL:
        shown = [face if face is not None else "no number card" for face in event["shown"]]
        return (
            f"{who} challenges {_name(names, event['target'])} with {event['card']} "
            f"({shown[0]} against {shown[1]}): {_name(names, event['winner'])} wins"
        )
    if kind == E.TAKE_BACK:
        return f"{who} takes back {', '.join(event['cards']) or 'nothing'}"
    if kind in (E.RESHUFFLE, E.RELOAD):
        what = (
            "the discard pile is shuffled into a new draw pile" if kind == E.RESHUFFLE else "the launcher is reloaded"
        )
        return f"{what} ({event['count']} cards)"
    if kind == E.BLOCKED:
        return f"nobody can draw or play: the round is blocked; {_name(names, event['winner'])} wins it"
    if kind == E.ROUND_END:
        winner = _name(names, event["winner"])
        return f"{winner} wins round {event['round']} on the {event['side']} side; scores {event['scores']}"
    if kind == E.GAME_END:
        return f"game over: {', '.join(_name(names, s) for s in event['winners'])} won; scores {event['scores']}"
    return None
