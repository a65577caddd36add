"""The ``ismcts_belief`` bot: the compiled search of ``ismcts_fast``, dealing the opponent's hand
by a belief that reads the opponent's play (extra ``fast``).

In a 2-player game on a single-sided deck the search deals the opponent's unseen cards not
uniformly but by how likely an *opponent model* makes what the opponent was seen to do this round
(the turns it played from its hand, the draws it took instead of playing, the drawn cards it kept,
the colours it named: :attr:`unokit.bots.ismcts.Reads.events`). The belief
(:mod:`unokit.fast.belief`) is

* **exact** while the opponent holds few unseen cards (:data:`EXACT_MAX`): every possible hand,
  weighted by the number of ways to hold it among the unseen cards times its likelihood;
* **over the whole round** otherwise: :data:`SAMPLES` hands drawn as the deal draws them, each
  weighted by its likelihood.

What is unseen, and where it may go, is the engine's :class:`~unokit.core.determinise.Determiniser`;
which cards could be played at each of the opponent's turns is the engine's rule (the core's
action table). Each search iteration then deals the opponent a hand drawn by weight and the draw
pile the rest. Elsewhere (more players, double-sided decks, games the kernel does not play, no
turn of the opponent read yet) it searches as ``ismcts_fast`` does. Measured in ``docs/ismcts.md``.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np

from ..core.colors import NO_COLOR, SIDE_COLORS
from ..core.decks import Deck
from ..core.determinise import Determiniser
from ..core.game import action_table
from ..core.observation import View
from ..core.rng import MASK64
from ..fast import belief as B
from ..fast.kernel import CAP
from ..fast.load import as_int64
from .ismcts import EV_KEEP, EV_TURN, Event
from .ismcts_fast import FastIsmctsBot


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


#: Opponent models, as the parameters of :data:`unokit.fast.belief.TERMS`: ``plays``, a player
#: who draws only when nothing fits (but 3% of the time) and keeps a drawn card that fits one
#: time in ten, and otherwise plays any card that fits, naming any colour; ``greedy``, the same
#: keeping its wilds (and Wild Draw cards more) for when nothing else fits (drawing a third of the
#: time when only a wild fits), naming the colour it holds most (chosen by hand); ``fitted``, the
#: maximum-likelihood fit to 7,236 decisions of ``ismcts_fast`` (2,000 iterations) playing itself
#: (``scripts/fit_opponent_model.py --hands 300 --iterations 2000 --seed 1``): it draws 6.5% of
#: the time although a coloured card fits, half the time when only a wild fits, keeps a drawn
#: card that fits a quarter of the time, plays a wild or Wild Draw card last, and names the colour
#: it holds most.
OPPONENT_MODELS: dict[str, tuple[float, ...]] = {
    "plays": (_logit(0.03), _logit(0.03), _logit(0.1), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "greedy": (_logit(0.03), _logit(0.3), _logit(0.1), -2.0, -2.5, 0.0, 0.0, 0.3, 0.2, 1.0),
    "fitted": (-2.663, -0.081, -1.192, -3.104, -3.348, -0.799, -0.350, -0.382, -0.077, 0.769),
}
#: Beliefs: ``model`` (exact up to :data:`EXACT_MAX` unseen cards, then over the whole round),
#: ``exact`` (exact up to :data:`EXACT_MAX`, the uniform deal above), ``round`` (over the whole
#: round at every size), ``none`` (the uniform deal: ``ismcts_fast``).
BELIEFS = ("model", "exact", "round", "none")
#: The largest number of the opponent's unseen cards whose every hand is weighed.
EXACT_MAX = 2
#: How much the weights trust the model: the likelihood is raised to this power (1: the
#: posterior of the model; a model that is only roughly right makes the posterior too sure).
TEMPER = 0.7
#: The opponent's turns read, the latest first (``None``: the whole round). Going back through
#: a long round, which of its cards the opponent took when is a guess, and the random paths
#: that average over those guesses disagree more the further back they go.
WINDOW: int | None = 8
#: Hands drawn for the belief over the whole round, and random paths back through the round
#: per hand (exact: per possible hand).
SAMPLES = 2000
SAMPLE_PATHS = 4
EXACT_PATHS = 32


Model = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def card_table(deck: Deck, side: int) -> np.ndarray:
    """The card table of :mod:`unokit.fast.belief` for ``deck`` on ``side``: per card type,
    whether it is a plain wild, a Wild Draw card, another action card, a coloured draw card, and
    its colour among the side's four (-1 for a wild), from the card-kind table."""
    cards = np.zeros((CAP, B.N_CARD_COLUMNS), np.int64)
    first = SIDE_COLORS[side][0]
    for t, kind in enumerate(deck.kinds[side]):
        color = deck.color[side][t]
        cards[t, B.K_COLOR] = -1 if color == NO_COLOR else color - first
        if kind.wild:
            cards[t, B.K_WILD_DRAW if kind.challengeable else B.K_PLAIN_WILD] = 1
        elif kind.draws > 0:
            cards[t, B.K_DRAW] = 1
        elif kind.number < 0:
            cards[t, B.K_ACTION] = 1
    return cards


def latest_turns(events: list[Event], window: int | None) -> list[Event]:
    """The events from the ``window``-th last turn on (all of them for ``None`` or fewer turns):
    reading back from the hand now, the belief stops there."""
    if window is None:
        return events
    seen = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i][0] == EV_TURN:
            seen += 1
            if seen == window:
                return events[i:]
    return events


