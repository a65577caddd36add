"""What a hostile player could do with seats and rooms, each found by attacking the server and
each fixed: a player who loses a seat (kicked, replaced by a bot, or leaving from another tab)
is cut off before the seat's next occupant sits; a burst of hellos cannot pass a room's cap; a
refused hello gets nothing of the room; rooms of bots alone stop when nobody watches and close
like any idle room; bad names, numbers and options are refused with a reason."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from unokit.record import GameRecord, Replay, verify
from unokit.server.client import RoomClient, ServerError, create_room, download_record, get_json, play, ws_url
from unokit.server.entries import entry_of
from unokit.server.protocol import SEAT_LOST
from unokit.server.room import HAND_OVER, PLAYING, RoomSpec, RoomState

from .support import FAST, ServerProcess, choose, run


async def _lost(client: RoomClient, timeout: float = 20.0) -> ServerError:
    """Wait until ``client`` is told its seat is gone; return that error."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while client.error is None:
        assert loop.time() < end, "the connection was not ended"
        await asyncio.sleep(0.02)
    return client.error


async def _play_hand(version: int, *clients: RoomClient) -> None:
    """Play the clients' seats (``choose``) from the room's ``version`` (a hand has begun) until
    the room leaves the ``playing`` phase."""

    async def one(client: RoomClient) -> None:
        await client.wait_for(lambda s: s["version"] >= version)
        while True:
            state = await client.wait_for(lambda s: s["room"]["phase"] != "playing" or client.my_turn, 60)
            if state["room"]["phase"] != "playing":
                return
            try:
                await client.act(choose(state["observation"]), state["version"])
            except ServerError as exc:
                assert exc.code in ("stale", "out_of_turn", "duplicate"), exc

    await asyncio.gather(*(one(client) for client in clients))


def _states(client: RoomClient) -> list[dict[str, Any]]:
    return [m for m in client.received if m.get("type") == "state"]


def test_a_replaced_or_kicked_player_is_cut_off_before_anyone_else_sits(shared_server: ServerProcess) -> None:
    """Bob plays in two tabs; between hands the host puts a bot in his seat: both tabs are told
    ``seat_lost`` and closed (4001) before the bot's hand is dealt, and neither ever receives a
    state of the seat again. Dee then takes the seat: when she drops, her seat gets its grace
    period and stand-in (the old connections no longer count as "connected")."""

    async def body() -> None:
        settings = {**FAST, "hand_pause_seconds": 600.0, "grace_seconds": 0.2}
        room = create_room(shared_server.url, "classic", 3, options={"rounds": 3}, settings=settings)
        host, code = room["host_token"], room["room"]
        ann = await RoomClient.join(shared_server.url, code, name="Ann")
        bob = await RoomClient.join(shared_server.url, code, name="Bob", keep=True)
        bob_tab = await RoomClient.join(shared_server.url, code, token=bob.token, keep=True)
        await ann.host("add_bot", host, seat=2, bot="random")
        await ann.host("start", host)
        await _play_hand(ann.version, ann, bob)
        assert ann.phase == "hand_over"
        await ann.host("replace", host, seat=1, bot="heuristic")
        replaced = ann.version
        for client in (bob, bob_tab):
            assert (await _lost(client)).code == "seat_lost"
            assert client.token is None
            errors = [m for m in client.received if m.get("type") == "error"]
            assert errors and errors[-1]["code"] == "seat_lost"
        await ann.host("continue", host)
        await ann.wait_for(lambda s: s["room"]["phase"] == "playing" and s["game_step"] > 0)
        for client in (bob, bob_tab):
            assert client._ws is not None and client._ws.close_code == SEAT_LOST
            assert all(s["version"] < replaced for s in _states(client)), "a cut-off tab saw the next hand"
        # Between the next hands: the bot is kicked, Dee sits, drops, and is covered by a stand-in.
        await _play_hand(ann.version, ann)
        await ann.host("kick", host, seat=1)
        dee = await RoomClient.join(shared_server.url, code, name="Dee", reconnect=False)
        assert dee.seat == 1
        await dee.close()
        away = await ann.wait_for(lambda s: 1 in s["room"]["away"], 20)
        assert away["room"]["connected"][1] is False
        await ann.close()

    run(body)


