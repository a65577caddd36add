"""Duplicate scoring (:mod:`unokit.sim.duplicate`) against the worked example of docs/arena.md,
and the duplicate figure of ``unokit eval``'s matches (:func:`unokit.eval.protocol.duplicate_figure`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.eval.protocol import EvalConfig, Hand, duplicate_figure, load_suite, run_eval
from unokit.sim.duplicate import DuplicateScore, SeatResult, duplicate_scores, matchpoints

DOC = Path(__file__).resolve().parents[2] / "docs" / "arena.md"

#: docs/arena.md, "Duplicate scoring": one deal of three seats at three tables, seats rotated.
#: (table, seat) -> (entry, score)
EXAMPLE = {
    (1, 0): ("A", 30),
    (1, 1): ("B", -10),
    (1, 2): ("C", -20),
    (2, 0): ("B", -5),
    (2, 1): ("C", 25),
    (2, 2): ("A", -20),
    (3, 0): ("C", -8),
    (3, 1): ("A", -12),
    (3, 2): ("B", 20),
}


def _example() -> list[SeatResult]:
    return [SeatResult(1, seat, entry, float(score)) for (_, seat), (entry, score) in EXAMPLE.items()]


def test_the_worked_example_scores_as_the_doc_says() -> None:
    results = _example()
    points = dict(zip(EXAMPLE, matchpoints(results), strict=True))
    assert points[(1, 0)] == (2.0, 2)  # A's +30 beats B's -5 and C's -8
    assert points[(2, 0)] == (1.0, 2)  # B's -5 beats C's -8 only
    assert points[(3, 0)] == (0.0, 2)
    assert points[(3, 1)] == (0.0, 2)  # A's -12 is below B's -10 and C's +25
    assert points[(1, 2)] == (0.5, 2) and points[(2, 2)] == (0.5, 2)  # C and A tie at -20
    assert duplicate_scores(results) == [
        DuplicateScore("B", 4.0, 6, 3),
        DuplicateScore("A", 2.5, 6, 3),
        DuplicateScore("C", 2.5, 6, 3),
    ]
    percents = [round(s.percent or 0.0, 2) for s in duplicate_scores(results)]
    assert percents == [66.67, 41.67, 41.67]
    doc = DOC.read_text(encoding="utf-8")
    for row in ("| B | 1 + 1 + 2 = 4 | 6 | 66.67% |", "| A | 2 + 0 + ½ = 2½ | 6 | 41.67% |"):
        assert row in doc, f"docs/arena.md lost the example's row {row}"


def test_a_forfeit_ranks_below_every_played_result_and_ties_another() -> None:
    results = [
        SeatResult(0, 0, "A", 50.0, forfeit=True),  # its score is not compared
        SeatResult(0, 0, "B", -90.0),
        SeatResult(0, 0, "C", 0.0, forfeit=True),
    ]
    assert matchpoints(results) == [(0.5, 2), (2.0, 2), (0.5, 2)]


def test_a_board_held_once_scores_nobody() -> None:
    scores = duplicate_scores([SeatResult(0, 0, "A", 5.0), SeatResult(0, 1, "B", 1.0), SeatResult(0, 1, "C", 2.0)])
    assert scores[-1] == DuplicateScore("A", 0.0, 0, 0)
    assert scores[-1].percent is None and scores[-1].to_json()["percent"] is None
    assert [s.entry for s in scores] == ["C", "B", "A"]


def test_the_eval_figure_compares_the_agent_with_the_opponent_seat_by_seat() -> None:
    # Two seats, two deals: the agent held seat 0 of deal 0 (won +12), the opponent held it at
    # the other rotation (lost, -7) ... each board is the agent's result against the opponent's.
    hands = [
        Hand(0, 0, 1.0, 12.0, seat_points=[12.0, -12.0]),
        Hand(0, 1, 0.0, -7.0, seat_points=[20.0, -7.0]),  # seat 0 of deal 0 held by B: +20 > +12
        Hand(1, 0, 0.0, -3.0, seat_points=[-3.0, 3.0]),
        Hand(1, 1, 0.0, 3.0, forfeit="an illegal action: x", seat_points=[]),  # seat 1: A forfeits
    ]
    figure = duplicate_figure(hands)
    # deal 0 seat 0: A +12 vs B +20 -> 0; deal 0 seat 1: A -7 vs B -12 -> 1;
    # deal 1 seat 0: A -3 vs nobody (the forfeited hand's B seat is not compared) -> no board;
    # deal 1 seat 1: A's forfeit vs B's +3 -> 0.
    assert figure == {"matchpoints": 1.0, "top": 3, "boards": 3, "percent": pytest.approx(33.3333)}


def test_eval_reports_each_matchs_duplicate_score_in_json_and_markdown(tmp_path: Path) -> None:
    suite = load_suite("classic-2").first(12)
    result = run_eval(EvalConfig(suite, "heuristic", ("random",)))
    (match,) = result["matches"]
    figure = match["duplicate"]
    assert figure["top"] == figure["boards"] == 24  # every seat of every deal, held once by each
    assert 0 <= figure["matchpoints"] <= 24
    assert figure["percent"] > 50  # the heuristic beats random on the same cards
    out = tmp_path / "r.json"
    ran = CliRunner().invoke(
        main, ["eval", "heuristic", "--against", "random", "--deals", "3", "--no-progress", "--json", str(out)]
    )
    assert ran.exit_code == 0, ran.output
    assert "| Duplicate |" in ran.output
    written = json.loads(out.read_text(encoding="utf-8"))["matches"][0]["duplicate"]
    assert written["top"] == 6 and f"{written['percent']:.1f}%" in ran.output
