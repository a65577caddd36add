"""Extract, update and compile the message catalogues (``make catalogs``; ``docs/i18n.md``).

1. Babel extracts every key (:mod:`unokit.i18n.extract`) into ``src/unokit/locale/unokit.pot``.
2. Each language's catalogue, ``src/unokit/locale/<lang>/LC_MESSAGES/unokit.po`` (the single
   source of truth for that language), is updated from it: new keys come in empty, keys no
   longer used go; each message carries the English text as a comment for translators.
3. Each catalogue is compiled to ``unokit.mo`` (read with :mod:`gettext` at run time) and to
   ``src/unokit/server/static/i18n/<lang>.json`` for the browser, whose plural messages are
   keyed by CLDR category (``one``, ``few``, ``many``, ``other``) for ``Intl.PluralRules``; each
   language's CLDR number symbols go to ``src/unokit/locale/numbers.json``
   (:mod:`unokit.i18n.numbers`).
4. The pseudo-language ``en-XA`` (accented English, 40% longer) is compiled from English.

``--compile`` does steps 3 and 4 only; ``--check`` compiles into memory and exits 1 when a
committed compiled file differs from what its catalogue gives.
"""

from __future__ import annotations

import argparse
import gettext
import io
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po
from babel.numbers import get_decimal_symbol, get_group_symbol, get_minus_sign_symbol

from unokit.i18n.catalog import DOMAIN, LANGUAGES, LOCALE_DIR, PSEUDO, folder
from unokit.i18n.extract import KEYWORDS
from unokit.i18n.lines import param_types
from unokit.i18n.numbers import NUMBERS_FILE

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "unokit"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
JSON_DIR = PACKAGE / "server" / "static" / "i18n"
#: Where keys are found: Babel's method map over ``src/unokit`` (first match wins).
METHOD_MAP = [
    ("i18n/keys.py", "unokit.i18n.extract:extract_registries"),
    ("i18n/extract.py", "ignore"),  # its docstrings show the patterns with made-up keys
    ("**.py", "unokit.i18n.extract:extract_keys"),
    ("server/static/**.js", "unokit.i18n.extract:extract_keys"),
    ("server/static/**.html", "unokit.i18n.extract:extract_keys"),
]
#: Fixed header dates, so that a catalogue changes only when its messages do.
STAMP = datetime(2025, 1, 1, tzinfo=UTC)


def po_path(code: str) -> Path:
    return LOCALE_DIR / folder(code) / "LC_MESSAGES" / f"{DOMAIN}.po"


def _new_catalog(code: str | None) -> Catalog:
    catalog = Catalog(
        locale=None if code is None else Locale.parse(folder(code)),
        domain=DOMAIN,
        project="unokit",
        version="",
        copyright_holder="unokit developers",
        msgid_bugs_address="",
        creation_date=STAMP,
        revision_date=STAMP,
        language_team="",
        last_translator="",
        charset="utf-8",
        fuzzy=False,
    )
    return catalog


def _write_po(catalog: Catalog, path: Path) -> None:
    catalog.creation_date = STAMP
    catalog.revision_date = STAMP
    catalog.fuzzy = False
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, no_location=True, omit_header=False, sort_output=True, ignore_obsolete=True)
    text = buffer.getvalue().decode("utf-8")
    # Babel stamps the library's own version in the header: leave it out, so that an update of
    # Babel alone changes no catalogue.
    text = "\n".join(line for line in text.split("\n") if not line.startswith('"Generated-By:'))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def extract() -> Catalog:
    """Every key, from the sources and the closed sets."""
    template = _new_catalog(None)
    for _file, _line, message, _comments, _context in extract_from_dir(str(PACKAGE), METHOD_MAP, {}, keywords=KEYWORDS):
        template.add(message)
    return template


def update(template: Catalog) -> None:
    """Bring every language's catalogue up to ``template`` (see the module docstring)."""
    english: dict[str, Any] = {}
    for code in LANGUAGES:
        path = po_path(code)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=folder(code), domain=DOMAIN)
        else:
            catalog = _new_catalog(code)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        for message in catalog:
            if not message.id:
                continue
            message.locations = []
            message.flags.discard("fuzzy")
            if code == "en":
                english[_key(message)] = message.string
            else:
                text = english.get(_key(message))
                shown = text if isinstance(text, str) else " | ".join(text or ())
                message.auto_comments = [f"en: {shown}"] if shown else []
        _write_po(catalog, path)


def _key(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple | list) else str(message.id)


def read(code: str) -> Catalog:
    with po_path(code).open("rb") as handle:
        return read_po(handle, locale=folder(code), domain=DOMAIN)


def cldr_forms(code: str) -> dict[str, int]:
    """Which gettext plural form each CLDR category of the language takes: gettext's formula
    and CLDR's rules are compared on whole numbers; a category no whole number takes (``other``
    in Russian: fractions) takes the last form."""
    locale = Locale.parse(folder(code))
    formula = gettext.c2py(get_plural(locale).plural_expr)
    forms: dict[str, int] = {}
    for n in range(0, 1001):
        category = locale.plural_form(n)
        form = formula(n)
        if forms.setdefault(category, form) != form:
            raise ValueError(f"{code}: gettext and CLDR disagree on {n}")
    last = get_plural(locale).num_plurals - 1
    for category in (*sorted(locale.plural_form.tags), "other"):
        forms.setdefault(category, last)
    return forms


