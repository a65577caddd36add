"""Every word a player reads, in the player's language (standard library only at run time).

One gettext catalogue per language is the single source of truth
(``src/unokit/locale/<lang>/LC_MESSAGES/unokit.po``); ``make catalogs`` extracts the keys
with Babel, updates every catalogue, and compiles each to the ``.mo`` file read here with
:mod:`gettext` and to the JSON file the browser reads (``docs/i18n.md``). Messages are keys
such as ``event.play`` with Python-format ``{name}`` placeholders; a plural message picks its
form by its ``{count}`` with the language's CLDR rules.

* :data:`LANGUAGES`: the languages, by code, with their own names: adding a language is one
  catalogue file and one entry there;
* :func:`catalog` (a :class:`Catalog` for a language) and :func:`resolve` (the language of the
  terminal and the CLI: ``--lang``, then ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``);
* :mod:`.lines`: messages as codes with parameters (:class:`~.lines.Line`), and how each kind
  of parameter is shown (a seat by its name, a card by its title in the reader's language);
* :mod:`.keys`: the keys that the engine's closed sets feed (one per event, decision, option,
  card, colour, error, ...).
"""

from __future__ import annotations

from .catalog import DEFAULT, LANGUAGES, N_, PSEUDO, Catalog, catalog, current, match, resolve, use

__all__ = ["DEFAULT", "LANGUAGES", "N_", "PSEUDO", "Catalog", "catalog", "current", "match", "resolve", "use"]
