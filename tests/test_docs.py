"""The examples in the documentation run and print what the docs say they print."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import unokit
from unokit.narration import describe

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", ["api.md", "formats.md", "fast.md"])
def test_documented_examples_run(name: str) -> None:
    result = doctest.testfile(
        str(DOCS / name),
        module_relative=False,
        globs={"unokit": unokit, "describe": describe},
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted > 0 or name == "formats.md"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in docs/{name} failed"
