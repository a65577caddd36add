"""``scripts/bench_ladder.py``'s steps: each level's head-to-head record over the level below it,
read from the tournament's pairs (which give the lower level's record, the bot list's order)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.helpers import load_script
from unokit.bots import level_names
from unokit.sim import wilson_interval
from unokit.sim.tournament import TournamentConfig, TournamentResult

bench = load_script("bench_ladder")


def test_each_step_is_the_higher_levels_record_over_the_one_below() -> None:
    levels = level_names()
    pairs: list[dict[str, Any]] = []
    for k, (low, high) in enumerate(itertools.combinations(levels, 2)):
        wins, losses = k, 20 - k  # the lower level's record, different for every pair
        low_ci, high_ci = wilson_interval(wins, wins + losses)
        pairs.append(
            {
                "bot": low,
                "other": high,
                "games": 60,
                "wins": wins,
                "losses": losses,
                "rate": wins / (wins + losses),
                "ci_low": low_ci,
                "ci_high": high_ci,
            }
        )
    config = TournamentConfig(variant="classic", players=2, bots=tuple(levels), games=1)
    steps = bench.steps(TournamentResult(config, ratings=[], head_to_head=pairs))
    assert [(s["over"], s["level"]) for s in steps] == list(itertools.pairwise(levels))
    by_pair = {(p["bot"], p["other"]): p for p in pairs}
    for step in steps:
        pair = by_pair[(step["over"], step["level"])]
        assert (step["won"], step["lost"], step["games"]) == (pair["losses"], pair["wins"], 60)
        assert step["rate"] == pytest.approx(pair["losses"] / 20)
        assert (step["ci_low"], step["ci_high"]) == pytest.approx(wilson_interval(pair["losses"], 20))
