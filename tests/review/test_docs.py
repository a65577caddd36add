"""The Python example of docs/review.md runs, on a game still in progress."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from unokit.bots.advice import Advice
from unokit.record import RecordingGame, save_record
from unokit.review import Review

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_python_example_of_review_md_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (code,) = re.findall(r"```python\n(.*?)```", (DOCS / "review.md").read_text(encoding="utf-8"), flags=re.DOTALL)
    game, _ = RecordingGame.new("classic", 2, seed=3, rounds=1)
    for _ in range(6):
        game.apply(game.legal_actions()[-1])
    save_record(game.to_record(), tmp_path / "game.json")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code.replace('effort="normal"', 'effort="low"'), "docs/review.md", "exec"), namespace)
    assert isinstance(namespace["review"], Review)
    advice = namespace["advice"]
    assert isinstance(advice, Advice) and advice.seat == game.to_act and advice.step == 6
