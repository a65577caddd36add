"""Each player's share of finished games at public tables (``docs/server.md``, "Finishing
games"): a player who leaves a game in the middle (the stand-in plays their last moves) has it
counted as left, one who plays to the end as finished; private rooms do not tell it."""

from __future__ import annotations

import pytest

from unokit.server.client import RoomClient, ServerError, create_room, get_json, new_identity, play

from .support import FAST, ServerProcess, choose, run

SETTINGS = {**FAST, "grace_seconds": 0.2, "bot_seconds": 0.05}


def test_a_public_table_shows_who_finishes_their_games(shared_server: ServerProcess) -> None:
    server = shared_server
    ann = new_identity()

    async def body() -> tuple[str, str]:
        def public_room() -> dict[str, str]:
            return create_room(
                server.url, "classic", 2, options={"rounds": 1}, settings=SETTINGS, public=True, bots=["beginner"]
            )

        # A first game she leaves in the middle: the stand-in plays her seat to the end.
        first = public_room()
        me = await RoomClient.join(server.url, first["room"], name="Ann", player=ann, reconnect=False)
        await me.host("start", first["host_token"])
        await me.wait_for(lambda s: s["room"]["phase"] == "playing", 30)
        await me.close()
        watcher = await RoomClient.join(server.url, first["room"], role="spectator")
        await watcher.wait_for(lambda s: s["room"]["phase"] == "finished", 120)
        await watcher.close()
        # A second one she plays to its end, and stays at.
        second = public_room()
        me = await RoomClient.join(server.url, second["room"], name="Ann", player=ann)
        await me.host("start", second["host_token"])
        await play(me, choose, timeout=120)
        shown = get_json(server.url, f"/api/rooms/{second['room']}/finishing")
        await me.close()
        private = create_room(server.url, "classic", 2, settings=SETTINGS, bots=["beginner"])
        return shown, str(private["room"])

    shown, private = run(body)
    assert shown["days"] == 30
    assert shown["seats"] == [{"seat": 0, "name": "Ann", "games": 2, "finished": 1, "share": 0.5}]
    with pytest.raises(ServerError) as refused:
        get_json(server.url, f"/api/rooms/{private}/finishing")
    assert refused.value.code == "no_room"
