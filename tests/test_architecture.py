"""The package's shape (DESIGN.md): a pure core that imports only the standard library, no use
of the global ``random`` module, and imports that point inward only.

Every module under ``src/unokit`` is parsed with :mod:`ast`; imports anywhere in a module count
(top level, inside functions, under ``TYPE_CHECKING``). The checks are plain functions that
return the offending lines, so the self-checks at the end can show that each one catches a
violation.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parent.parent / "src" / "unokit"
CORE_DIR = PACKAGE_DIR / "core"
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}

#: Layers from the inside out (DESIGN.md, "The shape"). A module may import its own layer and
#: any layer of a lower rank, never one of an equal or higher rank. ``unokit`` itself
#: (``__init__.py``, written '' here) is the public facade over the core; ``i18n`` holds the
#: message catalogues and says the core's closed sets in each language (standard library only);
#: ``narration`` turns events into lines of those catalogues; ``play`` is the interactive terminal table and
#: the scorekeeper, which the ``cli`` loads and the ``server`` reuses for the browser's round
#: summaries and score sheet; ``files`` checks, locks and atomically replaces the files that
#: commands write (standard library only); ``encoding`` holds the action ids and observation
#: vectors that ``fast`` (the compiled engine, used by bots, sim and envs) and ``envs`` share;
#: ``keys`` is the key map that the terminal table and the browser table share; ``review`` reviews
#: recorded games with the bots' search (the server runs it for its players).
#: ``openspiel`` registers the variants with OpenSpiel over the environments' session; ``dataset``
#: writes expert games as training tables; ``eval`` measures bots on fixed suites (OpenSpiel's
#: bots among them); ``llm`` is the text harness, the chat client and the language-model agent over
#: the environments' session; ``textarena`` registers the variants with TextArena and ``kaggle``
#: holds the Kaggle-style package of the OpenSpiel games, both over ``llm``. Add a new layer here
#: when you create one.
LAYER_RANKS: dict[str, int] = {
    "core": 0,
    "": 1,
    "files": 1,
    "encoding": 1,
    "keys": 1,
    "i18n": 1,
    "fast": 2,
    "narration": 2,
    "clickopts": 2,
    "record": 3,
    "bots": 3,
    "sim": 4,
    "envs": 4,
    "play": 4,
    "review": 4,
    "server": 5,
    "openspiel": 5,
    "dataset": 5,
    "llm": 5,
    "eval": 6,
    "textarena": 6,
    "kaggle": 6,
    "cli": 7,
}


@dataclass(frozen=True)
class Import:
    """One imported module, fully resolved (``unokit.core.cards``, ``json``)."""

    module: str
    line: int
    relative: bool


def module_name(path: Path) -> str:
    """``src/unokit/core/game.py`` → ``unokit.core.game``; ``__init__.py`` names its package."""
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def module_exists(name: str) -> bool:
    """Whether ``unokit.x.y`` is a module or package under ``src/unokit``."""
    path = PACKAGE_DIR.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def parse(path: Path, source: str | None = None) -> ast.Module:
    text = path.read_text(encoding="utf-8") if source is None else source
    return ast.parse(text, filename=str(path))


def imports(path: Path, source: str | None = None) -> Iterator[Import]:
    """Every module that ``path`` (or ``source`` placed at ``path``) imports.

    Relative imports are resolved as Python does; one that climbs above ``unokit`` is yielded
    with its dots. ``from X import name`` also yields ``X.name`` when that is a module of
    unokit, so that ``from . import narration`` counts as importing ``unokit.narration``.
    """
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    for node in ast.walk(parse(path, source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(alias.name, node.lineno, relative=False)
        elif isinstance(node, ast.ImportFrom):
            relative = node.level > 0
            if relative:
                parts = package.split(".")
                keep = len(parts) - (node.level - 1)
                if keep < 1:
                    yield Import("." * node.level + (node.module or ""), node.lineno, True)
                    continue
                base = ".".join(parts[:keep])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            yield Import(target, node.lineno, relative)
            if target.split(".")[0] == "unokit":
                for alias in node.names:
                    if module_exists(f"{target}.{alias.name}"):
                        yield Import(f"{target}.{alias.name}", node.lineno, relative)


def layer_of(module: str) -> str:
    """The layer of a ``unokit`` module: its first component under ``unokit`` ('' for root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def is_unokit(module: str) -> bool:
    return module.split(".", maxsplit=1)[0] == "unokit"


def non_stdlib_imports(path: Path, source: str | None = None) -> list[str]:
    """Absolute imports of anything but the standard library (relative imports are allowed)."""
    return [
        f"line {imp.line}: {imp.module}"
        for imp in imports(path, source)
        if not imp.relative and imp.module.split(".")[0] not in STDLIB
    ]


def imports_outside_core(path: Path, source: str | None = None) -> list[str]:
    """Imports of a unokit module outside ``unokit.core`` (or above the package)."""
    return [
        f"line {imp.line}: {imp.module}"
        for imp in imports(path, source)
        if imp.module.startswith(".") or (is_unokit(imp.module) and layer_of(imp.module) != "core")
    ]


def global_rng_uses(path: Path, source: str | None = None) -> list[str]:
    """Imports of :mod:`random` (or ``numpy.random``), ``np.random.…`` and dynamic imports."""
    bad = [
        f"line {imp.line}: import {imp.module}"
        for imp in imports(path, source)
        if imp.module.split(".")[0] == "random" or imp.module.startswith("numpy.random")
    ]
    for node in ast.walk(parse(path, source)):
        if isinstance(node, ast.ImportFrom) and node.module == "numpy":
            bad += [f"line {node.lineno}: numpy.random" for a in node.names if a.name == "random"]
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "random"
            and isinstance(node.value, ast.Name)
            and node.value.id in ("np", "numpy")
        ):
            bad.append(f"line {node.lineno}: {node.value.id}.random")
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in ("random", "numpy.random")
        ):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("__import__", "import_module"):
                bad.append(f"line {node.lineno}: {name}({node.args[0].value!r})")
    return bad


