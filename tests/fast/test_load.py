"""Batch.load: a position loaded into a kernel row is that position, and plays on exactly as the
reference game (the inverse of Batch.position)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import unokit
from unokit import OptionError, PositionError
from unokit.core.actions import UNO
from unokit.core.game import Game
from unokit.core.rng import Rng
from unokit.fast import Batch
from unokit.fast import kernel as K

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {"stacking": True}),
    ("classic", 3, {"bluffing": False, "scoring": "loser"}),
    ("flip", 2, {}),
    ("flip", 4, {"stacking": True, "scoring": "own_hand"}),
    ("attack", 3, {}),
    ("flip_attack", 2, {}),
    ("flip_attack", 4, {"scoring": "loser"}),
]


def _code(batch: Batch, game: Game, k: int) -> int:
    """The kernel code of the ``k``-th legal action of ``game`` (late UNO and catch included)."""
    action = game.legal_actions()[k]
    code = batch.encoding.encode(action, game.to_act or 0)
    if code is None:
        return batch.num_actions if action.kind == UNO else batch.num_actions + 1
    return code


@pytest.mark.parametrize(("variant", "players", "options"), CASES, ids=[f"{c[0]}-{c[1]}p" for c in CASES])
def test_a_loaded_position_is_that_position_and_plays_on_as_the_reference(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    batch = Batch(variant, players, 2, seed=0, **options)
    rng = Rng(players * 7 + len(options))
    loaded = 0
    seen: set[str] = set()
    for g in range(4 if variant == "attack" else 8):
        game = unokit.new_game(variant, players, seed=500 + g, rounds=1, **options)
        while not game.is_over:
            if rng.below(3) == 0:
                position = game.to_position()
                batch.load(1, position)
                assert batch.position(1) == position
                assert batch.legal_codes(1) == [_code(batch, game, k) for k in range(len(game.legal_actions()))]
                seen.add(str(game.decision))
                loaded += 1
                # Play on both from here: every position on the way stays the same.
                ahead = game.clone()
                for _ in range(rng.below(16)):
                    if ahead.is_over:
                        break
                    k = rng.below(len(ahead.legal_actions()))
                    code = _code(batch, ahead, k)
                    assert batch.legal_codes(1)[k] == code
                    ahead.step(ahead.legal_actions()[k])
                    K.step_all(batch.state[1:2], batch.rules_vector, np.array([code], np.int64))
                    assert batch.position(1) == ahead.to_position()
            game.step(game.legal_actions()[rng.below(len(game.legal_actions()))])
        batch.load(0, game.to_position())  # a finished game loads too
        assert batch.position(0) == game.to_position()
        assert batch.done[0]
    assert loaded > 40
    assert "turn" in seen and len(seen) >= 2


def test_bad_or_foreign_positions_are_refused_and_change_nothing() -> None:
    batch = Batch("classic", 2, 2, seed=3)
    before = batch.state.copy()
    with pytest.raises(PositionError, match="hands"):
        batch.load(0, {"variant": "classic", "players": 2, "turn": 0, "seed": 1, "discard": ["red 5"]})
    other = unokit.new_game("flip", 2, seed=1, rounds=1).to_position()
    with pytest.raises(OptionError, match="flip"):
        batch.load(0, other)
    stacked = unokit.new_game("classic", 2, seed=1, rounds=1, stacking=True).to_position()
    with pytest.raises(OptionError, match="stacking"):
        batch.load(0, stacked)
    with pytest.raises(OptionError, match="no game 2"):
        batch.load(2, unokit.new_game("classic", 2, seed=1, rounds=1).to_position())
    assert np.array_equal(batch.state, before)


def test_the_play_history_of_a_loaded_game_starts_empty() -> None:
    batch = Batch("classic", 2, 1, seed=4)
    game = unokit.new_game("classic", 2, seed=4, rounds=1)
    for _ in range(6):
        game.step(game.legal_actions()[0])
    batch.load(0, game.to_position())
    hist = int(batch.rules_vector[K.C_S_HIST])
    assert (batch.state[0, hist : hist + 2 * batch.encoding.history] == -1).all()
