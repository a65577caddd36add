"""Events told in words, for logs and the terminal ("seat 1 played Wild Draw Four — blue").

Works on full or redacted events (see :func:`unokit.redact`); names default to "seat N".
Nothing internal reaches the reader: why cards were drawn is told in words (``(Draw Five)``,
``(penalty for not calling UNO)``), scores go with names, and :func:`plain` takes the rule ids
out of the engine's messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .core.cards import KIND_BY_NAME, KIND_TITLES
from .core.types import EventType as E

#: Why cards were drawn or pressed, in words, for the reasons that are not a card's name.
REASON_WORDS: dict[str, str] = {
    "first_card": "the first card",
    "stack": "the stacked draws",
    "challenge": "caught bluffing",
    "uno_penalty": "penalty for not calling UNO",
}

#: What the seat to act must do, by decision, in words (``Ben to name a colour``).
DECISION_WORDS: dict[str, str] = {
    "turn": "to play",
    "play_or_keep": "to play or keep the drawn card",
    "challenge": "to challenge or accept",
    "choose_color": "to name a colour",
    "choose_player": "to choose whose hand to take",
    "press_your_luck": "to press the launcher again or stop",
    "choose_discard": "to discard a card",
    "stack": "to answer the stacked draw",
}

_RULE_IDS = re.compile(r"\s*\((?:[RD]-[\d.]+(?:, )?)+\)")


def reason_words(reason: str) -> str:
    """Why cards were taken, in words: ``Draw Five``, ``penalty for not calling UNO``."""
    if reason in REASON_WORDS:
        return REASON_WORDS[reason]
    kind = KIND_BY_NAME.get(reason)
    return KIND_TITLES[kind] if kind is not None else reason.replace("_", " ")


def plain(message: str) -> str:
    """An engine message for a player: without the rule ids it cites (``(R-1.4)``)."""
    return _RULE_IDS.sub("", message)


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


def _scores(scores: Sequence[int], names: Sequence[str] | None) -> str:
    return ", ".join(f"{_name(names, seat)} {points}" for seat, points in enumerate(scores))


def describe(event: dict[str, Any], names: Sequence[str] | None = None, *, double_sided: bool = True) -> str | None:
    """One line for ``event``, or ``None`` for events not worth a line (deals, cuts).
    ``double_sided=False`` (Classic, Attack) leaves out the side a round ended on."""
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
        return f"{who} drew {_cards(event)}" + (
            "" if event["reason"] == "turn" else f" ({reason_words(event['reason'])})"
        )
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
        target = _name(names, event["target"])
        line = f"{who} challenges {target}: the challenge {outcome}"
        if "revealed" in event:  # only for the two players who see the hand
            line += f"; {target}'s hand: {', '.join(event['revealed']) or 'nothing'}"
        return line
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
        side = f" on the {event['side']} side" if double_sided else ""
        return f"{winner} wins round {event['round']}{side}; scores {_scores(event['scores'], names)}"
    if kind == E.GAME_END:
        winners = ", ".join(_name(names, s) for s in event["winners"])
        return f"game over: {winners} won; scores {_scores(event['scores'], names)}"
    return None
