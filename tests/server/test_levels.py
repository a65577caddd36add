"""The levels in the server: a room is created with a level as its stand-in bot, the host seats
bots by level, and they play a hand with a person (with their human habits; engine names stay
accepted for scripts)."""

from __future__ import annotations

import subprocess
import sys

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


def test_the_bots_a_room_may_seat_are_known_without_importing_numba() -> None:
    """Seating a bot asks which bots are installed: finding out by importing them brought numba
    (4.6 s of CPU on the rooms' loop at the first bot a host seated, more under load, every
    room of the process stalled meanwhile). The server knows them without it, and knows the
    same ones that import."""
    from unokit.bots import BOT_CLASSES, bot_names
    from unokit.server.room import SEAT_BOTS, seat_bots

    probe = "import sys; from unokit.server.room import seat_bots; seat_bots(); print('numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "False"
    engines = {name for name in SEAT_BOTS if name in BOT_CLASSES}
    assert set(seat_bots()) & engines == set(bot_names()) & engines
