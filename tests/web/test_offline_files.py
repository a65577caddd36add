"""What offline play needs from the server (``server/offline.py``): Pyodide's listed files and
the engine's zip at their routes (nothing else under them), the engine's zip holding what the
offline room imports and nothing of the browser's or the compiled bots', and ``unokit
web-export`` writing a static site, or refusing with a clear message and writing nothing."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from unokit.server.offline import PYODIDE_FILES, engine_zip, pyodide_dir

from ..server.support import UNOKIT, ServerProcess

JS = Path(__file__).resolve().parents[2] / "src" / "unokit" / "server" / "static" / "js"


def test_the_table_has_one_path_for_both_rooms() -> None:
    """The offline game is the online room page and table over another transport: the websocket
    is opened in one place (net.js, RoomConnection, whose openSocket is the seam), the offline page
    hands the room page a worker's socket, and neither the room page nor the table knows which
    room it plays."""
    sources = {path.name: path.read_text(encoding="utf-8") for path in JS.glob("*.js")}
    assert [name for name, text in sources.items() if "new WebSocket(" in text] == ["net.js"]
    assert [name for name, text in sources.items() if "new RoomConnection(" in text] == ["room.js"]
    assert "roomPage(box, code, catalog, () =>" in sources["offline.js"]
    assert "new WorkerSocket(" in sources["offline.js"]
    for name in ("table.js", "room.js", "prompt.js", "seats.js", "cards.js"):
        assert not re.search(r"offline|Worker|LocalRoom", sources[name]), name


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers.get("content-type", ""), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("content-type", ""), exc.read()


def test_the_server_serves_pyodides_files_and_the_engine(web_server: ServerProcess) -> None:
    folder = pyodide_dir()
    assert folder is not None, "npm ci installs Pyodide into node_modules/pyodide"
    for name, media in PYODIDE_FILES.items():
        status, kind, body = fetch(f"{web_server.url}/offline/pyodide/{name}")
        assert status == 200 and kind.startswith(media), name
        assert body == (folder / name).read_bytes(), name
    status, kind, body = fetch(f"{web_server.url}/offline/unokit.zip")
    assert status == 200 and kind == "application/zip" and body == engine_zip()
    for other in ("package.json", "console.html", "..%2Fpackage.json", "pyodide.js.map"):
        assert fetch(f"{web_server.url}/offline/pyodide/{other}")[0] == 404, other


def test_the_engine_zip_holds_the_offline_room_and_nothing_the_browser_cannot_use() -> None:
    names = set(zipfile.ZipFile(io.BytesIO(engine_zip())).namelist())
    for needed in (
        "unokit/server/local.py",
        "unokit/server/pacing.py",
        "unokit/core/game.py",
        "unokit/bots/heuristic.py",
    ):
        assert needed in names, needed
    assert any(name.startswith("unokit/locale/ru/") and name.endswith(".mo") for name in names)
    for left in ("unokit/server/static/", "unokit/fast/", "unokit/server/migrations/", "__pycache__"):
        assert not any(left in name for name in names), left
    assert engine_zip() == engine_zip()


def test_web_export_writes_a_static_site(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run([UNOKIT, "web-export", str(site)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert 'data-static-site="yes"' in (site / "index.html").read_text(encoding="utf-8")
    catalog = json.loads((site / "api" / "catalog").read_text(encoding="utf-8"))
    assert catalog["static_site"] is True and "classic" in catalog["variants"]
    for name in PYODIDE_FILES:
        assert (site / "offline" / "pyodide" / name).is_file()
    assert (site / "offline" / "unokit.zip").read_bytes() == engine_zip()
    assert (site / "sw.js").is_file() and (site / "static" / "js" / "offline-worker.js").is_file()


@pytest.mark.parametrize("where", ["not empty", "no pyodide"])
def test_web_export_refuses_clearly_and_writes_nothing(tmp_path: Path, where: str) -> None:
    site = tmp_path / "site"
    site.mkdir()
    env = None
    if where == "not empty":
        (site / "mine.txt").write_text("keep me", encoding="utf-8")
    else:
        env = {**os.environ, "UNOKIT_PYODIDE": str(tmp_path / "nowhere")}
    done = subprocess.run(
        [UNOKIT, "web-export", str(site)], capture_output=True, text=True, timeout=300, check=False, env=env
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert ("not an empty folder" if where == "not empty" else "Pyodide") in done.stderr
    assert sorted(p.name for p in site.iterdir()) == ([] if where == "no pyodide" else ["mine.txt"])
