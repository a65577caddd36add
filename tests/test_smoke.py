"""A first end-to-end check: every variant plays to the end under random legal play."""

from __future__ import annotations

import pytest

import unokit
from unokit.core.rng import Rng


@pytest.mark.parametrize("variant", unokit.VARIANT_NAMES)
def test_random_game_reaches_the_end(variant: str) -> None:
    game = unokit.new_game(variant, 3, seed=11, rounds=None)  # play to the target
    chooser = Rng(5)
    for _ in range(100_000):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
    assert game.is_over
    assert game.winner is not None
    assert max(game.scores) >= 500
