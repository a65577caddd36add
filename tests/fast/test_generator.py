"""The kernel's generator draws exactly as ``unokit.core.rng.Rng``, at the edges of rejection too."""

from __future__ import annotations

import numpy as np
import pytest

from unokit.core.rng import MASK64, Rng
from unokit.fast import kernel as K

_GOLDEN = 0x9E3779B97F4A7C15


def _unshift(y: int, shift: int) -> int:
    """The ``z`` with ``z ^ (z >> shift) == y``."""
    z = y
    for _ in range(64 // shift + 1):
        z = y ^ (z >> shift)
    return z


def state_giving(x: int) -> int:
    """A SplitMix64 state whose next 64-bit output is ``x`` (the output function is a bijection)."""
    z = _unshift(x, 31)
    z = _unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK64, 27)
    z = _unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK64, 30)
    return (z - _GOLDEN) & MASK64


def _edges(n: int) -> list[int]:
    """Outputs around the rejection limit 2**64 - (2**64 mod n) and around 2**64 - n."""
    rem = (1 << 64) % n
    values = {0, n - 1, (1 << 64) - 1}
    for centre in ((1 << 64) - n, (1 << 64) - rem):
        values.update(v for v in (centre - 1, centre, centre + 1) if 0 <= v < 1 << 64)
    return sorted(values)


def test_state_giving_produces_the_wanted_output() -> None:
    for x in (0, 1, 12345, (1 << 64) - 1):
        assert Rng(state_giving(x)).next64() == x


@pytest.mark.parametrize("n", [1, 2, 3, 7, 64, 108, 112, 1000, (1 << 40) + 3, (1 << 62) + 1])
def test_below_matches_the_reference_at_the_rejection_edges(n: int) -> None:
    for x in _edges(n):
        state = state_giving(x)
        reference = Rng(state)
        expected = reference.below(n)
        words = np.array([state], np.uint64).view(np.int64)
        assert K.below_at(words, 0, n) == expected, (n, x)
        assert int(words.view(np.uint64)[0]) == reference.state, (n, x)  # as many draws taken
