"""Compiling the kernels once, ahead of use: after an install or an upgrade numba's on-disk cache
is empty, and the first search would compile every function it calls (a minute or more of CPU
on a small machine). :func:`compile_kernels` runs the searches of the bots and of the reviews on
small positions, so that numba compiles them into its cache (``cache=True``; ``NUMBA_CACHE_DIR``
moves it) and every later process loads them in about a second. ``unokit compile`` runs it;
``make setup`` and the test targets call that (``docs/fast.md``, "Compiling ahead")."""

from __future__ import annotations

from collections.abc import Callable

#: What is compiled: a table (variant, players) whose search takes each path of the kernels:
#: 2-player Classic weighs the belief over the opponent's hand, 4-player UNO Flip does not.
TABLES: tuple[tuple[str, int], ...] = (("classic", 2), ("flip", 4))
#: Search iterations of each warm-up (enough to reach every function; the figures are dropped).
ITERATIONS = 16


def compile_kernels(say: Callable[[str], None] | None = None) -> list[str]:
    """At each of :data:`TABLES`: a game between ``random`` bots, estimated as a review does at
    every decision of seat 0 (the belief over the opponent's hand takes both its exact and its
    sampled form as the hands shrink), and a move of each level that searches on the kernel
    (``hard``, ``expert``), compiling what they call into numba's cache; ``say(table)`` before
    each. Returns the tables warmed. ``ImportError`` without numba."""
    from ..bots import make_bot
    from ..bots.advice import Advisor, Effort
    from ..bots.runner import play_game
    from ..core.observation import View
    from ..record import RecordingGame
    from ..record.replay import start_game

    effort = Effort("warm", ITERATIONS, ITERATIONS, 8, 8)
    done = []
    for variant, players in TABLES:
        if say is not None:
            say(f"{variant}, {players} players")
        game, _ = RecordingGame.new(variant, players, 1, rounds=1)
        play_game(game, [make_bot("random", seat) for seat in range(players)])
        record = game.to_record()
        start, setup = start_game(record)
        advisor = Advisor(0, effort, 0)
        for stop in advisor.walk(start, record.actions, setup):
            if stop.decision:
                advisor.evaluate(stop.view, stop.index)
        fresh, _ = start_game(record)
        seat = fresh.to_act
        assert seat is not None
        for level in ("hard", "expert"):  # the levels that search on the kernel
            bot = make_bot(level, 0)
            bot.reset(seat)
            bot.act(View(fresh, seat))
        done.append(f"{variant}/{players}")
    return done


__all__ = ["ITERATIONS", "TABLES", "compile_kernels"]
