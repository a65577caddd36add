"""Chance as OpenSpiel sees it: every draw of the engine's generator is one chance node.

The engine has one seeded generator inside the game state (:class:`unokit.core.rng.Rng`), and
every random thing in a game goes through it in two ways only:

* ``below(n)``: a whole number from ``0`` to ``n - 1``, uniform. The shuffles (the cut for the
  dealer, the deal, a returned first card, a reshuffle of the discard pile) are Fisher-Yates
  over ``below(i + 1)`` for ``i`` from the top of the pile down; the UNO Attack launcher draws
  how many cards a fire ejects with ``below(100)`` (R-6.3).
* ``random() < p``: the launcher fires or not (R-6.2): ``random()`` is the generator's next 53
  bits as a fraction, so the comparison is true with probability ``ceil(p * 2**53) / 2**53``.

OpenSpiel wants each of these as an explicit chance node, so the mapping is one chance node per
draw: ``below(n)`` is a node with the outcomes ``0 .. n - 1``, each ``1 / n``; a comparison with
``p`` is a node with the outcomes ``0`` (not below, the launcher stays silent) and ``1`` (below,
it fires), with the exact probabilities above (an outcome of probability 0 is not offered). A
game of unokit with seed ``s`` is the OpenSpiel trajectory whose chance outcomes are the values
``Rng(s)`` draws, in order (:class:`RecordingRng` lists them); any trajectory of OpenSpiel drives
the engine through :class:`ScriptedRng`, which hands out the outcomes chosen so far and raises
:class:`NeedChance` when the engine wants one more. Nothing is approximated: the distribution
over games is the engine's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core.decks import Deck
from ..core.game import Event, Game
from ..core.launcher import CARDS_PER_FIRE_WEIGHTS
from ..core.rng import Rng
from ..core.variants import Options, VariantRules

T = TypeVar("T")

#: The scale of ``Rng.random()``: it returns a whole number of 53 bits divided by this.
_UNIT = 1 << 53


@dataclass(frozen=True)
class Request:
    """What the engine asks of chance: ``below`` a uniform draw from ``0 .. n - 1``, or ``coin``
    whether a uniform fraction is below ``threshold`` (``n`` is then 2: 0 no, 1 yes)."""

    kind: str
    n: int
    threshold: float = 0.0

    def outcomes(self) -> list[tuple[int, float]]:
        """The outcomes and their probabilities, as OpenSpiel's ``chance_outcomes()``."""
        if self.kind == "below":
            p = 1.0 / self.n
            return [(k, p) for k in range(self.n)]
        yes = coin_probability(self.threshold)
        return [(k, q) for k, q in ((0, 1.0 - yes), (1, yes)) if q > 0.0]

    def label(self) -> str:
        """What the node decides, for people."""
        if self.kind == "below":
            return f"a draw from 0 to {self.n - 1}"
        return f"whether a fraction is below {self.threshold!r}"


def coin_probability(threshold: float) -> float:
    """The exact probability that ``Rng.random() < threshold``."""
    return min(max(math.ceil(threshold * _UNIT), 0), _UNIT) / _UNIT


class NeedChance(Exception):
    """The engine asked for one more chance outcome than :class:`ScriptedRng` holds.

    ``more`` requests are known to follow it whatever their outcomes (the rest of a shuffle:
    ``below(n - 1)``, ``below(n - 2)`` ... for a ``below(n)``), so that a caller can collect their
    outcomes without running the engine again."""

    def __init__(self, request: Request, more: int = 0) -> None:
        super().__init__(request.label())
        self.request = request
        self.more = more


class _Fraction(float):
    """What the generators below return for ``random()``: a fraction whose one comparison with
    ``p`` (``x < p``, the launcher's only use of it) is a ``coin`` chance node."""

    _rng: Rng
    _used: bool

    def __new__(cls, value: float, rng: Rng) -> _Fraction:
        out = super().__new__(cls, value)
        out._rng = rng
        out._used = False
        return out

    def __lt__(self, threshold: object) -> bool:
        if self._used or not isinstance(threshold, float | int):
            raise AssertionError("the chance mapping supports one comparison 'random() < p' per fraction")
        self._used = True
        return self._below(float(threshold))

    def _below(self, threshold: float) -> bool:
        raise NotImplementedError


class _ScriptedFraction(_Fraction):
    """:meth:`ScriptedRng.random`: the comparison takes the next outcome (1: below)."""

    def _below(self, threshold: float) -> bool:
        assert isinstance(self._rng, ScriptedRng)
        return self._rng.take(Request("coin", 2, threshold)) == 1


class _RecordedFraction(_Fraction):
    """:meth:`RecordingRng.random`: the real fraction, the comparison written down as an outcome."""

    def _below(self, threshold: float) -> bool:
        assert isinstance(self._rng, RecordingRng)
        below = float(self) < threshold
        self._rng.outcomes.append(1 if below else 0)
        return below


class ScriptedRng(Rng):
    """A generator that hands out given chance outcomes (see the module docstring) and raises
    :class:`NeedChance` when they run out. ``state`` stays 0: it stands for no seed."""

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: list[int]) -> None:
        super().__init__(0)
        self.outcomes = outcomes
        self.used = 0

    def take(self, request: Request) -> int:
        """The next outcome for ``request``; raise :class:`NeedChance` when there is none."""
        if self.used >= len(self.outcomes):
            raise NeedChance(request)
        outcome = self.outcomes[self.used]
        if not 0 <= outcome < request.n:
            raise ValueError(f"chance outcome {outcome} is not one of 0 to {request.n - 1} ({request.label()})")
        self.used += 1
        return outcome

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return self.take(Request("below", n))

    def next64(self) -> int:
        raise AssertionError("the engine draws only with below() and random(); next64() has no chance node")

    def random(self) -> float:
        return _ScriptedFraction(0.5, self)

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            if self.used >= len(self.outcomes):
                raise NeedChance(Request("below", i + 1), i - 1)
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class RecordingRng(Rng):
    """The seeded generator, writing down each draw as the outcome of its chance node: the
    same game as ``Rng(seed)`` gives, and the outcomes that make OpenSpiel play it."""

    __slots__ = ("outcomes",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.outcomes: list[int] = []

    def below(self, n: int) -> int:
        x = super().below(n)
        self.outcomes.append(x)
        return x

    def random(self) -> float:
        return _RecordedFraction(super().random(), self)

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def deal(rules: VariantRules, options: Options, players: int, rng: Rng) -> tuple[Game, list[Event]]:
    """A new game set up with ``rng`` (:meth:`Game.set_up`, as :meth:`Game.new` does with its
    own generator); ``options`` come validated (from a game made with :meth:`Game.new`). The
    tests check that ``deal`` with ``RecordingRng(seed)`` gives the very position of
    ``Game.new(..., seed)``."""
    return Game.set_up(rules, options, players, rng.state, rng)


def largest_draw(deck: Deck) -> int:
    """The largest ``n`` of a ``below(n)`` the engine asks with ``deck``: a shuffle of every card
    (the cut), or the launcher's weights (R-6.3)."""
    return max(deck.size, sum(CARDS_PER_FIRE_WEIGHTS), 2)


def settings(game: Game) -> dict[str, Any]:
    """The options of ``game`` as JSON values (for records)."""
    return game.options.as_dict(game.rules)
