"""Fit the hand-strength model that scores the ``ismcts`` bot's cut-short rollouts.

Plays 2-player Classic single hands between two ``heuristic`` bots (or, with ``--bot
ismcts_fast``, two compiled searches at ``--iterations`` each, so that the model learns what a
table is worth between players as strong as the search), records every ``turn``
decision (the table as the engine holds it: a model of positions, not of what a seat sees) with
who won the hand, and fits a logistic regression of the winner on the difference of the two
seats' features (Newton's method, light L2 penalty). The model is Bradley-Terry: a seat's
log-strength is a linear function of its features, its chance to win is its strength over the
sum. It prints the coefficients in the form ``src/unokit/bots/ismcts.py`` uses and the held-out
log-loss of the model shipped in ``ismcts.py`` and of each fitted feature set, on hands the fit
did not see.

    .venv/bin/python scripts/fit_hand_model.py --hands 20000 --seed 1
    .venv/bin/python scripts/fit_hand_model.py --bot ismcts_fast --iterations 5000 --hands 5000 --workers 2

Needs NumPy (the ``rl`` extra); ``--bot ismcts_fast`` needs the ``fast`` extra.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import numpy as np
import numpy.typing as npt

import unokit
from unokit.bots import Bot, make_bot
from unokit.bots.ismcts import FEATURES, HAND_SIZE_TERM, hand_features, log_strength
from unokit.bots.runner import play_decision
from unokit.core.game import Game

Matrix = npt.NDArray[np.float64]
MAX_SIZE = len(HAND_SIZE_TERM) - 1  # sizes above this share one linear term


def size_columns(size: int) -> list[float]:
    """One-hot hand size 2..MAX_SIZE (0 and 1 cards are the baseline; larger hands count as
    MAX_SIZE) and the number of cards beyond MAX_SIZE, as :func:`log_strength` reads them."""
    row = [0.0] * (MAX_SIZE - 1)
    if size >= 2:
        row[min(size, MAX_SIZE) - 2] = 1.0
    return [*row, float(max(0, size - MAX_SIZE))]


def seat_row(game: Game, seat: int) -> list[float]:
    """One seat's row: size columns, :func:`hand_features`, then the shipped log-strength."""
    features = [float(x) for x in hand_features(game, seat)]
    return [*size_columns(len(game.hands[seat])), *features, log_strength(game, seat)]


Rows = tuple[list[list[float]], list[list[float]], list[float], list[int]]


def player(bot_name: str, iterations: int | None, seed: int) -> Bot:
    """The bot that plays both seats: ``heuristic``, or ``ismcts_fast`` at ``iterations``."""
    if bot_name == "ismcts_fast":
        from unokit.bots.ismcts_fast import FastIsmctsBot

        return FastIsmctsBot(seed, iterations=iterations)
    return make_bot(bot_name, seed)


def collect_hands(first: int, last: int, seed: int, bot_name: str, iterations: int | None) -> Rows:
    """Rows for seat 0 and seat 1 at every turn decision of hands ``first`` to ``last - 1``,
    whether seat 0 won that hand, and each row's hand number."""
    rows0: list[list[float]] = []
    rows1: list[list[float]] = []
    labels: list[float] = []
    groups: list[int] = []
    for hand in range(first, last):
        game = unokit.new_game("classic", 2, seed=seed * 1_000_003 + hand, rounds=1)
        bots: list[Bot] = [player(bot_name, iterations, 2 * hand), player(bot_name, iterations, 2 * hand + 1)]
        for s, bot in enumerate(bots):
            bot.reset(s)
        views = [unokit.View(game, s) for s in range(2)]
        start = len(groups)
        while not game.is_over:
            if game.decision == "turn":
                rows0.append(seat_row(game, 0))
                rows1.append(seat_row(game, 1))
                groups.append(hand)
            play_decision(game, bots, views)
        labels += [1.0 if 0 in game.winners else 0.0] * (len(groups) - start)
    return rows0, rows1, labels, groups


def collect(
    hands: int, seed: int, bot: str = "heuristic", iterations: int | None = None, workers: int = 1
) -> tuple[Matrix, Matrix, Matrix, npt.NDArray[np.int64]]:
    """:func:`collect_hands` for hands 0 to ``hands - 1``, split over ``workers`` processes
    (the rows do not depend on how many)."""
    if workers == 1:
        parts = [collect_hands(0, hands, seed, bot, iterations)]
    else:
        bounds = [hands * k // workers for k in range(workers + 1)]
        task = partial(collect_hands, seed=seed, bot_name=bot, iterations=iterations)
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(task, bounds[:-1], bounds[1:]))
    a, b, y, g = ([row for part in parts for row in part[k]] for k in range(4))
    return np.array(a), np.array(b), np.array(y), np.array(g)


def sigmoid(z: Matrix) -> Matrix:
    return 1.0 / (1.0 + np.exp(-z))


def fit(x: Matrix, y: Matrix, l2: float = 1e-6, steps: int = 30) -> Matrix:
    """Logistic regression without intercept (the difference of two seats is symmetric)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = sigmoid(x @ w)
        grad = x.T @ (p - y) + l2 * len(y) * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * len(y) * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(p: Matrix, y: Matrix) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", choices=("heuristic", "ismcts_fast"), default="heuristic", help="who plays both seats")
    parser.add_argument("--iterations", type=int, default=None, help="ismcts_fast's budget (default: its own)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--holdout", type=float, default=0.25, help="share of hands kept out of the fit")
    args = parser.parse_args()

    start = time.perf_counter()
    a, b, y, groups = collect(args.hands, args.seed, args.bot, args.iterations, args.workers)
    print(f"{len(y)} turn decisions from {args.hands} hands ({time.perf_counter() - start:.0f} s)")
    test = groups >= int(args.hands * (1 - args.holdout))
    train = ~test
    p_shipped = sigmoid(a[test, -1] - b[test, -1])
    print(f"held-out log-loss, the model shipped in ismcts.py: {log_loss(p_shipped, y[test]):.4f}")
    names = [*(f"size {n}" for n in range(2, MAX_SIZE + 1)), "per card beyond", *FEATURES]
    sizes = names[:MAX_SIZE]
    sets = {
        "sizes only": sizes,
        "sizes, wilds, draw cards, other actions": [*sizes, *FEATURES[:3]],
        "all": names,
        **{f"all but {name}": [n for n in names if n != name] for name in FEATURES},
    }
    for label, chosen in sets.items():
        columns = [names.index(n) for n in chosen]
        x = a[:, columns] - b[:, columns]
        w = fit(x[train], y[train])
        p = sigmoid(x[test] @ w)
        print(f"held-out log-loss, fitted on {label}: {log_loss(p, y[test]):.4f}")
        if label == "all":
            terms = [round(float(coef), 3) for coef in w]
            print(f"    HAND_SIZE_TERM = {(0.0, 0.0, *terms[: MAX_SIZE - 1])}")
            print(f"    EXTRA_CARD_TERM = {terms[MAX_SIZE - 1]}")
            print(f"    FEATURE_TERMS = {tuple(terms[MAX_SIZE:])}  # {', '.join(FEATURES)}")


if __name__ == "__main__":
    main()
