"""The browser client's files, read as text: every card kind has its mark on the card face (and
every icon a mark names is drawn); the service worker keeps every file of the page; nothing in
the page needs an inline script or style (so that a strict Content-Security-Policy holds).
(That every word a page shows is in every catalogue is tests/test_i18n.py's.)"""

from __future__ import annotations

import re
from pathlib import Path

from unokit.core.cards import KIND_NAMES
from unokit.server.offline import PYODIDE_FILES

STATIC = Path(__file__).resolve().parents[2] / "src" / "unokit" / "server" / "static"
SCRIPTS = {path.name: path.read_text(encoding="utf-8") for path in sorted((STATIC / "js").glob("*.js"))}


def test_every_card_kind_has_a_mark_on_its_face() -> None:
    source = SCRIPTS["cards.js"]
    marks = source[source.index("const FACE_MARKS = {") : source.index("\n};", source.index("const FACE_MARKS = {"))]
    marked = set(re.findall(r"^  ([a-z_0-9]+): \{", marks, re.M))
    assert {k for k in KIND_NAMES if not k.isdigit()} <= marked
    icons = source[source.index("const ICONS = {") : source.index("\n};", source.index("const ICONS = {"))]
    drawn = set(re.findall(r"^  ([a-z_0-9]+): \(\) =>", icons, re.M))
    assert set(re.findall(r'icon: "([a-z_]+)"', marks)) <= drawn


def test_the_service_worker_keeps_what_the_page_needs_to_open() -> None:
    """Every script and style, the English catalogue and the icon are fetched when the service
    worker installs; every path it names is a file of the page."""
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    shell = source[source.index("const SHELL = [") : source.index("];", source.index("const SHELL = ["))]
    listed = set(re.findall(r'^  "(/[^"]*)",$', shell, re.M))
    files = {f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*") if p.is_file()}
    scripts = {f for f in files if f.endswith((".js", ".css")) and f != "/static/sw.js"}
    needed = scripts | {"/static/i18n/en.json", "/static/icons/icon.svg"}
    assert needed <= listed
    assert listed - {"/", "/manifest.webmanifest"} <= files


def test_the_service_worker_keeps_what_offline_play_needs() -> None:
    """Its OFFLINE list names every file of Pyodide the server serves (server/offline.py), the
    engine and the catalogue, and nothing else (the worker is a script of the page)."""
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    start = source.index("const OFFLINE = [")
    listed = set(re.findall(r'^  "(/[^"]*)",$', source[start : source.index("];", start)], re.M))
    served = {f"/offline/pyodide/{name}" for name in PYODIDE_FILES}
    assert listed == served | {"/offline/unokit.zip", "/api/catalog"}


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
