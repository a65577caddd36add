"""Fit the opponent model that the ``ismcts_belief`` bot reads its opponent's hand with.

Plays 2-player Classic single hands between two bots (``ismcts_fast`` by default: the opponent
the model is meant to read) and records, at every decision of either seat, what the model sees
and what the seat did, with the seat's true hand: at a turn, the card types of its hand that
could be played (the core's rule), the colour in play, the card it played or its draw, and the
colour it named with a wild; at a drawn card that fits, whether it kept it. It then fits the
parameters of :data:`unokit.fast.belief.TERMS` by maximum likelihood (gradient ascent, a light
L2 penalty), prints them in the form of :data:`unokit.bots.belief.OPPONENT_MODELS`, with the
held-out log-likelihood per decision of the fitted model and of the ``plays`` and ``greedy``
models on the last quarter of the hands, and checks that its log-likelihood is the compiled
model's (:func:`unokit.fast.belief.turn_log_chance`) on those decisions.

It also measures what each model's exact belief knows: at the held-out decisions where the
opponent held two unseen cards or fewer (and a turn of it had been read), the mean log-
probability that the belief (:func:`unokit.fast.belief.exact_belief`, as the bot computes it)
gives the opponent's true hand, less that of the uniform deal, in nats (0: it knows nothing
more than the deal).

    .venv/bin/python scripts/fit_opponent_model.py --hands 200 --workers 2 --seed 1

Needs NumPy and numba (the ``fast`` extra).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

import unokit
from unokit.bots import Bot, make_bot
from unokit.bots.belief import (
    EXACT_MAX,
    EXACT_PATHS,
    OPPONENT_MODELS,
    TEMPER,
    WINDOW,
    card_table,
    latest_turns,
    opponent_model,
)
from unokit.bots.runner import play_decision
from unokit.core.actions import KEEP, PLAY, PLAY_DRAWN, Action
from unokit.core.colors import SIDE_COLORS
from unokit.core.determinise import Determiniser
from unokit.core.game import Game, action_table
from unokit.core.observation import View
from unokit.core.types import DecisionKind as D
from unokit.fast import belief as B
from unokit.fast.kernel import CAP

Matrix = npt.NDArray[np.float64]
#: A recorded decision: ("turn", hand, fitting types, colour in play, card or -1, named or -1),
#: ("keep", kept), or ("belief", events, unseen cards, known cards, unseen count, true hand) at a
#: decision where the opponent held few unseen cards.
Row = tuple[Any, ...]
SEED_BASE = 8_000_000
#: The beliefs measured: (power of the likelihood, the opponent's latest turns read).
BELIEFS: tuple[tuple[float, int | None], ...] = ((1.0, None), (1.0, WINDOW), (TEMPER, None), (TEMPER, WINDOW))


class Recording(Bot):
    """Plays as ``inner`` does and records each of its turn and play-or-keep decisions."""

    def __init__(self, inner: Bot, rows: list[Row], game: Game) -> None:
        super().__init__(0)
        self.inner = inner
        self.rng = inner.rng
        self.rows = rows
        self.game = game

    def reset(self, seat: int) -> None:
        self.inner.reset(seat)

    def react(self, view: View) -> Action | None:
        return self.inner.react(view)

    def act(self, view: View) -> Action:
        action = self.inner.act(view)
        reads = getattr(self.inner, "reads", None)
        if reads is not None and reads.events:
            sampler = Determiniser(view)
            opponent = 1 - view.seat
            if 0 < sampler.free[opponent] <= EXACT_MAX:
                held = Counter(self.game.hands[opponent])
                held.subtract(sampler.known[opponent])
                hidden = tuple(sorted(held.elements()))
                known = tuple(sampler.known[opponent])
                self.rows.append(("belief", list(reads.events), tuple(sampler.pool), known, len(hidden), hidden))
        if view.decision == D.TURN:
            side = view.side
            fits = action_table(view.deck).match(side, view.color, view.deck.kind[side][view.top], True)[1]
            card = action.card if action.kind == PLAY else -1
            named = action.color if action.kind == PLAY and action.color >= 0 else -1
            self.rows.append(("turn", tuple(view.hand), tuple(sorted(fits)), view.color, card, named))
        elif view.decision == D.PLAY_OR_KEEP and action.kind in (KEEP, PLAY_DRAWN):
            self.rows.append(("keep", action.kind == KEEP))
        return action


def collect(first: int, last: int, bot: str, iterations: int | None) -> list[list[Row]]:
    """The rows of both seats in hands ``first`` to ``last - 1``, a list per hand."""
    hands = []
    for deal in range(first, last):
        rows: list[Row] = []
        game = unokit.new_game("classic", 2, seed=SEED_BASE + deal, rounds=1)
        bots: list[Bot] = []
        for s in range(2):
            inner = make_bot(bot, deal * 2 + s)
            if iterations is not None:
                inner.iterations = iterations  # type: ignore[attr-defined]
            bots.append(Recording(inner, rows, game))
        for s, b in enumerate(bots):
            b.reset(s)
        views = [View(game, s) for s in range(2)]
        while not game.is_over:
            play_decision(game, bots, views)
        hands.append(rows)
    return hands


class Data:
    """The rows as arrays: turns with a card that fits (candidates padded to ``width``), keeps."""

    def __init__(self, rows: list[Row], deck: Any) -> None:
        first = SIDE_COLORS[0][0]
        table = card_table(deck, 0)
        colors = [int(c) for c in table[:, B.K_COLOR]]
        classes = [[float(x) for x in row[: B.K_COLOR]] for row in table]
        turns = [r for r in rows if r[0] == "turn" and any(t in r[2] for t in r[1])]
        width = max((len({t for t in r[1] if t in r[2]}) for r in turns), default=1)
        n = len(turns)
        self.features = np.zeros((n, width, 6))
        self.mask = np.zeros((n, width), bool)
        self.chosen = np.full(n, -1)
        self.colored = np.zeros(n, bool)
        self.named = np.full(n, -1)
        self.held_after = np.zeros((n, 4))
        for i, (_, hand, fits, color, card, named) in enumerate(turns):
            held = [0.0] * 4
            for t in hand:
                if colors[t] >= 0:
                    held[colors[t]] += 1
            types = sorted({t for t in hand if t in fits})
            for j, t in enumerate(types):
                same = 1.0 if colors[t] >= 0 and colors[t] == color - first else 0.0
                count = held[colors[t]] if colors[t] >= 0 else 0.0
                self.features[i, j] = [*classes[t], same, count]
                self.mask[i, j] = True
                if t == card:
                    self.chosen[i] = j
            self.colored[i] = any(colors[t] >= 0 for t in types)
            if card >= 0 and colors[card] < 0 and named >= 0:
                self.named[i] = named - first
                after = list(hand)
                after.remove(card)
                for t in after:
                    if colors[t] >= 0:
                        self.held_after[i, colors[t]] += 1
        self.kept = np.array([r[1] for r in rows if r[0] == "keep"], bool)
        self.turns = turns

    def log_likelihood(self, theta: Matrix, keeps: bool = True) -> tuple[float, Matrix]:
        """The total log-likelihood of the rows under ``theta`` and its gradient (without the
        kept draws when ``keeps`` is false)."""
        grad = np.zeros(B.N_TERMS)
        logit = np.where(self.colored, theta[0], theta[1])
        p_draw = 1.0 / (1.0 + np.exp(-logit))
        drew = self.chosen < 0
        total = float(np.sum(np.log(np.where(drew, p_draw, 1.0 - p_draw))))
        g_logit = np.where(drew, 1.0 - p_draw, -p_draw)
        grad[0] = float(np.sum(g_logit[self.colored]))
        grad[1] = float(np.sum(g_logit[~self.colored]))
        played = ~drew
        w = theta[3:9]
        scores = np.where(self.mask, self.features @ w, -np.inf)
        top = scores.max(axis=1, keepdims=True)
        ex = np.exp(scores - top)
        probs = ex / ex.sum(axis=1, keepdims=True)
        rows = np.nonzero(played)[0]
        picked = scores[rows, self.chosen[rows]]
        total += float(np.sum(picked - top[rows, 0] - np.log(ex[rows].sum(axis=1))))
        expected = np.einsum("nk,nkf->nf", probs[rows], self.features[rows])
        grad[3:9] = np.sum(self.features[rows, self.chosen[rows]] - expected, axis=0)
        named = self.named >= 0
        if named.any():
            g = self.held_after[named]
            s = theta[9] * g
            lse = np.log(np.exp(s - s.max(axis=1, keepdims=True)).sum(axis=1)) + s.max(axis=1)
            which = self.named[named]
            total += float(np.sum(s[np.arange(len(which)), which] - lse))
            soft = np.exp(s - lse[:, None])
            grad[9] = float(np.sum(g[np.arange(len(which)), which] - (soft * g).sum(axis=1)))
        if keeps and len(self.kept):
            p_keep = 1.0 / (1.0 + math.exp(-theta[2]))
            total += float(np.sum(np.log(np.where(self.kept, p_keep, 1.0 - p_keep))))
            grad[2] = float(np.sum(np.where(self.kept, 1.0 - p_keep, -p_keep)))
        return total, grad

    def decisions(self) -> int:
        return len(self.chosen) + len(self.kept)


def fit(data: Data, penalty: float = 0.01, steps: int = 3000) -> Matrix:
    """Maximum likelihood with an L2 penalty, by Adam's gradient ascent."""
    theta = np.zeros(B.N_TERMS)
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    rate = 0.05
    scale = max(1, data.decisions())
    for k in range(1, steps + 1):
        _, grad = data.log_likelihood(theta)
        grad = grad / scale - penalty * theta / scale
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        theta += rate * (m / (1 - 0.9**k)) / (np.sqrt(v / (1 - 0.999**k)) + 1e-8)
    return theta


