"""``unokit eval`` (protocol unokit-eval/1): the same result twice on a tiny suite, in one process
or several; the time budget enforced on an external program and on an in-process bot; suites."""

from __future__ import annotations

import json
import shlex
import sys
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.eval.protocol import (
    BASELINES,
    PROTOCOL,
    EvalConfig,
    EvalError,
    load_suite,
    markdown_table,
    run_eval,
    stable_part,
    suite_names,
)

#: An external bot that plays the first legal action quickly for its first ``argv[1]``
#: decisions of each process, then takes five seconds over every later one.
SLOW_BOT = r"""
import json, sys, time

quick = int(sys.argv[1])
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "slow"}), flush=True)
    elif message["type"] == "act":
        if quick > 0:
            quick -= 1
        else:
            time.sleep(5)
        print(message["legal_actions"][0], flush=True)
    elif message["type"] == "quit":
        break
"""


def test_every_variant_has_suites_of_two_and_four_seats() -> None:
    names = suite_names()
    for variant in ("classic", "flip", "attack", "flip_attack", "flip_marvel"):
        assert f"{variant}-2" in names and f"{variant}-4" in names
    suite = load_suite("classic-2")
    assert suite.players == 2 and len(suite.deals) == 2000 and suite.hands == 4000
    assert len(set(suite.deals)) == len(suite.deals)
    assert suite.first(3).hash != suite.hash
    assert suite.first(3).hash == load_suite("classic-2").first(3).hash
    with pytest.raises(EvalError, match="no suite"):
        load_suite("classic-7")
    with pytest.raises(EvalError, match="2000 deals"):
        suite.first(5000)


def test_a_tiny_suite_gives_the_same_json_twice_and_in_two_processes() -> None:
    suite = load_suite("classic-2").first(2)
    config = EvalConfig(suite, "heuristic", ("random", "rlcard_rule"), round_robin=True, chunk=2)
    first = run_eval(config)
    again = run_eval(config)
    assert stable_part(first) == stable_part(again)
    parallel = run_eval(EvalConfig(suite, "heuristic", ("random", "rlcard_rule"), round_robin=True, chunk=2, workers=2))
    assert stable_part(parallel) == stable_part(first)
    assert first["protocol"] == PROTOCOL
    assert first["suite"]["hash"] == suite.hash
    assert [(m["agent"], m["opponent"]) for m in first["matches"]] == [
        ("heuristic", "random"),
        ("heuristic", "rlcard_rule"),
        ("random", "rlcard_rule"),
    ]
    for match in first["matches"]:
        assert match["hands"] == 4
        low, high = match["win_rate_ci95"]
        assert low <= match["win_rate"] <= high
        assert match["forfeits"] == 0
    assert {r["bot"] for r in first["ratings"]} == {"heuristic", "random", "rlcard_rule"}
    assert "machine" in first and "versions" in first and "time" in first["matches"][0]
    assert "machine" not in stable_part(first) and "time" not in stable_part(first)["matches"][0]
    table = markdown_table(first)
    assert "| `heuristic` | `random` | 4 |" in table and "OpenSkill" in table


def test_a_slow_external_bot_forfeits_at_its_deadline(tmp_path: Path) -> None:
    script = tmp_path / "slow_bot.py"
    script.write_text(SLOW_BOT, encoding="utf-8")
    agent = "external:" + shlex.join([sys.executable, str(script), "2"])
    suite = load_suite("classic-2").first(1)
    result = run_eval(EvalConfig(suite, agent, ("random",), budget_ms=300))
    match = result["matches"][0]
    assert match["hands"] == 2
    assert match["forfeits"] == 2 and match["wins"] == 0
    assert match["forfeit_reasons"] == ["external bot"]
    assert match["points_per_hand"] < 0
    # its quick answers were timed, the late one never counted as answered, but as over the budget
    assert match["time"]["decisions"] >= 2 and match["time"]["max_ms"] < 300
    assert match["time"]["over_budget"] == 2


def test_an_in_process_bot_over_its_budget_forfeits_every_hand() -> None:
    suite = load_suite("classic-2").first(1)
    result = run_eval(EvalConfig(suite, "heuristic", ("random",), budget_ms=0.0001))
    match = result["matches"][0]
    assert match["forfeits"] == 2 and match["win_rate"] == 0.0
    assert match["time"]["over_budget"] == 2
    assert match["forfeit_reasons"][0].startswith("a decision took")


def test_bad_specs_and_budgets_are_refused() -> None:
    suite = load_suite("classic-2").first(1)
    with pytest.raises(EvalError, match="unknown OpenSpiel bot"):
        run_eval(EvalConfig(suite, "openspiel:grandmaster", ("random",)))
    with pytest.raises(EvalError, match="budget"):
        run_eval(EvalConfig(suite, "heuristic", ("random",), budget_ms=0))


