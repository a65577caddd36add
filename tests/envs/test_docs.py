"""docs/envs.md shows the action table and observation layout the code actually uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from unokit.encoding import Encoding

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


@pytest.mark.parametrize("variant", ["classic", "flip", "attack", "flip_attack"])
def test_docs_hold_the_generated_tables(variant: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert Encoding(variant, 2).markdown() in text, f"regenerate the {variant} tables in docs/envs.md"
