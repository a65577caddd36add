"""Whole games over the real server: a client and bots play every variant to the end, a
spectator watches, and neither stream ever names a card its reader may not see."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unokit.record import GameRecord, verify
from unokit.server.client import RoomClient, ServerError, create_room, download_record, get_json, play

from .support import FAST, ServerProcess, choose, leaks, run

VARIANTS = [
    ("classic", 4, {}),
    ("flip", 4, {}),
    ("attack", 3, {}),
    ("flip_attack", 4, {"launcher": "pattern"}),
]


async def _full_game(server: ServerProcess, variant: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    room = create_room(server.url, variant, players, options=options, settings=FAST)
    code, host = room["room"], room["host_token"]
    me = await RoomClient.join(server.url, code, name="Ann", keep=True)
    watcher = await RoomClient.join(server.url, code, role="spectator", keep=True)
    bots = ["heuristic", "random", "heuristic", "random"]
    for seat in range(1, players):
        await me.host("add_bot", host, seat=seat, bot=bots[seat - 1])
    await me.host("start", host)
    final = await play(me, choose, timeout=200)
    await watcher.wait_for(lambda s: s["version"] == final["version"], 30)
    await me.close()
    await watcher.close()
    return {"code": code, "final": final, "me": me, "watcher": watcher}


@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_a_client_and_bots_play_a_whole_game(
    shared_server: ServerProcess, variant: str, players: int, options: dict[str, Any]
) -> None:
    result = run(lambda: _full_game(shared_server, variant, players, options))
    final, me, watcher = result["final"], result["me"], result["watcher"]
    assert final["room"]["phase"] == "finished"
    assert final["observation"]["over"] is True and final["observation"]["winners"]
    assert any(e["type"] == "game_end" for m in me.received if m["type"] == "state" for e in m["events"])

    listing = get_json(shared_server.url, f"/api/rooms/{result['code']}/records")
    assert listing["records"] == [1]
    text = download_record(shared_server.url, result["code"], 1)
    record = GameRecord.loads(text)
    assert record.variant == variant and record.seats[0].name == "Ann"
    assert len(record.actions) == final["game_step"]
    verdict = verify(record)
    assert verdict.ok, verdict.message
    assert record.result is not None and record.result.scores == final["observation"]["scores"]

    # the spectator saw the same game, never a hand, never a legal action
    spectator_states = [m for m in watcher.received if m["type"] == "state"]
    assert spectator_states[-1]["version"] == final["version"]
    assert all(m["seat"] is None for m in spectator_states)
    assert all(m["observation"] is None or m["observation"]["hand"] == [] for m in spectator_states)
    assert all(m["observation"] is None or m["observation"]["legal_actions"] == [] for m in spectator_states)

    assert leaks(me.received, text, 0) == []
    assert leaks(watcher.received, text, None) == []


def test_the_leak_scan_finds_a_leak(shared_server: ServerProcess) -> None:
    """The scan above can fail: another seat's hand pasted into a stream is reported."""

    async def body() -> tuple[list[dict[str, Any]], str]:
        result = await _full_game(shared_server, "flip", 3, {"rounds": 1})
        text = download_record(shared_server.url, result["code"], 1)
        return result["me"].received, text

    messages, text = run(body)
    record = GameRecord.loads(text)
    from unokit.record import Replay

    other_hand = Replay(record).game_at(0).observe(1)["hand"]
    forged = {"type": "state", "room": {"game_no": 1}, "game_step": 0, "observation": {"hand": other_hand}}
    assert leaks([*messages[:3], forged], text, 0) != []


def test_unokit_verify_accepts_a_downloaded_record(shared_server: ServerProcess, tmp_path: Path) -> None:
    result = run(lambda: _full_game(shared_server, "classic", 2, {"rounds": 1}))
    text = download_record(shared_server.url, result["code"], 1)
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    unokit = str(Path(sys.executable).with_name("unokit"))
    done = subprocess.run([unokit, "verify", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "reproduces" in done.stdout


def test_the_host_can_start_another_game_and_both_are_kept(shared_server: ServerProcess) -> None:
    async def body() -> list[int]:
        room = create_room(shared_server.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        await me.host("add_bot", room["host_token"], seat=1, bot="random")
        for _ in range(2):
            await me.host("start", room["host_token"])
            await play(me, choose, timeout=100)
        with pytest.raises(ServerError) as refused:
            await me.host("continue", room["host_token"])
        assert refused.value.code == "phase"
        await me.close()
        numbers: list[int] = get_json(shared_server.url, f"/api/rooms/{room['room']}/records")["records"]
        return numbers

    assert run(body) == [1, 2]


def test_an_external_bot_joins_over_the_client(shared_server: ServerProcess) -> None:
    """Two programs that speak the protocol (here: two clients) play each other to the end."""

    async def body() -> tuple[dict[str, Any], dict[str, Any]]:
        room = create_room(shared_server.url, "attack", 2, options={"rounds": 1}, settings=FAST)
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        bot = await RoomClient.join(shared_server.url, room["room"], name="outside bot")
        assert (ann.seat, bot.seat) == (0, 1)
        await ann.host("start", room["host_token"])
        finals = await asyncio.gather(play(ann, choose), play(bot, choose))
        await ann.close()
        await bot.close()
        return finals[0], finals[1]

    mine, theirs = run(body)
    assert mine["room"]["phase"] == theirs["room"]["phase"] == "finished"
    assert mine["observation"]["scores"] == theirs["observation"]["scores"]


def test_a_game_is_stored_and_downloaded_alike_on_each_database(
    database: str, make_server: Callable[..., ServerProcess]
) -> None:
    """The same storage path on SQLite and on a real PostgreSQL: a whole game, its record."""
    server = make_server(database)
    result = run(lambda: _full_game(server, "flip", 3, {"rounds": 1}))
    record = GameRecord.loads(download_record(server.url, result["code"], 1))
    assert verify(record).ok
    assert len(record.actions) == result["final"]["game_step"]
    assert get_json(server.url, f"/api/rooms/{result['code']}")["phase"] == "finished"
