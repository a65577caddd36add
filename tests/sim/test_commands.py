"""``unokit sim`` and ``unokit tournament`` from the command line: every output path checked
before the first game, a missing extra named before any work, Ctrl-C that keeps the games
played so far, and numbers printed for people."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.sim.commands import _duration, _rate
from unokit.sim.runner import MAX_WORKERS, SimConfig

from .support import bot_spec

SIM = ["sim", "--variant", "classic", "--games", "4", "--hands-only", "--quiet"]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("option", ["--json", "--csv", "--plot"])
def test_an_output_path_that_cannot_be_used_stops_the_command_before_any_game(tmp_path: Path, option: str) -> None:
    started = tmp_path / "bot-started"
    bots = f"{bot_spec(tmp_path, started)},random"
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    code, output = invoke(*SIM, "--bots", bots, option, str(blocker / "results"))
    assert code == 2, output
    assert f"Invalid value for {option}:" in output and "is a file, not a folder" in output
    assert not started.exists()  # no game was played: the external bot never started
    assert blocker.read_text() == "not a folder\n"


def test_a_file_option_refuses_a_folder_and_a_folder_option_refuses_a_file(tmp_path: Path) -> None:
    code, output = invoke(*SIM, "--bots", "random,random", "--json", str(tmp_path))
    assert code == 2 and "is a folder; name a file" in output
    (tmp_path / "plots").write_text("")
    code, output = invoke(*SIM, "--bots", "random,random", "--plot", str(tmp_path / "plots"))
    assert code == 2 and "is a file, not a folder" in output


def test_every_output_creates_its_missing_folders(tmp_path: Path) -> None:
    json_path, csv_path, plots = tmp_path / "a/b/r.json", tmp_path / "c/d/r.csv", tmp_path / "e/f"
    code, output = invoke(
        *SIM, "--bots", "heuristic,random", "--json", str(json_path), "--csv", str(csv_path), "--plot", str(plots)
    )
    assert code == 0, output
    assert json.loads(json_path.read_text())["summary"]["games"] == 4
    assert [row["label"] for row in csv.DictReader(csv_path.open())] == ["heuristic", "random"]
    assert sorted(p.name for p in plots.iterdir()) == ["round_lengths.png", "round_points.png", "win_rates.png"]
    for path in (json_path, csv_path, plots / "win_rates.png"):
        assert f"wrote {path}" in output
    code, output = invoke(
        "tournament", "--bots", "heuristic,random", "--games", "2", "--quiet", "--json", str(tmp_path / "t/r.json")
    )
    assert code == 0, output
    assert json.loads((tmp_path / "t/r.json").read_text())["interrupted"] is False


def test_the_tournament_checks_its_json_path_first(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    code, output = invoke(
        "tournament", "--bots", "heuristic,random", "--games", "2", "--json", str(tmp_path / "f/x.json")
    )
    assert code == 2 and "Invalid value for --json:" in output


@pytest.mark.parametrize("command", ["sim", "tournament"])
@pytest.mark.parametrize("limit", ["-1", "0"])
def test_the_time_limit_must_be_positive(command: str, limit: str) -> None:
    code, output = invoke(command, "--bots", "random,heuristic", "--games", "1", "--time-limit", limit)
    assert code == 2 and "Invalid value for '--time-limit'" in output


def test_workers_and_games_are_bounded() -> None:
    """More workers than the run has chunks of games start no more processes than chunks (2
    games, 2 processes, and the summary says so); a number of workers or games past the
    bounds is refused by name before anything starts, whatever its size."""
    for workers, games, named in [
        (MAX_WORKERS + 1, 2, f"the number of workers must be from 1 to {MAX_WORKERS}, not {MAX_WORKERS + 1}"),
        (10**40, 2, "the number of workers must be from 1 to 256, not 1000000000000"),
        (0, 2, "the number of workers must be from 1 to 256, not 0"),
        (1, 10**40, "the number of games must be from 1 to 1,000,000,000, not 1000000000000"),
    ]:
        with pytest.raises(ValueError, match=re.escape(named)):
            SimConfig(bots=("random", "random"), workers=workers, games=games).validate()
    assert SimConfig(bots=("random", "random"), workers=64, games=2).processes() == 2
    assert SimConfig(bots=("random", "random"), workers=2, games=1000).processes() == 2
    code, output = invoke(*SIM, "--bots", "random,random", "--games", "2", "--workers", "64")
    assert code == 0 and "with 2 workers" in output, output
    code, output = invoke(*SIM, "--bots", "random,random", "--workers", str(10**40))
    assert code == 2 and "the number of workers must be from 1 to 256" in output, output
    code, output = invoke("tournament", "--bots", "random,rlcard_rule", "--games", "2", "--workers", "1000")
    assert code == 2 and "the number of workers must be from 1 to 256, not 1000" in output, output


def test_the_summary_reads_as_text(tmp_path: Path) -> None:
    code, output = invoke(*SIM, "--bots", "heuristic,random", "--option", "stacking=true", "--option", "bluffing=false")
    assert code == 0, output
    first = output.splitlines()[0]
    assert first == "classic, 2 players, 4 games (single hands), seed 1, options stacking=true, bluffing=false"
    assert re.search(r"^[\d.]+ m?s: [\d.,]+ games/s, [\d.,]+ decisions/s with 1 worker$", output, re.MULTILINE), output
    code, output = invoke("sim", "--bots", "random,random", "--games", "1", "--quiet", "--hands-only")
    assert output.splitlines()[0] == "classic, 2 players, 1 game (single hands), seed 1"


def test_times_and_speeds_keep_their_digits() -> None:
    assert [_duration(x) for x in (0.0001, 0.0042, 0.31, 6.54, 125.0)] == ["0.1 ms", "4 ms", "310 ms", "6.5 s", "125 s"]
    assert [_rate(x) for x in (0.25, 0.4, 3.71, 42.49, 618.4, 56273.2)] == [
        "0.25",
        "0.4",
        "3.71",
        "42.5",
        "618",
        "56,273",
    ]


def test_each_entry_of_an_external_bot_runs_its_own_program(tmp_path: Path) -> None:
    started = tmp_path / "started"
    spec = bot_spec(tmp_path, started)
    code, output = invoke(*SIM, "--bots", f"{spec},{spec}")
    assert code == 0, output
    assert len(set(started.read_text().split())) == 2


# ----------------------------------------------------------------------- a missing extra

#: Runs the unokit command as if some optional packages were not installed.
WITHOUT = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
from unokit.cli import main
main(sys.argv[2:], prog_name="unokit")
"""