def compiled_log_likelihood(data: Data, theta: Matrix, deck: Any) -> float:
    """The turns' log-likelihood by the bot's compiled model, for the check."""
    cards = card_table(deck, 0)
    first = SIDE_COLORS[0][0]
    total = 0.0
    for _, hand, fits, color, card, named in data.turns:
        row = np.zeros(CAP, np.int64)
        row[list(fits)] = 1
        total += B.turn_log_chance_of(
            np.asarray(hand, np.int64), row, color - first, card, named - first if named >= 0 else -1, cards, theta
        )
    return total


def belief_gain(rows: list[Row], deck: Any, theta: Matrix, temper: float, window: int | None) -> tuple[float, int]:
    """The mean log-probability that the exact belief under ``theta`` (tempered by ``temper``,
    reading the ``window`` latest turns) gives the true hand, less the uniform deal's, at the
    ``belief`` rows; and their number."""
    gains = []
    rng = np.array([11], np.int64)
    for _, events, pool, known, free, hidden in (r for r in rows if r[0] == "belief"):
        avail = np.zeros(CAP, np.int64)
        unseen: Counter[int] = Counter(pool)
        for t, count in unseen.items():
            avail[t] = count
        logs = {}
        for name, seen in (("model", latest_turns(events, window)), ("deal", [])):
            model = opponent_model(deck, 0, True, seen, theta)
            hands, weights = B.exact_belief(np.asarray(known, np.int64), avail, free, model, rng, EXACT_PATHS, temper)
            top = float(np.max(weights))
            norm = top + math.log(float(np.sum(np.exp(weights - top))))
            row = next(i for i, h in enumerate(hands) if tuple(sorted(h[:free])) == tuple(hidden))
            logs[name] = float(weights[row]) - norm
        gains.append(logs["model"] - logs["deal"])
    return (float(np.mean(gains)) if gains else 0.0), len(gains)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="the first deal is seed * 100,000")
    parser.add_argument("--bot", default="ismcts_fast", help="the bot whose play is modelled")
    parser.add_argument("--iterations", type=int, default=None, help="the bot's budget (default: its own)")
    parser.add_argument("--save", default=None, help="also write the recorded decisions to this JSON file")
    parser.add_argument("--load", default=None, help="fit the decisions of this file instead of playing")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.load:
        with open(args.load, encoding="utf-8") as saved:
            hands = [[tuple(row) for row in hand] for hand in json.load(saved)]
    else:
        first = args.seed * 100_000
        chunks = [(first + i, min(first + i + 5, first + args.hands)) for i in range(0, args.hands, 5)]
        work = partial(collect, bot=args.bot, iterations=args.iterations)
        with ProcessPoolExecutor(args.workers) as pool:
            hands = [h for part in pool.map(work, *zip(*chunks, strict=True)) for h in part]
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(hands, out)
    deck = unokit.new_game("classic", 2, seed=1).deck
    cut = len(hands) * 3 // 4
    train = Data([r for h in hands[:cut] for r in h], deck)
    test = Data([r for h in hands[cut:] for r in h], deck)
    print(
        f"{args.bot}: {len(hands)} hands, {train.decisions()} decisions to fit, {test.decisions()} held out "
        f"({time.perf_counter() - start:.0f} s)"
    )
    theta = fit(train)
    for name, value in zip(B.TERMS, theta, strict=True):
        print(f"  {name:<36} {value:+.3f}")
    print("  (" + ", ".join(f"{v:.3f}" for v in theta) + ")")
    models = {"fitted": theta, **{k: np.asarray(v) for k, v in OPPONENT_MODELS.items()}}
    for name, values in models.items():
        ll, _ = test.log_likelihood(values)
        print(f"held-out log-likelihood per decision, {name}: {ll / max(1, test.decisions()):.4f}")
    held_out = [r for h in hands[cut:] for r in h]
    for name, values in models.items():
        for temper, window in BELIEFS:
            gain, count = belief_gain(held_out, deck, values, temper, window)
            print(
                f"exact belief, {name}, tempered {temper:g}, {window or 'all'} turns: {gain:+.4f} nats of the "
                f"true hand over the deal ({count} decisions)"
            )
    turns = test.log_likelihood(theta, keeps=False)[0]
    compiled = compiled_log_likelihood(test, theta, deck)
    print(f"check: the held-out turns' log-likelihood, compiled model {compiled:.6f}, this fit {turns:.6f}")


if __name__ == "__main__":
    main()
