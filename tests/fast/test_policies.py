"""The compiled bots pick exactly what the Python bots pick, decision by decision."""

from __future__ import annotations

import numpy as np
import pytest

import unokit
from unokit.bots import make_bot
from unokit.core.observation import View
from unokit.fast import Batch
from unokit.fast import kernel as K


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("classic", 2, {}),
        ("classic", 4, {"stacking": True, "bluffing": False}),
        ("flip", 3, {"stacking": True}),
        ("attack", 4, {}),
        ("flip_attack", 3, {}),
    ],
)
@pytest.mark.parametrize("name", ["rlcard_rule", "random"])
def test_a_compiled_bot_plays_as_its_python_bot(
    variant: str, players: int, options: dict[str, object], name: str
) -> None:
    policy = K.POLICY_RLCARD_RULE if name == "rlcard_rule" else K.POLICY_RANDOM
    decisions = 0
    for i in range(6):
        batch = Batch(variant, players, 1, 100 + i, **options)  # type: ignore[arg-type]
        game = unokit.new_game(variant, players, seed=100 + i, rounds=1, **options)
        bots = [make_bot(name, 7 * seat + i) for seat in range(players)]
        states = np.array([bot.rng.state for bot in bots], np.uint64).view(np.int64)
        views = [View(game, seat) for seat in range(players)]
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            action = bots[seat].act(views[seat])
            code = K.policy_of(batch.state[0], batch.rules_vector, policy, states, seat)
            expected = batch.legal_codes(0)[[str(a) for a in game.legal_actions()].index(str(action))]
            assert code == expected, f"game {i}, decision {decisions}: the Python bot chose {action}"
            assert np.uint64(states[seat]) == np.uint64(bots[seat].rng.state)
            game.apply(action, seat=seat)
            batch.step(np.array([code]), check=False)
            decisions += 1
        assert batch.position(0) == game.to_position()
    assert decisions > 100
