"""Time for everyone (WCAG 2.2.1, ``docs/accessibility.md``): a player asks for more time at
their own turn, at most ``MORE_TIMES`` times a game, told to everyone; the host pauses the
table (the turn clock and the bots stop) and lets it go on with the time the turn had left; a
room without a turn timer never times anyone out. Against a real server on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unokit.server.client import RoomClient, ServerError, create_room
from unokit.server.room import MORE_TIME_SECONDS, MORE_TIMES

from .support import FAST, ServerProcess, choose, moved_on, run


async def _refused(call: Any, code: str) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await call
    room = caught.value.state["room"] if caught.value.state else None
    assert caught.value.code == code, (caught.value, room)
    return caught.value


def _lines(client: RoomClient, key: str) -> list[dict[str, Any]]:
    """The lines with ``key`` that ``client`` was told in its ``state`` messages."""
    return [
        line
        for message in client.received
        if message.get("type") == "state"
        for line in message.get("lines", [])
        if line["key"] == key
    ]


async def _turn_of(me: RoomClient, *others: RoomClient) -> dict[str, Any]:
    """Wait for ``me``'s turn, ``others`` (people at the same table) playing theirs meanwhile."""
    people = {client.seat: client for client in (me, *others)}

    def ready(state: dict[str, Any]) -> bool:
        obs = state["observation"]
        return state["room"]["phase"] == "playing" and obs is not None and obs["to_act"] in people

    while True:
        state = await me.wait_for(ready)
        to_act = state["observation"]["to_act"]
        if to_act == me.seat:
            return state
        other, version = people[to_act], state["version"]

        def can_act_or_moved(seen: dict[str, Any], other: RoomClient = other, version: int = version) -> bool:
            # ``other`` may not have been told of ``version`` yet (still the lobby, or a turn before)
            obs = seen["observation"]
            if obs is None or seen["version"] < version:
                return False
            return bool(seen["version"] > version or (obs["to_act"] == other.seat and obs["legal_actions"]))

        seen = await other.wait_for(can_act_or_moved)
        if seen["version"] == version:  # still its turn: play it (unless a stand-in is quicker)
            with contextlib.suppress(ServerError):
                await other.act(choose(seen["observation"]))
        await me.wait_for(moved_on(version))


async def _end_turn(me: RoomClient) -> None:
    """Play ``me``'s turn to its end (a card drawn may ask to keep or play it)."""
    while True:
        state = me.state
        assert state is not None
        if state["observation"]["to_act"] != me.seat or state["room"]["phase"] != "playing":
            return
        await me.act(choose(state["observation"]))
        await me.wait_for(moved_on(state["version"]))


async def _asked_at_standin_turn(me: RoomClient) -> None:
    """Ask for more time at a turn of ``me``'s seat that its stand-in plays: refused ``no_timer``.
    The stand-in may play before the request arrives (then it is the next seat's turn, or the
    hand is over): such a refusal must show the server past that turn, and the request is made
    again at the seat's next turn."""

    def standin_turn(after: int) -> Callable[[dict[str, Any]], bool]:
        def ready(state: dict[str, Any]) -> bool:
            obs, room = state["observation"], state["room"]
            playing = room["phase"] == "playing" and obs is not None and obs["to_act"] == me.seat
            return bool(state["version"] > after and playing and me.seat in room["away"])

        return ready

    after = -1
    for _ in range(20):
        await me.wait_for(standin_turn(after))
        with pytest.raises(ServerError) as caught:
            await me.more_time()
        refusal = caught.value
        if refusal.code == "no_timer":
            return
        # the server had left the turn: the refusal's state says so
        assert refusal.code in ("out_of_turn", "phase") and refusal.state is not None, refusal
        assert not standin_turn(-1)(refusal.state), refusal.state["room"]
        after = int(refusal.state["version"])
    raise AssertionError("the stand-in played every turn of the seat before the request came")


