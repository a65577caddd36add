"""Every test of the terminal game saves its records in its own temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def records_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "records"
    monkeypatch.setenv("UNOKIT_RECORDS", str(folder))
    return folder
