"""The catalogues at run time: :mod:`gettext` reading the compiled ``.mo`` files.

A :class:`Catalog` says a message key in one language: :meth:`Catalog.t` fills in its
``{name}`` placeholders, and a plural message (``cards.count``) picks its form by ``count``
with the language's plural rule (the ``Plural-Forms`` that Babel wrote from CLDR). A key a
catalogue lacks is said in English; the tests make sure no catalogue lacks one.
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

#: The languages players can choose, by code, each with its name in itself. Adding a language
#: is its catalogue (``locale/<code>/LC_MESSAGES/unokit.po``) and one entry here (docs/i18n.md).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "ru": "Русский",
    "pt-BR": "Português (Brasil)",
    "it": "Italiano",
    "tr": "Türkçe",
    "zh-Hans": "简体中文",
}
#: Language tags that name a language of :data:`LANGUAGES` by another tag (lower case): Chinese
#: as written in mainland China and Singapore is Simplified, and Portuguese without a region is
#: offered the Brazilian catalogue. Traditional Chinese (``zh-TW``, ``zh-Hant``, ``zh-HK``) is
#: not Simplified: it matches nothing, so the reader's next language (or English) is chosen.
ALIASES: dict[str, str] = {
    "zh": "zh-Hans",
    "zh-cn": "zh-Hans",
    "zh-sg": "zh-Hans",
    "zh-my": "zh-Hans",
    "zh-hans-cn": "zh-Hans",
    "zh-hans-sg": "zh-Hans",
    "pt": "pt-BR",
}
#: Chinese tags that are not Simplified Chinese: they never fall back to ``zh`` by their base.
TRADITIONAL = ("zh-hant", "zh-tw", "zh-hk", "zh-mo")
#: The language of every key, and the one that anything unknown falls back to.
DEFAULT = "en"
#: A pseudo-language for tests: every English message accented and 40% longer, so that text
#: left out of the catalogues and text that does not fit show at once. Not offered to players.
PSEUDO = "en-XA"
#: Where the catalogues are (inside the package, so an installed wheel has them).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "unokit"


def N_(key: str) -> str:
    """Marks a key for extraction where it is chosen rather than said at once (``N_("event.play")``)."""
    return key


def folder(code: str) -> str:
    """The gettext folder name of a language code: ``en-XA`` → ``en_XA``."""
    return code.replace("-", "_")


class Catalog:
    """The messages of one language (see the module docstring)."""

    def __init__(self, code: str, translations: gettext.NullTranslations, fallback: Catalog | None) -> None:
        self.code = code
        self._tr = translations
        self._fallback = fallback
        raw: Mapping[Any, str] = getattr(translations, "_catalog", {})
        #: The keys of plural messages (they take a ``count``).
        self.plural_keys: frozenset[str] = frozenset(k[0] for k in raw if isinstance(k, tuple))
        self.keys: frozenset[str] = frozenset(k for k in raw if isinstance(k, str) and k) | self.plural_keys

    def has(self, key: str) -> bool:
        return key in self.keys

    def text(self, key: str, count: int | None = None) -> str:
        """The message ``key`` unformatted (a plural one in its form for ``count``)."""
        if key not in self.keys:
            if self._fallback is not None:
                return self._fallback.text(key, count)
            return key
        if key in self.plural_keys:
            return self._tr.ngettext(key, key, 1 if count is None else count)
        return self._tr.gettext(key)

    def t(self, key: str, /, **params: Any) -> str:
        """The message ``key`` with its placeholders filled in; a plural message takes its form
        from ``count`` (which it may also show as ``{count}``)."""
        count = params.get("count")
        return self.fill(self.text(key, count if isinstance(count, int) else None), params)

    @staticmethod
    def fill(template: str, params: Mapping[str, Any]) -> str:
        """A message's text with its placeholders filled in from ``params`` (shown as given)."""
        if not params:
            return template
        try:
            return template.format_map(params)
        except (KeyError, IndexError, ValueError):
            return template  # a catalogue the tests would have refused; never a crash in play

    def join(self, items: Iterable[str]) -> str:
        """Items of a list, as the language separates them (``Ann, Bo``)."""
        return self.text(N_("list.separator")).join(items)

    def __repr__(self) -> str:
        return f"Catalog({self.code!r})"


#: The language of this process's terminal surfaces (the terminal game, the commands' output);
#: set once by the command line (:func:`use`). The server never uses it: each reader has theirs.
_CURRENT = [DEFAULT]


def use(code: str) -> str:
    """Make ``code`` (see :func:`match`) the language of the terminal surfaces; return it."""
    _CURRENT[0] = match([code])
    return _CURRENT[0]


def current() -> str:
    """The language of the terminal surfaces (:func:`use`; English until set)."""
    return _CURRENT[0]


def catalog(code: str | None = None) -> Catalog:
    """The :class:`Catalog` of language ``code`` (see :func:`match` for what it may be; ``None``:
    :func:`current`); an unknown language is English."""
    return _catalog(match([current() if code is None else code]))


@functools.cache
def _catalog(code: str) -> Catalog:
    fallback = None if code == DEFAULT else _catalog(DEFAULT)
    try:
        translations: gettext.NullTranslations = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[folder(code)])
    except OSError:
        translations = gettext.NullTranslations()
    return Catalog(code, translations, fallback)


def _tag(text: str) -> str:
    """A language tag or locale name, normalised: ``ru_RU.UTF-8`` → ``ru-ru``, ``C`` → ``c``."""
    return text.split(".", maxsplit=1)[0].split("@", maxsplit=1)[0].replace("_", "-").strip().lower()


def match(tags: Iterable[str]) -> str:
    """The first language of ``tags`` (``ru-RU``, ``ru_RU.UTF-8``, ``de``, ``en-XA``, ``zh-CN``)
    that unokit speaks, by its whole tag, an alias (:data:`ALIASES`) or its language alone
    (never Traditional Chinese as Simplified); :data:`DEFAULT` when none is."""
    known = {code.lower(): code for code in (*LANGUAGES, PSEUDO)} | ALIASES
    for raw in tags:
        tag = _tag(raw)
        if not tag:
            continue
        if tag in known:
            return known[tag]
        if tag.startswith(TRADITIONAL):
            continue
        base = tag.split("-")[0]
        if base in known:
            return known[base]
    return DEFAULT


#: The environment variables that name the language of messages, in the order gettext reads
#: them (``LANGUAGE`` may list several, separated by colons).
ENV_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def resolve(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of the terminal and the CLI: ``explicit`` (``--lang``) when given, else the
    first of :data:`ENV_VARIABLES` that is set (as gettext reads them); English when unknown."""
    if explicit:
        return match([explicit])
    env = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        value = env.get(name, "")
        if value:
            return match(value.split(":"))
    return DEFAULT


__all__ = [
    "ALIASES",
    "DEFAULT",
    "ENV_VARIABLES",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "PSEUDO",
    "Catalog",
    "catalog",
    "current",
    "match",
    "resolve",
    "use",
]
