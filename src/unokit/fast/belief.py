"""A belief over the opponent's hand, compiled: hands weighted by how likely an opponent model
makes what the opponent was seen to do (the engine of the ``ismcts_belief`` bot).

The opponent's round, as one seat saw it, is a sequence of events (``unokit.bots.ismcts.EV_*``):
turns (the card it played, or a draw), cards leaving its hand, unseen cards it took, drawn cards
it kept. For a hypothesised hand ``H`` (the cards it holds now) the hands it held at its earlier
turns follow by going back through the events: a played card returns to the hand, and the cards
it took leave it again, chosen uniformly among those it held then (under a uniform deal every
order in which it could have received its cards is equally likely, and going back this way
draws each such order with the same chance). A *path* is one such walk. The likelihood of ``H``
is the mean over paths of the product of the model's probabilities of the seen actions:

* at a turn where it drew: the chance to draw although a card fits (one chance when a coloured
  card fitted, another when only a wild did), or 1 when nothing fitted;
* at a turn where it played card ``c``: one less that chance, times a softmax over the distinct
  types of its hand that fitted, each scored by :data:`TERMS` (a plain wild, a Wild Draw card,
  another action card, a draw card, a card of the colour in play, the cards of its colour
  held); with a wild, times a softmax over the colours of the colour it named, by the cards of
  each colour it kept;
* a drawn card it kept: ``keep_chance`` if that card fitted, else 1.

Which cards fit at a turn comes from the engine's rules (the Python side passes, per event, the
card types that may be played there, from the core's action table). With the prior of the deal
(the number of ways to hold ``H`` among the unseen cards), this is the posterior over ``H``:

* :func:`exact_belief` enumerates every hand of ``n`` cards (``n`` small) with its weight;
* :func:`sampled_belief` draws hands from the deal and weighs each (the whole round, any size).

The search (:func:`unokit.fast.search.run`) then deals the opponent a hand drawn by weight.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .kernel import CAP, I64, below_at, entry, jit

F64 = NDArray[np.float64]

# Event kinds and fields (the rows of ``events``; the same codes as unokit.bots.ismcts.EV_*).
EV_TURN = 0
EV_PLAY = 1
EV_GAIN = 2
EV_KEEP = 3

#: The opponent model's parameters, in order (``theta``): the log-odds of drawing although a
#: coloured card fits, of drawing although only a wild fits, of keeping a drawn card that fits,
#: then the score terms of a card played: a plain wild, a Wild Draw card, another action card
#: (Skip, Reverse, ...), a coloured draw card, a card of the colour in play, each card of its
#: colour in the hand; then the weight of each card of a colour in the hand when naming a colour.
TERMS = (
    "draw although a coloured card fits",
    "draw although only a wild fits",
    "keep a drawn card that fits",
    "plain wild",
    "wild draw",
    "action",
    "draw card",
    "colour in play",
    "cards of its colour",
    "named colour held",
)
N_TERMS = len(TERMS)
#: The columns of the card table (``cards[t, K_*]``, one row per card type): whether the type is
#: a plain wild, a Wild Draw card, another action card, a coloured draw card (0 or 1), and its
#: colour among the side's four (0 to 3; -1 for a wild).
K_PLAIN_WILD = 0
K_WILD_DRAW = 1
K_ACTION = 2
K_DRAW = 3
K_COLOR = 4
N_CARD_COLUMNS = 5
#: Room for the scratch arrays of a likelihood: a hand (``4 * CAP``), counts and marks per type
#: (``CAP`` each), cards held per colour (4).
WORK = 6 * CAP + 4

# A model is the tuple ``(events, fits, cards, theta)``: the opponent's events (rows of five ints,
# ``unokit.bots.ismcts.EV_*``, their colours among the side's four), the types that fitted at
# each event (``fits[e, t]``, 0 or 1), the card table and the parameters.


@jit
def _sigmoid(x: float) -> float:
    return float(1.0 / (1.0 + np.exp(-x)))


@jit
def card_score(t: int, color: int, cards: I64, held: I64, theta: F64) -> float:
    """The model's score of playing card type ``t`` with ``color`` in play and ``held[c]`` cards
    of each colour in the hand."""
    s = (
        theta[3] * cards[t, K_PLAIN_WILD]
        + theta[4] * cards[t, K_WILD_DRAW]
        + theta[5] * cards[t, K_ACTION]
        + theta[6] * cards[t, K_DRAW]
    )
    c = cards[t, K_COLOR]
    if c >= 0:
        s += theta[7] * (1.0 if c == color else 0.0) + theta[8] * held[c]
    return float(s)


@jit
def turn_log_chance(
    hand: I64,
    size: int,
    counts: I64,
    fits: I64,
    color: int,
    card: int,
    named: int,
    cards: I64,
    theta: F64,
    seen: I64,
    held: I64,
) -> float:
    """The log-probability under the model that a player holding ``hand[:size]`` (``counts``
    per type) with ``color`` in play and the types ``fits`` playable plays ``card`` (-1: draws),
    naming ``named`` (-1: none seen). ``seen`` (``CAP``) and ``held`` (4) are scratch room."""
    for c in range(4):
        held[c] = 0
    any_fit = False
    colored_fit = False
    for i in range(size):
        t = hand[i]
        seen[t] = 0
        if cards[t, K_COLOR] >= 0:
            held[cards[t, K_COLOR]] += 1
        if fits[t] != 0:
            any_fit = True
            if cards[t, K_COLOR] >= 0:
                colored_fit = True
    draw = _sigmoid(theta[0] if colored_fit else theta[1])
    if card < 0:
        return float(np.log(draw)) if any_fit else 0.0
    if fits[card] == 0 or counts[card] == 0:
        return 0.0  # not a turn the model can read (the table was not what it seemed)
    # A softmax over the distinct types of the hand that fit (the largest score first, for a
    # stable sum).
    top = -1e300
    for i in range(size):
        t = hand[i]
        if fits[t] != 0:
            top = max(top, card_score(t, color, cards, held, theta))
    total = 0.0
    for i in range(size):
        t = hand[i]
        if seen[t] == 0 and fits[t] != 0:
            seen[t] = 1
            total += np.exp(card_score(t, color, cards, held, theta) - top)
    value = float(np.log(1.0 - draw)) + card_score(card, color, cards, held, theta) - top - float(np.log(total))
    if named >= 0 and cards[card, K_COLOR] < 0:
        # The colour named, by the cards of each colour it kept (the wild itself has none).
        best = -1e300
        for c in range(4):
            best = max(best, theta[9] * held[c])
        norm = 0.0
        for c in range(4):
            norm += np.exp(theta[9] * held[c] - best)
        value += theta[9] * held[named] - best - float(np.log(norm))
    return value


@jit
def path_log_likelihood(start: I64, n_start: int, model: tuple[I64, I64, I64, F64], rng: I64, work: I64) -> float:
    """The log of the model's probability of its events along one random path back from the
    hand ``start[:n_start]`` (see the module docstring). ``work`` has room for :data:`WORK`."""
    events, fits, cards, theta = model
    hand = work[: 4 * CAP]
    counts = work[4 * CAP : 5 * CAP]
    seen = work[5 * CAP : 6 * CAP]
    held = work[6 * CAP : 6 * CAP + 4]
    for t in range(CAP):
        counts[t] = 0
    size = n_start
    for i in range(size):
        hand[i] = start[i]
        counts[start[i]] += 1
    keep = _sigmoid(theta[2])
    pending = 0  # cards at the end of the hand that a later kept draw says were drawn
    value = 0.0
    for e in range(events.shape[0] - 1, -1, -1):
        kind = events[e, 0]
        if kind == EV_PLAY:
            if size < hand.shape[0]:
                t = events[e, 1]
                # insert before the pending drawn cards, which must stay last
                hand[size] = t
                if pending:
                    hand[size] = hand[size - pending]
                    hand[size - pending] = t
                size += 1
                counts[t] += 1
        elif kind == EV_GAIN:
            for _ in range(events[e, 1]):
                if size == 0:
                    break
                if pending:
                    j = np.int64(size - 1)
                    pending -= 1
                else:
                    j = np.int64(below_at(rng, 0, size))
                t = hand[j]
                hand[j] = hand[size - 1]
                size -= 1
                counts[t] -= 1
        elif kind == EV_KEEP:
            if size > pending:
                j = np.int64(below_at(rng, 0, size - pending))  # the drawn card, among those not placed
                d = hand[j]
                last = size - 1 - pending
                hand[j] = hand[last]
                hand[last] = d
                pending += 1
                if fits[e, d] != 0:
                    value += float(np.log(keep))
        elif kind == EV_TURN:
            value += turn_log_chance(
                hand, size, counts, fits[e], events[e, 2], events[e, 3], events[e, 4], cards, theta, seen, held
            )
    return value


@jit
def hand_log_likelihood(
    start: I64, n_start: int, model: tuple[I64, I64, I64, F64], rng: I64, paths: int, work: I64
) -> float:
    """The log of the mean, over ``paths`` random paths, of the model's probability of its
    events for the hand ``start[:n_start]``. ``work`` has room for :data:`WORK`."""
    best = -1e300
    total = 0.0  # a running log-sum-exp: the sum of exp(log - best)
    for _ in range(paths):
        log = path_log_likelihood(start, n_start, model, rng, work)
        if log > best:
            total = total * np.exp(best - log) + 1.0
            best = log
        else:
            total += np.exp(log - best)
    return float(best + np.log(total / paths))


@entry
def exact_belief(
    known: I64, avail: I64, n: int, model: tuple[I64, I64, I64, F64], rng: I64, paths: int, temper: float
) -> tuple[I64, F64]:
    """Every hand of ``n`` unseen cards (1 to 3), given ``avail[t]`` unseen cards of each type,
    with its log-weight: the log of its number of ways among the unseen cards plus ``temper``
    times its log-likelihood (:func:`hand_log_likelihood`, the opponent's hand being ``known``
    and these cards; ``temper`` 1 is the posterior, less than 1 trusts the model less). Returns
    ``(hands, log_weights)``, a hand per row."""
    types = np.empty(CAP, np.int64)
    m = 0
    for t in range(CAP):
        if avail[t] > 0:
            types[m] = t
            m += 1
    if n == 1:
        count = m
    elif n == 2:
        count = m * (m + 1) // 2
    else:
        count = m * (m + 1) * (m + 2) // 6
    hands = np.zeros((count, max(n, 1)), np.int64)
    weights = np.full(count, -np.inf, np.float64)
    start = np.empty(known.shape[0] + n, np.int64)
    start[: known.shape[0]] = known
    work = np.empty(WORK, np.int64)
    pick = np.zeros(3, np.int64)
    row = 0
    for a in range(m):
        for b in range(a if n >= 2 else m - 1, m):
            for c in range(b if n >= 3 else m - 1, m):
                pick[0] = types[a]
                pick[1] = types[b]
                pick[2] = types[c]
                # the number of ways to hold these cards: a binomial per type
                ways = 1.0
                for j in range(n):
                    t = pick[j]
                    same = 0
                    for q in range(j):
                        if pick[q] == t:
                            same += 1
                    ways *= max(avail[t] - same, 0) / (same + 1.0)
                for j in range(n):
                    hands[row, j] = pick[j]
                    start[known.shape[0] + j] = pick[j]
                if ways > 0:
                    log = hand_log_likelihood(start, start.shape[0], model, rng, paths, work)
                    weights[row] = np.log(ways) + temper * log
                row += 1
    return hands, weights


@entry
def sampled_belief(
    known: I64,
    pool: I64,
    n: int,
    samples: int,
    model: tuple[I64, I64, I64, F64],
    rng: I64,
    paths: int,
    temper: float,
) -> tuple[I64, F64]:
    """``samples`` hands of ``n`` cards drawn from the unseen cards ``pool`` as the deal draws
    them (uniformly), each with ``temper`` times its log-likelihood (:func:`hand_log_likelihood`;
    the prior is in the draw). Returns ``(hands, log_weights)``."""
    hands = np.zeros((samples, max(n, 1)), np.int64)
    weights = np.empty(samples, np.float64)
    order = np.arange(pool.shape[0])
    start = np.empty(known.shape[0] + n, np.int64)
    start[: known.shape[0]] = known
    work = np.empty(WORK, np.int64)
    size = pool.shape[0]
    for s in range(samples):
        for j in range(n):  # a partial Fisher-Yates shuffle: n cards without replacement
            k = j + np.int64(below_at(rng, 0, size - j))
            tmp = order[j]
            order[j] = order[k]
            order[k] = tmp
            hands[s, j] = pool[order[j]]
            start[known.shape[0] + j] = pool[order[j]]
        weights[s] = temper * hand_log_likelihood(start, start.shape[0], model, rng, paths, work)
    return hands, weights


@entry
def turn_log_chance_of(hand: I64, fits: I64, color: int, card: int, named: int, cards: I64, theta: F64) -> float:
    """:func:`turn_log_chance` for the hand ``hand``, called from Python (for tests and fits)."""
    counts = np.zeros(CAP, np.int64)
    for t in hand:
        counts[t] += 1
    seen = np.zeros(CAP, np.int64)
    held = np.zeros(4, np.int64)
    return turn_log_chance(hand, len(hand), counts, fits, color, card, named, cards, theta, seen, held)


@entry
def log_likelihood_of(start: I64, model: tuple[I64, I64, I64, F64], rng: I64, paths: int) -> float:
    """:func:`hand_log_likelihood` of the hand ``start``, called from Python (for tests)."""
    return hand_log_likelihood(start, start.shape[0], model, rng, paths, np.empty(WORK, np.int64))
