"""``scripts/fit_hand_model.py``, which fits the ``ismcts`` bot's hand-strength model: its rows
describe the table exactly as ``ismcts.py`` reads it, and its regression recovers a known model."""

from __future__ import annotations

from typing import Any

import pytest

import unokit
from tests.helpers import load_script
from unokit.bots.ismcts import FEATURES, HAND_SIZE_TERM, hand_features, log_strength

np = pytest.importorskip("numpy")
fit_script = load_script("fit_hand_model")
MAX_SIZE = len(HAND_SIZE_TERM) - 1


def test_size_columns_one_hot_with_a_linear_tail() -> None:
    columns = fit_script.size_columns
    assert columns(0) == columns(1) == [0.0] * MAX_SIZE  # the baseline
    five = columns(5)
    assert five[3] == 1.0 and sum(five) == 1.0
    twenty = columns(20)
    assert twenty[MAX_SIZE - 2] == 1.0 and twenty[-1] == 20 - MAX_SIZE  # counted as the table's last size, plus 4


def test_rows_describe_each_turn_decision_as_the_bot_reads_it() -> None:
    a, b, labels, groups = fit_script.collect(3, seed=5)
    width = MAX_SIZE + len(FEATURES) + 1
    assert a.shape == b.shape == (len(groups), width) and labels.shape == (len(groups),)
    assert sorted(set(groups.tolist())) == [0, 1, 2]
    for hand in range(3):
        assert len(set(labels[groups == hand].tolist())) == 1  # one winner per hand
    # Exactly one seat is to act at a turn decision.
    to_act = MAX_SIZE + FEATURES.index("to act")
    assert np.all(a[:, to_act] + b[:, to_act] == 1)


def test_rows_of_the_compiled_search_playing_itself_split_over_workers() -> None:
    """``--bot ismcts_fast``: the rows come from hands between two searches, and splitting the
    hands over two processes gives the same rows in the same order as one."""
    one = fit_script.collect(2, seed=4, bot="ismcts_fast", iterations=50)
    two = fit_script.collect(2, seed=4, bot="ismcts_fast", iterations=50, workers=2)
    for x, y in zip(one, two, strict=True):
        assert np.array_equal(x, y)
    assert sorted(set(one[3].tolist())) == [0, 1]
    heuristic = fit_script.collect(2, seed=4)
    assert not np.array_equal(heuristic[0], one[0])  # other players, other tables


def test_seat_row_matches_the_bot_model() -> None:
    game = unokit.new_game("classic", 2, seed=11, rounds=1)
    row: list[Any] = fit_script.seat_row(game, 1)
    size = len(game.hands[1])
    assert row[:MAX_SIZE] == fit_script.size_columns(size)
    assert row[MAX_SIZE:-1] == [float(x) for x in hand_features(game, 1)]
    assert row[-1] == log_strength(game, 1)


def test_the_regression_recovers_a_known_model() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20000, 3))
    truth = np.array([1.5, -0.7, 0.2])
    y = (rng.random(20000) < 1.0 / (1.0 + np.exp(-(x @ truth)))).astype(float)
    w = fit_script.fit(x, y)
    assert np.allclose(w, truth, atol=0.08)
    p = fit_script.sigmoid(x @ w)
    assert fit_script.log_loss(p, y) < fit_script.log_loss(np.full(len(y), 0.5), y)
