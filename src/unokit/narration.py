"""Events told in words, for logs and the terminal ("seat 1 played Wild Draw Four — blue").

Works on full or redacted events (see :func:`unokit.redact`); names default to "seat N".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``, ``1,000 games``; ``many`` for an irregular plural."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


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
    if kind == "dealer":
        return f"{who} deals"
    if kind == "round_start":
        return f"— round {event['round']} —"
    if kind == "first_card":
        return f"first card: {event['card']}"
    if kind == "first_card_returned":
        return f"{event['card']} goes back into the deck"
    if kind == "first_card_ignored":
        return f"{event['card']} is ignored; another card is turned"
    if kind == "play":
        line = f"{who} played {event['card']}"
        if "color" in event:
            line += f" — {event['color']}"
        if event.get("discarded"):
            line += f", discarding {', '.join(event['discarded'])}"
        return line + (" — UNO!" if event.get("uno") else "")
    if kind == "draw":
        return f"{who} drew {_cards(event)}" + ("" if event["reason"] == "turn" else f" ({event['reason']})")
    if kind == "press":
        presser = _name(names, event.get("presser", event["seat"]))
        if event.get("empty"):
            return f"{presser} pressed the empty launcher"
        if not event["fired"]:
            return f"{presser} pressed the launcher: nothing"
        receiver = "" if event.get("presser", event["seat"]) == event["seat"] else f" for {who}"
        return f"{presser} pressed the launcher{receiver}: {_cards(event)}"
    if kind == "draw_failed":
        return f"{who} could not draw: no cards left"
    if kind == "keep":
        return f"{who} kept the card"
    if kind == "skip":
        return f"{who} is skipped"
    if kind == "skip_everyone":
        return f"{who} skips everyone and plays again"
    if kind == "reverse":
        return f"play goes {event['direction']}"
    if kind == "flip":
        return f"everything flips to the {event['side']} side; top card {event['top']}"
    if kind == "color":
        return f"{who} names {event['color']}"
    if kind == "accept":
        return f"{who} accepts"
    if kind == "challenge":
        outcome = "succeeds" if event["success"] else "fails"
        return f"{who} challenges {_name(names, event['target'])}: the challenge {outcome}"
    if kind == "uno":
        return f"{who}: UNO!"
    if kind == "catch":
        return f"{who} catches {_name(names, event['target'])} without UNO"
    if kind == "trade":
        return f"{who} trades hands with {_name(names, event['target'])}"
    if kind == "stop":
        return f"{who} stops pressing"
    if kind == "discard":
        return f"{who} discards {', '.join(event['cards'])}" + (" — UNO!" if event.get("uno") else "")
    if kind == "take_back":
        return f"{who} takes back {', '.join(event['cards']) or 'nothing'}"
    if kind in ("reshuffle", "reload"):
        what = (
            "the discard pile is shuffled into a new draw pile" if kind == "reshuffle" else "the launcher is reloaded"
        )
        return f"{what} ({event['count']} cards)"
    if kind == "blocked":
        return f"nobody can draw or play: the round is blocked; {_name(names, event['winner'])} wins it"
    if kind == "round_end":
        winner = _name(names, event["winner"])
        return f"{winner} wins round {event['round']} on the {event['side']} side; scores {event['scores']}"
    if kind == "game_end":
        return f"game over: {', '.join(_name(names, s) for s in event['winners'])} won; scores {event['scores']}"
    return None
