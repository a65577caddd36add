"""The game's generator: ``shuffle`` draws exactly as ``below(i + 1)`` for each ``i`` from the
top down, whether it computes its draws together or one at a time, rejections included."""

from __future__ import annotations

import pytest

from tests.helpers import state_giving
from unokit.core.rng import MASK64, Rng


def one_draw_at_a_time(state: int, items: list[int]) -> int:
    """Fisher-Yates with ``below``, the definition of ``shuffle``; returns the final state."""
    rng = Rng(state)
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return rng.state


@pytest.mark.parametrize("length", [0, 1, 2, 11, 12, 13, 54, 107, 108, 112, 300])
def test_shuffle_is_below_from_the_top_down(length: int) -> None:
    source = Rng(length)
    for _ in range(20):
        state = source.next64()
        expected = list(range(length))
        final = one_draw_at_a_time(state, expected)
        rng = Rng(state)
        got = list(range(length))
        rng.shuffle(got)
        assert got == expected
        assert rng.state == final


def test_state_giving_produces_the_wanted_draw() -> None:
    rng = Rng(state_giving(12345, draws_before=3))
    assert [rng.next64() for _ in range(4)][-1] == 12345


@pytest.mark.parametrize("rejected_at", [0, 1, 40, 105])
def test_a_rejected_draw_is_redrawn_as_below_does(rejected_at: int) -> None:
    """Draw ``rejected_at`` of a 108-card shuffle is the largest 64-bit number, which ``below``
    rejects for any bound that does not divide 2**64 (``108 - rejected_at`` here never does)."""
    state = state_giving(MASK64, draws_before=rejected_at)
    assert (1 << 64) % (108 - rejected_at) != 0
    expected = list(range(108))
    final = one_draw_at_a_time(state, expected)
    rng = Rng(state)
    got = list(range(108))
    rng.shuffle(got)
    assert got == expected
    assert rng.state == final
    assert final == (state + 108 * 0x9E3779B97F4A7C15) & MASK64  # 107 draws and the one redrawn
