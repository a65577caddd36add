"""A room in this process over a fake of its host interface (:mod:`.fakehost`): the real room
(its queue, its commit, its seating and what it tells each seat) with its log in a list, so that
a whole game and the room's own rules are checked without a server, a database or a socket."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unokit.server.room import FINISHED, RoomSpec

from .fakehost import FakePeer, FakeRoom, fake_room
from .support import FAST, choose, leaks, moved_on, run


def _decided(state: dict[str, Any]) -> bool:
    """The game is over, or waits for someone's decision."""
    observation = state["observation"]
    return state["room"]["phase"] == FINISHED or (observation is not None and observation["to_act"] is not None)


def _told(version: int) -> Callable[[dict[str, Any]], bool]:
    """The seat was told of ``version`` (or of a later one)."""
    return lambda state: bool(state["version"] >= version)


async def _play_to_the_end(room: FakeRoom, people: list[FakePeer]) -> dict[str, Any]:
    """Each of ``people`` plays its own decisions (:func:`.support.choose`) until the game ends;
    the last state the first of them was told."""
    while True:
        state = await people[0].wait_for(_decided)
        if state["room"]["phase"] == FINISHED:
            return state
        version = state["version"]
        mover = people[state["observation"]["to_act"]]
        seen = await mover.wait_for(_told(version))
        if seen["version"] == version:
            action = {"type": "action", "action": choose(seen["observation"]), "token": mover.token}
            answer = await room.say(mover, {**action, "version": version})
            assert answer["type"] == "ack", answer
        await people[0].wait_for(moved_on(version))


def test_a_whole_game_over_a_fake_host_tells_each_seat_its_own_hand_and_its_log_folds_back() -> None:
    """Two people play a hand of Classic to its end: each seat is told its own view (no card of
    another hand it was never shown, checked against the engine's redaction of the replayed
    record); the room wrote one record, at the end, and its log, folded again as a process
    loading the room would, gives the same room."""

    async def body() -> tuple[FakeRoom, list[FakePeer], dict[str, Any]]:
        room = await fake_room(RoomSpec.build("classic", 2, {"rounds": 1}, FAST))
        people = [FakePeer(), FakePeer()]
        for peer, name in zip(people, ("Ann", "Ben"), strict=True):
            await room.hello(peer, name=name)
        start = {"type": "host", "command": "start", "host_token": room.host_token, "version": room.room.state.seq}
        assert (await room.say(people[0], start))["type"] == "ack"
        final = await _play_to_the_end(room, people)
        return room, people, final

    room, people, final = run(body)
    assert final["room"]["phase"] == FINISHED
    records = [job.record for job in room.host.jobs if job.record is not None]
    assert len(records) == 1 and records[0][0] == 1
    for seat, peer in enumerate(people):
        observed = [m["observation"] for m in peer.received if m.get("type") == "state" and m.get("observation")]
        assert observed and all(obs["seat"] == seat for obs in observed)
        assert leaks(peer.received, records[0][1], seat) == []
    assert room.rebuilt().public() == room.room.state.public()


def test_a_banned_address_takes_no_seat_at_a_public_table_but_may_at_a_private_one() -> None:
    """The room asks its host whether a newcomer is barred (``docs/server.md``, "Moderation for
    public rooms") before it seats them at a public table; a private room among friends seats them."""

    async def body() -> tuple[dict[str, Any], dict[str, Any]]:
        answers = []
        for public in (True, False):
            room = await fake_room(RoomSpec.build("classic", 2, {}, FAST, public), code=f"FAKE{int(public)}")
            room.host.banned_clients.add("203.0.113.5")
            answers.append(await room.hello(FakePeer(client="203.0.113.5"), name="Eve"))
        return answers[0], answers[1]

    public, private = run(body)
    assert public["type"] == "error" and public["code"] == "banned", public
    assert private["type"] == "state" and private["seat"] == 0
