"""The server package's shape, drawn from its own code: its import graph (every import, at a
module's top or inside a function, but not those under ``TYPE_CHECKING``), the import circles
in it, its floors, and the sizes issue 56 measures (``create_app``, the largest class counted
with the classes it inherits from its own file, the largest function, ``dict[str, Any]`` lines).

    python scripts/server_shape.py [--json]

An import "points back up" when it closes a circle: the module it names already depends on the
importer. With no circle there is none, and every module has a floor (one above the highest
module it imports).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "unokit" / "server"
PACKAGE = "unokit.server"


def module_name(path: Path) -> str:
    """``unokit.server.x.y`` for ``server/x/y.py`` (``unokit.server.x`` for its ``__init__``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The server modules ``path`` imports, resolved as Python resolves them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_lines(tree)
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", 0) in skipped:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            children = [f"{base}.{alias.name}" for alias in node.names]
            # ``from package import module`` imports the module, and the package only as its parent.
            names = children if any(child in modules for child in children) else [base]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != own and name.startswith(PACKAGE + "."):
                found.add(name)
    return found


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in ROOT.rglob("*.py") if "migrations" not in p.parts}
    modules = set(files)
    return {name: imports_of(path, modules) for name, path in files.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def floors(edges: dict[str, set[str]]) -> dict[str, int]:
    """Each module's floor: 0 for one that imports no server module, else one above the
    highest it imports (modules of one circle share the circle's floor)."""
    memo: dict[str, int] = {}

    def floor(v: str, seen: frozenset[str]) -> int:
        if v in memo:
            return memo[v]
        below = [floor(w, seen | {v}) + 1 for w in edges[v] if w not in seen and w != v]
        memo[v] = max(below, default=0)
        return memo[v]

    for v in edges:
        floor(v, frozenset())
    return memo


def _class_lines(node: ast.ClassDef, classes: dict[str, ast.ClassDef], seen: frozenset[str]) -> int:
    """``node``'s lines with those of the classes of its file it inherits from."""
    own = (node.end_lineno or node.lineno) - node.lineno + 1
    for base in node.bases:
        name = ast.unparse(base)
        if name in classes and name not in seen:
            own += _class_lines(classes[name], classes, seen | {name})
    return own


def class_sizes() -> list[tuple[int, str]]:
    """Each class's lines with the classes it inherits from its own file."""
    sizes = []
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        for name, node in classes.items():
            sizes.append((_class_lines(node, classes, frozenset({name})), f"{module_name(path)}.{name}"))
    return sorted(sizes, reverse=True)


def function_sizes() -> list[tuple[int, str]]:
    sizes = []
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                sizes.append(((node.end_lineno or node.lineno) - node.lineno + 1, f"{module_name(path)}.{node.name}"))
    return sorted(sizes, reverse=True)


def dict_any_lines() -> int:
    return sum(
        1
        for path in ROOT.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if "dict[str, Any]" in line
    )


def shape() -> dict[str, object]:
    edges = graph()
    found = circles(edges)
    floor = floors(edges)
    back = sorted(
        f"{a} -> {b}" for a in edges for b in edges[a] if a in edges[b] or any(a in c and b in c for c in found)
    )
    functions = function_sizes()
    create_app = next(size for size, name in functions if name == f"{PACKAGE}.app.create_app")
    return {
        "modules": len(edges),
        "floors": max(floor.values()) + 1,
        "circles": found,
        "imports_in_circles": len(back),
        "create_app_lines": create_app,
        "largest_classes": class_sizes()[:5],
        "largest_functions": functions[:5],
        "dict_str_any_lines": dict_any_lines(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = shape()
    if args.json:
        print(json.dumps(found, indent=2))
        return
    for key, value in found.items():
        if isinstance(value, list) and value and isinstance(value[0], list | tuple):
            print(f"{key}:")
            for item in value:
                print("   ", item if isinstance(item, tuple) else f"{len(item)} modules: {', '.join(item)}")
        else:
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
