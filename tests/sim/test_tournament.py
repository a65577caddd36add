"""Tournaments: formats, OpenSkill ratings and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.sim.tournament import TournamentConfig, _ranks, run_tournament


def test_formats_list_the_right_tables() -> None:
    bots = ("a", "b", "c", "d")
    assert TournamentConfig(bots=bots).tables() == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert TournamentConfig(bots=bots, players=3, format="gauntlet").tables() == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    assert TournamentConfig(bots=bots, format="free-for-all").tables() == [(0, 1, 2, 3)]
    with pytest.raises(ValueError, match="each bot once"):
        TournamentConfig(bots=("a", "a")).tables()
    with pytest.raises(ValueError, match="unknown tournament format"):
        TournamentConfig(format="swiss").tables()


def test_ranks_put_winners_first_then_scores() -> None:
    assert _ranks((1,), (0, 90, 0), higher_is_better=True) == [2, 1, 2]
    assert _ranks((2,), (40, 10, 0), higher_is_better=False) == [3, 2, 1]
    assert _ranks((0, 1), (5, 5, 9), higher_is_better=False) == [1, 1, 3]


def test_a_round_robin_rates_the_strong_bot_first() -> None:
    config = TournamentConfig(bots=("random", "heuristic", "rlcard_rule"), games=16, seed=3, hands_only=True)
    result = run_tournament(config)
    order = [row["bot"] for row in result.ratings]
    assert order[-1] == "random"
    assert all(row["games"] == 32 for row in result.ratings)
    best = result.ratings[0]
    assert best["ordinal"] == pytest.approx(best["mu"] - 3 * best["sigma"])
    assert len(result.tables) == 3
    again = run_tournament(TournamentConfig(**{**config.__dict__, "workers": 2}))
    assert [(r["bot"], round(r["mu"], 9)) for r in again.ratings] == [
        (r["bot"], round(r["mu"], 9)) for r in result.ratings
    ]


def test_the_command_line(tmp_path: Path) -> None:
    out = CliRunner().invoke(
        main,
        [
            "tournament",
            "--bots",
            "heuristic,random",
            "--games",
            "6",
            "--hands-only",
            "--json",
            str(tmp_path / "t.json"),
        ],
    )
    assert out.exit_code == 0, out.output
    assert "ordinal" in out.output and "heuristic" in out.output
    data = json.loads((tmp_path / "t.json").read_text())
    assert {row["bot"] for row in data["ratings"]} == {"heuristic", "random"}


def test_head_to_head_counts_the_games_one_of_the_two_won() -> None:
    """At one table of three, the first bot's head-to-head wins over the second are its wins
    (a hand has one winner), its losses the second's wins; the interval holds the rate."""
    bots = ("heuristic", "rlcard_rule", "random")
    config = TournamentConfig(bots=bots, games=30, seed=5, hands_only=True, format="free-for-all")
    result = run_tournament(config)
    won = {row["bot"]: round(row["wins"]) for row in result.ratings}
    assert [(p["bot"], p["other"]) for p in result.head_to_head] == [
        ("heuristic", "rlcard_rule"),
        ("heuristic", "random"),
        ("rlcard_rule", "random"),
    ]
    for pair in result.head_to_head:
        assert pair["games"] == 30
        assert (pair["wins"], pair["losses"]) == (won[pair["bot"]], won[pair["other"]])
        assert pair["rate"] == pair["wins"] / (pair["wins"] + pair["losses"])
        assert pair["ci_low"] <= pair["rate"] <= pair["ci_high"]
    assert result.to_dict()["head_to_head"] == result.head_to_head
