"""The kernel's generator draws exactly as ``unokit.core.rng.Rng``, at the edges of rejection too."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import state_giving
from unokit.core.rng import Rng
from unokit.fast import kernel as K


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
