"""The host's word filter (:mod:`unokit.server.wordfilter`): built once at start into a trie, a
line checked in time that grows with the line, not with the list (counted in the lines of the
filter's code run, not in seconds), the same answers as an entry-by-entry reading, and a list
over the documented caps refused at start, naming the cap."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from unokit.server import wordfilter
from unokit.server.wordfilter import MOST_ENTRIES, MOST_WORDS, WordFilter, load_word_filter, words_of

from .support import UNOKIT

LINE = "hello there friends, what a lovely game of cards this is today " * 7  # about 450 characters


def _steps(words: WordFilter, text: str) -> int:
    """How many lines of the filter's module run while ``words`` checks ``text``."""
    steps = 0

    def trace(frame: FrameType, event: str, _arg: Any) -> Any:
        nonlocal steps
        if frame.f_code.co_filename == wordfilter.__file__:
            if event == "line":
                steps += 1
            return trace
        return None

    sys.settrace(trace)
    try:
        words.refuses(text)
    finally:
        sys.settrace(None)
    return steps


def test_a_line_costs_the_same_with_ten_thousand_prefix_entries_as_with_ten() -> None:
    """A stranger's chat line against 10,000 ``word*`` entries: the check walks the line, not
    the list. Trying every prefix entry at every word of the line (as the filter did) ran about
    a thousand times as many lines of code as with ten entries."""
    rng = random.Random(7)
    letters = "qxzjvk"  # words none of the line's start with

    def entries(count: int) -> list[str]:
        return [f"{''.join(rng.choice(letters) for _ in range(6))}{i}*" for i in range(count)]

    small, large = WordFilter(entries(10)), WordFilter(entries(10_000))
    assert large.size == 10_000 and not large.refuses(LINE)
    assert _steps(large, LINE) <= 2 * _steps(small, LINE), (_steps(small, LINE), _steps(large, LINE))


def _read_by_entry(entries: list[str], text: str) -> bool:
    """The filter's contract read literally: some entry's words appear in a row in ``text``."""
    words = words_of(text)
    for entry in entries:
        prefix, wanted = entry.endswith("*"), words_of(entry.rstrip("*"))
        for start in range(len(words) - len(wanted) + 1):
            seen = words[start : start + len(wanted)]
            if seen[:-1] == wanted[:-1] and (seen[-1].startswith(wanted[-1]) if prefix else seen[-1] == wanted[-1]):
                return True
    return False


def test_the_trie_answers_as_the_entries_read_one_by_one() -> None:
    rng = random.Random(11)
    vocabulary = ["ab", "abc", "b", "ba", "cab", "abca", "c"]
    for _ in range(300):
        entries = [
            " ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 3))) + ("*" if rng.random() < 0.4 else "")
            for _ in range(rng.randint(1, 4))
        ]
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 6)))
        assert WordFilter(entries).refuses(text) == _read_by_entry(entries, text), (entries, text)


def test_a_list_over_the_caps_is_refused_at_start_naming_the_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("\n".join(f"word{i}*" for i in range(MOST_ENTRIES + 1)), encoding="utf-8")
    with pytest.raises(ValueError, match=f"at most {MOST_ENTRIES}"):
        load_word_filter(big)
    long = tmp_path / "long.txt"
    long.write_text("fine\n" + " ".join(["on"] * (MOST_WORDS + 1)) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"at most {MOST_WORDS}"):
        load_word_filter(long)
    served = subprocess.run(
        [UNOKIT, "serve", "--database", f"sqlite:///{tmp_path / 'x.db'}", "--word-filter", str(big)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert served.returncode != 0 and f"at most {MOST_ENTRIES}" in served.stderr, served.stderr[-2000:]
    assert "Traceback" not in served.stderr
