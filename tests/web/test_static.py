"""The browser client's files, read as text: every word a script asks for is in the page's words
(text.js), and every member of the closed sets the page speaks of (card kinds, decisions,
options and their values, settings, bots, variants, phases) has its words and, for card
kinds, its mark on the card face; the service worker keeps every file of the page; nothing in
the page needs an inline script or style (so that a strict Content-Security-Policy holds)."""

from __future__ import annotations

import re
from pathlib import Path

from unokit.core.cards import COLOR_NAMES, COLOR_SYMBOLS, KIND_NAMES
from unokit.core.game import DECISION_NAMES
from unokit.core.variants import OPTION_CHOICES, VARIANTS
from unokit.server.room import PHASES, SEAT_BOTS, Settings
from unokit.server.web import catalog

STATIC = Path(__file__).resolve().parents[2] / "src" / "unokit" / "server" / "static"
SCRIPTS = {path.name: path.read_text(encoding="utf-8") for path in sorted((STATIC / "js").glob("*.js"))}


def _words() -> set[str]:
    """The keys of text.js's dictionary."""
    text = SCRIPTS["text.js"]
    body = text[text.index("const EN = {") : text.index("\n};")]
    return set(re.findall(r'^\s*"([^"]+)":', body, re.M))


def test_every_word_a_script_asks_for_is_in_the_dictionary() -> None:
    words = _words()
    asked = {key for source in SCRIPTS.values() for key in re.findall(r'\bt\("([a-z_.0-9]+)"', source)}
    assert asked, "no t(...) call found"
    assert sorted(asked - words) == []


def test_every_member_of_a_closed_set_has_its_words() -> None:
    words = _words()
    wanted: set[str] = set()
    wanted |= {f"color.{c}" for c in COLOR_NAMES} | {f"symbol.{s}" for s in COLOR_SYMBOLS} | {"symbol.wild"}
    wanted |= {f"side.{side}" for rules in VARIANTS.values() for side in rules.side_names}
    playable = {k for entry in catalog()["variants"].values() for side in entry["kinds"] for k in side}
    wanted |= {f"web.legend.{kind}" for kind in playable if not kind.isdigit()}
    decisions = [d for d in DECISION_NAMES if d != "over"]
    wanted |= {f"decision.{d}.todo" for d in decisions} | {f"web.decision.{d}" for d in decisions}
    for entry in catalog()["variants"].values():
        for option in entry["options"]:
            wanted |= {f"option.{option['name']}", f"option.{option['name']}.help"}
    wanted |= {f"option.{name}.{value}" for name, values in OPTION_CHOICES.items() for value in values}
    wanted |= {f"web.setting.{name}" for name in Settings.LIMITS} | {
        f"web.setting.{name}.help" for name in Settings.LIMITS
    }
    wanted |= {f"bot.{bot}" for bot in SEAT_BOTS}
    wanted |= {f"web.variant.{name}" for name in VARIANTS}
    wanted |= {f"web.phase.{phase}" for phase in PHASES if phase != "closed"}
    wanted |= {f"web.scoring.{mode}" for mode in OPTION_CHOICES["scoring"]}
    wanted |= {f"web.preset.{name}" for name in ("official", "house", "custom")}
    assert sorted(wanted - words) == []


def test_every_card_kind_has_a_mark_on_its_face() -> None:
    source = SCRIPTS["cards.js"]
    marks = source[source.index("const FACE_MARKS = {") : source.index("\n};", source.index("const FACE_MARKS = {"))]
    marked = set(re.findall(r"^  ([a-z_0-9]+): \{", marks, re.M))
    assert {k for k in KIND_NAMES if not k.isdigit()} <= marked
    icons = source[source.index("const ICONS = {") : source.index("\n};", source.index("const ICONS = {"))]
    drawn = set(re.findall(r"^  ([a-z_0-9]+): \(\) =>", icons, re.M))
    assert set(re.findall(r'icon: "([a-z_]+)"', marks)) <= drawn


def test_the_service_worker_keeps_every_file_of_the_page() -> None:
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    listed = set(re.findall(r'^  "(/[^"]*)",$', source, re.M))
    files = {f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*") if p.is_file()}
    files -= {"/static/index.html", "/static/sw.js", "/static/manifest.webmanifest"}
    assert listed == files | {"/", "/manifest.webmanifest"}


def test_nothing_needs_an_inline_script_or_style() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == []
    assert re.findall(r"\son[a-z]+=|\sstyle=", page) == []
    for name, source in SCRIPTS.items():
        assert (
            re.findall(
                r'setAttribute\("style"|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|\beval\(|new Function\(',
                source,
            )
            == []
        ), name
        assert re.findall(r'"style"\s*:', source) == [], name  # no style attribute through h()
