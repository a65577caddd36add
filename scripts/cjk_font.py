"""Make the Chinese fonts the browser table serves (``make catalogs``; docs/i18n.md, "Chinese").

A page in Simplified Chinese needs a font with every character it shows, and a phone or a Linux
desktop may have none. The whole Noto Sans CJK SC (Debian's ``fonts-noto-cjk``) is some 16 MB
per weight, far too heavy for a page, so this script cuts out of it the characters the page can
show:

- ``unokit-sc.woff``: every character of the Chinese catalogue (``locale/zh_Hans``) and of its
  bot names, the CJK punctuation and the full-width forms (a few hundred kilobytes). The page
  asks for it only where its ``<html lang>`` is Chinese (``css/unokit.css``), and only for the
  CJK ranges (``unicode-range``), so a page in another language never downloads it.
- ``unokit-names.woff``: the characters of the languages' own names that no Latin or Cyrillic
  font has (``简体中文`` in the language menu of every page): a few kilobytes.

Characters outside the catalogue (a player's name, a chat line in Chinese) fall back to the
reader's own CJK fonts, named after this one in the style sheet. The fonts are WOFF (zlib, which
the standard library has; the browsers all read it) and are committed, so that a server needs no
font package; ``--check`` exits 1 when a committed font lacks a character its catalogue needs.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

import catalogs  # the script beside this one (its folder is on the path of a script run)
from unokit.i18n.catalog import LANGUAGES

#: Debian's fonts-noto-cjk: one collection of every CJK language's Noto Sans.
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
#: The face of the collection drawn for Simplified Chinese.
FAMILY = "Noto Sans CJK SC"
FONT_DIR = catalogs.PACKAGE / "server" / "static" / "fonts"
UI_FONT = FONT_DIR / "unokit-sc.woff"
NAMES_FONT = FONT_DIR / "unokit-names.woff"
#: The CJK code points the page may draw with these fonts (the style sheet's unicode-range):
#: CJK punctuation, the unified ideographs and the full-width forms.
RANGES = ((0x3000, 0x303F), (0x4E00, 0x9FFF), (0xFF00, 0xFFEF))


def is_cjk(ch: str) -> bool:
    return any(low <= ord(ch) <= high for low, high in RANGES)


#: Cut into the page's font besides the catalogue's characters: all CJK punctuation and the
#: full-width forms (those the source font has), which a player may type.
PUNCTUATION = frozenset(chr(c) for c in (*range(0x3000, 0x3040), *range(0xFF00, 0xFFF0)))


def ui_characters() -> set[str]:
    """Every CJK character of the Chinese catalogue."""
    wanted = {ch for message in catalogs.read("zh-Hans") if message.id for s in catalogs._strings(message) for ch in s}
    return {ch for ch in wanted if is_cjk(ch)}


def name_characters() -> set[str]:
    """The CJK characters of the languages' names in themselves (the language menu)."""
    return {ch for name in LANGUAGES.values() for ch in name if is_cjk(ch)}


def source_font() -> TTFont:
    if not SOURCE.exists():
        raise SystemExit(f"{SOURCE} is missing: install Debian's fonts-noto-cjk (make test does)")
    for font in TTCollection(str(SOURCE)).fonts:
        if font["name"].getDebugName(1) == FAMILY:
            return font
    raise SystemExit(f"{SOURCE} has no {FAMILY}")


def cut(characters: set[str]) -> bytes:
    """The source font with only ``characters`` (and what their layout needs), as WOFF."""
    font = source_font()
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(ch) for ch in characters))
    subsetter.subset(font)
    font.flavor = "woff"
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def covered(path: Path) -> set[str]:
    """The characters a committed font has."""
    if not path.exists():
        return set()
    return {chr(c) for c in TTFont(str(path)).getBestCmap()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed font lacks a character")
    args = parser.parse_args()
    wanted = {UI_FONT: ui_characters(), NAMES_FONT: name_characters()}
    extra = {UI_FONT: PUNCTUATION, NAMES_FONT: frozenset()}
    if args.check:
        lacking = {path: chars - covered(path) for path, chars in wanted.items()}
        for path, chars in lacking.items():
            if chars:
                print(f"{path.name} lacks {''.join(sorted(chars))} (run make catalogs)", file=sys.stderr)
        return 1 if any(lacking.values()) else 0
    FONT_DIR.mkdir(parents=True, exist_ok=True)
    for path, chars in wanted.items():
        has = covered(path)
        if chars <= has and {ch for ch in has if is_cjk(ch)} - extra[path] <= chars:
            continue  # unchanged: the committed file stays byte for byte
        path.write_bytes(cut(chars | extra[path]))
        print(f"{path.relative_to(catalogs.ROOT)}: {len(chars)} characters, {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
