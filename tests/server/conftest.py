"""Fixtures: a throwaway PostgreSQL cluster for the session, and ``unokit serve`` processes."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .support import GENEROUS, PostgresCluster, ServerProcess, free_port

#: Test servers accept messages fast, and many rooms and connections from one address: the
#: games are played by scripts on loopback, not people (the limits have their own tests).
FAST_ARGS = ["--rate", "5000", "--burst", "5000", *GENEROUS]


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A real PostgreSQL server; a test that needs it fails (never skips) when it cannot start."""
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.db'}"
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    return cluster.new_database()


@pytest.fixture
def make_server() -> Iterator[Callable[..., ServerProcess]]:
    """Start ``unokit serve`` processes; all are stopped at the end of the test. With
    ``wait=False`` the process is launched and not waited for (``server.wait()``): several
    processes of a cluster start together."""
    started: list[ServerProcess] = []

    def make(database: str, *args: str, port: int | None = None, wait: bool = True) -> ServerProcess:
        server = ServerProcess(database, port or free_port(), [*FAST_ARGS, *args])
        started.append(server)
        server.launch()
        return server.wait() if wait else server

    yield make
    for server in started:  # all asked to stop at once, then each waited for
        if server.alive() and server.proc is not None:
            server.proc.terminate()
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def shared_server() -> Iterator[ServerProcess]:
    """One SQLite server for the tests of a module that do not restart it."""
    folder = Path(tempfile.mkdtemp(prefix="unokit-serve-"))
    server = ServerProcess(f"sqlite:///{folder / 'server.db'}", free_port(), [*FAST_ARGS])
    server.start()
    yield server
    server.stop()