def test_more_time_is_limited_per_game_told_to_everyone_and_refused_out_of_turn(
    shared_server: ServerProcess,
) -> None:
    async def body() -> None:
        settings = {**FAST, "turn_seconds": 20.0}
        room = create_room(shared_server.url, "classic", 3, settings=settings, bots=["random"])
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        bo = await RoomClient.join(shared_server.url, room["room"], name="Bo", keep=True)
        await ann.host("start", room["host_token"])
        state = await _turn_of(ann, bo)
        deadline = state["room"]["deadline"]
        assert deadline is not None
        await _refused(bo.more_time(), "out_of_turn")  # not Bo's turn
        for used in range(1, MORE_TIMES + 1):
            version = ann.version
            await ann.more_time()
            state = await ann.wait_for(moved_on(version))
            assert state["room"]["more_time"]["used"][0] == used
            # the turn's clock is the same, 30 s longer each time: it does not start again
            assert state["room"]["deadline"] == pytest.approx(deadline + used * MORE_TIME_SECONDS, abs=1.0)
        # told to everyone, with the seconds and what is left
        seen = await bo.wait_for(lambda s: s["room"]["more_time"]["used"][0] == MORE_TIMES)
        told = _lines(bo, "room.more_time")
        assert [line["params"]["number"] for line in told] == list(range(MORE_TIMES - 1, -1, -1))
        assert all(line["params"] == {**line["params"], "player": 0, "count": 30} for line in told)
        # the eleventh is refused, with the state as it was
        refusal = await _refused(ann.more_time(), "no_more_time")
        assert refusal.state is not None and refusal.state["version"] == seen["version"]
        assert refusal.state["room"]["more_time"]["used"][0] == MORE_TIMES
        # the count is the game's: still refused at Ann's next turn, while Bo has his own ten.
        # Ann plays her turns until Bo's comes (a Skip or a Reverse of hers can bring her turn
        # back first): a turn of hers left to time out would put a stand-in in her seat.
        await _end_turn(ann)
        bo_turn = await _turn_of(bo, ann)
        assert bo_turn["room"]["deadline"] is not None, bo_turn["room"]
        await _refused(ann.more_time(), "out_of_turn")
        await bo.more_time()
        await bo.wait_for(lambda s: s["room"]["more_time"]["used"][1] == 1)
        await _turn_of(ann, bo)
        await _refused(ann.more_time(), "no_more_time")
        await ann.close()
        await bo.close()

    run(body)


def test_more_time_needs_a_timer_and_untimed_rooms_never_time_out(shared_server: ServerProcess) -> None:
    async def body() -> None:
        # a timed room times a turn out: the stand-in plays it (what the untimed room must not do)
        settings = {**FAST, "turn_seconds": 1.0, "bot_seconds": 1.0}
        timed = create_room(shared_server.url, "classic", 2, settings=settings, bots=["random"])
        ann = await RoomClient.join(shared_server.url, timed["room"], name="Ann")
        await ann.host("start", timed["host_token"])
        await _turn_of(ann)
        await ann.wait_for(lambda s: 0 in s["room"]["away"], timeout=10)
        await _asked_at_standin_turn(ann)  # a stand-in plays the seat: nothing to extend
        await ann.close()

        untimed = create_room(shared_server.url, "classic", 2, settings={**FAST, "turn_seconds": 0.0}, bots=["random"])
        bea = await RoomClient.join(shared_server.url, untimed["room"], name="Bea")
        await bea.host("start", untimed["host_token"])
        state = await _turn_of(bea)
        assert state["room"]["deadline"] is None
        version = bea.version
        await _refused(bea.more_time(), "no_timer")
        await asyncio.sleep(3.0)
        assert bea.version == version and bea.state is not None
        assert bea.state["observation"]["to_act"] == 0 and bea.state["room"]["away"] == []
        # the bots still play: once Bea's moves give the bot its turn, it takes it
        for _ in range(8):
            mine = await _turn_of(bea)
            await bea.act(choose(mine["observation"]))
            after = await bea.wait_for(moved_on(mine["version"]))
            if after["observation"]["to_act"] == 1:
                break
        assert after["observation"]["to_act"] == 1
        await bea.wait_for(lambda s: s["game_step"] > after["game_step"], timeout=10)
        await bea.close()

    run(body)


