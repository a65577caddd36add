"""Two ``unokit serve`` processes on one PostgreSQL database serve one room: its clients are sent
to the process that owns it (or, for a client that does not follow redirects, served by the
other one through forwarding), the owner is killed with ``kill -9``, the other process takes the
room over from the database, the clients come back by themselves, and nothing any client was
shown is lost."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from unokit.record import GameRecord, Replay
from unokit.server.client import RoomClient, ServerError, create_room, download_record, play, ws_url
from unokit.server.owners import FORWARD_TIMEOUT, RENEW_CHUNK
from unokit.server.storage import Store

from .support import FAST, PostgresCluster, ServerProcess, choose, run
from .test_recovery import _shown_states


def _cluster(make_server: Callable[..., ServerProcess], database: str, *args: str) -> list[ServerProcess]:
    """Two server processes on ``database``, started together."""
    servers = [make_server(database, *args, wait=False) for _ in range(2)]
    return [server.wait() for server in servers]


def _node(server: ServerProcess) -> str:
    with urllib.request.urlopen(f"{server.url}/api/health", timeout=5) as response:
        return str(json.loads(response.read())["node"])


def _health(server: ServerProcess) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/health", timeout=5) as response:
        health: dict[str, Any] = json.loads(response.read())
        return health


def _served_by(server: ServerProcess, code: str) -> str:
    with urllib.request.urlopen(f"{server.url}/api/rooms/{code}", timeout=5) as response:
        return str(json.loads(response.read())["served_by"])


def test_two_processes_share_a_room_and_one_takes_over_when_the_owner_dies(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    database = postgres.new_database()
    first, second = _cluster(make_server, database)
    first_node, second_node = _node(first), _node(second)

    async def body() -> tuple[str, list[RoomClient], dict[str, int]]:
        settings = {**FAST, "bot_seconds": 0.01}
        room = create_room(first.url, "classic", 3, options={"rounds": 2}, settings=settings)
        ann = await RoomClient.join([first.url, second.url], room["room"], name="Ann", keep=True)
        # Ben cannot follow redirects: the second process serves him, forwarding to the owner.
        ben = await RoomClient.join(
            [second.url, first.url], room["room"], name="Ben", keep=True, follow_redirects=False
        )
        assert (ann.seat, ben.seat) == (0, 1)
        assert ben.server == ws_url(second.url) and _health(second)["rooms"]["followed"] == 1
        await ben.wait_for(lambda s: s["room"]["seats"][0]["name"] == "Ann")
        await ann.host("add_bot", room["host_token"], seat=2, bot="heuristic")
        await ann.host("start", room["host_token"])
        games = [asyncio.create_task(play(client, choose, timeout=200)) for client in (ann, ben)]
        await ben.wait_for(lambda s: s["game_step"] >= 20, 60)
        steps = {"before_kill": ben.state["game_step"] if ben.state else 0}
        assert _served_by(second, room["room"]) == _served_by(first, room["room"]) == first_node
        assert _health(second)["forwarded"] > 0
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
    _state_checked(second, code, clients)


def test_an_owner_whose_lease_was_taken_while_it_was_slow_commits_nothing_more(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    """An owner too slow to renew its lease in time (here the lease is made to run out in the
    database, as a late renewal leaves it) loses the room to the next process that needs it,
    and does not know yet. From then on it writes nothing for the room: its client's message
    is refused (it follows the new owner from then on) or passed on, and what its client is
    told was done reaches the new owner's clients. (Without fencing, both processes ran the
    room, each unaware of the other's steps.)"""
    import psycopg

    database = postgres.new_database()
    # A lease of 60 s: renewed every 20 s, so no renewal or sweep happens during the test.
    first, second = _cluster(make_server, database, "--lease", "60")
    first_node, second_node = _node(first), _node(second)

    async def body() -> dict[str, Any]:
        room = create_room(first.url, "classic", 3, settings=FAST)
        code = room["room"]
        ann = await RoomClient.join([first.url], code, name="Ann")
        assert _served_by(first, code) == first_node
        with psycopg.connect(database, autocommit=True) as conn:  # the renewal is late
            conn.execute("UPDATE rooms SET lease_until = 0 WHERE code = %s", (code,))
        ben = await RoomClient.join([second.url], code, name="Ben")  # the second process takes the room
        assert _served_by(second, code) == second_node and ben.server == ws_url(second.url)
        refusals = []
        for _ in range(20):
            try:
                await ann.say("still here")
                break
            except ServerError as exc:
                refusals.append(exc.code)
                await asyncio.sleep(0.1)
        await ben.wait_for(lambda _state: "still here" in [m.get("text") for m in ben.chat], 20)
        seen = {"refusals": refusals, "first": _health(first)["rooms"], "second": _health(second)["rooms"]}
        await ann.close()
        await ben.close()
        return seen

    seen = run(body)
    assert set(seen["refusals"]) <= {"unavailable"}
    assert seen["first"]["owned"] == 0 and seen["second"] == {"owned": 1, "followed": 0}


