"""The game's only source of randomness: a SplitMix64 generator.

Written here (not :mod:`random`) so that the same seed gives the same game on every machine
and Python version. The whole generator state is one 64-bit integer, which is what a
position stores as its ``seed``.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


#: Rejection limits of ``below(n)`` for small ``n``: draws at or above them are redrawn.
_TABLE = 256
_LIMITS = tuple((1 << 64) - ((1 << 64) % n) if n else 0 for n in range(_TABLE))

#: Shuffles of at least this many draws compute them together (:func:`_draws`).
_PACKED_FROM = 12
_LANE = 128  # bits per draw in the packed integer: room for a 64-bit by 64-bit product


@lru_cache(maxsize=256)
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """For ``count`` draws packed in one integer (draw ``k`` in bits ``128k .. 128k + 63``):
    ones in every lane, ``(k + 1) * golden`` in lane ``k``, the low-64-bit mask of every lane,
    and the struct that unpacks the lanes from the integer's little-endian bytes."""
    ones = sum(1 << (_LANE * k) for k in range(count))
    steps = sum(((k + 1) * _GOLDEN & MASK64) << (_LANE * k) for k in range(count))
    return ones, steps, ones * MASK64, struct.Struct("<" + "Q8x" * count)


def _draws(state: int, count: int) -> tuple[int, ...]:
    """The next ``count`` outputs of the generator whose state is ``state``, computed as one
    big integer: SplitMix64's step is ``state + golden`` and its output a function of that
    state alone, so the ``count`` states are known at once and every lane of the packed
    integer goes through the output function together (each product fits its 128-bit lane,
    and every shift is masked back to the lane's low 64 bits)."""
    ones, steps, masks, lanes = _lanes(count)
    z = (state * ones + steps) & masks
    z = ((z ^ ((z >> 30) & masks)) * 0xBF58476D1CE4E5B9) & masks
    z = ((z ^ ((z >> 27) & masks)) * 0x94D049BB133111EB) & masks
    z ^= (z >> 31) & masks
    return lanes.unpack(z.to_bytes(lanes.size, "little"))


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
        each ``i`` from the top down.

        Long lists compute their draws all at once (:func:`_draws`); a draw that ``below``
        would reject (odds of n in 2**64 for a bound n) hands the rest to the one-at-a-time loop, which
        redraws as ``below`` does."""
        top = len(items) - 1
        if top < _PACKED_FROM:
            self._shuffle_from(items, top)
            return
        s = self.state
        limits = _LIMITS
        for k, x in enumerate(_draws(s, top)):
            i = top - k
            n = i + 1
            if x >= (limits[n] if n < _TABLE else (1 << 64) - ((1 << 64) % n)):
                self.state = (s + k * _GOLDEN) & MASK64  # the draws before this one
                self._shuffle_from(items, i)
                return
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = (s + top * _GOLDEN) & MASK64

    def _shuffle_from(self, items: list[T], top: int) -> None:
        """The Fisher-Yates steps ``i = top .. 1`` of :meth:`shuffle`, one draw at a time (the
        generator step is written out for speed)."""
        s = self.state
        limits = _LIMITS
        for i in range(top, 0, -1):
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
