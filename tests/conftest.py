"""Every test starts in English, whatever the machine's locale: the terminal's language is
reset, and ``LANGUAGE`` (read first, docs/i18n.md) says English to the commands a test runs.
Tests of other languages choose theirs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from unokit import i18n


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LANGUAGE", "en")
    i18n.use("en")
    yield
    i18n.use("en")
