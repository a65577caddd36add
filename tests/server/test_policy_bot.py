"""A trained policy in a server room: ``unokit serve --bots policy:FILE.onnx`` offers it to hosts as
the seat bot ``policy:<file name>``, refused at a table of another game, and it plays a hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unokit.server.client import RoomClient, ServerError, create_room

from ..helpers import write_policy
from .support import FAST, ServerProcess, choose, run


def test_a_server_room_seats_a_policy(make_server: Any, tmp_path: Path) -> None:
    classic2 = write_policy(tmp_path / "classic2.onnx", "classic", 2)
    server: ServerProcess = make_server(f"sqlite:///{tmp_path / 'server.db'}", "--bots", f"policy:{classic2}")

    async def body() -> None:
        flip = create_room(server.url, "flip", 2, settings=FAST)
        me = await RoomClient.join(server.url, flip["room"], name="Ann")
        try:
            await me.host("add_bot", flip["host_token"], seat=1, bot="policy:classic2")
        except ServerError as refused:
            assert refused.code == "bad_bot" and "plays classic with 2 seats, not flip with 2" in str(refused)
        else:
            raise AssertionError("a classic policy was seated at a flip table")
        await me.close()
        room = create_room(server.url, "classic", 2, settings=FAST)
        me = await RoomClient.join(server.url, room["room"], name="Ann")
        await me.host("add_bot", room["host_token"], seat=1, bot="policy:classic2")
        await me.host("start", room["host_token"])
        while me.phase == "playing":
            await me.wait_for(lambda s: me.my_turn or s["room"]["phase"] != "playing")
            if me.my_turn:
                try:
                    await me.act(choose(me.observation or {}))
                except ServerError as late:  # the bot called its UNO before my catch arrived
                    assert late.code == "stale", late
        assert me.phase in ("hand_over", "finished")
        assert me.state["room"]["seats"][1]["bot"] == "policy:classic2"  # type: ignore[index]
        await me.close()

    run(body)