def run_without(modules: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, modules, *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_missing_extra_is_named_before_any_game(tmp_path: Path) -> None:
    started = tmp_path / "bot-started"
    bots = f"{bot_spec(tmp_path, started)},random"
    done = run_without("rich,openskill,matplotlib,textual", *SIM, "--bots", bots, "--json", str(tmp_path / "r.json"))
    assert done.returncode == 1
    assert "unokit sim needs the optional 'sim' extra, which is not installed (missing: rich)" in done.stderr
    assert "Traceback" not in done.stderr
    assert not started.exists() and not (tmp_path / "r.json").exists()
    plots = run_without("matplotlib", *SIM, "--bots", "random,random", "--plot", str(tmp_path / "p"))
    assert plots.returncode == 1 and "(missing: matplotlib)" in plots.stderr
    rated = run_without("rich,openskill", "tournament", "--bots", "random,heuristic", "--games", "2")
    assert rated.returncode == 1 and "unokit tournament needs the optional 'sim' extra" in rated.stderr
    assert "(missing: rich, openskill)" in rated.stderr
    played = run_without("textual", "play", "--bots", "random", "--players", "2")
    assert played.returncode == 1 and "unokit play needs the optional 'play' extra" in played.stderr


# ----------------------------------------------------------------------- Ctrl-C


def run_until_interrupted(args: list[str], prelude: str = "") -> tuple[int, str, str]:
    """Run ``unokit ARGS`` as a terminal starts a command: in its own process group, with
    Ctrl-C's default handling (a test run in the background may inherit it ignored);
    ``prelude`` is Python run first."""
    code = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        f"{prelude}\n"
        "from unokit.cli import main\n"
        "main(sys.argv[1:], prog_name='unokit')\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out, err


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_cleanly_and_keeps_the_games_played(tmp_path: Path, workers: int) -> None:
    """The bot presses Ctrl-C (SIGINT to the whole process group, as a terminal does) after
    its 1500th decision (about 30 games in); the run stops, reports and writes the games
    finished before it. With one worker that number is fixed by the seed; with two, it counts
    the chunks of games back from the workers at that moment."""
    spec = bot_spec(tmp_path, tmp_path / "started", interrupt_after=1500)
    json_path, csv_path = tmp_path / "out/r.json", tmp_path / "out/r.csv"
    args = ["sim", "--bots", f"{spec},random", "--games", "400", "--hands-only", "--workers", str(workers)]
    args += ["--json", str(json_path), "--csv", str(csv_path), "--quiet"]
    returncode, out, err = run_until_interrupted(args)
    assert (tmp_path / "started.sent").exists(), err
    assert returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    played = json.loads(json_path.read_text())
    games = played["summary"]["games"]
    assert played["interrupted"] is True and played["config"]["games"] == 400
    assert 0 < games < 400 if workers == 1 else 0 <= games < 400
    assert f"Interrupted: {games:,} of 400 games finished" in err
    assert f"{games:,} of 400 games (single hands; interrupted)" in out
    assert sum(row["wins"] for row in played["bots"]) == pytest.approx(games)
    assert [int(row["games"]) for row in csv.DictReader(csv_path.open())] == [games, games]


#: Presses Ctrl-C again as the charts start being written (an impatient person).
CTRL_C_WHILE_PLOTTING = """
import os
import unokit.sim.plots as plots
drawing = plots.write_plots
def impatient(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    return drawing(*args, **kwargs)
plots.write_plots = impatient
"""


def test_a_second_ctrl_c_waits_until_the_charts_of_the_games_played_are_written(tmp_path: Path) -> None:
    spec = bot_spec(tmp_path, tmp_path / "started", interrupt_after=300)
    plots = tmp_path / "plots"
    args = ["sim", "--bots", f"{spec},random", "--games", "400", "--hands-only", "--plot", str(plots), "--quiet"]
    returncode, out, err = run_until_interrupted(args, CTRL_C_WHILE_PLOTTING)
    assert returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err
    assert sorted(path.name for path in plots.iterdir()) == ["round_lengths.png", "round_points.png", "win_rates.png"]
    assert f"wrote {plots / 'win_rates.png'}" in out and "(single hands; interrupted)" in out
    assert re.search(r"Interrupted: \d+ of 400 games finished", err)


def test_a_tournament_heads_its_table_by_table_win_rates() -> None:
    code, output = invoke(
        "tournament", "--bots", "heuristic,rlcard_rule,random", "--games", "2", "--hands-only", "--quiet"
    )
    assert code == 0, output
    lines = output.splitlines()
    heading = lines.index("Win rates at each table:")
    assert [line.count("%") for line in lines[heading + 1 : heading + 4]] == [2, 2, 2]
    assert "%" not in lines[heading - 1]  # right under the ratings table


def test_ctrl_c_stops_a_tournament_with_the_ratings_of_the_games_played(tmp_path: Path) -> None:
    spec = bot_spec(tmp_path, tmp_path / "started", interrupt_after=1500)
    json_path = tmp_path / "t.json"
    args = ["tournament", "--bots", f"heuristic,{spec},random", "--games", "200", "--hands-only", "--quiet"]
    returncode, out, err = run_until_interrupted([*args, "--json", str(json_path)])
    assert returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    played = json.loads(json_path.read_text())
    games = sum(table["games"] for table in played["tables"])
    assert played["interrupted"] is True and 0 < games < 3 * 200
    assert f"Interrupted: {games:,} of 600 games finished" in err
    assert f"Interrupted: the ratings count the {games:,} games finished." in out
    assert sum(row["games"] for row in played["ratings"]) == 2 * games  # two bots a game


def _deck_without_wilds(tmp_path: Path) -> Path:
    from unokit import deck_cards

    path = tmp_path / "no-wilds.deck"
    path.write_text("\n".join(card for card in deck_cards("classic") if "wild" not in card), encoding="utf-8")
    return path


def test_sim_plays_the_cards_of_a_deck_file(tmp_path: Path) -> None:
    """``--deck FILE``: a Classic deck without its wild cards; no Wild Draw Four ever makes
    anyone draw, where the standard deck's does in the same games. The options line names
    the file, not its 100 lines; the JSON keeps the whole text."""
    args = ["sim", "--bots", "random,random", "--games", "30", "--hands-only", "--quiet", "--effects"]
    standard = tmp_path / "standard.json"
    code, output = invoke(*args, "--json", str(standard))
    assert code == 0, output
    assert "wild_draw_four" in {row["effect"] for row in json.loads(standard.read_text())["effects"]}
    deck = _deck_without_wilds(tmp_path)
    own = tmp_path / "own.json"
    code, output = invoke(*args, "--deck", str(deck), "--json", str(own))
    assert code == 0, output
    assert "deck=<file>" in output and "red 1" not in output
    results = json.loads(own.read_text())
    assert results["config"]["options"]["deck"] == deck.read_text(encoding="utf-8")
    assert "wild_draw_four" not in {row["effect"] for row in results["effects"]}
    assert results["summary"]["games"] == 30


@pytest.mark.parametrize("command", ["sim", "tournament"])
def test_a_deck_file_that_cannot_be_read_stops_the_command(tmp_path: Path, command: str) -> None:
    args = [command, "--bots", "random,heuristic", "--games", "2", "--hands-only", "--quiet"]
    binary = tmp_path / "binary.deck"
    binary.write_bytes(b"\xff\xfe red 1")
    code, output = invoke(*args, "--deck", str(binary))
    assert code == 2 and "Invalid value for --deck: cannot read the deck file" in output, output
    bad = tmp_path / "bad.deck"
    bad.write_text("red 1\nred 1/pink 3\n", encoding="utf-8")
    code, output = invoke(*args, "--deck", str(bad))
    assert code == 2 and "deck line 2" in output, output


def test_a_tournament_plays_the_cards_of_a_deck_file(tmp_path: Path) -> None:
    deck = _deck_without_wilds(tmp_path)
    out = tmp_path / "t.json"
    args = ["tournament", "--bots", "random,heuristic", "--games", "4", "--hands-only", "--quiet"]
    code, output = invoke(*args, "--deck", str(deck), "--json", str(out))
    assert code == 0, output
    assert "deck=<file>" in output and "red 1" not in output
    assert json.loads(out.read_text())["config"]["options"]["deck"] == deck.read_text(encoding="utf-8")


def test_the_levels_are_bot_names_of_sim_and_tournament(tmp_path: Path) -> None:
    """People's names for bots work in scripts too: a level plays as its engine's bot does."""
    code, output = invoke(*SIM, "--bots", "beginner,expert", "--json", str(tmp_path / "sim.json"))
    assert code == 0, output
    rows = json.loads((tmp_path / "sim.json").read_text())["bots"]
    assert [row["label"] for row in rows] == ["beginner", "expert"]
    code, output = invoke(
        "tournament", "--bots", "easy,normal,hard", "--games", "2", "--hands-only", "--quiet",
        "--json", str(tmp_path / "t.json"),
    )  # fmt: skip
    assert code == 0, output
    ratings = json.loads((tmp_path / "t.json").read_text())["ratings"]
    assert sorted(row["bot"] for row in ratings) == ["easy", "hard", "normal"]
    assert all(row["games"] == 4 for row in ratings)  # three tables of two, two games each
    code, output = invoke(*SIM, "--bots", "normal,grandmaster")
    assert code == 2 and "unknown bot 'grandmaster'; levels are beginner, easy, normal, hard, expert" in output