def test_the_command_writes_the_result_and_the_table(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    table = tmp_path / "table.md"
    args = ["eval", "rlcard_rule", "--suite", "attack-4", "--deals", "1", "--against", "random"]
    result = CliRunner().invoke(main, [*args, "--json", str(out), "--markdown", str(table), "--no-progress"])
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["suite"]["name"] == "attack-4" and saved["matches"][0]["hands"] == 4
    assert "| `rlcard_rule` | `random` | 4 |" in table.read_text(encoding="utf-8")
    bad = CliRunner().invoke(main, ["eval", "heuristic", "--suite", "nope", "--no-progress"])
    assert bad.exit_code == 2 and "no suite" in bad.output


def test_the_baselines_are_the_ladder_and_its_references() -> None:
    assert BASELINES[:3] == ("random", "rlcard_rule", "heuristic")
    assert {"beginner", "easy", "normal", "hard", "expert", "ismcts_fast"} <= set(BASELINES)


def test_a_policy_file_is_an_agent(tmp_path: Path) -> None:
    """``policy:FILE.onnx`` plays the suite (its file loaded once a process), the same twice."""
    import numpy as np

    from unokit.bots.policy import export_mlp
    from unokit.encoding import Encoding

    encoding = Encoding("classic", 2)
    rng = np.random.default_rng(3)
    weight = rng.normal(size=(encoding.num_actions, encoding.size)).astype(np.float32)
    path = tmp_path / "linear.onnx"
    export_mlp(path, [(weight, np.zeros(encoding.num_actions, np.float32))], variant="classic", players=2)
    config = EvalConfig(load_suite("classic-2").first(1), f"policy:{path}", ("random",))
    first = run_eval(config)
    assert stable_part(first) == stable_part(run_eval(config))
    match = first["matches"][0]
    assert match["hands"] == 2 and match["forfeits"] == 0 and match["time"]["decisions"] > 0
    assert "onnxruntime" in first["versions"]


#: An external bot that starts a child of its own (which would sleep for minutes), then
#: answers with the first legal action.
FORKING_BOT = r"""
import json, subprocess, sys

subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "forking"}), flush=True)
    elif message["type"] == "act":
        print(message["legal_actions"][0], flush=True)
    elif message["type"] == "quit":
        break
"""


def test_an_external_agents_own_children_are_stopped_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers import PROCESS_MARK, processes_outliving

    mark = f"eval-fork-{uuid.uuid4().hex}"
    monkeypatch.setenv(PROCESS_MARK, mark)
    script = tmp_path / "forking_bot.py"
    script.write_text(FORKING_BOT, encoding="utf-8")
    agent = "external:" + shlex.join([sys.executable, str(script)])
    result = run_eval(EvalConfig(load_suite("classic-2").first(1), agent, ("random",)))
    assert result["matches"][0]["forfeits"] == 0
    assert processes_outliving(mark) == [], "the bot's child outlived the evaluation"


def test_no_more_processes_than_work_and_workers_bounded_as_sim() -> None:
    from unokit.sim.runner import MAX_WORKERS

    suite = load_suite("classic-2").first(1)
    config = EvalConfig(suite, "random", ("random", "heuristic"), workers=16)
    assert config.processes(2) == 2 and config.processes(40) == 16
    for workers in (0, MAX_WORKERS + 1, 10**9):
        with pytest.raises(EvalError, match=f"from 1 to {MAX_WORKERS}"):
            run_eval(EvalConfig(suite, "random", ("random",), workers=workers))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--budget-ms", "nan"], "positive number of milliseconds, not nan"),
        (["--budget-ms", "inf"], "not inf"),
        (["--workers", "1000000000"], "from 1 to"),
        (["--against", ","], "at least one opponent"),
        (["--json", "a" * 300], "300 bytes long"),
    ],
)
def test_bad_options_are_one_line(args: list[str], said: str) -> None:
    result = CliRunner().invoke(main, ["eval", "random", "--deals", "1", "--against", "random", *args, "--no-progress"])
    assert result.exit_code == 2 and said in result.output, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_bad_suites_and_agents_are_one_line(tmp_path: Path) -> None:
    bad_option = {"format": "unokit-suite/1", "name": "x", "variant": "classic", "players": 2, "deals": [1]}
    cases: dict[str, tuple[str | bytes, str]] = {
        "options.json": (json.dumps({**bad_option, "options": {"stacking": "zz"}}), "option 'stacking'"),
        "deep.json": ("[" * 100_000, "nested too deeply"),
        "list.json": ("[1, 2]", "is not a unokit-suite/1 file"),
        "binary.json": (b"\xff\xfe", "cannot read the suite"),
    }
    for name, (text, said) in cases.items():
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, ["eval", "random", "--suite", str(path), "--no-progress"])
        assert result.exit_code == 2 and said in result.output, (name, result.output)
    for agent, said in (("external:", "external:<command>"), ("external:'a", "not a command line")):
        result = CliRunner().invoke(main, ["eval", agent, "--deals", "1", "--against", "random", "--no-progress"])
        assert result.exit_code == 2 and said in result.output, (agent, result.output)
