"""``scripts/fit_card_weights.py``, which fits the weights of ``ismcts_fast``'s ``read_plays``:
its rows hold the truth of the opponent's hand against what the seat saw, and its regression
recovers a known model."""

from __future__ import annotations

import math
from collections import Counter

import pytest

import unokit
from tests.helpers import load_script
from unokit.bots.ismcts import CARD_FEATURES, Reads, card_features
from unokit.core.determinise import Determiniser

np = pytest.importorskip("numpy")
fit_script = load_script("fit_card_weights")


def test_the_rows_of_a_decision_count_the_opponents_unseen_cards_by_type() -> None:
    game = unokit.new_game("classic", 2, seed=12, rounds=1)
    view = unokit.View(game, game.to_act or 0)
    rows = fit_script.rows_of(view, game, 7, card_features(view, Reads()))
    pool = Determiniser(view).pool
    opponent = game.hands[1 - view.seat]
    assert sum(row[2] for row in rows) == len(pool)  # every unseen card once
    assert sum(row[3] for row in rows) == len(opponent)  # the opponent holds these
    held = Counter(opponent)
    assert all(0 <= row[3] <= row[2] for row in rows)
    assert sorted(row[3] for row in rows if row[3]) == sorted(held.values())
    assert {row[0] for row in rows} == {7.0}
    assert rows[0][1] == pytest.approx(math.log(len(opponent) / (len(pool) - len(opponent))))
    assert all(len(row) == 4 + len(CARD_FEATURES) for row in rows)


def test_rows_of_whole_hands_split_over_workers() -> None:
    """Both seats' decisions are recorded, and two processes give the rows one gives."""
    one = fit_script.collect(2, seed=4, iterations=20, workers=1)
    two = fit_script.collect(2, seed=4, iterations=20, workers=2)
    assert np.array_equal(one, two)
    assert set(one[:, 0].tolist()) == {0.0, 1.0}
    assert np.all(one[:, 3] <= one[:, 2])


def test_the_regression_recovers_a_known_model() -> None:
    rng = np.random.default_rng(3)
    n = 20000
    x = rng.normal(size=(n, 2))
    offset = rng.uniform(-3.0, -1.0, size=n)
    trials = rng.integers(1, 3, size=n).astype(float)
    truth = np.array([0.8, -0.5])
    p = 1.0 / (1.0 + np.exp(-(offset + x @ truth)))
    hits = rng.binomial(trials.astype(np.int64), p).astype(float)
    w = fit_script.fit(x, offset, trials, hits)
    assert np.allclose(w, truth, atol=0.08)
    assert fit_script.log_loss(x, offset, trials, hits, w) < fit_script.log_loss(x, offset, trials, hits, 0 * w)