def opponent_model(deck: Deck, side: int, bluffing: bool, events: list[Event], theta: np.ndarray) -> Model:
    """The model tuple of :mod:`unokit.fast.belief` for the opponent's ``events``
    (:attr:`unokit.bots.ismcts.Reads.events`) on ``side`` of ``deck``: the events with their
    colours among the side's four, the types that fitted at each turn or kept draw by the
    core's rule (its action table), the card table and ``theta``."""
    table = action_table(deck)
    kinds = deck.kind[side]
    first = SIDE_COLORS[side][0]
    rows = np.asarray(events, np.int64).reshape(-1, 5)
    fits = np.zeros((len(events), CAP), np.int64)
    for e, (what, top, color, _card, named) in enumerate(events):
        if what in (EV_TURN, EV_KEEP):
            for t in table.match(side, color, kinds[top], bluffing)[1]:
                fits[e, t] = 1
            rows[e, 2] = color - first
            rows[e, 4] = named - first if named >= 0 else -1
    return rows, fits, card_table(deck, side), theta


class BeliefIsmctsBot(FastIsmctsBot):
    """:class:`~unokit.bots.ismcts_fast.FastIsmctsBot` dealing its opponent's hand by a belief.

    ``belief`` (:data:`BELIEFS`), ``opponent_model`` (:data:`OPPONENT_MODELS`), ``exact_max``,
    ``samples``, ``paths`` (per hand; by default :data:`EXACT_PATHS` for the exact belief and
    :data:`SAMPLE_PATHS` over the round), ``temper`` (:data:`TEMPER`) and ``window`` (the
    opponent's latest turns read, :data:`WINDOW`) say how; the other
    arguments are ``ismcts_fast``'s. It reads the opponent's turns, so ``read_draws`` stays on.
    With a seed and an iteration budget the bot is deterministic. ``last_belief`` says what the
    last search used: ``"exact"``, ``"round"`` or ``""`` (the uniform deal)."""

    name = "ismcts_belief"

    def __init__(
        self,
        seed: int = 0,
        belief: str = "model",
        opponent_model: str = "fitted",
        exact_max: int = EXACT_MAX,
        samples: int = SAMPLES,
        paths: int | None = None,
        temper: float = TEMPER,
        window: int | None = WINDOW,
        **settings: Any,
    ) -> None:
        settings.setdefault("read_draws", True)
        if not settings["read_draws"]:
            raise ValueError("ismcts_belief reads the opponent's turns: read_draws must stay on")
        super().__init__(seed, **settings)
        if belief not in BELIEFS:
            raise ValueError(f"unknown belief {belief!r}; beliefs are {', '.join(BELIEFS)}")
        if opponent_model not in OPPONENT_MODELS:
            raise ValueError(f"unknown opponent model {opponent_model!r}; models are {', '.join(OPPONENT_MODELS)}")
        if not 0 <= exact_max <= 3:
            raise ValueError(f"exact_max must be 0 to 3, not {exact_max}")
        if samples < 1 or (paths is not None and paths < 1):
            raise ValueError("samples and paths must be at least 1")
        if not 0.0 <= temper <= 1.0:
            raise ValueError(f"temper must be from 0 to 1, not {temper}")
        self.temper = temper
        if window is not None and window < 1:
            raise ValueError(f"window must be at least 1 turn, or None, not {window}")
        self.window = window
        self.belief_kind = belief
        self.opponent_model = opponent_model
        self.theta = np.asarray(OPPONENT_MODELS[opponent_model], np.float64)
        self.exact_max = exact_max
        self.samples = samples
        self.paths = paths
        self.last_belief = ""

    def belief(self, view: View, sampler: Determiniser) -> tuple[np.ndarray, np.ndarray] | None:
        """The opponent's hands to deal and their running weights (see the module docstring),
        or ``None`` for the deal of ``sampler``."""
        self.last_belief = ""
        reads = self.reads
        if self.belief_kind == "none" or reads is None or not reads.events:
            return None
        if view.players != 2 or view.deck.double_sided:
            return None
        opponent = 1 - view.seat
        free = sampler.free[opponent]
        exact = free <= self.exact_max and self.belief_kind in ("model", "exact")
        if free <= 0 or (not exact and self.belief_kind not in ("model", "round")):
            return None
        events = latest_turns(reads.events, self.window)
        model = opponent_model(view.deck, view.side, view.options.bluffing, events, self.theta)
        known = np.asarray(sampler.known[opponent], np.int64)
        rng = np.array([as_int64(self.rng.state)], np.int64)
        if exact:
            avail = np.zeros(CAP, np.int64)
            for t, count in Counter(sampler.pool).items():
                avail[t] = count
            hands, logs = B.exact_belief(known, avail, free, model, rng, self.paths or EXACT_PATHS, self.temper)
        else:
            pool = np.asarray(sampler.pool, np.int64)
            paths = self.paths or SAMPLE_PATHS
            hands, logs = B.sampled_belief(known, pool, free, self.samples, model, rng, paths, self.temper)
        self.rng.state = int(rng[0]) & MASK64
        top = float(np.max(logs)) if len(logs) else -math.inf
        if not math.isfinite(top):
            return None
        self.last_belief = "exact" if exact else "round"
        return hands, np.cumsum(np.exp(logs - top))


__all__ = [
    "BELIEFS",
    "EXACT_MAX",
    "OPPONENT_MODELS",
    "BeliefIsmctsBot",
    "card_table",
    "latest_turns",
    "opponent_model",
]
