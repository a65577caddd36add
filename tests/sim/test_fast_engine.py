"""``unokit sim --engine fast``: the same games and the same results as the reference engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.sim.runner import SimConfig, run_sim
from unokit.sim.tournament import TournamentConfig, run_tournament


@pytest.mark.parametrize(
    ("variant", "bots", "options"),
    [
        ("classic", ("random", "rlcard_rule"), ()),
        ("classic", ("random", "random", "random", "rlcard_rule"), (("stacking", "true"), ("bluffing", "false"))),
        ("flip", ("rlcard_rule", "random", "rlcard_rule"), (("stacking", "true"),)),
        ("attack", ("random", "rlcard_rule", "random", "random"), ()),
        ("flip_attack", ("rlcard_rule", "rlcard_rule", "random"), (("scoring", "loser"),)),
    ],
)
def test_the_fast_engine_gives_the_reference_results(
    variant: str, bots: tuple[str, ...], options: tuple[tuple[str, str], ...]
) -> None:
    base = SimConfig(
        variant=variant,
        players=len(bots),
        bots=bots,
        games=80,
        seed=5,
        options=options,
        hands_only=True,
        keep_games=True,
    )
    reference = run_sim(base)
    fast = run_sim(SimConfig(**{**base.__dict__, "engine": "fast", "workers": 2}))
    expected = reference.to_dict(timing=False)
    got = fast.to_dict(timing=False)
    assert got.pop("config")["engine"] == "fast"
    expected.pop("config")
    assert got == expected
    assert fast.tally.records == reference.tally.records
    assert fast.tally.decisions > 80 * 10


def test_a_tournament_on_the_fast_engine_rates_like_the_reference() -> None:
    base = TournamentConfig(bots=("random", "rlcard_rule"), games=40, seed=2, hands_only=True)
    reference = run_tournament(base)
    fast = run_tournament(TournamentConfig(**{**base.__dict__, "engine": "fast"}))
    assert fast.ratings == reference.ratings
    assert fast.tables == reference.tables


def test_the_command_line_takes_the_engine_and_refuses_what_it_cannot_play(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "fast.json"
    result = runner.invoke(
        main,
        [
            "sim",
            "--bots",
            "random,rlcard_rule",
            "--games",
            "30",
            "--hands-only",
            "--engine",
            "fast",
            "--json",
            str(out),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["config"]["engine"] == "fast"
    for args, message in (
        (["--bots", "random,heuristic", "--hands-only"], "heuristic"),
        (["--bots", "random,random"], "--hands-only"),
        (["--bots", "random,random", "--hands-only", "--effects"], "effects"),
        (["--bots", "random,random", "--hands-only", "--option", "wild_counts_as_color_match=true"], "wild_counts"),
    ):
        result = runner.invoke(main, ["sim", "--games", "5", "--engine", "fast", *args])
        assert result.exit_code == 2 and message in result.output, result.output
