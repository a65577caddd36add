"""A bounded generated-argument fuzz of ``unokit eval``, ``dataset``, ``ladder`` and ``admin``
(a fixed seed, a few seconds): whatever the arguments, each command ends with its result or
one clear line, never a traceback, and leaves no process running."""

from __future__ import annotations

import random
import socket
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.helpers import PROCESS_MARK, processes_outliving
from unokit.cli import main

CASES = 40
#: Values an option may get: fine ones, and the kinds of bad ones users and scripts give.
NUMBERS = ["1", "0", "-1", "2", "nan", "inf", "1e309", str(2**70), str(10**12), "x", ""]
TEXTS = ["", " ", "\x00", "é" * 200, "a" * 300, "../", "{}", "[[[", "external:", "external:'a"]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _generated(rng: random.Random, tmp: Path, database: str, dead: str) -> list[str]:
    command = rng.choice(["eval", "dataset", "ladder", "admin"])
    pick = rng.choice
    if command == "eval":
        args = ["eval", pick(["random", "first", "heuristic", "external:", "nope", *TEXTS])]
        for option in rng.sample(["--suite", "--deals", "--against", "--budget-ms", "--workers", "--json"], 3):
            value = {
                "--suite": pick(["classic-2", "nope", str(tmp / "nope.json"), *TEXTS]),
                "--against": pick(["random", ",", "nope", "random,external:", *TEXTS]),
                "--json": pick([str(tmp / "r.json"), str(tmp), *TEXTS]),
            }.get(option, pick(NUMBERS))
            args += [option, value]
        if "--deals" not in args:
            args += ["--deals", "1"]
        return [*args, "--no-progress"]
    if command == "dataset":
        args = ["dataset", pick([str(tmp / "d" / str(rng.randrange(10**6))), str(tmp / "file.txt" / "x"), *TEXTS])]
        for option in rng.sample(["--hands", "--players", "--shard-hands", "--workers", "--option", "--variant"], 2):
            value = {
                "--option": pick(["stacking=zz", "x", "=", "rounds=2", *TEXTS]),
                "--variant": pick(["classic", "nope", *TEXTS]),
            }.get(option, pick(NUMBERS))
            args += [option, value]
        if "--hands" not in args:
            args += ["--hands", "1"]
        return [*args, "--iterations", "5", *(["--resume"] if rng.random() < 0.3 else []), "--no-progress"]
    if command == "ladder":
        url = pick([dead, "notaurl", "http://", "http://127.0.0.1:99999", *TEXTS])
        if rng.random() < 0.5:
            return ["ladder", "standings", url, "--players", pick(NUMBERS)]
        token = pick([str(tmp / "token"), str(tmp / "binary"), str(tmp / "nope")])
        return ["ladder", "join", url, "--name", pick(["bot", *TEXTS]), "--token-file", token, "--bot", "first"]
    where = pick([["--database", database], ["--database", str(tmp / "typo.db")], ["--server", pick([dead, *TEXTS])]])
    sub = pick(
        [
            ["bans"],
            ["unban", pick(NUMBERS)],
            ["ban", "--address", pick(["10.0.0.1", "x", "10.0.0.0/99", *TEXTS])],
            ["ban", "--identity", pick(TEXTS)],
            ["list", "--json"],
            ["close", pick(["ABCD", *TEXTS])],
            ["reports", "--room", pick(TEXTS)],
            ["export", pick([str(tmp / "out"), *TEXTS])],
            ["prune", "--rooms-days", pick(NUMBERS)],
        ]
    )
    admin_token = ["--token-file", str(tmp / "admin-token")] if where[0] == "--server" else []
    return ["admin", *where, *admin_token, *sub]


def test_generated_arguments_end_in_a_result_or_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mark = f"fuzz-{uuid.uuid4().hex}"
    monkeypatch.setenv(PROCESS_MARK, mark)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "token").write_text("a-token-of-the-right-length")
    (tmp_path / "admin-token").write_text("an-admin-token-long-enough")
    (tmp_path / "binary").write_bytes(b"\xff\xfe")
    database = f"sqlite:///{tmp_path / 'admin.db'}"
    made = CliRunner().invoke(main, ["admin", "--database", database, "--create", "bans"])
    assert made.exit_code == 0, made.output
    dead = f"http://127.0.0.1:{_closed_port()}"
    rng = random.Random(47)
    for _ in range(CASES):
        args = _generated(rng, tmp_path, database, dead)
        result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
        assert "Traceback" not in result.output, (args, result.output)
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
        assert processes_outliving(mark) == [], (args, "left a process running")
