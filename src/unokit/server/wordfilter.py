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

The list is built once, at start, into a trie of words (:class:`_Node`): each node is a sequence
of words some entries start with; a prefix entry's last word is kept in a trie of characters at
the node of the words before it. A line is checked by walking the trie from each of its words,
so its cost grows with the line (at most :data:`~.chat.MAX_TEXT` characters) times the words of
the longest entry (at most :data:`MOST_WORDS`), never with the list's size: with 10,000 prefix
entries a chat line costs what it costs with one, microseconds, which is why it is checked where
the line is read, on the event loop (a thread's hand-off would cost more). A list may have at
most :data:`MOST_ENTRIES` lines of :data:`LONGEST_ENTRY` characters and :data:`MOST_WORDS`
words each; a longer one is refused at start, naming the limit.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: The most entries a list may have, the longest entry (characters), its most words.
MOST_ENTRIES = 100_000
LONGEST_ENTRY = 200
MOST_WORDS = 10

_SPLIT = re.compile(r"[\W_]+")


def words_of(text: str) -> list[str]:
    """``text`` as the filter reads it: its words, normalized, folded and without marks."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded) if unicodedata.category(ch) not in ("Mn", "Me"))
    return [word for word in _SPLIT.split(bare) if word]


_END = ""  # the key of a character trie's node that ends a prefix (no word holds "")


class _Node:
    """The words some entries start with: ``ends`` when an entry is these words; ``next`` the
    nodes one word further; ``prefixes`` a character trie of the last words of the prefix
    entries that start with these words."""

    __slots__ = ("ends", "next", "prefixes")

    def __init__(self) -> None:
        self.ends = False
        self.next: dict[str, _Node] = {}
        self.prefixes: dict[str, Any] | None = None

    def add_prefix(self, word: str) -> None:
        node = self.prefixes = self.prefixes if self.prefixes is not None else {}
        for ch in word:
            node = node.setdefault(ch, {})
        node[_END] = True

    def prefix_of(self, word: str) -> bool:
        """Whether a prefix kept here starts ``word``."""
        node = self.prefixes
        if node is None:
            return False
        for ch in word:
            if _END in node:
                return True
            found = node.get(ch)
            if found is None:
                return False
            node = found
        return _END in node


class WordFilter:
    """A list of entries (see the module docstring); empty, it allows everything. Raises
    ``ValueError`` for an entry of more than :data:`MOST_WORDS` words."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self._root = _Node()
        self.size = 0
        for entry in entries:
            text = entry.strip()
            if not text or text.startswith("#"):
                continue
            prefix = text.endswith("*")
            words = tuple(words_of(text.rstrip("*")))
            if not words:
                continue
            if len(words) > MOST_WORDS:
                raise ValueError(f"the entry {text[:40]!r} has {len(words)} words; at most {MOST_WORDS}")
            self.size += 1
            node = self._root
            for word in words[:-1]:
                node = node.next.setdefault(word, _Node())
            if prefix:
                node.add_prefix(words[-1])
            else:
                node.next.setdefault(words[-1], _Node()).ends = True

    def __bool__(self) -> bool:
        return self.size > 0

    def refuses(self, text: str) -> bool:
        """Whether ``text`` holds an entry of the list (in time linear in ``text``)."""
        if not self.size:
            return False
        words = words_of(text)
        for start in range(len(words)):
            node = self._root
            for word in words[start : start + MOST_WORDS]:
                if node.prefix_of(word):
                    return True
                found = node.next.get(word)
                if found is None:
                    break
                if found.ends:
                    return True
                node = found
        return False


def load_word_filter(path: Path) -> WordFilter:
    """The list in ``path`` (UTF-8 text); raise ``ValueError`` naming what is wrong with it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--word-filter: cannot read {path}: {exc}") from None
    if len(lines) > MOST_ENTRIES:
        raise ValueError(
            f"--word-filter: {path} has {len(lines)} lines; a list may have at most {MOST_ENTRIES} (one entry a line)"
        )
    for number, line in enumerate(lines, start=1):
        if len(line) > LONGEST_ENTRY:
            raise ValueError(f"--word-filter: line {number} of {path} is longer than {LONGEST_ENTRY} characters")
    try:
        found = WordFilter(lines)
    except ValueError as exc:
        raise ValueError(f"--word-filter: {path}: {exc}") from None
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


__all__ = [
    "ACTIVE",
    "MOST_ENTRIES",
    "MOST_WORDS",
    "WordFilter",
    "load_word_filter",
    "refused",
    "use_word_filter",
    "words_of",
]
