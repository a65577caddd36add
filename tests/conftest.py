"""Every test starts in English, whatever the machine's locale: the terminal's language is
reset, and ``LANGUAGE`` (read first, docs/i18n.md) says English to the commands a test runs.
Tests of other languages choose theirs.

Whatever a test process and the programs it starts write to the temporary folder (server logs
and databases, PostgreSQL clusters, browser profiles) goes to one folder of that process,
removed when its tests end: a run leaves nothing behind in /tmp."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from unokit import i18n


@pytest.fixture(scope="session", autouse=True)
def private_temporary_folder() -> Iterator[Path]:
    """``TMPDIR`` (for the programs the tests start) and ``tempfile``'s folder (for the tests)
    point to a fresh folder for the whole session; it is removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="unokit-tests-"))
    folder.chmod(0o711)  # others may pass through to a folder given to them (PostgreSQL's user)
    before_env, before = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"] = tempfile.tempdir = str(folder)
    try:
        yield folder
    finally:
        tempfile.tempdir = before
        if before_env is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = before_env
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LANGUAGE", "en")
    i18n.use("en")
    yield
    i18n.use("en")
