"""The browser client's checks (make lint-js): the messages' types of static/js/types.d.ts are
those declared in :mod:`unokit.server.messages` (every message, every field by its JSON key,
optional exactly where the declaration has a default); TypeScript's checker, with the
project's tsconfig.json, refuses a type error in the client's JavaScript and a parameter without
a type; ESLint, with the
project's eslint.config.mjs, refuses a line over 140 characters. The checkers are the ones
`make lint` installs into node_modules/ (package-lock.json)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from unokit.server.messages import CLIENT, SERVER

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "src" / "unokit" / "server" / "static" / "js"
TYPES = (JS / "types.d.ts").read_text(encoding="utf-8")
BIN = ROOT / "node_modules" / ".bin"


def _part(side: str) -> str:
    """The part of types.d.ts that declares ``side``'s messages."""
    server, client = TYPES.split("// " + "-" * 70 + " client messages")
    return server if side == "server" else client


def _interfaces(side: str) -> dict[str, dict[str, bool]]:
    """Each interface of types.d.ts with a `type` literal in the part of ``side``'s messages: its
    fields (less `type`) and whether each is optional, keyed by the message's type."""
    part = _part(side)
    declared = re.findall(r"^(?:export )?interface (\w+)(?: extends (\w+))? \{\n(.*?)^\}", TYPES, re.M | re.S)
    bodies = {name: (base, body) for name, base, body in declared}
    found: dict[str, dict[str, bool]] = {}
    for name, (base, body) in bodies.items():
        kind = re.search(r'^  type: "(\w+)";', body, re.M)
        if kind and f"interface {name} " in part:
            inherited = bodies[base][1] if base else ""
            fields = dict(re.findall(r"^  (\w+)(\??):", inherited + body, re.M))
            found[kind.group(1)] = {name: mark == "?" for name, mark in fields.items() if name != "type"}
    return found


@pytest.mark.parametrize(("side", "registry"), [("server", SERVER), ("client", CLIENT)])
def test_the_client_types_are_the_declared_messages(side: str, registry: dict[str, type]) -> None:
    declared = _interfaces(side)
    union = re.search(rf"^export type {side.capitalize()}Message = (.*);$", TYPES, re.M)
    assert union, f"types.d.ts has no {side.capitalize()}Message union"
    named = set(union.group(1).split(" | "))
    for kind, cls in registry.items():
        assert kind in declared, f"types.d.ts has no {side} message {kind!r}"
        wanted = {s.wire: not s.required for s in cls.SLOTS}  # type: ignore[attr-defined]
        assert declared[kind] == wanted, f"the {side} message {kind!r} differs from messages.py"
        interface = re.search(rf'^export interface (\w+)[^{{]*\{{\n  type: "{kind}";', _part(side), re.M)
        assert interface and interface.group(1) in named


def _checker(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{path} is missing: `make lint-js` installs the browser client's checkers")
    return path


BAD = """\
/** @param {import("%s").State} state */
export function legal(state) {
  return state.observation.legal_actions;
}
"""
GOOD = BAD.replace("state.observation.legal_actions", "state.observation ? state.observation.legal_actions : []")


def _type_check(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    """TypeScript's checker over `source` as a module of the client, with the project's settings."""
    (tmp_path / "client.js").write_text(source, encoding="utf-8")
    config = {"extends": (ROOT / "tsconfig.json").as_posix(), "include": ["client.js"]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    command = [str(_checker("tsc")), "--project", str(tmp_path / "tsconfig.json")]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("source", "refused"), [(BAD, True), (GOOD, False)])
def test_the_type_check_refuses_a_type_error(tmp_path: Path, source: str, refused: bool) -> None:
    """With the project's settings (strict null checks), reading the observation of a `state`
    message without looking for `null` is refused; looking first passes."""
    done = _type_check(tmp_path, source % (JS / "types").as_posix())
    assert (done.returncode != 0) is refused, done.stdout
    assert ("error TS18047: 'state.observation' is possibly 'null'" in done.stdout) is refused


UNTYPED = "export function twice(count) {\n  return count * 2;\n}\n"
TYPED = "/** @param {number} count */\n" + UNTYPED


@pytest.mark.parametrize(("source", "refused"), [(UNTYPED, True), (TYPED, False)])
def test_the_type_check_refuses_a_parameter_without_a_type(tmp_path: Path, source: str, refused: bool) -> None:
    """With the project's settings (noImplicitAny), a parameter without a JSDoc type is refused
    rather than read as `any`; the same function with its `@param` passes."""
    done = _type_check(tmp_path, source)
    assert (done.returncode != 0) is refused, done.stdout
    assert ("error TS7006: Parameter 'count' implicitly has an 'any' type." in done.stdout) is refused


@pytest.mark.parametrize(("width", "refused"), [(141, True), (140, False)])
def test_the_linter_refuses_a_long_line(width: int, refused: bool) -> None:
    line = 'export const words = "' + "x" * (width - len('export const words = "";')) + '";\n'
    assert len(line) == width + 1
    done = subprocess.run(
        [_checker("eslint"), "--stdin", "--stdin-filename", str(JS / "example.js")],
        input=line,
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert (done.returncode != 0) is refused, done.stdout
    assert ("max-len" in done.stdout) is refused