def test_notifications_are_grouped_in_order_within_postgresql_s_payload_limit() -> None:
    from unokit.server.cluster import NOTIFY_BYTES, notification_texts

    payloads = [json.dumps({"k": "log", "room": f"R{i}", "seq": i, "name": "Zoë" * 20}) for i in range(300)]
    payloads.insert(150, json.dumps({"k": "fwd", "msg": "x" * (NOTIFY_BYTES + 10)}))  # too long to share
    texts = notification_texts(payloads)
    assert [json.dumps(p) for text in texts for p in json.loads(text)] == payloads  # all, in order, once
    assert 2 < len(texts) < 40
    for text in texts:
        assert len(text.encode()) <= NOTIFY_BYTES or len(json.loads(text)) == 1


def test_notifications_that_come_with_a_change_of_channels_are_all_handled(postgres: PostgresCluster) -> None:
    """A process starts listening to a room's channel (its listener wakes up to make the
    change) while another room's announcement comes in the same packet as the wake-up: every
    announcement is handled, in order, none dropped with the rest of a packet."""
    from unokit.server.cluster import Link, room_channel
    from unokit.server.storage import libpq_url

    received: list[int] = []

    async def body() -> None:
        link = Link(libpq_url(postgres.new_database()), "listener", lambda _channel, p: received.append(p["n"]))
        await link.start()
        try:
            await link.listen(room_channel("AAAAAA"))
            for n in range(10):
                change = asyncio.create_task(link.listen(room_channel(f"BBBBB{n}")))
                await asyncio.sleep(0)  # the change is asked for: its wake-up is the first to go
                link.send(room_channel("AAAAAA"), {"n": n})  # in the same statement, right after it
                await asyncio.wait_for(change, 10)
            link.send(room_channel("AAAAAA"), {"n": 10})
            for _ in range(200):
                if 10 in received:
                    break
                await asyncio.sleep(0.05)
        finally:
            await link.stop()

    run(body, timeout=60)
    assert received == list(range(11))


def _state_checked(server: ServerProcess, code: str, clients: list[RoomClient]) -> None:
    """Every state each client was shown is the replayed game's own view of its seat."""
    replay = Replay(GameRecord.loads(download_record(server.url, code, 1)))
    for client in clients:
        shown = _shown_states(client.received)
        assert shown
        for state in shown:
            assert state["observation"] == replay.game_at(state["game_step"]).observe(client.seat)


