"""``--backend ray`` on a real local Ray instance: the same results as local workers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.sim.distributed import quiet_ray
from unokit.sim.runner import SimConfig, run_sim
from unokit.sim.tournament import TournamentConfig, run_tournament


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    import ray  # imported first, as a library imported earlier (Tianshou) may have done

    quiet_ray()  # no usage reports; workers run this interpreter, not `uv run`, under `make test`

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_the_uv_run_hook_is_off_even_when_ray_was_imported_first(local_ray: None) -> None:
    """Under ``make test`` (``uv run``) the hook made every worker fail to start (CI)."""
    from ray._private import ray_constants

    assert ray_constants.RAY_ENABLE_UV_RUN_RUNTIME_ENV is False


def test_a_simulation_on_ray_equals_local_workers(local_ray: None) -> None:
    for engine, bots in (("reference", ("heuristic", "random")), ("fast", ("rlcard_rule", "random"))):
        local = SimConfig(bots=bots, games=60, seed=4, workers=2, hands_only=True, keep_games=True, engine=engine)
        on_ray = SimConfig(**{**local.__dict__, "backend": "ray"})
        expected = run_sim(local)
        got = run_sim(on_ray)
        assert got.tally == expected.tally
        assert got.to_dict(timing=False)["bots"] == expected.to_dict(timing=False)["bots"]


def test_a_tournament_on_ray_equals_local_workers(local_ray: None) -> None:
    local = TournamentConfig(bots=("random", "rlcard_rule", "heuristic"), games=20, seed=3, hands_only=True)
    expected = run_tournament(local)
    got = run_tournament(TournamentConfig(**{**local.__dict__, "backend": "ray"}))
    assert got.ratings == expected.ratings and got.tables == expected.tables


def test_the_command_line_joins_the_running_ray(local_ray: None, tmp_path: Path) -> None:
    out = tmp_path / "ray.json"
    args = ["sim", "--bots", "random,rlcard_rule", "--games", "40", "--hands-only", "--quiet", "--seed", "8"]
    result = CliRunner().invoke(main, [*args, "--backend", "ray", "--json", str(out)])
    assert result.exit_code == 0, result.output
    local = tmp_path / "local.json"
    assert CliRunner().invoke(main, [*args, "--json", str(local)]).exit_code == 0
    assert json.loads(out.read_text())["bots"] == json.loads(local.read_text())["bots"]
    refused = CliRunner().invoke(main, [*args, "--address", "127.0.0.1:6379"])
    assert refused.exit_code == 2 and "--backend ray" in refused.output
