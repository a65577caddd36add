"""What offline play needs from the server (``docs/offline.md``): Pyodide's files, the engine's
package for the browser, their routes, and ``unokit web-export`` (a folder any static file host
serves, with offline play only).

* **Pyodide** comes from the npm package ``pyodide`` pinned in ``package.json`` and
  ``package-lock.json`` (``npm ci`` puts it in ``node_modules/pyodide`` of a checkout). A server
  installed from the wheel finds it where ``UNOKIT_PYODIDE`` names (a folder holding
  :data:`PYODIDE_FILES`, such as the ``node_modules/pyodide`` of ``npm install pyodide@VERSION``).
  Without it the server plays online as before and says offline play is off.
* **The engine**: the installed ``unokit`` package itself, zipped once at start (the Python
  sources and the data files the engine, the bots, the narration and the room need; not the
  browser's own files, the migrations or the modules that need a compiled extension), served as
  ``/offline/unokit.zip``; the worker unpacks it into Pyodide's ``site-packages``. A level whose
  bot needs numba plays its documented fallback there (:mod:`unokit.bots.levels`).
"""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any

#: The files of Pyodide's npm package that the page loads, each with its media type.
PYODIDE_FILES: dict[str, str] = {
    "pyodide.mjs": "text/javascript",
    "pyodide.asm.mjs": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
#: Where a checkout's ``npm ci`` puts Pyodide.
CHECKOUT_PYODIDE = Path(__file__).resolve().parents[3] / "node_modules" / "pyodide"
#: The parts of the ``unokit`` package left out of the engine's zip: the browser's files, the
#: database's migrations, and what the browser cannot run or does not need (the compiled
#: kernel, the training environments, the simulator, the evaluations, the server's own routes).
LEFT_OUT = (
    "server/static/",
    "server/migrations/",
    "fast/",
    "envs/",
    "sim/",
    "eval/",
    "dataset/",
    "openspiel/",
    "__pycache__/",
)
PACKAGE = Path(__file__).resolve().parents[1]


class OfflineError(Exception):
    """Offline play cannot be served or exported; the message says why."""


def pyodide_dir() -> Path | None:
    """The folder of Pyodide's files: ``UNOKIT_PYODIDE``, else the checkout's
    ``node_modules/pyodide``; ``None`` when neither holds every one of :data:`PYODIDE_FILES`."""
    named = os.environ.get("UNOKIT_PYODIDE")
    folder = Path(named) if named else CHECKOUT_PYODIDE
    return folder if all((folder / name).is_file() for name in PYODIDE_FILES) else None


@functools.cache
def engine_zip() -> bytes:
    """The ``unokit`` package for the browser's Pyodide, as a zip whose paths start ``unokit/``
    (made once; its entries in a fixed order with a fixed time, so that the same sources make
    the same bytes and the service worker's copy is replaced only when they change)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(PACKAGE.rglob("*")):
            inside = path.relative_to(PACKAGE).as_posix()
            if not path.is_file() or path.suffix in (".pyc", ".so") or any(part in f"{inside}/" for part in LEFT_OUT):
                continue
            if inside.startswith("locale/") and path.suffix == ".po":
                continue  # the compiled catalogues (.mo) are what the engine reads
            info = zipfile.ZipInfo(f"unokit/{inside}", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out.getvalue()


def export(folder: Path, catalog: dict[str, Any]) -> list[Path]:
    """Write the static site of offline play into ``folder`` (made if missing, which must be
    empty): the page, its scripts and styles, the catalogue ``catalog`` at ``api/catalog``,
    Pyodide's files and the engine's zip. Raise :class:`OfflineError` (nothing is written) when
    Pyodide is not found or the folder is not empty. Return the files written."""
    pyodide = pyodide_dir()
    if pyodide is None:
        raise OfflineError(
            f"Pyodide's files ({', '.join(PYODIDE_FILES)}) are not in {CHECKOUT_PYODIDE} (run `npm ci`) "
            "nor where UNOKIT_PYODIDE names"
        )
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise OfflineError(f"{folder} is not an empty folder; name a new or empty one")
    static = PACKAGE / "server" / "static"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(static, folder / "static", ignore=shutil.ignore_patterns("index.html", "sw.js", "*.webmanifest"))
    for name in ("sw.js", "manifest.webmanifest"):
        shutil.copyfile(static / name, folder / name)
    page = (static / "index.html").read_text(encoding="utf-8")
    # The page says it is served without a server: the lobby offers offline play alone.
    (folder / "index.html").write_text(page.replace("<html ", '<html data-static-site="yes" ', 1), encoding="utf-8")
    (folder / "api").mkdir()
    (folder / "api" / "catalog").write_text(json.dumps({**catalog, "static_site": True}), encoding="utf-8")
    (folder / "offline" / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide / name, folder / "offline" / "pyodide" / name)
    (folder / "offline" / "unokit.zip").write_bytes(engine_zip())
    return sorted(path for path in folder.rglob("*") if path.is_file())


__all__ = ["PYODIDE_FILES", "OfflineError", "engine_zip", "export", "pyodide_dir"]
