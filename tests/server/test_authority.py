"""The server is the only authority: host commands only in their phase; stale, duplicate,
foreign-seat, out-of-turn and spectators' actions refused with an explicit error that carries
the current state, and the state left as it was."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from unokit.server.client import RoomClient, ServerError, create_room
from unokit.server.room import DEFAULT_NAMES_LANG, bot_names_for

from .support import FAST, ServerProcess, choose, moved_on, run


async def _refused(call: Any, code: str) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await call
    assert caught.value.code == code, caught.value
    return caught.value


def test_host_commands_are_checked_against_the_room_phase(shared_server: ServerProcess) -> None:
    async def body() -> None:
        settings = {**FAST, "hand_pause_seconds": 600.0}
        room = create_room(shared_server.url, "classic", 3, options={"rounds": 2}, settings=settings)
        host = room["host_token"]
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        # lobby
        await _refused(me.host("continue", host), "phase")
        await _refused(me.host("start", host), "seats_open")
        await _refused(me.host("kick", host, seat=2), "bad_seat")
        await _refused(me.host("add_bot", host, seat=0, bot="random"), "seat_taken")
        await _refused(me.host("add_bot", host, seat=1, bot="deep_blue"), "bad_bot")
        await _refused(me.host("add_bot", host, seat=9, bot="random"), "bad_seat")
        await _refused(me.host("start", "not the host token"), "not_host")
        await _refused(me.act("draw"), "phase")
        await me.host("add_bot", host, seat=1, bot="random")
        await me.host("add_bot", host, seat=2, bot="random")
        seated = await me.wait_for(lambda s: s["room"]["seats"][2]["kind"] == "bot")
        # bots sit down with people's names, all different, and their kind beside them
        names = [seat["name"] for seat in seated["room"]["seats"]]
        assert names[0] == "Ann" and len(set(names)) == 3 and set(names[1:]) <= set(bot_names_for(DEFAULT_NAMES_LANG))
        assert [seat["bot"] for seat in seated["room"]["seats"]] == [None, "random", "random"]
        await me.host("start", host)
        # playing: seats may not change, the game may not restart (bots wait for Ann's turn)
        await me.wait_for(lambda s: me.my_turn)
        version = me.version
        commands: list[tuple[str, dict[str, Any]]] = [
            ("add_bot", {"seat": 1, "bot": "heuristic"}),
            ("kick", {"seat": 1}),
            ("replace", {"seat": 2, "bot": "heuristic"}),
            ("start", {}),
            ("continue", {}),
        ]
        for command, fields in commands:
            refusal = await _refused(me.host(command, host, **fields), "phase")
            assert refusal.state is not None and refusal.state["version"] == version
        # play the first hand out; the room pauses between hands
        while me.phase == "playing":
            await me.wait_for(lambda s: me.my_turn or s["room"]["phase"] != "playing")
            if me.my_turn:
                await me.act(choose(me.observation or {}))
        assert me.phase == "hand_over"
        await _refused(me.act("draw"), "phase")
        await me.host("kick", host, seat=1)
        await _refused(me.host("continue", host), "seats_open")
        await me.host("add_bot", host, seat=1, bot="heuristic")
        await me.host("replace", host, seat=2, bot="heuristic")
        assert [s["bot"] for s in me.state["room"]["seats"]] == [None, "heuristic", "heuristic"]  # type: ignore[index]
        await me.host("continue", host)
        assert me.phase == "playing"
        await me.close()

    run(body)


def test_stale_duplicate_foreign_and_out_of_turn_actions_are_refused_and_change_nothing(
    shared_server: ServerProcess,
) -> None:
    async def body() -> None:
        room = create_room(shared_server.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        code, host = room["room"], room["host_token"]
        ann = await RoomClient.join(shared_server.url, code, name="Ann")
        ben = await RoomClient.join(shared_server.url, code, name="Ben")
        watcher = await RoomClient.join(shared_server.url, code, role="spectator")
        await ann.host("start", host)
        # The first decision: a turn, or a colour to name when a Wild was turned up first.
        state = await ann.wait_for(lambda s: s["observation"] is not None and s["observation"]["decision"] is not None)
        first = state["observation"]["to_act"]
        mover, other = (ann, ben) if first == 0 else (ben, ann)
        await mover.wait_for(lambda s: s["version"] == state["version"])
        await other.wait_for(lambda s: s["version"] == state["version"])
        before = {c.seat: (await c.request({"type": "sync"})) for c in (ann, ben)}
        version = state["version"]
        legal = mover.legal_actions
        action = legal[0]

        refusal = await _refused(mover.act(action, version - 1), "stale")
        assert refusal.state is not None and refusal.state["version"] == version
        assert refusal.state["observation"]["legal_actions"] == legal
        await _refused(other.act("draw"), "out_of_turn")
        await _refused(
            mover.request(
                {"type": "action", "action": action, "token": mover.token, "version": version, "seat": other.seat}
            ),
            "foreign_seat",
        )
        await _refused(
            other.request({"type": "action", "action": action, "token": mover.token, "version": version}),
            "foreign_seat",
        )
        await _refused(
            mover.request({"type": "action", "action": action, "token": "forged", "version": version}), "bad_token"
        )
        await _refused(
            watcher.request({"type": "action", "action": action, "token": mover.token, "version": version}), "spectator"
        )
        await _refused(mover.act("fly to the moon"), "invalid_action")
        await _refused(mover.act("play wild_draw_four red" if "wild" not in str(legal) else "color red"), "illegal")
        after = {c.seat: (await c.request({"type": "sync"})) for c in (ann, ben)}
        for seat in before:
            assert after[seat]["version"] == version
            assert after[seat]["observation"] == before[seat]["observation"]

        await mover.act(action, version)  # accepted once ...
        await _refused(mover.act(action, version), "duplicate")  # ... and only once
        await ann.close()
        await ben.close()
        await watcher.close()

    run(body)


def test_a_join_takes_an_open_seat_and_a_full_room_takes_spectators_only(shared_server: ServerProcess) -> None:
    async def body() -> None:
        room = create_room(shared_server.url, "classic", 2, settings=FAST)
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        ben = await RoomClient.join(shared_server.url, room["room"], name="Ben")
        assert (ann.seat, ben.seat) == (0, 1) and ann.token != ben.token
        with pytest.raises(ServerError) as full:
            await RoomClient.join(shared_server.url, room["room"], name="Cat")
        assert full.value.code == "room_full"
        with pytest.raises(ServerError) as forged:
            await RoomClient.join(shared_server.url, room["room"], token="not a token")
        assert forged.value.code == "bad_token"
        with pytest.raises(ServerError) as missing:
            await RoomClient.join(shared_server.url, "ZZZZZZ", name="Dan")
        assert missing.value.code == "no_room"
        again = await RoomClient.join(shared_server.url, room["room"], token=ben.token)
        assert again.seat == 1
        for client in (ann, ben, again):
            await client.close()

    run(body)


def _lazy(observation: dict[str, Any]) -> str:
    """Draw and keep whenever allowed, so that the bots get down to one card."""
    legal: list[str] = observation["legal_actions"]
    for action in legal:
        if action in ("draw", "keep", "press", "accept", "stop"):
            return action
    return legal[0]


def test_a_slow_catch_still_beats_the_next_players_move(shared_server: ServerProcess) -> None:
    """The catch window (docs/server.md): while a missed UNO can be caught, the next in-turn
    action waits catch_seconds, so a catch sent 0.4 s late still counts. Random bots forget
    UNO half the time and never catch, so every catch offered to seat 0 must succeed."""

    async def game(offered: list[int], caught: list[int]) -> None:
        settings = {**FAST, "catch_seconds": 1.0}
        room = create_room(shared_server.url, "classic", 3, options={"rounds": 1}, settings=settings)
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        for seat in (1, 2):
            await me.host("add_bot", room["host_token"], seat=seat, bot="random")
        await me.host("start", room["host_token"])
        handled: set[tuple[int, str]] = set()
        while True:
            state = await me.wait_for(lambda s: me.legal_actions != [] or s["room"]["phase"] == "finished", 60)
            if state["room"]["phase"] == "finished":
                break
            legal = me.legal_actions
            catch = next((a for a in legal if a.startswith("catch")), None)
            if catch is not None and (state["game_step"], catch) not in handled:
                handled.add((state["game_step"], catch))
                offered.append(1)
                await asyncio.sleep(0.4)  # a slow connection
                await me.act(catch, state["version"])  # raises if refused
                caught.append(1)
            elif me.my_turn:
                await me.act(_lazy(state["observation"]), state["version"])
            else:
                await me.wait_for(moved_on(state["version"]), 60)
        await me.close()

    async def body() -> tuple[int, int]:
        offered: list[int] = []
        caught: list[int] = []
        for _ in range(40):  # usually two or three hands; enough that no catch at all is very unlikely
            await game(offered, caught)
            if len(offered) >= 2:
                break
        return len(offered), len(caught)

    offered, caught = run(body)
    assert offered > 0
    assert caught == offered
