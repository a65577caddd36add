"""The game's only source of randomness: a SplitMix64 generator.

Written here (not :mod:`random`) so that the same seed gives the same game on every machine
and Python version. The whole generator state is one 64-bit integer, which is what a
position stores as its ``seed``.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


#: Rejection limits of ``below(n)`` for small ``n``: draws at or above them are redrawn.
_TABLE = 256
_LIMITS = tuple((1 << 64) - ((1 << 64) % n) if n else 0 for n in range(_TABLE))


class Rng:
    """SplitMix64. ``state`` is the full generator state; any int is a valid seed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self.state = s = (self.state + _GOLDEN) & MASK64
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)``; ``n`` must be positive (no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self.state = s = (self.state + _GOLDEN) & MASK64
            s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
            x = s ^ (s >> 31)
            if x < limit:
                return x % n

    def random(self) -> float:
        """Return a float uniform in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates), drawing exactly as ``below(i + 1)`` for
        each ``i`` from the top down (the generator step is written out for speed)."""
        s = self.state
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < _TABLE else (1 << 64) - ((1 << 64) % n)
            while True:
                s = (s + _GOLDEN) & MASK64
                x = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
                x ^= x >> 31
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = s

    def choice(self, items: list[T]) -> T:
        """Return one element of a non-empty list, uniformly."""
        return items[self.below(len(items))]
