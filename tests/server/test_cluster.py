"""Two ``unokit serve`` processes on one PostgreSQL database serve one room: a client on each,
the owner of the room killed with ``kill -9``, the other process takes the room over from the
database, and nothing any client was shown is lost."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Callable

from unokit.record import GameRecord, Replay
from unokit.server.client import RoomClient, create_room, download_record, play

from .support import FAST, PostgresCluster, ServerProcess, choose, run
from .test_recovery import _shown_states


def _node(server: ServerProcess) -> str:
    with urllib.request.urlopen(f"{server.url}/api/health", timeout=5) as response:
        return str(json.loads(response.read())["node"])


def _served_by(server: ServerProcess, code: str) -> str:
    with urllib.request.urlopen(f"{server.url}/api/rooms/{code}", timeout=5) as response:
        return str(json.loads(response.read())["served_by"])


def test_two_processes_share_a_room_and_one_takes_over_when_the_owner_dies(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    database = postgres.new_database()
    first = make_server(database, "--lease", "2")
    second = make_server(database, "--lease", "2")
    first_node, second_node = _node(first), _node(second)

    async def body() -> tuple[str, list[RoomClient], dict[str, int]]:
        settings = {**FAST, "bot_seconds": 0.01}
        room = create_room(first.url, "classic", 3, options={"rounds": 2}, settings=settings)
        ann = await RoomClient.join([first.url, second.url], room["room"], name="Ann", keep=True)
        ben = await RoomClient.join([second.url, first.url], room["room"], name="Ben", keep=True)
        assert (ann.seat, ben.seat) == (0, 1)
        await ben.wait_for(lambda s: s["room"]["seats"][0]["name"] == "Ann")
        await ann.host("add_bot", room["host_token"], seat=2, bot="heuristic")
        await ann.host("start", room["host_token"])
        games = [asyncio.create_task(play(client, choose, timeout=200)) for client in (ann, ben)]
        await ben.wait_for(lambda s: s["game_step"] >= 20, 60)
        steps = {"before_kill": ben.state["game_step"] if ben.state else 0}
        assert _served_by(second, room["room"]) == _served_by(first, room["room"]) == first_node
        first.kill()  # the owner dies; the second process must take the room over
        finals = await asyncio.gather(*games)
        for client in (ann, ben):
            await client.close()
        assert all(final["room"]["phase"] == "finished" for final in finals)
        steps["final"] = finals[0]["game_step"]
        assert _served_by(second, room["room"]) == second_node
        return room["room"], [ann, ben], steps

    code, clients, steps = run(body)
    assert steps["final"] > steps["before_kill"] >= 20
    assert clients[0].reconnects >= 1  # Ann was on the killed process and moved to the other
    record = GameRecord.loads(download_record(second.url, code, 1))
    replay = Replay(record)
    for client in clients:
        shown = _shown_states(client.received)
        assert shown
        for state in shown:
            assert state["observation"] == replay.game_at(state["game_step"]).observe(client.seat)


def test_notifications_are_grouped_in_order_within_postgresql_s_payload_limit() -> None:
    from unokit.server.hub import NOTIFY_BYTES, _notification_texts

    payloads = [json.dumps({"k": "log", "room": f"R{i}", "seq": i, "name": "Zoë" * 20}) for i in range(300)]
    payloads.insert(150, json.dumps({"k": "fwd", "msg": "x" * (NOTIFY_BYTES + 10)}))  # too long to share
    texts = _notification_texts(payloads)
    assert [json.dumps(p) for text in texts for p in json.loads(text)] == payloads  # all, in order, once
    assert 2 < len(texts) < 40
    for text in texts:
        assert len(text.encode()) <= NOTIFY_BYTES or len(json.loads(text)) == 1
