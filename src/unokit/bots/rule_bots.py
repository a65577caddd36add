"""The ``rlcard_rule`` bot: the policy of RLCard's ``uno-rule-v1`` agent, as a baseline.

RLCard's agent (``rlcard.models.uno_rule_models.UNORuleAgentV1``) draws only when nothing is
playable, plays a Wild Draw Four first whenever it may, naming the colour it holds most, and
otherwise plays a random playable card, keeping its plain wilds unless nothing else is
playable. RLCard's own engine only lets it play a Wild Draw Four fairly, so the agent never
bluffs; here it plays a Wild Draw Four / Two / Color first **when that play is fair** (it holds
no card of the colour in play) and otherwise keeps it for when nothing else is playable.

The other decisions, which RLCard's UNO does not have, are answered in the same simple spirit:
always play a drawn card that can be played, never challenge, declare UNO with every play
that leaves one card, catch everyone who forgets, trade hands with (or challenge) the smallest
hand, stop pressing after a Wild Press Your Luck at once, discard a random card when a discard
is due, and pass a stacked draw on whenever possible.
"""

from __future__ import annotations

from ..core.actions import (
    ACCEPT,
    CATCH,
    COLOR,
    DISCARD,
    DRAW,
    KEEP,
    PLAY,
    PLAY_DRAWN,
    PRESS,
    STOP,
    TARGET,
    TRADE,
    UNO,
    Action,
)
from ..core.colors import SIDE_COLORS
from ..core.observation import View
from ..core.types import DecisionKind as D
from .base import Bot


def _prefer_uno(actions: list[Action]) -> list[Action]:
    """Drop a play (or discard) whose form with the UNO call is also listed."""
    with_uno = {(a.kind, a.card, a.color) for a in actions if a.uno}
    return [a for a in actions if a.uno or (a.kind, a.card, a.color) not in with_uno]


class RlcardRuleBot(Bot):
    """RLCard's ``uno-rule-v1``: draw only when stuck, Wild Draw first, else a random non-wild."""

    name = "rlcard_rule"

    def act(self, view: View) -> Action:
        actions = view.legal_actions()
        for action in actions:
            if action.kind in (CATCH, UNO):
                return action
        decision = view.decision
        if decision in (D.TURN, D.STACK):
            return self._turn(view, actions)
        if decision == D.PLAY_OR_KEEP:
            return self._most_held_color(view, [a for a in _prefer_uno(actions) if a.kind == PLAY_DRAWN]) or next(
                a for a in actions if a.kind == KEEP
            )
        if decision == D.CHALLENGE:
            return next(a for a in actions if a.kind == ACCEPT)
        if decision == D.CHOOSE_COLOR:
            choice = self._most_held_color(view, [a for a in actions if a.kind == COLOR])
            assert choice is not None
            return choice
        if decision in (D.CHOOSE_PLAYER, D.CHOOSE_TARGET):
            sizes = view.hand_sizes
            seated = [a for a in actions if a.kind in (TRADE, TARGET)]
            return min(seated, key=lambda a: (sizes[a.seat], a.seat))
        if decision == D.PRESS_YOUR_LUCK:
            return next(a for a in actions if a.kind == STOP)
        if decision in (D.CHOOSE_DISCARD, D.DISCARD_CARDS):
            discards = [a for a in _prefer_uno(actions) if a.kind == DISCARD]
            return discards[self.rng.below(len(discards))]
        return actions[self.rng.below(len(actions))]  # pragma: no cover - every decision is handled

    def _turn(self, view: View, actions: list[Action]) -> Action:
        plays = [a for a in _prefer_uno(actions) if a.kind == PLAY]
        if not plays:
            return next(a for a in actions if a.kind in (DRAW, PRESS))
        deck = view.deck
        kinds = deck.kinds[view.side]
        colors = deck.color[view.side]
        hand = view.hand
        in_play = view.color
        fair = all(colors[t] != in_play for t in hand)
        draws = [a for a in plays if kinds[a.card].challengeable]
        if draws and fair:
            choice = self._most_held_color(view, draws)
            assert choice is not None
            return choice
        others = [a for a in plays if not kinds[a.card].wild]
        if others:
            return others[self.rng.below(len(others))]
        plain = [a for a in plays if not kinds[a.card].challengeable] or plays
        cards = sorted({a.card for a in plain})
        card = cards[self.rng.below(len(cards))]
        return self._most_held_color(view, [a for a in plain if a.card == card]) or plain[0]

    def _most_held_color(self, view: View, actions: list[Action]) -> Action | None:
        """Of ``actions``, the one naming the colour most held (the first of a tie); actions
        without a colour are returned as they are (the first one)."""
        if not actions:
            return None
        named = [a for a in actions if a.color >= 0]
        if not named:
            return actions[0]
        colors = view.deck.color[view.side]
        counts = dict.fromkeys(SIDE_COLORS[view.side], 0)
        for t in view.hand:
            if colors[t] in counts:
                counts[colors[t]] += 1
        return max(named, key=lambda a: counts.get(a.color, -1))
