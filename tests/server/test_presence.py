"""Players who drop, leave or idle: the client reconnects with its token and gets its seat back;
after the grace period (or a turn timer) a stand-in bot plays the seat until its player returns."""

from __future__ import annotations

import asyncio
from typing import Any

from unokit.server.client import RoomClient, create_room, download_record, play

from .support import FAST, ServerProcess, choose, run


def _played_by(messages: list[dict[str, Any]], seat: int) -> int:
    return sum(
        1
        for m in messages
        if m["type"] == "state"
        for e in m["events"]
        if e["type"] in ("play", "draw", "press", "keep")
        and e.get("seat") == seat
        and e.get("reason", "turn") == "turn"
    )


def test_a_dropped_connection_reconnects_by_itself_and_keeps_its_seat(shared_server: ServerProcess) -> None:
    async def body() -> tuple[dict[str, Any], int, str, str]:
        room = create_room(shared_server.url, "flip", 2, options={"rounds": 1}, settings=FAST)
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        await me.host("add_bot", room["host_token"], seat=1, bot="heuristic")
        await me.host("start", room["host_token"])
        token = me.token
        for _ in range(3):
            await me.wait_for(lambda s: me.my_turn or s["room"]["phase"] == "finished")
            if me.phase == "finished":
                break
            await me.act(choose(me.observation or {}))
            count = me.reconnects
            await me.drop()  # the network fails right after an acknowledged action
            await me.wait_for(lambda _state: bool(me.reconnects > count and me.connected))  # noqa: B023
        assert me.seat == 0 and me.token == token
        final = await play(me, choose)
        await me.close()
        return final, me.reconnects, room["room"], str(token)

    final, reconnects, code, _token = run(body)
    assert reconnects >= 1
    assert final["room"]["phase"] == "finished"
    record = download_record(shared_server.url, code, 1)
    assert '"Ann"' in record


def test_a_player_gone_past_the_grace_period_is_played_by_a_bot_until_they_return(shared_server: ServerProcess) -> None:
    async def body() -> None:
        settings = {**FAST, "grace_seconds": 0.3, "bot_seconds": 0.05}
        room = create_room(shared_server.url, "classic", 2, options={"rounds": 1}, settings=settings)
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann", reconnect=False)
        watcher = await RoomClient.join(shared_server.url, room["room"], role="spectator", keep=True)
        await me.host("add_bot", room["host_token"], seat=1, bot="random")
        await me.host("start", room["host_token"])
        token = me.token
        await me.close()  # Ann leaves in the middle of the game
        state = await watcher.wait_for(lambda s: s["room"]["away"] == [0], 10)
        assert state["room"]["connected"][0] is False
        before = _played_by(watcher.received, 0)
        await watcher.wait_for(
            lambda s: _played_by(watcher.received, 0) >= before + 2 or s["room"]["phase"] != "playing"
        )
        back = await RoomClient.join(shared_server.url, room["room"], token=token)
        assert back.seat == 0
        state = await back.wait_for(lambda s: s["room"]["away"] == [] and s["room"]["connected"][0])
        if state["room"]["phase"] == "playing":
            # the seat is Ann's again: when her decision comes, nobody takes it for her
            await back.wait_for(lambda s: back.my_turn, 10)
            waiting = back.version
            await asyncio.sleep(0.5)
            assert back.version == waiting
        await back.close()
        await watcher.close()

    run(body)


def test_the_turn_timer_lets_a_stand_in_play_an_idle_player_who_may_come_back(shared_server: ServerProcess) -> None:
    async def body() -> None:
        settings = {**FAST, "turn_seconds": 0.4, "bot_seconds": 0.05}
        room = create_room(shared_server.url, "classic", 2, options={"rounds": 1}, settings=settings)
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann", keep=True)
        await me.host("add_bot", room["host_token"], seat=1, bot="random")
        await me.host("start", room["host_token"])
        state = await me.wait_for(lambda s: me.my_turn)
        assert state["room"]["deadline"] is not None
        await me.wait_for(lambda s: s["room"]["away"] == [0], 5)  # Ann did nothing: timed out
        await me.wait_for(lambda s: _played_by(me.received, 0) >= 1 or s["room"]["phase"] != "playing", 5)
        await me.back()
        await me.wait_for(lambda s: s["room"]["away"] == [])
        await me.close()

    run(body)
