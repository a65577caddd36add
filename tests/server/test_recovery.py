"""Nothing acknowledged is lost: ``kill -9`` of the server in the middle of a game, a restart on
the same database, and the clients reconnect by themselves and play on. Every state any client
was ever shown is checked against the replay of the finished game's record. Run on SQLite and
on a real PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from unokit.record import GameRecord, Replay
from unokit.server.client import RoomClient, create_room, download_record, play

from .support import FAST, ServerProcess, choose, run


def _shown_states(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for message in messages:
        state = message if message.get("type") == "state" else message.get("state")
        if isinstance(state, dict) and state.get("observation") is not None:
            out.append(state)
    return out


def test_kill_9_mid_game_loses_no_acknowledged_action(database: str, make_server: Callable[..., ServerProcess]) -> None:
    server = make_server(database, "--lease", "2")  # a restarted process waits out the dead one's lease

    async def body() -> tuple[str, list[RoomClient], int]:
        settings = {**FAST, "bot_seconds": 0.01}
        room = create_room(server.url, "flip", 3, options={"rounds": 2}, settings=settings)
        ann = await RoomClient.join(server.url, room["room"], name="Ann", keep=True)
        ben = await RoomClient.join(server.url, room["room"], name="Ben", keep=True)
        await ann.host("add_bot", room["host_token"], seat=2, bot="heuristic")
        await ann.host("start", room["host_token"])
        games = [asyncio.create_task(play(client, choose, timeout=200)) for client in (ann, ben)]
        await ann.wait_for(lambda s: s["game_step"] >= 25, 60)
        before = max(ann.version, ben.version)
        server.kill()  # kill -9, mid-game
        await asyncio.sleep(0.3)
        server.start()  # same port, same database
        finals = await asyncio.gather(*games)
        for client in (ann, ben):
            await client.close()
        assert all(final["room"]["phase"] == "finished" for final in finals)
        return room["room"], [ann, ben], before

    code, clients, before = run(body)
    assert all(client.reconnects >= 1 for client in clients)
    record = GameRecord.loads(download_record(server.url, code, 1))
    replay = Replay(record)
    checked = 0
    for client in clients:
        for state in _shown_states(client.received):
            assert state["observation"] == replay.game_at(state["game_step"]).observe(client.seat), (
                f"seat {client.seat} was shown a state at step {state['game_step']} that the record does not have"
            )
            checked += 1
    assert checked > 50
    assert len(record.actions) >= 25 and before > 0
