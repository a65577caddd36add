"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

from ..core.actions import Action
from ..core.observation import View
from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among the legal actions of every decision; never reacts out of turn."""

    name = "random"

    def act(self, view: View) -> Action:
        actions = view.legal_actions()
        return actions[self.rng.below(len(actions))]

    def react(self, view: View) -> Action | None:
        return None
