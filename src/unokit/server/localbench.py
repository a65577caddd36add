"""What ``scripts/bench_offline.py`` measures inside the browser's Pyodide and, the same code,
in CPython: the engine's decisions a second, and the time of each bot level's decision. Run
in the offline worker (``static/js/offline-worker.js``, its ``bench`` message) and by the
script itself; each answers a JSON text."""

from __future__ import annotations

import json
import time

from .. import Game
from ..bots import make_bot
from ..bots.levels import LEVELS, for_people
from ..core.observation import View
from ..core.rng import Rng


def engine(seconds: float) -> str:
    """Random games of Classic for four for about ``seconds``: each decision lists the legal
    actions and applies one. Answer ``{"decisions": N, "seconds": S}``."""
    rng = Rng(1)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game, _ = Game.new("classic", 4, decisions)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(rng.choice(game.legal_actions(seat)), seat)
            decisions += 1
    return json.dumps({"decisions": decisions, "seconds": time.perf_counter() - start})


def bots(decisions: int) -> str:
    """Each level's bot (as an offline room seats it: with its habits, its fallback where its
    own needs numba) deciding ``decisions`` turns of 2-player Classic games from fixed seeds,
    against the normal level. Answer ``{level: {"bot": its class, "mean": s, "max": s}}``."""
    out: dict[str, dict[str, object]] = {}
    for level in LEVELS:
        bot = for_people(make_bot(level, 7), level)
        other = make_bot("normal", 8)
        times: list[float] = []
        seed = 0
        while len(times) < decisions:
            game, _ = Game.new("classic", 2, seed)
            bot.reset(0)
            other.reset(1)
            while not game.is_over and len(times) < decisions:
                seat = game.to_act
                assert seat is not None
                player = bot if seat == 0 else other
                start = time.perf_counter()
                action = player.act(View(game, seat))
                if seat == 0:
                    times.append(time.perf_counter() - start)
                game.apply(action, seat)
            seed += 1
        inner = bot.inner
        out[level] = {"bot": type(inner).__name__, "mean": sum(times) / len(times), "max": max(times)}
    return json.dumps(out)


__all__ = ["bots", "engine"]
