"""Simulations on a Ray cluster (``--backend ray``, extra ``ray``).

The games are cut into the same chunks as for local workers; each chunk is one Ray task that
plays its games with :func:`unokit.sim.runner.play_games` and returns its tally, and the
tallies are added in chunk order, so the results are identical to a local run with the same
seed. With ``address`` the run joins that cluster (``ray start --head`` elsewhere); without, it
starts a private local Ray instance with ``workers`` CPUs and stops it afterwards. Ray's usage
reporting is turned off (nothing leaves the machine), and so is its ``uv run`` hook, which would
start each worker through ``uv run`` and try to resolve packages: the workers run the
interpreter and the installed packages of this process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .runner import SimConfig, Tally


def quiet_ray() -> None:
    """Turn off Ray's usage reporting and its ``uv run`` worker hook (unless set otherwise).

    Ray reads the hook's switch once, when it is first imported; where something imported Ray
    earlier (Tianshou does, for its own Ray workers), the switch Ray already read is turned off
    too, so the workers still run this interpreter instead of trying ``uv run``.
    """
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    constants = sys.modules.get("ray._private.ray_constants")
    if constants is not None and os.environ["RAY_ENABLE_UV_RUN_RUNTIME_ENV"].lower() in ("0", "false"):
        constants.RAY_ENABLE_UV_RUN_RUNTIME_ENV = False  # type: ignore[attr-defined]


def _play_chunk(config: SimConfig, start: int, stop: int) -> Tally:
    """One Ray task: games ``start`` to ``stop - 1``, then the external bots it started stop."""
    from .runner import close_external_bots, play_games

    try:
        return play_games(config, start, stop)
    finally:
        close_external_bots()


def tallies_on_ray(config: SimConfig, chunks: list[tuple[int, int]]) -> Iterator[Tally]:
    """Play ``chunks`` of ``config`` as Ray tasks; yield their tallies in chunk order."""
    quiet_ray()
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        if config.address:
            ray.init(address=config.address, log_to_driver=False)
        else:
            ray.init(num_cpus=config.processes(), include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(_play_chunk)
        pending = [task.remote(config, start, stop) for start, stop in chunks]
        for ref in pending:  # in chunk order: the tallies' game records are ordered
            yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()
