"""A compiled, batched engine identical to the reference one (extra ``fast``: numba, numpy).

The kernel (:mod:`unokit.fast.kernel`) holds many games in arrays and plays them with the
same rules, the same SplitMix64 generator and the same order of random draws as
:mod:`unokit.core`, so that from the same seed and actions a game here reaches exactly the
reference game's ``to_position()``. It plays Classic, Flip, Attack and Flip Attack with their
default options and any ``stacking``, ``bluffing``, ``scoring`` and ``target``, one hand
(``rounds=1``); other variants and options raise :class:`~unokit.OptionError`.

* :class:`Batch`: ``size`` games side by side, with legal masks and observations in the ids
  and vectors of :mod:`unokit.encoding`, and each game's position;
* :func:`random_playout`: games of uniformly random legal play, for studies and benchmarks.

The functions compile on first use and are cached on disk (see ``docs/fast.md``).
"""

from __future__ import annotations

from .batch import WIN_DENOM, Batch, random_playout
from .tables import SUPPORTED_OPTIONS, VARIANTS

__all__ = ["SUPPORTED_OPTIONS", "VARIANTS", "WIN_DENOM", "Batch", "random_playout"]
