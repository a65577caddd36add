"""Hard limits: 10,000 malformed or hostile messages, oversized frames and a flood of
connections get clear errors or a closed connection, never a crash, and never slow down a game
being played in another room at the same time."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import websockets
from websockets.asyncio.client import connect

from unokit.record import GameRecord, verify
from unokit.server.client import RoomClient, create_room, download_record, play, ws_url

from .support import FAST, ServerProcess, choose, run

KNOWN_CODES = {
    "too_large",
    "bad_json",
    "too_deep",
    "bad_message",
    "unknown_type",
    "rate_limited",
    "not_joined",
    "no_room",
    "bad_token",
    "bad_protocol",
    "too_many_errors",
    "spectator",
    "foreign_seat",
    "stale",
    "phase",
    "not_host",
    "room_full",
    "room_crowded",
    "out_of_turn",
    "illegal",
    "invalid_action",
    "pong",  # a well-formed ping among the garbage
}


def hostile(i: int, room: str, token: str) -> str | bytes:
    """The i-th hostile message: every kind of garbage a client can send."""
    kinds: list[Any] = [
        "{not json",
        "",
        "[]",
        "null",
        "12345",
        json.dumps({"type": 42}),
        json.dumps({"type": "launch_missiles"}),
        json.dumps({"no": "type"}),
        json.dumps({"type": "action", "action": "draw"}),
        json.dumps({"type": "action", "action": "draw", "version": "x", "token": token}),
        json.dumps({"type": "action", "action": "draw", "version": True, "token": token}),
        json.dumps({"type": "action", "action": "draw", "version": 0, "token": "forged"}),
        json.dumps({"type": "action", "action": "draw", "version": 0, "token": token, "extra": 1}),
        json.dumps({"type": "hello", "room": "NOPE!!"}),
        json.dumps({"type": "hello", "room": room, "protocol": "unokit-server/0"}),
        json.dumps({"type": "hello", "room": room, "token": "forged"}),
        json.dumps({"type": "host", "command": "start", "host_token": "forged", "version": 0}),
        json.dumps({"type": "action", "action": "x" * 5000, "version": 0, "token": token}),
        "[" * 3000 + "]" * 3000,
        json.dumps({"type": "sync", "id": {"a": {"b": {"c": {"d": [1]}}}}}),
        json.dumps({"type": "ping", "id": 10**300}),
        b'{"type": "ping", "id": "\xff"}',
        b"\xff\xfe binary garbage",
        json.dumps({"type": "action", "action": "play red 99", "version": 0, "token": token, "id": i}),
    ]
    return kinds[i % len(kinds)]  # type: ignore[no-any-return]


async def _attack(server: ServerProcess, room: str, token: str, count: int) -> tuple[int, int, set[str]]:
    """Send ``count`` hostile messages; return (answers received, connections closed, the
    answers' error codes or types)."""
    errors = closes = 0
    codes: set[str] = set()
    sent = 0
    while sent < count:
        async with connect(ws_url(server.url), max_size=2**22) as ws:
            try:
                while sent < count:
                    await ws.send(hostile(sent, room, token))
                    sent += 1
                    answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    errors += 1
                    codes.add(answer["code"] if answer["type"] == "error" else answer["type"])
            except websockets.exceptions.ConnectionClosed:
                closes += 1
    return errors, closes, codes


def test_ten_thousand_hostile_messages_leave_the_server_and_other_rooms_unharmed(
    shared_server: ServerProcess,
) -> None:
    async def body() -> tuple[list[tuple[int, int, set[str]]], dict[str, Any], str]:
        # a real game in another room, played while the attack goes on
        room = create_room(shared_server.url, "flip", 3, options={"rounds": 2}, settings={**FAST, "bot_seconds": 0.005})
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        for seat in (1, 2):
            await me.host("add_bot", room["host_token"], seat=seat, bot="heuristic")
        await me.host("start", room["host_token"])
        target = create_room(shared_server.url, "classic", 2, settings=FAST)
        victim = await RoomClient.join(shared_server.url, target["room"], name="Vic")
        game = asyncio.create_task(play(me, choose, timeout=200))
        attacks = await asyncio.gather(
            *(_attack(shared_server, target["room"], str(victim.token), 2000) for _ in range(5))
        )
        final = await game
        await victim.close()
        await me.close()
        return attacks, final, room["room"]

    attacks, final, code = run(body, timeout=300)
    answered = sum(errors for errors, _closes, _codes in attacks)
    closed = sum(closes for _errors, closes, _codes in attacks)
    codes = set().union(*(c for _e, _c, c in attacks))
    assert answered + closed >= 10_000 - 5  # every message answered, or its connection closed
    assert codes <= KNOWN_CODES, codes - KNOWN_CODES
    assert {"bad_json", "too_large", "too_deep", "unknown_type", "bad_message", "bad_token"} <= codes
    with urllib.request.urlopen(f"{shared_server.url}/api/health", timeout=5) as response:
        assert json.loads(response.read())["status"] == "ok"
    assert final["room"]["phase"] == "finished"
    assert verify(GameRecord.loads(download_record(shared_server.url, code, 1))).ok
    assert "Traceback" not in shared_server.log()


def test_oversized_frames_close_the_connection_and_a_flood_of_connections_is_turned_away(
    shared_server: ServerProcess,
) -> None:
    async def body() -> tuple[bool, list[str]]:
        room = create_room(shared_server.url, "classic", 2, settings=FAST)
        closed = False
        async with connect(ws_url(shared_server.url), max_size=2**22) as ws:
            await ws.send("x" * 200_000)
            try:
                await asyncio.wait_for(ws.recv(), 10)
            except websockets.exceptions.ConnectionClosed:
                closed = True
        refusals: list[str] = []
        sockets = []
        for _ in range(80):  # more than the 64 connections one room takes
            ws = await connect(ws_url(shared_server.url))
            sockets.append(ws)
            await ws.send(json.dumps({"type": "hello", "room": room["room"], "role": "spectator"}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if answer["type"] == "error":
                refusals.append(answer["code"])
        # other rooms still work
        other = create_room(shared_server.url, "classic", 2, settings=FAST)
        fine = await RoomClient.join(shared_server.url, other["room"], name="Ok")
        assert fine.seat == 0
        await fine.close()
        for ws in sockets:
            ws.transport.abort()  # a flood does not say goodbye
        return closed, refusals

    closed, refusals = run(body)
    assert closed
    assert refusals and set(refusals) == {"room_crowded"}
    assert len(refusals) == 80 - 64


def test_the_rate_limit_answers_a_flood_with_errors(make_server: Any, tmp_path: Any) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'rate.db'}", "--rate", "5", "--burst", "10")

    async def body() -> list[str]:
        codes = []
        async with connect(ws_url(server.url)) as ws:
            for i in range(40):
                await ws.send(json.dumps({"type": "ping", "id": i}))
            for _ in range(40):
                answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
                codes.append(answer.get("code", answer["type"]))
        return codes

    codes = run(body)
    assert codes.count("pong") >= 10 and codes.count("rate_limited") >= 20


#: The costliest hand a score request can carry: one name over and over, in a body at the
#: largest size the server reads (every word starts a name, and none is followed by more).
WORST_SCORE = json.dumps({"variant": "classic", "cards": " ".join(["wild"] * 12_000)}).encode()


def _score_flood(url: str, stop: threading.Event, answers: list[tuple[int, str]]) -> None:
    """Post :data:`WORST_SCORE` again and again until ``stop``; keep each (status, message)."""
    while not stop.is_set():
        request = urllib.request.Request(
            f"{url}/api/score", WORST_SCORE, {"Content-Type": "application/json"}, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answers.append((response.status, ""))
        except urllib.error.HTTPError as exc:
            answers.append((exc.code, json.loads(exc.read())["message"]))
        except OSError:
            return  # the server was stopped while this one waited


def test_the_costliest_score_request_delays_no_other_rooms_action(shared_server: ServerProcess) -> None:
    """S1: scoring reads a hand in time proportional to it, refuses more cards than a deck
    holds, and runs apart from the rooms' loop: while two clients post the costliest hand
    without pause, a game's actions in another room are answered as fast as before (a hand of
    4 KB used to take 21 s of the server's only loop, and 64 KB a day)."""
    assert len(WORST_SCORE) < 65536

    async def timed_actions(client: RoomClient, count: int) -> list[float]:
        times = []
        for _ in range(count):
            await client.wait_for(lambda _state: client.my_turn)
            started = time.perf_counter()
            await asyncio.wait_for(client.act(choose(client.observation or {})), 10)
            times.append(time.perf_counter() - started)
        return times

    async def body() -> tuple[list[float], list[float], list[tuple[int, str]]]:
        room = create_room(shared_server.url, "classic", 2, settings=FAST, bots=["heuristic"])
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        await me.host("start", room["host_token"])
        usual = await timed_actions(me, 4)
        stop, answers = threading.Event(), list[tuple[int, str]]()
        floods = [asyncio.to_thread(_score_flood, shared_server.url, stop, answers) for _ in range(2)]
        flooding = asyncio.gather(*floods)
        await asyncio.sleep(0.2)
        try:
            during = await timed_actions(me, 4)
        finally:
            stop.set()
            await flooding
            await me.close()
        return usual, during, answers

    usual, during, answers = run(body, timeout=120)
    assert answers and all(status == 400 for status, _message in answers)
    assert "cannot hold more than 108 cards" in answers[0][1]
    bound = max(1.0, 10 * max(usual))  # generous: the machine is shared; a stalled loop takes minutes
    assert max(during) < bound, (usual, during)
