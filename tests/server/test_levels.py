"""The levels in the server: a room is created with a level as its stand-in bot, the host seats
bots by level, and they play a hand with a person (with their human habits; engine names stay
accepted for scripts)."""

from __future__ import annotations

import pytest

from unokit.server.client import RoomClient, ServerError, create_room

from .support import FAST, ServerProcess, choose, run


def test_rooms_take_levels_at_creation_and_seat_them(shared_server: ServerProcess) -> None:
    async def body() -> None:
        room = create_room(
            shared_server.url, "classic", 3, options={"rounds": 1}, settings={**FAST, "standin_bot": "easy"}
        )
        with pytest.raises(ServerError) as refused:
            create_room(shared_server.url, "classic", 3, settings={"standin_bot": "grandmaster"})
        assert refused.value.code == "bad_settings" and "expert" in str(refused.value)
        host = room["host_token"]
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        await me.host("add_bot", host, seat=1, bot="hard")
        await me.host("add_bot", host, seat=2, bot="beginner")
        seated = await me.wait_for(lambda s: s["room"]["seats"][2]["kind"] == "bot")
        assert seated["room"]["settings"]["standin_bot"] == "easy"
        assert [seat["bot"] for seat in seated["room"]["seats"]] == [None, "hard", "beginner"]
        await me.host("start", host)
        while me.phase == "playing":
            await me.wait_for(lambda s: me.my_turn or s["room"]["phase"] != "playing")
            if me.my_turn:
                await me.act(choose(me.observation or {}))
        assert me.phase == "finished"
        await me.close()

    run(body)