def _hands_seen(client: RoomClient, seat: int) -> list[list[str]]:
    """Every hand of ``seat`` that ``client`` was shown: in its states' observations and in the
    cards of the deals it was told of."""
    seen = []
    for message in client.received:
        state = message.get("state", message) if message.get("type") == "error" else message
        if state.get("type") != "state":
            continue
        observation = state.get("observation") or {}
        if observation.get("seat") == seat and observation.get("hand"):
            seen.append(sorted(observation["hand"]))
        for event in state.get("events") or []:
            if event["type"] == "deal" and event.get("seat") == seat and "cards" in event:
                seen.append(sorted(event["cards"]))
    return seen


def test_a_seats_next_hand_is_seen_only_by_who_plays_it(shared_server: ServerProcess) -> None:
    """N1: between hands the next hand is already dealt (the engine deals it with the action
    that ends a hand), but nobody sees it until the pause ends. Bob is kicked between hands and
    Cat takes his seat: neither Bob nor the host ever saw the hand Cat plays, Cat sees it once
    the hand starts, and the finished game's record (seed and actions) replays to that deal."""

    async def body() -> tuple[list[list[str]], list[list[str]], list[str], dict[str, Any], str]:
        settings = {**FAST, "hand_pause_seconds": 600.0}
        room = create_room(shared_server.url, "classic", 2, options={"rounds": 2}, settings=settings)
        host, code = room["host_token"], room["room"]
        ann = await RoomClient.join(shared_server.url, code, name="Ann", keep=True)
        bob = await RoomClient.join(shared_server.url, code, name="Bob", keep=True)
        await ann.host("start", host)
        await _play_hand(ann.version, ann, bob)
        over = await bob.wait_for(lambda s: s["room"]["phase"] == "hand_over")
        assert over["observation"]["hand"] == [] and over["observation"]["seat"] == 1
        await bob.request({"type": "sync"})  # asked for again: still nothing of the next hand
        await ann.host("kick", host, seat=1)
        await _lost(bob)
        cat = await RoomClient.join(shared_server.url, code, name="Cat", keep=True)
        await ann.wait_for(lambda s: s["room"]["seats"][1]["name"] == "Cat")
        await ann.host("continue", host)
        started = await cat.wait_for(lambda s: s["room"]["phase"] == "playing" and s["observation"]["hand"] != [])
        dealt = sorted(started["observation"]["hand"])
        final = await asyncio.wait_for(asyncio.gather(play(ann, choose), play(cat, choose)), 120)
        await ann.close()
        await cat.close()
        return _hands_seen(bob, 1), _hands_seen(ann, 1), dealt, final[0], code

    bob_saw, ann_saw, dealt, final, code = run(body)
    assert dealt not in bob_saw, "the kicked player saw the hand of the seat's next player"
    assert dealt not in ann_saw, "the host saw another seat's next hand"
    assert final["room"]["phase"] == "finished"
    record = GameRecord.loads(download_record(shared_server.url, code, 1))
    assert verify(record).ok
    replay = Replay(record)
    second = next(i for i, (_seat, _text) in enumerate(record.actions) if replay.game_at(i + 1).round_number == 2)
    assert sorted(replay.game_at(second + 1).observe(1)["hand"]) == dealt


def test_the_next_deal_waits_in_the_rooms_fold_and_a_rebuilt_room_holds_the_same() -> None:
    """The room's fold keeps the deal of the next hand between hands: the action that ends a
    hand tells its events up to the hand's end, ``continue`` tells the deal; a room rebuilt
    from the same log (a restart, another process taking the room over) holds the same deal."""
    spec = RoomSpec.build("classic", 2, {"rounds": 2}, {**FAST, "hand_pause_seconds": 30.0})
    live = RoomState("ROOM1", spec)
    log: list[dict[str, Any]] = [
        {"type": "join", "seat": 0, "name": "Ann", "token_hash": "a" * 64},
        {"type": "join", "seat": 1, "name": "Bob", "token_hash": "b" * 64},
        {"type": "start", "seed": 7},
    ]
    told: list[list[dict[str, Any]]] = [live.apply(entry_of(entry)) for entry in log]
    while live.phase == PLAYING:
        game = live.game
        assert game is not None and game.to_act is not None
        entry = {"type": "action", "seat": game.to_act, "action": choose(game.observe(game.to_act))}
        log.append(entry)
        told.append(live.apply(entry_of(entry)))
    assert live.phase == HAND_OVER
    assert told[-1][-1]["type"] == "round_end" and live.next_deal[0]["type"] == "round_start"
    between, public = live.observe(1), live.observe(None)
    assert between is not None and public is not None
    assert between == {**public, "seat": 1} and between["hand"] == []
    rebuilt = RoomState("ROOM1", spec)
    for entry in log:
        rebuilt.apply(entry_of(entry))
    assert rebuilt.next_deal == live.next_deal
    deal = live.apply(entry_of({"type": "continue"}))
    assert deal == rebuilt.apply(entry_of({"type": "continue"})) and deal[0]["type"] == "round_start"
    dealt = live.observe(1)
    assert live.next_deal == [] and dealt == rebuilt.observe(1) and dealt is not None and dealt["hand"] != []


