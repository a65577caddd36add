"""The key map that the terminal game and the browser table share (:mod:`unokit.keys`): the
commands both surfaces have use the same keys, the terminal's help lists it, and docs/play.md's
table is the map itself."""

from __future__ import annotations

import re
from pathlib import Path

from unokit.i18n.catalog import catalog
from unokit.keys import BOTH, KEYMAP, catalog_keys
from unokit.play.help import KEYS

DOCS = Path(__file__).resolve().parent.parent / "docs"

#: Textual's names of the keys whose browser name differs (KeyboardEvent.key, lower-cased).
TEXTUAL_NAMES = {"left": "arrowleft", "right": "arrowright", "up": "arrowup", "down": "arrowdown", "question_mark": "?"}


def test_commands_on_both_surfaces_have_the_same_keys() -> None:
    both = [b for b in KEYMAP if b.where == BOTH]
    assert {b.command for b in both} >= {"move", "pick", "play", "draw", "uno", "catch", "jump", "back", "help"}
    for binding in both:
        terminal = {TEXTUAL_NAMES.get(key, key) for key in binding.terminal if key != "f1"}
        assert terminal == set(binding.web), binding.command


def test_no_key_does_two_things_on_one_surface() -> None:
    for surface in ("terminal", "web"):
        keys = [key for b in KEYMAP for key in getattr(b, surface)]
        assert len(keys) == len(set(keys)), surface


def test_the_terminal_help_and_the_browser_catalogue_read_the_map() -> None:
    assert [shown for shown, _ in KEYS] == [b.shown for b in KEYMAP if b.terminal]
    assert [k["command"] for k in catalog_keys()] == [b.command for b in KEYMAP]


def test_the_documented_table_is_the_map() -> None:
    text = (DOCS / "play.md").read_text(encoding="utf-8")
    section = text[text.index("## Keys") :]
    rows = re.findall(r"^\| (`.+?) \| (.+?) \| (.+?) \|$", section, re.M)
    where = {"terminal and browser": "both", "terminal": "terminal", "browser": "web"}
    assert [(where[w], does) for _, w, does in rows] == [(b.where, b.words) for b in KEYMAP]


def test_the_english_catalogue_says_each_key_as_the_map_does() -> None:
    """The browser says the keys from the catalogues (``keys.<command>``); in English exactly
    the map's words, so that the map stays the one description of the keys."""
    english = catalog("en")
    assert [english.t(f"keys.{b.command}") for b in KEYMAP] == [b.words for b in KEYMAP]
