"""Real servers for the server tests: ``unokit serve`` processes on loopback, and a throwaway
PostgreSQL cluster (initdb + pg_ctl in a temporary folder). Nothing here is a mock."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

UNOKIT = str(Path(sys.executable).with_name("unokit"))

#: Room settings that make games fast in tests: bots answer at once, no pause between hands.
FAST = {"bot_seconds": 0.0, "hand_pause_seconds": 0.0, "catch_seconds": 0.0, "turn_seconds": 0.0}


#: Per-client limits raised for servers that tests drive from one address (loopback) with
#: more rooms and connections than one person would make.
GENEROUS = [
    *("--room-rate", "100000", "--lookup-rate", "100000", "--client-connections", "5000"),
    *("--public-rooms", "1000", "--public-seats", "10"),
]


#: Run ``argv[2:]`` under an open-file limit of ``argv[1]`` (soft and hard).
SET_FILE_LIMIT = (
    "import os, resource, sys; n = int(sys.argv[1]); "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); os.execv(sys.argv[2], sys.argv[2:])"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    """One ``unokit serve`` process; ``kill()`` is ``kill -9``. ``executable`` is the
    ``unokit`` program to run (this environment's by default); ``host`` the address it listens
    on, and ``prefix`` a command it runs under (``ip netns exec NAME`` for another network
    namespace)."""

    database: str
    port: int
    args: list[str] = field(default_factory=list)
    log_path: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    executable: str = UNOKIT
    open_files: int | None = None  # the process's open-file limit (soft and hard), if set
    host: str = "127.0.0.1"
    prefix: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        """Start the process and wait until it is healthy (:meth:`launch`, then :meth:`wait`)."""
        return self.launch().wait(timeout)

    def launch(self) -> ServerProcess:
        """Start the process without waiting for it (several start together): :meth:`wait`."""
        assert self.proc is None or self.proc.poll() is not None
        if self.log_path is None:
            self.log_path = Path(tempfile.mkstemp(prefix="unokit-serve-", suffix=".log")[1])
        log = open(self.log_path, "ab")  # noqa: SIM115 - the process writes it
        limit = [] if self.open_files is None else [sys.executable, "-c", SET_FILE_LIMIT, str(self.open_files)]
        self.proc = subprocess.Popen(
            [
                *self.prefix,
                *limit,
                self.executable,
                "serve",
                "--host",
                self.host,
                "--port",
                str(self.port),
                "--database",
                self.database,
                "--log-level",
                "warning",
                "--no-warm-engine",  # the suite's many starts; a test that wants it says --warm-engine
                *self.args,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        log.close()
        return self

    def wait(self, timeout: float = 60.0) -> ServerProcess:
        """Wait until the launched process says it is healthy; raise ``RuntimeError`` if it
        exits or does not within ``timeout`` seconds."""
        assert self.proc is not None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"unokit serve exited with {self.proc.returncode}:\n{self.log()}")
            with (
                contextlib.suppress(OSError, ValueError),
                urllib.request.urlopen(f"{self.url}/api/health", timeout=2) as response,
            ):
                if json.loads(response.read())["status"] == "ok":
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"unokit serve did not become healthy in {timeout} s:\n{self.log()}")

    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def memory(self) -> dict[str, int]:
        """The process's resident memory now (``VmRSS``) and at its peak (``VmHWM``), in bytes."""
        fields = {}
        for line in Path(f"/proc/{self.pid()}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) * 1024
        return fields

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, no goodbye."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-6000:] if self.log_path else ""


def moved_on(version: int) -> Callable[[dict[str, Any]], bool]:
    """A ``RoomClient.wait_for`` predicate: the room's state is no longer at ``version``."""
    return lambda state: bool(state["version"] != version)


def serve_once(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``unokit serve ARGS`` on a free port and wait for it to exit (for the refusals, which
    stop it before it serves anything)."""
    return subprocess.run(
        [UNOKIT, "serve", "--port", str(free_port()), *args], capture_output=True, text=True, timeout=60, check=False
    )


def postgres_bin() -> Path:
    """The folder of Debian's PostgreSQL programs (``make test`` installs the package)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).resolve().parent
    raise RuntimeError(
        "PostgreSQL is not installed (no pg_ctl under /usr/lib/postgresql/*/bin): "
        "run 'make test', which installs Debian's postgresql package"
    )


class PostgresCluster:
    """A throwaway PostgreSQL cluster in a temporary folder, listening on ``host`` (127.0.0.1),
    its programs run under ``prefix`` (``ip netns exec NAME`` for another network namespace).
    As root it runs as the ``postgres`` system user (PostgreSQL refuses to run as root)."""

    def __init__(self, host: str = "127.0.0.1", prefix: list[str] | None = None) -> None:
        self.bin = postgres_bin()
        self.host = host
        self.prefix = prefix or []
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="unokit-pg-"))
        self.data = self.root / "data"
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.started = False

    def _run(self, *args: str) -> None:
        if self.prefix:  # entering a namespace needs root: become the user only inside it
            command = [*self.prefix, *(["runuser", "-u", self.user, "--"] if self.user else []), *args]
            result = subprocess.run(command, capture_output=True, text=True, cwd=self.root, check=False)
        else:
            result = subprocess.run(args, capture_output=True, text=True, user=self.user, cwd=self.root, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed: {result.stdout}{result.stderr}")

    def start(self) -> PostgresCluster:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "unokit", "--auth=trust", "-E", "UTF8")
        if self.host != "127.0.0.1":  # clients on the same network as that address may connect
            with open(self.data / "pg_hba.conf", "a", encoding="utf-8") as hba:
                hba.write("host all all samenet trust\n")
        options = f"-p {self.port} -k {self.root} -c listen_addresses={self.host} -c fsync=off -c max_connections=200"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "start"
        )
        self.started = True
        return self

    def stop(self) -> None:
        if self.started:
            with contextlib.suppress(RuntimeError):
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        name = f"t{os.urandom(6).hex()}"
        with psycopg.connect(f"postgresql://unokit@{self.host}:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://unokit@{self.host}:{self.port}/{name}"


def run(coro_fn: Callable[[], Any], timeout: float = 240.0) -> Any:
    """Run an async test body with a hard time limit."""

    async def limited() -> Any:
        return await asyncio.wait_for(coro_fn(), timeout)

    return asyncio.run(limited())


def hidden_cards(messages: list[dict[str, Any]]) -> Iterator[str]:
    """Every JSON text of ``messages``, for scanning."""
    for message in messages:
        yield json.dumps(message)


def choose(observation: dict[str, Any]) -> str:
    """A simple, deterministic player: catch whoever forgot UNO, always call UNO, else the
    first legal action (plays come first, so it plays when it can)."""
    legal: list[str] = observation["legal_actions"]
    for action in legal:
        if action.startswith("catch"):
            return action
    first = legal[0]
    if first.startswith(("play", "discard", "play_drawn")) and f"{first} uno" in legal:
        return f"{first} uno"
    return first


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


def leaks(messages: list[dict[str, Any]], record_text: str, seat: int | None) -> list[str]:
    """Scan a seat's whole stream (``None``: a spectator's) for the text of any card it could
    not know at that moment: a card in another hand that the seat was never shown. What a
    seat may know is taken from the engine's own redaction of the replayed game (its own
    hand at each step, and every event as redacted for it, cumulatively)."""
    import re

    from unokit import redact
    from unokit.record import GameRecord, Replay

    record = GameRecord.loads(record_text)
    replay = Replay(record)
    start = replay.game_at(0).to_position()
    deck_texts: set[str] = set()
    for hand in start["hands"]:
        deck_texts.update(hand)
    deck_texts.update(start["discard"])
    deck_texts.update(start["draw"])
    patterns = {text: re.compile(r"(?<![\w/])" + re.escape(text) + r"(?![\w/])") for text in deck_texts}
    seen: list[set[str]] = []
    known: set[str] = set()
    for step in range(len(replay) + 1):
        _strings(redact(replay.events_at(step), seat), known)
        if seat is not None:
            known.update(replay.game_at(step).observe(seat)["hand"])
        seen.append(set(known))
    found = []
    step = 0
    for message in messages:
        state = message if message.get("type") == "state" else message.get("state")
        if isinstance(state, dict) and state.get("room", {}).get("game_no") == record.meta.get("game"):
            step = state["game_step"]
        elif isinstance(state, dict):
            continue  # another game of the room
        text = json.dumps(message)
        for card, pattern in patterns.items():
            if card not in seen[min(step, len(seen) - 1)] and pattern.search(text):
                found.append(f"step {step}: {card!r} in {text[:200]}")
    return found