def test_clients_are_sent_to_the_owner_and_come_back_by_themselves_after_a_takeover(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    database = postgres.new_database()
    first, second = _cluster(make_server, database)
    second_node = _node(second)

    async def body() -> tuple[str, list[RoomClient], dict[str, Any]]:
        settings = {**FAST, "bot_seconds": 0.01}
        room = create_room(second.url, "classic", 3, options={"rounds": 2}, settings=settings)
        code = room["room"]
        # Ann's hello reaches the first process, which takes the new room: it owns it now.
        ann = await RoomClient.join([first.url, second.url], code, name="Ann", keep=True)
        # Ben and a spectator say hello to the second process, which sends them to the owner.
        ben = await RoomClient.join([second.url, first.url], code, name="Ben", keep=True)
        eve = await RoomClient.join([second.url], code, role="spectator", keep=True)
        assert {c.server for c in (ann, ben, eve)} == {ws_url(first.url)}
        assert (ben.redirected, eve.redirected, _health(second)["redirected"]) == (1, 1, 2)
        await ann.host("add_bot", room["host_token"], seat=2, bot="heuristic")
        await ann.host("start", room["host_token"])
        games = [asyncio.create_task(play(client, choose, timeout=200)) for client in (ann, ben)]
        await ben.wait_for(lambda s: s["game_step"] >= 20, 60)
        # The steady state: the owner serves every client, nothing crosses between processes.
        steady = [_health(first), _health(second)]
        assert [h["forwarded"] for h in steady] == [0, 0]
        assert [h["rooms"] for h in steady] == [{"owned": 1, "followed": 0}, {"owned": 0, "followed": 0}]
        before_kill = ben.state["game_step"] if ben.state else 0
        first.kill()
        finals = await asyncio.gather(*games)
        await eve.wait_for(lambda s: s["room"]["phase"] == "finished", 60)
        after = _health(second)
        for client in (ann, ben, eve):
            await client.close()
        return code, [ann, ben, eve], {"finals": finals, "before_kill": before_kill, "after": after}

    code, clients, seen = run(body)
    assert all(final["room"]["phase"] == "finished" for final in seen["finals"])
    assert seen["finals"][0]["game_step"] > seen["before_kill"] >= 20
    assert _served_by(second, code) == second_node
    assert seen["after"]["rooms"] == {"owned": 1, "followed": 0}
    for client in clients:  # each came back by itself, to the live process that owns the room
        assert client.reconnects >= 1 and client.server == ws_url(second.url)
    _state_checked(second, code, clients)


def test_a_request_made_while_the_client_is_sent_elsewhere_fails_at_once_instead_of_hanging(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    """Ben knows only the process that does not own his room. His connection drops; while his
    client says hello again there (and is about to be sent to the owner), a request of his is
    refused at once as not connected, so that the caller tries again once it is, rather than
    sent on the connection that the redirect ends, where nothing answers it (an action there
    waited out its whole timeout, 45 s, and the game stalled)."""
    first, second = _cluster(make_server, postgres.new_database())

    async def body() -> str:
        room = create_room(second.url, "classic", 3, settings=FAST)
        code = room["room"]
        ann = await RoomClient.join([first.url], code, name="Ann")  # the first process owns it now
        ben = await RoomClient.join([second.url], code, name="Ben")
        assert ben.redirected == 1 and ben.server == ws_url(first.url)
        old = ben._ws
        assert old is not None
        old.transport.abort()
        while ben._ws is old or ben._ws is None:  # the new connection, to the second process
            await asyncio.sleep(0)
        assert not ben.connected
        try:
            await asyncio.wait_for(ben.request({"type": "ping"}), 5)
        except ConnectionError as exc:
            outcome = f"refused: {exc}"
        except TimeoutError:
            outcome = "no answer in 5 s"
        else:
            outcome = "answered"
        await ben.wait_for(lambda state: ben.connected, 30)  # and it comes back by itself
        assert ben.server == ws_url(first.url) and ben.redirected == 2
        await ben.request({"type": "ping"})
        for client in (ann, ben):
            await client.close()
        return outcome

    assert run(body, timeout=60) == "refused: not connected"


def test_a_follower_takes_a_dead_owners_room_over_as_soon_as_its_forward_goes_unanswered(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    """Ann's process follows her room and forwards her messages to its owner. The owner is
    killed (``kill -9``) at her turn: her action is served by her own process well within the
    forward timeout (5 s), because it claims the room as soon as a forwarded message goes
    unanswered for half a second (the claim takes only a dead owner's room), instead of at its
    next sweep (a third of ``--lease``: 20 s here)."""
    first, second = _cluster(make_server, postgres.new_database(), "--lease", "60")

    async def body() -> tuple[float, str]:
        room = create_room(first.url, "classic", 2, settings=FAST, bots=["heuristic"])  # loaded, so owned, there
        ann = await RoomClient.join(
            [second.url], room["room"], name="Ann", host_token=room["host_token"], follow_redirects=False
        )
        await ann.host("start", room["host_token"])
        await ann.wait_for(lambda _state: ann.my_turn)
        first.kill()
        killed = asyncio.get_running_loop().time()
        while True:
            state = await ann.wait_for(lambda _state: ann.my_turn)
            try:
                await ann.act(state["observation"]["legal_actions"][0], state["version"])
                break
            except ServerError as exc:
                assert exc.code in ("unavailable", "stale"), exc
        waited = asyncio.get_running_loop().time() - killed
        await ann.close()
        return waited, room["room"]

    waited, code = run(body, timeout=120)
    assert waited < FORWARD_TIMEOUT, f"the first action after the kill was served {waited:.1f} s later"
    assert _served_by(second, code) == _node(second)


def test_leases_of_more_rooms_than_one_chunk_are_all_renewed(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    """A process renews its leases in chunks of :data:`RENEW_CHUNK` (so that a renewal holds the
    writer only briefly): every room of more than two chunks keeps its lease past ``--lease``."""
    database = postgres.new_database()
    server = make_server(database, "--lease", "3")
    rooms = 2 * RENEW_CHUNK + 5
    codes = {create_room(server.url, "classic", 2, settings=FAST, bots=["random"])["room"] for _ in range(rooms)}
    time.sleep(6)  # two lease lengths: every lease must have been renewed since
    store = Store(database)
    try:
        listed = {room["room"]: room["served_by"] for room in store.upkeep.rooms_list("open")}  # served: a live lease
    finally:
        store.close()
    assert {listed.get(code) for code in codes} == {_node(server)}
