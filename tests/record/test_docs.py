"""The examples of docs/records.md and docs/play.md do what the pages say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.play.scorekeeper import score
from unokit.record import Replay

DOCS = Path(__file__).resolve().parents[2] / "docs"


def blocks(name: str, language: str) -> list[str]:
    text = (DOCS / name).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def test_the_python_example_of_records_md_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (code,) = blocks("records.md", "python")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code, "docs/records.md", "exec"), namespace)
    assert (tmp_path / "game.json").is_file()
    replay = namespace["replay"]
    assert isinstance(replay, Replay) and len(replay) > 40


def test_the_score_example_of_play_md_prints_what_the_page_shows() -> None:
    example = next(b for b in blocks("play.md", "sh") if b.startswith("$ unokit score"))
    command, *shown = example.strip().splitlines()
    args = ["--variant", "flip_attack", "--side", "wild", command.split('"')[1]]
    assert command.startswith("$ unokit score --variant flip_attack --side wild ")
    result = CliRunner().invoke(score, args)
    assert result.output.splitlines() == shown
