"""The game's chance where rounds are scored (``unokit.review.gamechance``): the engine's
scoring rule decides a game this hand ends, and the hands after it are played between equals."""

from __future__ import annotations

import pytest

from unokit import Game
from unokit.review.gamechance import GameModel, game_chance


def test_a_hand_that_reaches_the_target_wins_the_game_and_equals_share_it() -> None:
    """R-1.7: the first to the target wins; at 0-0 between equals each seat's chance is about a
    half, and the two seats' chances add up to 1 for every winner of the hand."""
    game, _ = Game.new("classic", 2, seed=1)
    mine, theirs = GameModel(game, 0, seed=3), GameModel(game, 1, seed=3)
    first, second = mine.by_winner([480, 0], 1, [0.0, 30.0])
    assert first == 1.0 and 0.9 < second < 1.0  # 510 ends the game; else seat 0 needs 20 more
    even = [mine.by_winner([0, 0], 1, [40.0, 40.0])[w] + theirs.by_winner([0, 0], 1, [40.0, 40.0])[w] for w in (0, 1)]
    assert even == [pytest.approx(1.0), pytest.approx(1.0)]
    half = game_chance(0.5, [0.5, 0.5], 0, mine.by_winner([0, 0], 1, [40.0, 40.0]))
    assert half == pytest.approx(0.5)  # the futures treat the seats alike
    assert game_chance(0.5, [0.5, 0.5], 0, mine.by_winner([400, 0], 1, [40.0, 40.0])) > 0.8


def test_lowest_score_wins_with_own_hand_scoring() -> None:
    """D-15 (scoring=own_hand): once anyone reaches the target, the lowest score wins."""
    game, _ = Game.new("classic", 2, seed=1, scoring="own_hand", target=100)
    model = GameModel(game, 0, seed=3)
    assert model.by_winner([10, 90], 1, [0.0, 20.0])[0] == 1.0  # seat 1 reaches 110: seat 0 is lowest
    assert model.by_winner([90, 10], 1, [20.0, 0.0])[1] == 0.0
