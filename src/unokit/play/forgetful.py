"""Bots with human habits at the table: they sometimes forget to call UNO, and they catch
others who forget, with a reaction time. :class:`ForgetfulBot` wraps any bot.

All the chance involved is drawn from the wrapped bot's own seeded RNG, so a game against
the same bots with the same seed goes the same way as long as the human does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bots.base import Bot
from ..core.actions import CATCH, DISCARD, PLAY, PLAY_DRAWN, UNO, Action
from ..core.observation import View


@dataclass(frozen=True)
class Habits:
    """How a bot behaves around the UNO call (probabilities from 0 to 1, times in seconds).

    ``forget``: chance to leave out the call on a play that needs it; ``late_uno``: chance
    to notice and call it late before anyone catches it; ``catch``: chance to catch another
    player who forgot; ``reaction``: the range of its reaction time, drawn uniformly.
    """

    forget: float = 0.25
    late_uno: float = 0.3
    catch: float = 0.6
    reaction: tuple[float, float] = (0.8, 2.5)

    def __post_init__(self) -> None:
        for name in ("forget", "late_uno", "catch"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a probability from 0 to 1, not {value}")
        low, high = self.reaction
        if not 0.0 <= low <= high:
            raise ValueError(f"reaction must be a range of seconds low <= high, not {self.reaction}")


@dataclass(frozen=True)
class Reaction:
    """An out-of-turn action a bot will take ``after`` seconds, if nobody is faster."""

    after: float
    seat: int
    action: Action


class ForgetfulBot(Bot):
    """Plays as ``inner`` does, but forgets the UNO call now and then; reacts out of turn
    (catching, calling UNO late) with :class:`Habits`' chances and reaction times, not
    with ``inner.react``."""

    def __init__(self, inner: Bot, habits: Habits | None = None) -> None:
        self.inner = inner
        self.habits = habits or Habits()
        self.rng = inner.rng  # the wrapped bot's seeded RNG, shared

    def reset(self, seat: int) -> None:
        self.inner.reset(seat)

    def act(self, view: View) -> Action:
        action = self.inner.act(view)
        if action.uno and action.kind in (PLAY, PLAY_DRAWN, DISCARD) and self.rng.random() < self.habits.forget:
            plain = (action.kind, action.card, action.color, False, action.seat)
            for other in view.legal_actions():
                if other.key == plain:
                    return other
        return action

    def react(self, view: View) -> Action | None:
        reaction = self.reaction(view)
        return reaction.action if reaction is not None else None

    def jump(self, view: View) -> Reaction | None:
        """Whether this bot jumps in (``jump_in=true``: its ``inner`` bot decides), and how fast."""
        action = self.inner.react(view)
        if action is None or action.kind != PLAY:
            return None
        low, high = self.habits.reaction
        return Reaction(low + (high - low) * self.rng.random(), view.seat, action)

    def reaction(self, view: View) -> Reaction | None:
        """What this bot does about a missing UNO call, and how fast; ``None``: nothing."""
        for action in view.legal_actions():
            if action.kind == UNO:
                chance = self.habits.late_uno
            elif action.kind == CATCH:
                chance = self.habits.catch
            else:
                continue
            if self.rng.random() < chance:
                low, high = self.habits.reaction
                return Reaction(low + (high - low) * self.rng.random(), view.seat, action)
            return None
        return None
