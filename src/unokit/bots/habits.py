"""Human habits at the table, kept apart from playing strength: a bot that sometimes forgets to
call UNO, calls it late, catches others who forget only now and then and after a reaction time,
and takes a moment to think. :class:`ForgetfulBot` wraps any bot with :class:`Habits`.

People's games put them on (the terminal's ``unokit play`` and the server's rooms, with each
level's habits from :mod:`unokit.bots.levels`); simulations and tournaments never do, so a
level's measured strength is the strength of its play alone.

All the chance involved is drawn from the wrapped bot's own seeded RNG, so a game against
the same bots with the same seed goes the same way as long as the people do.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.actions import CATCH, DISCARD, PLAY, PLAY_DRAWN, UNO, Action
from ..core.observation import View
from .base import Bot


@dataclass(frozen=True)
class Habits:
    """How a bot behaves around the UNO call, and how long it thinks (probabilities from 0 to
    1, times in seconds).

    ``forget``: chance to leave out the call on a play that needs it; ``late_uno``: chance
    to notice and call it late before anyone catches it; ``catch``: chance to catch another
    player who forgot; ``reaction``: the range of its reaction time (a catch, a late call, a
    jump), drawn uniformly; ``think``: the range of its pause before each decision, drawn
    uniformly (a table may fix the pause instead).
    """

    forget: float = 0.25
    late_uno: float = 0.3
    catch: float = 0.6
    reaction: tuple[float, float] = (0.8, 2.5)
    think: tuple[float, float] = (0.6, 0.6)

    def __post_init__(self) -> None:
        for name in ("forget", "late_uno", "catch"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a probability from 0 to 1, not {value}")
        for name in ("reaction", "think"):
            low, high = getattr(self, name)
            if not 0.0 <= low <= high:
                raise ValueError(f"{name} must be a range of seconds low <= high, not {getattr(self, name)}")


@dataclass(frozen=True)
class Reaction:
    """An out-of-turn action a bot will take ``after`` seconds, if nobody is faster."""

    after: float
    seat: int
    action: Action


class ForgetfulBot(Bot):
    """Plays as ``inner`` does, but forgets the UNO call now and then; reacts out of turn
    (catching, calling UNO late) with :class:`Habits`' chances and reaction times, not
    with ``inner.react``; jumps in (``jump_in=true``) when ``inner`` would, after its reaction
    time."""

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
        """A catch or late call (:meth:`reaction`), else a jump (:meth:`jump`), or None."""
        reaction = self.reaction(view) or self.jump(view)
        return reaction.action if reaction is not None else None

    def think_time(self) -> float:
        """Seconds to pause before the next decision, drawn from :attr:`Habits.think` (no draw
        from the RNG when the range is one value)."""
        low, high = self.habits.think
        return low if high == low else self._seconds(self.habits.think)

    def jump(self, view: View) -> Reaction | None:
        """Whether this bot jumps in (``jump_in=true``: its ``inner`` bot decides), and how fast."""
        action = self.inner.react(view)
        if action is None or action.kind != PLAY:
            return None
        return Reaction(self._seconds(self.habits.reaction), view.seat, action)

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
                return Reaction(self._seconds(self.habits.reaction), view.seat, action)
            return None
        return None

    def _seconds(self, span: tuple[float, float]) -> float:
        low, high = span
        return low + (high - low) * self.rng.random()