def test_host_pause_stops_the_clock_and_the_bots_and_resume_goes_on(shared_server: ServerProcess) -> None:
    async def body() -> None:
        settings = {**FAST, "turn_seconds": 6.0, "bot_seconds": 1.5}
        room = create_room(shared_server.url, "classic", 3, settings=settings, bots=["random", "random"])
        host = room["host_token"]
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann", host_token=host, keep=True)
        watcher = await RoomClient.join(shared_server.url, room["room"], role="spectator", keep=True)
        await _refused(ann.host("pause", host), "phase")  # nothing to pause in the lobby
        await ann.host("start", host)
        await _turn_of(ann)
        await _refused(ann.host("resume", host), "not_paused")
        foreign = {"type": "host", "command": "pause", "host_token": "x", "version": ann.version}
        await _refused(watcher.request(foreign), "not_host")
        # the turn clock stops: 6 s of turn, paused 7 s, and Ann is not timed out
        await ann.host("pause", host)
        paused = await ann.wait_for(lambda s: s["room"]["paused"])
        paused_at = time.time()
        assert paused["room"]["paused_by"] == 0 and paused["room"]["deadline"] is None
        left = paused["room"]["turn_left"]
        assert 3.0 < left <= 6.0
        await _refused(ann.host("pause", host), "paused")
        await _refused(ann.act(choose(paused["observation"])), "paused")
        await _refused(ann.more_time(), "paused")
        await asyncio.sleep(7.0)
        assert ann.version == paused["version"] and ann.state is not None and ann.state["room"]["away"] == []
        # everyone is told who paused
        told = await watcher.wait_for(lambda s: s["room"]["paused"])
        assert told["room"]["paused_by"] == 0
        assert _lines(watcher, "room.paused_by") == [{"key": "room.paused_by", "params": {"player": 0}}]
        # going on: the turn has the time it had left, not a new turn's
        await ann.host("resume", host)
        resumed = await ann.wait_for(lambda s: not s["room"]["paused"])
        assert resumed["room"]["deadline"] - time.time() == pytest.approx(left, abs=1.0)
        assert time.time() - paused_at > 6.0
        assert _lines(ann, "room.resumed_by") == [{"key": "room.resumed_by", "params": {"player": 0}}]
        # the bots stop too: Ann plays, the host pauses before the next bot's move (1.5 s)
        await _end_turn(ann)
        await ann.host("pause", host)
        held = await ann.wait_for(lambda s: s["room"]["paused"])
        bot_turn = held["observation"]["to_act"]
        assert bot_turn != 0
        await asyncio.sleep(3.0)
        assert ann.version == held["version"]
        await ann.host("resume", host)
        await ann.wait_for(lambda s: s["game_step"] > held["game_step"], timeout=10)
        await watcher.close()
        await ann.close()

    run(body)


def test_the_pause_ends_once_the_host_who_paused_is_away(shared_server: ServerProcess) -> None:
    async def body() -> None:
        settings = {**FAST, "turn_seconds": 30.0, "grace_seconds": 1.0}
        room = create_room(shared_server.url, "classic", 3, settings=settings, bots=["random"])
        host = room["host_token"]
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann", host_token=host, keep=True)
        bo = await RoomClient.join(shared_server.url, room["room"], name="Bo", keep=True)
        await ann.host("start", host)
        await ann.wait_for(lambda s: s["room"]["phase"] == "playing")
        await ann.host("pause", host)
        await bo.wait_for(lambda s: s["room"]["paused"])
        await ann.close()  # the host goes; after the grace (1 s) the table goes on by itself
        state = await bo.wait_for(lambda s: not s["room"]["paused"], timeout=10)
        assert 0 in state["room"]["away"]
        assert _lines(bo, "room.resumed_host_away") == [{"key": "room.resumed_host_away"}]
        await bo.close()

    run(body)


def test_a_pause_and_the_more_time_asked_outlive_a_restart(
    tmp_path: Path, make_server: Callable[..., ServerProcess]
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'server.db'}", "--lease", "2")

    async def body() -> None:
        settings = {**FAST, "turn_seconds": 30.0}
        room = create_room(server.url, "classic", 2, settings=settings, bots=["random"])
        host = room["host_token"]
        ann = await RoomClient.join(server.url, room["room"], name="Ann", host_token=host)
        await ann.host("start", host)
        await _turn_of(ann)
        await ann.more_time()
        await ann.more_time()
        await ann.host("pause", host)
        await ann.wait_for(lambda s: s["room"]["paused"] and s["room"]["more_time"]["used"][0] == 2)
        server.kill()  # kill -9 while paused
        await asyncio.sleep(0.3)
        server.start()
        state = await ann.wait_for(lambda s: ann.reconnects >= 1 and ann.connected, timeout=30)
        assert state["room"]["paused"] and state["room"]["paused_by"] == 0
        assert state["room"]["more_time"]["used"][0] == 2
        await _refused(ann.act(choose(state["observation"])), "paused")
        await ann.host("resume", host)
        await ann.wait_for(lambda s: not s["room"]["paused"])
        await ann.close()

    run(body)
