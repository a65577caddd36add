"""The bot protocol: a bot sees a :class:`~unokit.View` and returns one of its legal actions.

A bot never receives the game. It owns a seeded RNG, so a bot's play is reproducible. The
engine asks :meth:`Bot.act` whenever the bot's seat must decide, and :meth:`Bot.react` when
another seat's action opened something it may do out of turn (catching a missed UNO, its own
late UNO call, or with ``jump_in=true`` jumping in with a card identical to the one just played).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from ..core.actions import CATCH, UNO, Action
from ..core.cards import SIDE_COLORS
from ..core.observation import View
from ..core.rng import Rng


class Bot(ABC):
    """Base class of every bot. Subclasses set ``name`` and implement :meth:`act`."""

    name: ClassVar[str] = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def reset(self, seat: int) -> None:  # noqa: B027 - optional hook, a no-op by default
        """A new game starts with this bot in ``seat`` (forget what it tracked)."""

    @abstractmethod
    def act(self, view: View) -> Action:
        """Choose one of ``view.legal_actions()`` for the decision this seat must make."""

    def react(self, view: View) -> Action | None:
        """Out of turn: return an action from ``view.legal_actions()`` (a ``catch``, a late
        ``uno`` or a Jump-In ``play``), or None to let the game go on.

        The default always declares its own late UNO and catches every player but its partner
        (``teams=true``); it never jumps in.
        """
        partner = view.partner()
        for action in view.legal_actions():
            if action.kind == UNO or (action.kind == CATCH and action.seat != partner):
                return action
        return None


def most_held_color(cards: list[int], colors: tuple[int, ...], side: int) -> int:
    """The colour of ``side`` that most of ``cards`` show (``colors``: the deck's colour per
    type on that side); the first of the side's colours on a tie. Wild cards count for none."""
    counts = dict.fromkeys(SIDE_COLORS[side], 0)
    for t in cards:
        c = colors[t]
        if c in counts:
            counts[c] += 1
    return max(counts, key=counts.__getitem__)
