"""The ``unokit`` command itself: ``demo``, and words printed for people."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.clickopts import format_options, program
from unokit.narration import plural


def demo(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["demo", *args])
    return result.exit_code, result.output


def test_demo_rounds_mean_what_the_rounds_option_means() -> None:
    code, one = demo("--seed", "3")
    assert code == 0 and "Rounds: 1" in one.splitlines()[0] and one.count("— Round ") == 1
    code, whole = demo("--seed", "3", "--rounds", "none")
    assert code == 0 and "Rounds: none" in whole.splitlines()[0] and "Game over" in whole
    assert demo("--seed", "3", "--option", "rounds=none")[1] == whole
    assert demo("--seed", "3", "--rounds", "2")[1] == demo("--seed", "3", "--option", "rounds=2")[1]


@pytest.mark.parametrize("args", [["--rounds", "0"], ["--option", "rounds=0"]])
def test_zero_rounds_is_refused_either_way(args: list[str]) -> None:
    code, output = demo(*args)
    assert code == 2 and "Rounds must be at least 1" in output


def test_two_different_numbers_of_rounds_are_refused() -> None:
    code, output = demo("--rounds", "2", "--option", "rounds=3")
    assert code == 2 and "--rounds 2 and --option rounds=3 disagree" in output
    assert demo("--rounds", "2", "--option", "rounds=2")[0] == 0


def test_options_are_printed_as_they_are_written() -> None:
    code, output = demo("--variant", "attack", "--option", "launcher=scripted", "--option", "launcher_script=0,1,0,2")
    first = output.splitlines()[0]
    assert first == (
        "UNO Attack, 4 players, seed 1; "
        "Scoring: the winner scores; Target score: 500; Rounds: 1; Launcher: scripted; Launcher script: [0,1,0,2]"
    )
    # four presses do not last a game: the demo stops with the reason, not a traceback
    assert code == 1 and "Error: The game stopped at Seat" in output
    assert "The scripted launcher has played all 4 presses of its script" in output
    assert format_options({"stacking": True, "rounds": None}) == "stacking=true, rounds=none"


def test_counts_read_as_words() -> None:
    assert [plural(n, "game") for n in (0, 1, 2, 12_000)] == ["0 games", "1 game", "2 games", "12,000 games"]
    assert plural(1, "body", "bodies") == "1 body" and plural(3, "body", "bodies") == "3 bodies"


def test_the_command_printed_for_people_works_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a game, ``unokit play`` prints how to replay it: ``unokit`` only when that is the
    program on PATH; after ``make run`` (not on PATH) the path from the current folder."""
    project = tmp_path / "my games"
    folder = project / ".venv" / "bin"
    folder.mkdir(parents=True)
    program_file = folder / "unokit"
    program_file.write_text("#!/bin/sh\n")
    program_file.chmod(0o755)
    monkeypatch.chdir(project)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    for argv0 in (str(program_file), ".venv/bin/unokit"):
        monkeypatch.setattr(sys, "argv", [argv0])
        assert program() == ".venv/bin/unokit"
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")
    assert program() == "unokit"
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setattr(sys, "argv", [str(program_file)])
    monkeypatch.chdir(tmp_path)
    assert program() == "'my games/.venv/bin/unokit'"  # quoted: the path has a space
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert program() == f"'{program_file}'"
    monkeypatch.setattr(sys, "argv", ["/usr/lib/python3/dist-packages/pytest"])
    assert program() == "unokit"
