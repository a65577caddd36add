"""The simulator on the compiled kernel (``unokit sim --engine fast``, extra ``fast``).

:func:`play_games_fast` plays the same games as :func:`unokit.sim.runner.play_games` (same
seeds, same seats, the same choices of the ``random`` and ``rlcard_rule`` bots, the same
catches of missed UNO calls) and returns the same :class:`~unokit.sim.runner.Tally`, so a
simulation gives identical results with either engine. It plays single hands (``rounds=1``,
``--hands-only``) without per-effect statistics, with the options the kernel supports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..core.errors import OptionError
from ..core.rng import MASK64
from ..fast import kernel as K
from ..fast.tables import playout_rules, resolve_options

if TYPE_CHECKING:
    from .runner import SimConfig, Tally

#: The bots the fast engine plays, by name.
FAST_BOTS: dict[str, int] = {"random": K.POLICY_RANDOM, "rlcard_rule": K.POLICY_RLCARD_RULE}


def check_fast_config(config: SimConfig) -> None:
    """Raise ``ValueError`` (``OptionError`` for rules) when the fast engine cannot play
    ``config``: other bots, per-effect statistics, whole games, or options it does not support."""
    others = sorted({spec for spec in config.bots if spec not in FAST_BOTS})
    if others:
        raise ValueError(f"--engine fast plays the bots {', '.join(FAST_BOTS)}, not {', '.join(others)}")
    if config.effects:
        raise ValueError("--engine fast does not count effects (--effects needs the reference engine)")
    options = config.game_options()
    if str(options.get("rounds", "")) != "1":
        raise OptionError("--engine fast plays single hands: add --hands-only")
    resolve_options(config.variant, options)


def _rules(variant: str, players: int, options: dict[str, object]) -> NDArray[np.int64]:
    name, resolved = resolve_options(variant, options)
    return playout_rules(name, players, resolved)


def play_games_fast(config: SimConfig, start: int, stop: int) -> Tally:
    """Games ``start`` to ``stop - 1`` of ``config`` on the kernel, tallied as the reference
    engine's loop tallies them."""
    from .runner import WIN_DENOM, Tally

    options = config.game_options()
    n = config.players
    rules = _rules(config.variant, n, options)
    state = np.zeros(int(rules[K.C_S_WIDTH]), np.int64)
    count = stop - start
    turns = np.zeros(count, np.int64)
    decisions = np.zeros(count, np.int64)
    dealers = np.zeros(count, np.int64)
    winners = np.zeros(count, np.int64)
    scores = np.zeros((count, n), np.int64)
    round_winners = np.zeros(count, np.int64)
    policies = np.array([FAST_BOTS[spec] for spec in config.bots], np.int64)
    seed = int(np.array([config.seed & MASK64], np.uint64).view(np.int64)[0])
    K.sim_games(state, rules, seed, start, policies, turns, decisions, dealers, winners, scores, round_winners)

    tally = Tally(n)
    tally.games = tally.round_count = count
    tally.decisions = int(decisions.sum())
    tally.rounds[1] += count
    tally.turns.update(dict(zip(*(x.tolist() for x in np.unique(turns, return_counts=True)), strict=True)))
    # as runner._end_round: the hand's winner's points (scoring=winner) or every seat's
    higher = config.resolved_options().scoring == "winner"
    gained = scores[np.arange(count), round_winners] if higher else scores.reshape(-1)
    tally.round_points.update(dict(zip(*(x.tolist() for x in np.unique(gained, return_counts=True)), strict=True)))
    places = (round_winners - (dealers + 1)) % n
    tally.first_player = np.bincount(places, minlength=n).tolist()
    index = np.arange(start, stop)[:, None]
    entry_of = (np.arange(n)[None, :] - index) % n  # entry e sits in seat (e + index) % n
    won = (winners[:, None] >> np.arange(n)[None, :]) & 1 == 1
    shares = WIN_DENOM // won.sum(axis=1)
    win_shares = np.zeros(n, np.int64)
    np.add.at(win_shares, entry_of[won], np.repeat(shares, won.sum(axis=1)))
    points = np.zeros(n, np.int64)
    np.add.at(points, entry_of, scores)
    tally.win_shares = win_shares.tolist()
    tally.points = points.tolist()
    if config.keep_games:
        for k in range(count):
            by_entry = [0] * n
            for seat in range(n):
                by_entry[entry_of[k, seat]] = int(scores[k, seat])
            tally.records.append((tuple(sorted(int(entry_of[k, s]) for s in range(n) if won[k, s])), tuple(by_entry)))
    return tally
