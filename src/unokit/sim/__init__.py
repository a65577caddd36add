"""The simulator and tournaments: many games between bots, with statistics, plots and ratings.

``run_sim(SimConfig(...))`` plays the games (in worker processes if asked) and returns a
:class:`SimResult`; ``run_tournament`` rates bots with OpenSkill. The command-line interface
is ``unokit sim`` and ``unokit tournament`` (:mod:`unokit.sim.commands`). Plotting
(matplotlib), ratings (openskill) and the progress bar (rich) are imported only when used.
"""

from __future__ import annotations

from .runner import SimConfig, SimResult, make_bot_spec, run_sim, wilson_interval

__all__ = ["SimConfig", "SimResult", "make_bot_spec", "run_sim", "wilson_interval"]
