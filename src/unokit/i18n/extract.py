"""Babel extraction methods for the catalogue keys (``make catalogs``; ``docs/i18n.md``).

Messages are keys (``event.play``), not English sentences, so the extractors look for keys:

* :func:`extract_keys` reads a Python, JavaScript or HTML file for keys written out where they
  are used: the first argument (a literal) of a call to ``t``, ``tn``, ``tr``, ``Line`` or ``N_`` (which
  marks a key chosen before it is said), either key of ``t(cond ? "a.b" : "a.c")``, and
  ``data-i18n="key"`` attributes;
* :func:`extract_registries` yields the keys that the engine's closed sets feed
  (:func:`unokit.i18n.keys.registry_keys`): one per event, decision, card, option, error, ...

A key starting with ``n.`` is a plural message (:func:`~unokit.i18n.keys.is_plural`): it is
extracted with a plural form, so that each catalogue gives every form its language has.
These functions follow Babel's interface for extraction methods and need nothing from Babel.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from .keys import is_plural, registry_keys

#: A key where it is used: a call of ``t``, ``tn``, ``tr``, ``Line`` or ``N_``, or ``data-i18n="..."``.
KEY_USE = re.compile(
    r"""(?:(?<![\w$])(?:t|tn|tr|Line|N_)\(\s*|data-i18n(?:-[a-z]+)?=)(["'])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\1"""
)

_KEY = r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+"
#: A key chosen between two where it is used: ``t(cond ? "key.one" : "key.two", ...)``.
KEY_CHOICE = re.compile(rf"""(?<![\w$])t\([^"'()]{{1,80}}\?\s*(["'])({_KEY})\1\s*:\s*(["'])({_KEY})\3""")

Extracted = tuple[int, str, str | tuple[str, str], list[str]]


#: The keywords to give Babel with these methods: a plural key comes as ``tn`` with two forms.
KEYWORDS = {"t": (1,), "tn": (1, 2)}


def _message(key: str) -> tuple[str, str | tuple[str, str]]:
    return ("tn", (key, key)) if is_plural(key) else ("t", key)


def keys_in(text: str) -> Iterator[tuple[int, str]]:
    """Every key used in ``text``, with its line number."""
    for match in KEY_USE.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, match.group(2)
    for match in KEY_CHOICE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        yield line, match.group(2)
        yield line, match.group(4)


def extract_keys(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel extraction method: the keys used in a source file (see the module docstring)."""
    text = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    for line, key in keys_in(text):
        yield line, *_message(key), []


def extract_registries(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel extraction method: the keys of the closed sets (the file itself is not read)."""
    for key in registry_keys():
        yield 0, *_message(key), []


__all__ = ["KEYWORDS", "KEY_USE", "extract_keys", "extract_registries", "keys_in"]
