"""``unokit serve`` itself: health, the placeholder page, clear refusals, idle rooms closed."""

from __future__ import annotations

import json
import re
import selectors
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

import unokit
from unokit.server.client import RoomClient, ServerError, create_room, get_json

from .support import UNOKIT, ServerProcess, free_port, run, serve_once


def test_health_variants_and_the_reserved_pages(shared_server: ServerProcess) -> None:
    assert get_json(shared_server.url, "/api/health")["status"] == "ok"
    variants = get_json(shared_server.url, "/api/variants")
    assert set(variants["variants"]) == set(unokit.VARIANT_NAMES)
    levels = ["beginner", "easy", "normal", "hard", "expert"]
    assert variants["levels"] == levels
    assert variants["bots"] == [*levels, "random", "heuristic", "ismcts", "ismcts_fast"]
    for path in ("/", "/r/ABCDEF"):
        with urllib.request.urlopen(shared_server.url + path, timeout=5) as response:
            assert b"unokit" in response.read()


def test_a_bad_room_request_is_refused_with_the_engines_reason(shared_server: ServerProcess) -> None:
    with pytest.raises(ServerError) as refused:
        create_room(shared_server.url, "classic", 11)
    assert refused.value.code == "bad_room" and "2 to 10 players" in refused.value.message
    with pytest.raises(ServerError) as unknown:
        create_room(shared_server.url, "classic", 2, options={"colour": "red"})
    assert "unknown option 'colour'" in unknown.value.message
    with pytest.raises(ServerError) as settings:
        create_room(shared_server.url, "classic", 2, settings={"turn_seconds": -1})
    assert settings.value.code == "bad_settings"
    request = urllib.request.Request(
        shared_server.url + "/api/rooms", data=b"{oops", method="POST", headers={"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as bad_json:
        urllib.request.urlopen(request, timeout=5)
    assert bad_json.value.code == 400 and json.loads(bad_json.value.read())["error"] == "bad_json"


def test_a_second_process_on_one_sqlite_file_is_refused_clearly(shared_server: ServerProcess) -> None:
    done = serve_once("--database", shared_server.database)
    assert done.returncode == 2
    assert "another unokit server is using" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreachable_database_is_refused_clearly(tmp_path: Path) -> None:
    done = serve_once("--database", f"postgresql://nobody@127.0.0.1:{free_port()}/x")
    assert done.returncode == 2
    assert "cannot open the database" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("database", ["server.db", "mysql://nobody@127.0.0.1/x"])
def test_a_database_that_is_not_a_usable_url_is_refused_clearly(database: str) -> None:
    done = serve_once("--database", database)
    assert done.returncode == 2
    assert f"{database!r} is not a database URL unokit can use" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_node_url_that_is_not_a_web_address_is_refused_clearly() -> None:
    done = serve_once("--node-url", "127.0.0.1:8001")
    assert done.returncode == 2
    assert "'127.0.0.1:8001' is not an http:// or https:// address" in done.stderr
    assert "Traceback" not in done.stderr


def test_rooms_nobody_uses_are_closed(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'idle.db'}", "--idle-close", "1", "--sweep", "0.2")
    untouched = create_room(server.url, "classic", 2)

    async def visit() -> str:
        room = create_room(server.url, "classic", 2)
        client = await RoomClient.join(server.url, room["room"], name="Ann")
        await client.close()
        return str(room["room"])

    visited = run(visit)
    deadline = time.monotonic() + 20
    remaining = {visited, untouched["room"]}
    while remaining and time.monotonic() < deadline:
        for code in list(remaining):
            try:
                get_json(server.url, f"/api/rooms/{code}")
            except ServerError as exc:
                assert exc.code == "no_room"
                remaining.discard(code)
        time.sleep(0.3)
    assert remaining == set()


def test_serve_says_ready_at_its_url_once_the_first_page_can_be_answered(tmp_path: Path) -> None:
    """With ``--port 0`` the line names the port the system chose; the page is there at once."""
    proc = subprocess.Popen(
        [UNOKIT, "serve", "--port", "0", "--database", f"sqlite:///{tmp_path / 'server.db'}", "--log-level", "warning"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        seen: list[str] = []
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stderr, selectors.EVENT_READ)
            deadline = time.monotonic() + 60
            while not any("ready at" in line for line in seen) and time.monotonic() < deadline:
                if selector.select(timeout=1) and (line := proc.stderr.readline()):
                    seen.append(line)
        line = seen[-1]
        ready = re.fullmatch(r"unokit serve: ready at (http://127\.0\.0\.1:(\d+)) \(database sqlite:///.*\)\n", line)
        assert ready is not None and int(ready[2]) > 0, seen
        with urllib.request.urlopen(ready[1] + "/", timeout=5) as response:
            assert response.status == 200 and b"unokit" in response.read()
        assert get_json(ready[1], "/api/health")["status"] == "ok"
    finally:
        proc.terminate()
        proc.wait(30)