def outward_imports(path: Path, source: str | None = None) -> list[str]:
    """Imports of a unokit layer of the same or a higher rank than ``path``'s own layer."""
    own = layer_of(module_name(path))
    bad = []
    for imp in imports(path, source):
        if imp.module.startswith("."):
            bad.append(f"line {imp.line}: {imp.module} (above the package)")
            continue
        if not is_unokit(imp.module):
            continue
        other = layer_of(imp.module)
        if other == own:
            continue
        if other not in LAYER_RANKS:
            bad.append(f"line {imp.line}: {imp.module} (layer {other!r} is not in LAYER_RANKS)")
        elif LAYER_RANKS[other] >= LAYER_RANKS[own]:
            bad.append(f"line {imp.line}: {imp.module} (layer {other or 'unokit'})")
    return bad


def python_files(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.py"))


def _id(path: Path) -> str:
    return str(path.relative_to(PACKAGE_DIR))


# --------------------------------------------------------------------------- the checks


def test_the_package_is_where_the_test_looks() -> None:
    assert (CORE_DIR / "game.py").is_file()
    assert len(python_files(CORE_DIR)) >= 5


@pytest.mark.parametrize("path", python_files(CORE_DIR), ids=_id)
def test_core_imports_only_the_standard_library(path: Path) -> None:
    bad = non_stdlib_imports(path)
    assert not bad, f"{_id(path)} imports outside the standard library: {bad}"


@pytest.mark.parametrize("path", python_files(CORE_DIR), ids=_id)
def test_core_imports_no_other_unokit_layer(path: Path) -> None:
    bad = imports_outside_core(path)
    assert not bad, f"{_id(path)} imports outside unokit.core: {bad}"


@pytest.mark.parametrize("path", python_files(PACKAGE_DIR), ids=_id)
def test_the_global_random_module_is_never_used(path: Path) -> None:
    bad = global_rng_uses(path)
    assert not bad, f"{_id(path)} uses a global RNG (use unokit.core.rng.Rng): {bad}"


@pytest.mark.parametrize("path", python_files(PACKAGE_DIR), ids=_id)
def test_imports_point_inward(path: Path) -> None:
    own = layer_of(module_name(path))
    assert own in LAYER_RANKS, f"the layer {own!r} of {_id(path)} is not in LAYER_RANKS; add it"
    bad = outward_imports(path)
    assert not bad, f"{_id(path)} (layer {own or 'unokit'}) imports outward: {bad}"


# --------------------------------------------------------------------------- self-checks


GAME = CORE_DIR / "game.py"
CLI = PACKAGE_DIR / "cli.py"
ROOT = PACKAGE_DIR / "__init__.py"


def test_relative_imports_resolve_like_python() -> None:
    def modules(path: Path, source: str) -> list[str]:
        return [imp.module for imp in imports(path, source)]

    assert modules(GAME, "from . import cards") == ["unokit.core", "unokit.core.cards"]
    assert modules(GAME, "from .cards import Face") == ["unokit.core.cards"]
    assert modules(GAME, "from .. import cli") == ["unokit", "unokit.cli"]
    assert modules(GAME, "from ...x import y") == ["...x"]
    assert modules(ROOT, "from .core import Game") == ["unokit.core"]
    assert modules(CLI, "from .narration import describe") == ["unokit.narration"]
    assert modules(CLI, "import json, os.path") == ["json", "os.path"]


def test_the_checks_catch_violations() -> None:
    assert non_stdlib_imports(GAME, "import click") != []
    assert non_stdlib_imports(GAME, "def f():\n    from unokit import cli\n") != []
    assert non_stdlib_imports(GAME, "import json\nfrom __future__ import annotations\n") == []
    assert imports_outside_core(GAME, "from ..narration import describe") != []
    assert imports_outside_core(GAME, "from .. import cli") != []
    assert imports_outside_core(GAME, "from . import rng") == []
    assert global_rng_uses(CLI, "import random") != []
    assert global_rng_uses(CLI, "from random import shuffle") != []
    assert global_rng_uses(CLI, "import numpy as np\nnp.random.seed(1)") != []
    assert global_rng_uses(CLI, "import importlib\nimportlib.import_module('random')") != []
    assert global_rng_uses(CLI, "from .core.rng import Rng") == []
    assert outward_imports(GAME, "from unokit import cli") != []
    assert outward_imports(ROOT, "from .cli import main") != []
    assert outward_imports(PACKAGE_DIR / "narration.py", "from . import cli") != []
    assert outward_imports(CLI, "from .narration import describe") == []
    assert outward_imports(CLI, "from .core.game import Game") == []
