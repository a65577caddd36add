"""Fit the weights with which a search deals its opponent's hand, from what the opponent did.

Plays 2-player Classic single hands between two searching bots (``ismcts`` by default, the bot
the weights are meant to read). At every ``turn`` decision of either seat it takes the seat's
view of the opponent, as the bot itself reads it (:class:`~unokit.bots.ismcts.Reads`, then
:func:`~unokit.bots.ismcts.card_features` of every card type), and the truth: how many of the
unseen cards of each type the opponent holds. It then fits a logistic model of whether one unseen
card is in the opponent's hand: ``logit p = logit(k / N) + terms . features``, where ``k`` is the
number of the opponent's cards that are unseen and ``N`` the number of unseen cards (the uniform
deal's chance), by Newton's method with a light L2 penalty, every hand weighing the same.
``exp(terms . features)`` is then the weight of a card in a weighted deal
(``FastIsmctsBot(read_plays=True)``).

It prints the coefficients in the form ``src/unokit/bots/ismcts.py`` uses, and the held-out
log-loss of the uniform deal and of the fitted model, on hands the fit did not see.

    .venv/bin/python scripts/fit_card_weights.py --hands 240 --workers 2 --seed 1

Needs NumPy (the ``rl`` extra).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import numpy as np
import numpy.typing as npt

import unokit
from unokit.bots.ismcts import CARD_FEATURES, IsmctsBot, card_features
from unokit.bots.runner import play_decision
from unokit.core.actions import Action
from unokit.core.determinise import Determiniser
from unokit.core.game import Game
from unokit.core.observation import View

Matrix = npt.NDArray[np.float64]
#: One row per (decision, unseen card type): hand number, offset, cards of the type unseen,
#: cards of it in the opponent's hand, then the features.
Row = list[float]


class _Recording(IsmctsBot):
    """``ismcts`` that records, at each of its turn decisions, the rows of its opponent's hand."""

    def __init__(self, seed: int, iterations: int | None, game: Game, hand: int, rows: list[Row]) -> None:
        super().__init__(seed, iterations)
        self._game = game
        self._hand = hand
        self._rows = rows

    def _choose(self, view: View) -> Action:
        reads = self.reads
        if reads is not None and view.decision == "turn":
            self._rows += rows_of(view, self._game, self._hand, card_features(view, reads))
        return super()._choose(view)


def rows_of(view: View, game: Game, hand: int, features: list[tuple[float, ...]]) -> list[Row]:
    """The rows of one decision: each unseen card type, how many of it the opponent holds."""
    opponent = 1 - view.seat
    sampler = Determiniser(view)
    unseen = Counter(sampler.pool)
    held = Counter(game.hands[opponent])
    held.subtract(sampler.known[opponent])
    k = sampler.free[opponent]
    n = len(sampler.pool)
    if k == 0 or k == n:
        return []
    offset = math.log(k / (n - k))
    return [[float(hand), offset, float(m), float(held[t]), *features[t]] for t, m in sorted(unseen.items())]


def collect_hands(first: int, last: int, seed: int, iterations: int | None) -> list[Row]:
    """The rows of both seats' turn decisions in hands ``first`` to ``last - 1``."""
    rows: list[Row] = []
    for hand in range(first, last):
        game = unokit.new_game("classic", 2, seed=seed * 1_000_003 + hand, rounds=1)
        bots = [_Recording(2 * hand + s, iterations, game, hand, rows) for s in range(2)]
        for s, bot in enumerate(bots):
            bot.reset(s)
        views = [unokit.View(game, s) for s in range(2)]
        while not game.is_over:
            play_decision(game, bots, views)
    return rows


def collect(hands: int, seed: int, iterations: int | None, workers: int) -> Matrix:
    """:func:`collect_hands` for hands 0 to ``hands - 1`` over ``workers`` processes."""
    bounds = [hands * k // workers for k in range(workers + 1)]
    task = partial(collect_hands, seed=seed, iterations=iterations)
    if workers == 1:
        parts = [collect_hands(0, hands, seed, iterations)]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(task, bounds[:-1], bounds[1:]))
    return np.array([row for part in parts for row in part], np.float64)


def fit(x: Matrix, offset: Matrix, trials: Matrix, hits: Matrix, l2: float = 1e-4, steps: int = 25) -> Matrix:
    """Binomial logistic regression with a fixed offset: ``hits`` of ``trials`` with
    probability ``sigmoid(offset + x @ w)``."""
    w = np.zeros(x.shape[1])
    scale = float(trials.sum())
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(offset + x @ w)))
        grad = x.T @ (trials * p - hits) + l2 * scale * w
        hess = (x * (trials * p * (1 - p))[:, None]).T @ x + l2 * scale * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(x: Matrix, offset: Matrix, trials: Matrix, hits: Matrix, w: Matrix) -> float:
    """Mean log-loss per unseen card of the model ``w``."""
    p = np.clip(1.0 / (1.0 + np.exp(-(offset + x @ w))), 1e-9, 1 - 1e-9)
    return float(-(hits * np.log(p) + (trials - hits) * np.log(1 - p)).sum() / trials.sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=240)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=None, help="ismcts's budget (default: its own)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--holdout", type=float, default=0.25, help="share of hands kept out of the fit")
    parser.add_argument("--save", default=None, help="also save the rows (.npy)")
    parser.add_argument("--load", default=None, help="fit rows saved before instead of playing")
    args = parser.parse_args()

    start = time.perf_counter()
    data = np.load(args.load) if args.load else collect(args.hands, args.seed, args.iterations, args.workers)
    if args.save:
        np.save(args.save, data)
    hands = int(data[:, 0].max()) + 1
    print(f"{len(data)} rows (decision, unseen card type) from {hands} hands ({time.perf_counter() - start:.0f} s)")
    test = data[:, 0] >= int(hands * (1 - args.holdout))
    train = ~test
    # Every hand counts the same: a marathon hand (both seats drawing for hundreds of turns)
    # would otherwise outweigh dozens of ordinary ones.
    per_hand = np.bincount(data[:, 0].astype(np.int64))
    share = len(data) / np.count_nonzero(per_hand) / per_hand[data[:, 0].astype(np.int64)]
    offset, trials, hits, x = data[:, 1], data[:, 2] * share, data[:, 3] * share, data[:, 4:]
    w = fit(x[train], offset[train], trials[train], hits[train])
    held_out = (x[test], offset[test], trials[test], hits[test])
    print(f"held-out log-loss per unseen card, uniform deal: {log_loss(*held_out, np.zeros_like(w)):.5f}")
    print(f"held-out log-loss per unseen card, fitted:       {log_loss(*held_out, w):.5f}")
    for name, coef, used in zip(CARD_FEATURES, w, (x[train] != 0).sum(axis=0), strict=True):
        print(f"    {name:18s} {coef:+.3f}  (weight x{math.exp(coef):.2f}; non-zero in {used} rows)")
    print(f"    CARD_TERMS = {tuple(round(float(c), 3) for c in w)}")


if __name__ == "__main__":
    main()