def test_leaving_in_one_tab_ends_the_seat_in_the_other(shared_server: ServerProcess) -> None:
    async def body() -> None:
        room = create_room(shared_server.url, "classic", 2, settings=FAST)
        cy = await RoomClient.join(shared_server.url, room["room"], name="Cy", keep=True)
        cy_tab = await RoomClient.join(shared_server.url, room["room"], token=cy.token, keep=True)
        await cy.request({"type": "leave", "token": cy.token})
        assert (await _lost(cy_tab)).code == "seat_lost"
        eve = await RoomClient.join(shared_server.url, room["room"], name="Eve")
        assert eve.seat == 0
        # The tab that left watches on as a spectator; the other one never sees Eve's seat.
        watched = await cy.wait_for(lambda s: s["room"]["seats"][0]["name"] == "Eve")
        assert watched["seat"] is None
        assert not any(s["room"]["seats"][0]["name"] == "Eve" for s in _states(cy_tab))
        await eve.close()
        await cy.close()

    run(body)


def test_a_burst_of_hellos_cannot_pass_the_rooms_cap(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    """40 hellos sent at once to a room that takes 8 connections: exactly 8 get in."""
    server = make_server(f"sqlite:///{tmp_path / 'crowd.db'}", "--room-connections", "8")

    async def body() -> list[str]:
        room = create_room(server.url, "classic", 2, settings=FAST)
        sockets = [await connect(ws_url(server.url)) for _ in range(40)]
        hello = json.dumps({"type": "hello", "room": room["room"], "role": "spectator"})
        await asyncio.gather(*(ws.send(hello) for ws in sockets))
        answers = [json.loads(await asyncio.wait_for(ws.recv(), 20)) for ws in sockets]
        for ws in sockets:
            ws.transport.abort()
        return [a["type"] if a["type"] != "error" else a["code"] for a in answers]

    answers = run(body)
    assert answers.count("welcome") == 8
    assert answers.count("room_crowded") == 32


def test_a_refused_hello_gets_nothing_of_the_room(shared_server: ServerProcess) -> None:
    async def body() -> list[dict[str, Any]]:
        room = create_room(shared_server.url, "classic", 2, settings=FAST)
        async with connect(ws_url(shared_server.url)) as ws:
            await ws.send(json.dumps({"type": "hello", "room": room["room"], "token": "forged", "id": 1}))
            refused = json.loads(await asyncio.wait_for(ws.recv(), 10))
            await ws.send(json.dumps({"type": "sync", "id": 2}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return [refused, answer]

    refused, answer = run(body)
    assert refused["code"] == "bad_token"
    assert answer["type"] == "error" and answer["code"] == "not_joined" and answer["reply_to"] == 2


def _version(server: ServerProcess, code: str) -> int:
    return int(get_json(server.url, f"/api/rooms/{code}")["version"])


async def _bot_room(server: ServerProcess) -> str:
    """A room where two bots play each other as fast as they can, set up by a host who leaves."""
    room = create_room(server.url, "classic", 2, options={"target": 100000}, settings=FAST)
    host = await RoomClient.join(server.url, room["room"], role="spectator")
    for seat in (0, 1):
        await host.host("add_bot", room["host_token"], seat=seat, bot="random")
    await host.host("start", room["host_token"])
    await host.wait_for(lambda s: s["game_step"] > 20)
    await host.close()
    return str(room["room"])


def test_bots_stop_when_nobody_watches_and_go_on_for_a_spectator(shared_server: ServerProcess) -> None:
    async def body() -> tuple[int, int, int]:
        code = await _bot_room(shared_server)
        await asyncio.sleep(0.5)  # a move already on its way may still land
        paused = _version(shared_server, code)
        await asyncio.sleep(1.0)
        still = _version(shared_server, code)
        watcher = await RoomClient.join(shared_server.url, code, role="spectator")
        resumed = await watcher.wait_for(lambda s: s["version"] > still + 20)
        await watcher.close()
        return paused, still, int(resumed["version"])

    paused, still, resumed = run(body)
    assert still == paused
    assert resumed > still + 20


def test_a_room_of_bots_nobody_watches_closes_like_an_idle_room(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'idle-bots.db'}", "--idle-close", "1", "--sweep", "0.2")
    code = run(lambda: _bot_room(server))
    deadline = time.monotonic() + 30
    closed = False
    while not closed and time.monotonic() < deadline:
        try:
            get_json(server.url, f"/api/rooms/{code}")
        except ServerError as exc:
            closed = exc.code == "no_room"
        time.sleep(0.2)
    assert closed


def _http_error(url: str) -> tuple[int, dict[str, Any]]:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=10)
    return refused.value.code, json.loads(refused.value.read())


def test_a_replay_asked_for_before_the_game_ends_is_served_once_it_has(shared_server: ServerProcess) -> None:
    async def body() -> str:
        room = create_room(shared_server.url, "classic", 2, options={"target": 1}, settings=FAST)
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        await ann.host("add_bot", room["host_token"], seat=1, bot="random")
        await ann.host("start", room["host_token"])
        status, problem = _http_error(f"{shared_server.url}/api/rooms/{room['room']}/records/1/replay?step=0")
        assert status == 404 and problem["error"] == "no_record"
        await play(ann, choose, timeout=120)
        await ann.close()
        return str(room["room"])

    code = run(body)
    replay = get_json(shared_server.url, f"/api/rooms/{code}/records/1/replay?step=0")
    assert replay["step"] == 0 and replay["steps"] > 0


def test_game_numbers_beyond_any_database_integer_are_no_game(shared_server: ServerProcess) -> None:
    room = create_room(shared_server.url, "classic", 2, settings=FAST)
    huge = "9" * 30
    for path in (f"records/{huge}", f"records/{huge}/replay", "records/-1", "records/1/replay?step=" + huge):
        status, problem = _http_error(f"{shared_server.url}/api/rooms/{room['room']}/{path}")
        assert (status, problem["error"]) in ((404, "no_record"), (400, "bad_step")), (path, problem)
    assert "Traceback" not in shared_server.log()


def test_options_a_browser_cannot_carry_are_refused(shared_server: ServerProcess) -> None:
    with pytest.raises(ServerError) as refused:
        create_room(shared_server.url, "classic", 2, options={"target": 10**30})
    assert refused.value.code == "bad_room" and "'target'" in refused.value.message


def test_a_message_refused_as_it_is_read_still_answers_its_id(shared_server: ServerProcess) -> None:
    async def body() -> list[dict[str, Any]]:
        async with connect(ws_url(shared_server.url)) as ws:
            for message in (
                {"type": "action", "action": "draw", "version": "x", "token": "t", "id": 7},
                {"type": "launch", "id": "a"},
                {"type": "sync", "id": 3, "extra": True},
            ):
                await ws.send(json.dumps(message))
            return [json.loads(await asyncio.wait_for(ws.recv(), 10)) for _ in range(3)]

    answers = run(body)
    answered = [(a["code"], a["reply_to"]) for a in answers]
    assert answered == [("bad_message", 7), ("unknown_type", "a"), ("bad_message", 3)]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ann", "name_taken"),
        ("\uff21\uff2e\uff2e", "name_taken"),  # ANN in fullwidth letters
        ("heuristic bot 2", "bad_name"),
        ("Seat 1", "bad_name"),
        ("W" * 31, "bad_name"),
        ("界" * 16, "bad_name"),
        ("\ufdfd", "bad_name"),
        ("Ann\u202e", "bad_name"),
        ("a\u200bb", "bad_name"),
        ("e" + "\u0301" * 5, "bad_name"),
        ("   ", "bad_name"),
    ],
)
def test_names_that_copy_someone_or_overflow_the_table_are_refused(
    shared_server: ServerProcess, name: str, code: str
) -> None:
    async def body() -> ServerError:
        room = create_room(shared_server.url, "classic", 3, settings=FAST)
        first = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        try:
            with pytest.raises(ServerError) as refused:
                await RoomClient.join(shared_server.url, room["room"], name=name)
        finally:
            await first.close()
        return refused.value

    assert run(body).code == code
