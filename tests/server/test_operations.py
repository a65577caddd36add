"""Running the server: ``/metrics`` read with prometheus_client's own parser and moving as a game
is played, liveness and readiness answered apart (the database away: alive, not ready),
structured logs with room codes and no token, and a graceful stop on SIGTERM that tells the
clients to reconnect and loses nothing acknowledged."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from unokit.server import logs
from unokit.server.client import RoomClient, ServerError, create_room, get_json, play

from .support import FAST, PostgresCluster, ServerProcess, choose, free_port, run
from .test_open_web import request


def scrape(server: ServerProcess, headers: dict[str, str] | None = None) -> dict[str, float]:
    """Every sample of ``/metrics``, by name and labels (``name{a="x",b="y"}``)."""
    request = urllib.request.Request(f"{server.url}/metrics", headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


def test_the_metrics_move_as_a_game_is_played(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    token = "an-admin-token-of-some-length"
    (tmp_path / "admin").write_text(token)
    server = make_server(
        f"sqlite:///{tmp_path / 'metrics.db'}",
        "--trusted-proxy",
        "127.0.0.5",
        "--admin-token-file",
        str(tmp_path / "admin"),
    )
    before = scrape(server)

    async def body() -> dict[str, Any]:
        room = create_room(server.url, "classic", 3, options={"target": 1}, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann")
        await ann.host("add_bot", room["host_token"], seat=1, bot="random")
        await ann.host("add_bot", room["host_token"], seat=2, bot="ismcts")
        await ann.host("start", room["host_token"])
        await ann.send(json.dumps({"type": "action", "action": "draw", "version": "x", "token": "t", "id": 1}))
        final = await play(ann, choose, timeout=200)
        await ann.close()
        return final

    final = run(body)
    after = scrape(server)
    assert final["room"]["phase"] == "finished"
    actions = final["game_step"]
    assert after["unokit_actions_total"] - before["unokit_actions_total"] == actions
    assert after["unokit_games_started_total"] == before["unokit_games_started_total"] + 1
    assert after["unokit_games_finished_total"] == before["unokit_games_finished_total"] + 1
    assert after["unokit_rooms_created_total"] == before["unokit_rooms_created_total"] + 1
    assert after['unokit_rooms{phase="finished",role="owner"}'] >= 1
    assert after['unokit_refusals_total{code="bad_message",via="websocket"}'] >= 1
    assert after["unokit_action_broadcast_seconds_count"] > before["unokit_action_broadcast_seconds_count"]
    assert after["unokit_db_commit_seconds_count"] > before["unokit_db_commit_seconds_count"]
    assert after["unokit_bot_thinking_seconds_count"] > 0  # the search bot thought in the pool
    assert after["process_resident_memory_bytes"] > 0
    # From elsewhere (a client behind the trusted proxy) only with the admin token.
    elsewhere = {"X-Forwarded-For": "203.0.113.9"}
    assert request(server, "GET", "/metrics", headers=elsewhere, source="127.0.0.5")[0] == 403
    with_token = {**elsewhere, "Authorization": f"Bearer {token}"}
    status, _headers, page = request(server, "GET", "/metrics", headers=with_token, source="127.0.0.5")
    assert status == 200 and b"unokit_actions_total" in page


def _status(server: ServerProcess, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{server.url}{path}", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_liveness_and_readiness_are_answered_apart(tmp_path: Path) -> None:
    cluster = PostgresCluster().start()
    server = ServerProcess(cluster.new_database(), free_port())
    try:
        server.start()
        live = _status(server, "/api/live")
        assert live[0] == 200
        assert _status(server, "/api/ready") == (200, {"status": "ready", "node": live[1]["node"]})
        cluster.stop()  # the database goes away
        assert _status(server, "/api/ready") == (503, {"status": "no_database"})
        assert _status(server, "/api/live")[0] == 200  # alive: nothing to restart it for
    finally:
        server.stop()
        cluster.stop()


def test_json_logs_name_rooms_and_never_a_token(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'logs.db'}", "--log-format", "json", "--log-level", "info")

    async def body() -> tuple[str, list[str]]:
        room = create_room(server.url, "classic", 2, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann")
        await ann.send({"type": "action", "action": "draw", "version": 0, "token": ann.token, "bogus": 1})
        await ann.host("close", room["host_token"])
        await asyncio.sleep(0.5)
        return str(room["room"]), [str(ann.token), str(room["host_token"])]

    code, secrets = run(body)
    server.stop()
    lines = [line for line in server.log().splitlines() if line.startswith("{")]
    entries = [json.loads(line) for line in lines]
    assert entries and all({"time", "level", "logger", "message"} <= set(entry) for entry in entries)
    assert {entry.get("room") for entry in entries} >= {code}
    assert any(entry.get("room") == code and "closed" in entry["message"] for entry in entries)
    for secret in secrets:
        assert secret not in server.log()


def test_a_log_line_that_quotes_secrets_holds_none_of_them(capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever a line quotes (a client's message, a request's headers, an exception about a
    message), the values of its secret fields never reach the log, in either format."""
    secrets = {"token": "seat-secret-1", "host_token": "host-secret-2", "player": "player-secret-3"}
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        for form in ("json", "plain"):
            logs.configure("info", form)
            log = logging.getLogger("unokit.server")
            log.warning("refused %s", json.dumps({"type": "hello", **secrets}), extra={"room": "K7TQ2M"})
            log.warning("request headers %r", {"Authorization": "Bearer admin-secret-4"})
            try:
                raise ValueError(f"a bad message: {secrets!r}")
            except ValueError:
                log.exception("room K7TQ2M: failed")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    written = capsys.readouterr().err
    assert written.count("refused") == 2 and written.count("ValueError: a bad message") == 2  # both formats
    for secret in [*secrets.values(), "admin-secret-4"]:
        assert secret not in written


def test_sigterm_drains_commits_and_sends_clients_elsewhere(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'stop.db'}", "--log-level", "info")

    async def body() -> tuple[str, int, int | None]:
        room = create_room(server.url, "classic", 2, options={"target": 500}, settings={**FAST, "bot_seconds": 0.02})
        ann = await RoomClient.join(server.url, room["room"], name="Ann", reconnect=False)
        await ann.host("add_bot", room["host_token"], seat=1, bot="random")
        await ann.host("start", room["host_token"])
        acked = 0
        while acked < 20:  # play on until an action at step 20 or later is acknowledged
            state = await ann.wait_for(lambda s: ann.my_turn, 60)
            try:
                acked = (await ann.act(choose(state["observation"]), state["version"]))["version"]
            except ServerError as exc:
                assert exc.code in ("stale", "out_of_turn", "duplicate"), exc  # a bot's move came first
        assert server.proc is not None and ann._ws is not None
        server.proc.send_signal(signal.SIGTERM)
        assert ann._reader is not None
        await asyncio.wait_for(ann._reader, 30)  # the server closed the connection
        return str(room["room"]), acked, ann._ws.close_code

    code, acked, close_code = run(body)
    assert close_code == 1012  # "service restart": reconnect, here or to another process
    # uvicorn stops gracefully, then ends with the signal it caught (what a supervisor expects)
    assert server.proc is not None and server.proc.wait(30) in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in server.log() and "Traceback" not in server.log()
    server.start()  # on the same database: everything acknowledged is there
    assert get_json(server.url, f"/api/rooms/{code}")["version"] >= acked