def to_json(code: str, catalog: Catalog) -> str:
    """The browser's catalogue: every message by key, a plural one by CLDR category."""
    forms = cldr_forms("en" if code == PSEUDO else code)
    messages: dict[str, Any] = {}
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            strings = _strings(message)
            messages[_key(message)] = {category: strings[index] for category, index in sorted(forms.items())}
        else:
            messages[str(message.id)] = message.string
    body = {"language": code, "params": param_types(), "messages": dict(sorted(messages.items()))}
    return json.dumps(body, ensure_ascii=False, indent=0, sort_keys=False) + "\n"


def to_mo(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


_ACCENTS = str.maketrans("aceinouyAEIOUCNY", "àçéîñöüýÀÉÎÖÜÇÑÝ")


def pseudo_text(text: str) -> str:
    """``text`` accented and 40% longer, its ``{placeholders}`` kept as they are."""
    out, depth = [], 0
    for ch in text:
        if ch == "{":
            depth += 1
        if depth:
            out.append(ch)
        else:
            out.append(ch.translate(_ACCENTS))
        if ch == "}":
            depth = max(0, depth - 1)
    letters = sum(1 for ch in text if ch.isalpha())
    pad = "~" * max(1, round(letters * 0.4)) if text else ""
    return f"[{''.join(out)}{pad}]" if text else text


#: Messages that are lists of names (one word each, apart by spaces), not sentences: the
#: pseudo-language accents each name and marks none, so that the lists still split into names.
NAME_LISTS = frozenset({"play.bot_names", "room.bot_names"})


def pseudo(english: Catalog) -> Catalog:
    catalog = _new_catalog("en")
    catalog.locale = Locale.parse("en")
    for message in english:
        if not message.id:
            continue
        if message.id in NAME_LISTS:
            catalog.add(message.id, " ".join(name.translate(_ACCENTS) for name in str(message.string).split()))
            continue
        said = [pseudo_text(s) for s in _strings(message)]
        catalog.add(message.id, tuple(said) if isinstance(message.id, tuple | list) else said[0])
    return catalog


#: CLDR's ``minimumGroupingDigits`` where it is not 1 (Spanish and Italian write 1000, 10.000):
#: Babel does not read it; the browser's ``Intl.NumberFormat`` does (a test compares them).
MIN_GROUPING_DIGITS = {"es": 2, "it": 2}


def numbers_json() -> str:
    """Every language's number symbols from Babel's CLDR data (:mod:`unokit.i18n.numbers`)."""
    table = {}
    for code in LANGUAGES:
        locale = Locale.parse(folder(code))
        grouping = locale.decimal_formats[None].grouping[0]
        table[code] = {
            "decimal": get_decimal_symbol(locale),
            "group": get_group_symbol(locale),
            "minus": get_minus_sign_symbol(locale),
            "group_size": grouping,
            "min_grouping": MIN_GROUPING_DIGITS.get(code, 1),
        }
    return json.dumps(table, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def compiled() -> dict[Path, bytes]:
    """Every compiled file (``.mo`` and JSON of each language and of the pseudo-language) and
    its content, from the catalogues."""
    out: dict[Path, bytes] = {}
    for code in LANGUAGES:
        catalog = read(code)
        out[po_path(code).with_suffix(".mo")] = to_mo(catalog)
        out[JSON_DIR / f"{code}.json"] = to_json(code, catalog).encode("utf-8")
    fake = pseudo(read("en"))
    out[po_path(PSEUDO).with_suffix(".mo")] = to_mo(fake)
    out[JSON_DIR / f"{PSEUDO}.json"] = to_json(PSEUDO, fake).encode("utf-8")
    out[NUMBERS_FILE] = numbers_json().encode("utf-8")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compile", action="store_true", help="compile only (no extraction or update)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a compiled file is out of date")
    args = parser.parse_args()
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, data in compiled().items() if not p.exists() or p.read_bytes() != data]
        for stale_path in stale:
            print(f"out of date: {stale_path} (run make catalogs)", file=sys.stderr)
        return 1 if stale else 0
    if not args.compile:
        template = extract()
        _write_po(template, TEMPLATE)
        update(template)
    for path, data in compiled().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    empty = {code: sum(1 for m in read(code) if m.id and not _filled(m)) for code in LANGUAGES}
    print(
        "catalogues: " + ", ".join(f"{code} {n} untranslated" if n else f"{code} complete" for code, n in empty.items())
    )
    return 0


def _strings(message: Message) -> list[str]:
    """The texts of a message: one, or one per plural form."""
    raw = message.string
    if isinstance(raw, tuple | list):
        return [str(s or "") for s in raw]
    return [str(raw or "")]


def _filled(message: Message) -> bool:
    return all(_strings(message))


__all__ = ["JSON_DIR", "compiled", "extract", "get_plural", "po_path", "read"]


if __name__ == "__main__":
    raise SystemExit(main())
