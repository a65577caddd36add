"""Golden playthroughs: one seeded game per variant, diffed line by line against
``tests/golden/<variant>.jsonl``.

The lines are regenerated in memory by ``golden_lines`` of ``scripts/make_golden.py`` (the
same code that wrote the files). A difference means the engine now plays differently; if
that is intended, run ``make golden`` and review the diff of the golden files.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_script

HINT = "if the engine change is intended, run `make golden` and review the diff of tests/golden/"

_SCRIPT = load_script("make_golden")
golden_lines: Callable[[str], list[str]] = _SCRIPT.golden_lines
golden_path: Callable[[str], Path] = _SCRIPT.golden_path
VARIANT_NAMES: tuple[str, ...] = _SCRIPT.VARIANT_NAMES
MAX_BYTES: int = _SCRIPT.MAX_BYTES


def _short(value: Any, limit: int = 600) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + " ..."


def _describe(expected: str, actual: str) -> str:
    """Which fields of two JSON lines differ, with both values (shortened)."""
    try:
        old: dict[str, Any] = json.loads(expected)
        new: dict[str, Any] = json.loads(actual)
    except ValueError:
        return f"  stored: {expected[:600]}\n  now:    {actual[:600]}"
    parts = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            parts.append(f"  field {key!r}:\n    stored: {_short(old.get(key))}\n    now:    {_short(new.get(key))}")
    return "\n".join(parts)


def test_every_variant_has_a_golden_file() -> None:
    from unokit import VARIANTS

    assert set(VARIANT_NAMES) == set(VARIANTS)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_golden_playthrough(variant: str) -> None:
    path = golden_path(variant)
    if not path.exists():
        pytest.fail(f"{path} is missing; run `make golden` to create it")
    assert path.stat().st_size < MAX_BYTES, f"{path} is over {MAX_BYTES} bytes"
    stored = path.read_text(encoding="utf-8").splitlines()
    actual = golden_lines(variant)
    for number, (old, new) in enumerate(zip(stored, actual, strict=False), start=1):
        if old != new:
            pytest.fail(
                f"{path.name} line {number} (the first difference) no longer matches the "
                f"engine:\n{_describe(old, new)}\n{HINT}",
                pytrace=False,
            )
    assert len(actual) == len(stored), (
        f"{path.name}: the engine's playthrough has {len(actual)} lines, the file {len(stored)}; {HINT}"
    )


def test_golden_lines_are_deterministic() -> None:
    """Two runs in one process give the same lines (no hidden global state)."""
    assert golden_lines("flip_attack") == golden_lines("flip_attack")
