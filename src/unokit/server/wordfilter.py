"""The word filter a host may give to names and chat (``unokit serve --word-filter FILE``).

A host-supplied list, none by default: one entry a line (blank lines and lines starting with
``#`` are skipped), a word or several (``some phrase``), matched as whole words; an entry
ending in ``*`` matches every word that starts with it (``foo*``: ``foo``, ``foobar``). Text
and entries are compared as people read them, not as they are encoded: NFKC-normalized
(fullwidth letters, ligatures), case-folded, without accents and other marks (``Fôô`` is
``foo``), and split into words at anything that is neither a letter nor a digit (``f.o.o`` is
three words, so a spaced-out word is not caught: the filter keeps the words a host lists out of
names and chat, and leaves judging the rest to reports). A name or a chat line holding an
entry is refused (``filtered``) with nothing of the list in the answer.

The filter in force is :data:`ACTIVE`, set once at start (:func:`use_word_filter`), as the
offered policies are (:func:`unokit.server.room.offer_policies`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

#: The most entries a list may have, and the longest entry (characters).
MOST_ENTRIES = 100_000
LONGEST_ENTRY = 200

_SPLIT = re.compile(r"[\W_]+")


def words_of(text: str) -> list[str]:
    """``text`` as the filter reads it: its words, normalized, folded and without marks."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded) if unicodedata.category(ch) not in ("Mn", "Me"))
    return [word for word in _SPLIT.split(bare) if word]


class WordFilter:
    """A list of entries (see the module docstring); empty, it allows everything."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self._exact: dict[str, list[tuple[str, ...]]] = {}  # first word -> entries starting with it
        self._prefixes: list[tuple[str, ...]] = []  # entries whose last word is a prefix
        self.size = 0
        for entry in entries:
            text = entry.strip()
            if not text or text.startswith("#"):
                continue
            prefix = text.endswith("*")
            words = tuple(words_of(text.rstrip("*")))
            if not words:
                continue
            self.size += 1
            if prefix:
                self._prefixes.append(words)
            else:
                self._exact.setdefault(words[0], []).append(words)

    def __bool__(self) -> bool:
        return self.size > 0

    def refuses(self, text: str) -> bool:
        """Whether ``text`` holds an entry of the list."""
        if not self.size:
            return False
        words = words_of(text)
        for start, word in enumerate(words):
            for entry in self._exact.get(word, ()):
                if tuple(words[start : start + len(entry)]) == entry:
                    return True
            for entry in self._prefixes:
                end = start + len(entry)
                whole = end <= len(words) and words[start : end - 1] == list(entry[:-1])
                if whole and words[end - 1].startswith(entry[-1]):
                    return True
        return False


def load_word_filter(path: Path) -> WordFilter:
    """The list in ``path`` (UTF-8 text); raise ``ValueError`` naming what is wrong with it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--word-filter: cannot read {path}: {exc}") from None
    if len(lines) > MOST_ENTRIES:
        raise ValueError(f"--word-filter: {path} has {len(lines)} lines; at most {MOST_ENTRIES}")
    for number, line in enumerate(lines, start=1):
        if len(line) > LONGEST_ENTRY:
            raise ValueError(f"--word-filter: line {number} of {path} is longer than {LONGEST_ENTRY} characters")
    found = WordFilter(lines)
    if not found:
        raise ValueError(f"--word-filter: {path} lists no word")
    return found


#: The filter in force, in a list of one (empty unless the host gave one).
ACTIVE = [WordFilter()]


def use_word_filter(chosen: WordFilter) -> None:
    """Make ``chosen`` the filter in force for names and chat."""
    ACTIVE[0] = chosen


def refused(text: str) -> bool:
    """Whether the filter in force refuses ``text``."""
    return ACTIVE[0].refuses(text)


__all__ = ["ACTIVE", "WordFilter", "load_word_filter", "refused", "use_word_filter", "words_of"]
