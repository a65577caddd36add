"""Playing together over the real server: the room's chat and quick reactions (spectators apart
during a live game, muting, text kept as text, a rate per seat), play again without the host,
public rooms and "play now", a player's own games, and all of it back after ``kill -9``."""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from unokit.record import GameRecord, verify
from unokit.server.client import (
    RoomClient,
    ServerError,
    create_room,
    download_record,
    forget_me,
    get_json,
    join_play_now,
    lobby,
    my_games,
    new_identity,
    play,
    play_again,
    play_now,
    ws_url,
)
from unokit.server.room import bot_names_for

from .conftest import FAST_ARGS
from .support import FAST, ServerProcess, choose, free_port, run

#: The chat limits of this module's server: a seat may send 20 messages at once, 5 a second.
CHAT_ARGS = ["--chat-rate", "5", "--chat-burst", "20", "--play-now-wait", "1"]
HOSTILE_TEXTS = ["<img src=x onerror=alert(1)>", '"><script>alert(1)</script>']


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    folder = Path(tempfile.mkdtemp(prefix="unokit-together-"))
    process = ServerProcess(f"sqlite:///{folder / 'server.db'}", free_port(), [*FAST_ARGS, *CHAT_ARGS])
    process.start()
    yield process
    process.stop()


def _lines(client: RoomClient) -> list[str]:
    return [m.get("text") or f":{m['reaction']}:" for m in client.chat]


async def _refused(call: Any, code: str) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await call
    assert caught.value.code == code, caught.value
    return caught.value


async def _heard(client: RoomClient, line: str) -> None:
    await client.wait_for(lambda _state: line in _lines(client), 30)


def test_chat_both_ways_spectators_apart_during_the_game_mute_and_markup_kept_as_text(
    server: ServerProcess,
) -> None:
    async def body() -> tuple[str, list[RoomClient]]:
        room = create_room(server.url, "classic", 3, options={"rounds": 1}, settings=FAST)
        code, host = room["room"], room["host_token"]
        ann = await RoomClient.join(server.url, code, name="Ann", keep=True)
        ben = await RoomClient.join(server.url, code, name="Ben", keep=True)
        wes = await RoomClient.join(server.url, code, role="spectator", name="Wes", keep=True)
        await ann.host("add_bot", host, seat=2, bot="heuristic")
        # before the game: one chat, both ways, spectators included
        await ann.say("hi Ben")
        await ben.say("hi Ann")
        await wes.say("hello from the rail")
        for text in HOSTILE_TEXTS:
            await ben.say(text)
        for client in (ann, ben, wes):
            await _heard(client, HOSTILE_TEXTS[-1])
            assert _lines(client) == ["hi Ben", "hi Ann", "hello from the rail", *HOSTILE_TEXTS]
        assert [(m["seat"], m["name"], m["channel"]) for m in ann.chat[:3]] == [
            (0, "Ann", "players"),
            (1, "Ben", "players"),
            (None, "Wes", "spectators"),
        ]
        # during the game: the spectators' chat stays with the spectators
        await ann.host("start", host)
        await ann.wait_for(lambda s: s["room"]["phase"] == "playing")
        await wes.say("Ann should play her reds")
        await ann.react("uno")
        await ann.say("good luck")
        await _heard(wes, "good luck")
        for client in (ann, ben):
            await _heard(client, "good luck")  # sent after the spectator's line, so it came first if at all
            assert "Ann should play her reds" not in _lines(client)
        reaction = next(m for m in wes.chat if m.get("reaction") == "uno")
        assert (reaction["seat"], reaction["name"]) == (0, "Ann")  # shown over Ann's seat
        assert "Ann should play her reds" in _lines(wes)
        # the host mutes a seat, then the spectators; their messages are refused
        await ann.host("mute", host, seat=1)
        await _refused(ben.say("let me talk"), "muted")
        await ann.wait_for(lambda s: s["room"]["muted"] == [1])
        await ann.host("mute", host)
        await _refused(wes.say("me too"), "muted")
        await ann.host("unmute", host, seat=1)
        await ben.say("thanks")
        await _heard(ann, "thanks")
        finals = await asyncio.gather(play(ann, choose), play(ben, choose))
        assert all(final["room"]["phase"] == "finished" for final in finals)
        # once the game is over the spectators' line joins the players' chat
        for client in (ann, ben):
            await _heard(client, "Ann should play her reds")
        for client in (ann, ben, wes):
            await client.close()
        return code, [ann, ben, wes]

    code, clients = run(body)
    for client in clients:
        texts = _lines(client)
        assert "let me talk" not in texts and "me too" not in texts
        assert [m["n"] for m in client.chat] == sorted(m["n"] for m in client.chat)
    for client in clients[:2]:  # no message of the live game's spectators reached a player before its end
        during = [
            json.dumps(m)
            for m in client.received
            if m["type"] == "chat" and any(line.get("text") == "Ann should play her reds" for line in m["messages"])
        ]
        assert len(during) == 1
    record = download_record(server.url, code, 1)
    assert verify(GameRecord.loads(record)).ok
    for line in ("hi Ben", "good luck", "Ann should play her reds", "onerror"):
        assert line not in record  # the chat never enters a game's record


def test_bad_chat_is_refused_with_its_reason(server: ServerProcess) -> None:
    async def body() -> None:
        room = create_room(server.url, "classic", 2, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann")
        ben = await RoomClient.join(server.url, room["room"], name="Ben")
        await _refused(ann.say("x" * 281), "bad_chat")
        await _refused(ann.say("two\nlines"), "bad_chat")
        await _refused(ann.say("   "), "bad_chat")
        await _refused(ann.react("shrug"), "bad_chat")
        await _refused(ann.request({"type": "chat", "text": "a", "reaction": "uno", "token": ann.token}), "bad_chat")
        await _refused(ann.request({"type": "chat", "text": "as Ben", "token": ben.token}), "foreign_seat")
        await _refused(ann.request({"type": "chat", "text": "no token"}), "bad_token")
        await _refused(ann.ready(), "phase")  # there is no finished game to play again
        await ann.say("x" * 280)
        assert ann.chat and ann.chat[-1]["text"] == "x" * 280
        for client in (ann, ben):
            await client.close()
        async with connect(ws_url(server.url)) as ws:
            await ws.send(json.dumps({"type": "ready", "token": "t", "ready": "yes"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "bad_message"
            await ws.send(json.dumps({"type": "chat", "text": "hi", "id": 1}))  # a chat before hello
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "not_joined"

    run(body)


def test_a_chat_flood_is_held_to_the_seats_rate_and_another_rooms_game_goes_on(server: ServerProcess) -> None:
    async def flood(client: RoomClient, count: int) -> list[str]:
        """``count`` chat messages sent at once, then their answers."""
        assert client._ws is not None
        for i in range(count):
            await client.send({"type": "chat", "text": f"spam {i}", "token": client.token, "id": f"f{i}"})
        answers: list[str] = []
        end = time.monotonic() + 60
        while len(answers) < count and time.monotonic() < end:
            await asyncio.sleep(0.05)
            answers = [
                m.get("code", m["type"])
                for m in client.received
                if m["type"] in ("ack", "error") and str(m.get("reply_to", "")).startswith("f")
            ]
        return answers

    async def body() -> tuple[list[str], float, dict[str, Any], str]:
        game_room = create_room(server.url, "flip", 3, options={"rounds": 1}, settings={**FAST, "bot_seconds": 0.005})
        me = await RoomClient.join(server.url, game_room["room"], name="Ann")
        for seat in (1, 2):
            await me.host("add_bot", game_room["host_token"], seat=seat, bot="heuristic")
        await me.host("start", game_room["host_token"])
        game = asyncio.create_task(play(me, choose, timeout=200))
        target = create_room(server.url, "classic", 2, settings=FAST)
        # A flood is sent as fast as the connection takes it: these clients do not pace themselves.
        spammer = await RoomClient.join(server.url, target["room"], name="Spam", keep=True, pace=False)
        twin = await RoomClient.join(
            server.url, target["room"], token=spammer.token, keep=True, pace=False
        )  # a 2nd tab
        started = time.monotonic()
        answers = [a for batch in await asyncio.gather(flood(spammer, 200), flood(twin, 200)) for a in batch]
        elapsed = time.monotonic() - started
        final = await game
        for client in (me, spammer, twin):
            await client.close()
        return answers, elapsed, final, game_room["room"]

    answers, elapsed, final, code = run(body)
    assert len(answers) == 400
    assert set(answers) == {"ack", "rate_limited"}
    # one seat's bucket, whichever of its connections sends: 20 at once, then 5 a second
    assert answers.count("ack") <= 20 + 5 * elapsed + 1
    assert answers.count("rate_limited") >= 400 - (20 + 5 * elapsed + 1)
    assert final["room"]["phase"] == "finished"
    assert verify(GameRecord.loads(download_record(server.url, code, 1))).ok


def test_play_again_without_the_host_and_a_leavers_seat(server: ServerProcess) -> None:
    async def sync(client: RoomClient) -> dict[str, Any]:
        """The room's state once everything sent before has been handled."""
        return await client.request({"type": "sync"})

    async def body() -> None:
        room = create_room(server.url, "classic", 3, options={"rounds": 1}, settings=FAST)
        code, host = room["room"], room["host_token"]
        ann = await RoomClient.join(server.url, code, name="Ann")
        ben = await RoomClient.join(server.url, code, name="Ben")
        cy = await RoomClient.join(server.url, code, name="Cy bot")  # an external bot over the client
        await ann.host("start", host)
        cy_games = asyncio.create_task(play_again(cy, choose, games=2))
        await asyncio.gather(play(ann, choose), play(ben, choose))
        # after the game: Ben (not the host) and the external bot ask to play again
        await ben.ready()
        await ann.wait_for(lambda s: [seat["ready"] for seat in s["room"]["seats"]] == [False, True, True])
        assert (await sync(ann))["room"]["phase"] == "finished"  # Ann is here and has not said so yet
        await ben.ready(False)
        await ben.ready()
        await ann.ready()  # the last person present: the next game starts, same seats and options
        second = await ann.wait_for(lambda s: s["room"]["game_no"] == 2)
        assert [seat["name"] for seat in second["room"]["seats"]] == ["Ann", "Ben", "Cy bot"]
        assert not any(seat["ready"] for seat in second["room"]["seats"])
        await ben.wait_for(lambda s: s["room"]["game_no"] == 2)
        await asyncio.gather(play(ann, choose), play(ben, choose))
        assert [final["room"]["game_no"] for final in await cy_games] == [1, 2]
        # Ben leaves instead: a newcomer may take the seat ...
        await ben.leave()
        assert ben.seat is None and ann.state is not None
        await ann.wait_for(lambda s: s["room"]["seats"][1]["kind"] == "open")
        dan = await RoomClient.join(server.url, code, name="Dan")
        assert dan.seat == 1
        await ann.ready()
        await cy.ready()
        assert (await sync(ann))["room"]["game_no"] == 2  # Dan has not said "play again"
        await dan.leave()  # ... or, left open, a bot takes it when everyone present is ready
        third = await ann.wait_for(lambda s: s["room"]["game_no"] == 3)
        seats = third["room"]["seats"]
        assert [seat["kind"] for seat in seats] == ["human", "bot", "human"]
        assert seats[1]["bot"] == third["room"]["settings"]["standin_bot"]
        for client in (ann, ben, cy, dan):
            await client.close()

    run(body)


def test_public_rooms_are_listed_and_joined_private_ones_never_and_play_now_fills_with_bots(
    server: ServerProcess,
) -> None:
    async def body() -> None:
        secret = create_room(server.url, "attack", 3, settings=FAST)
        public = create_room(server.url, "attack", 3, options={"target": 300}, settings=FAST, public=True)
        ann = await RoomClient.join(server.url, public["room"], name="Ann", host_token=public["host_token"])
        hidden = await RoomClient.join(server.url, secret["room"], name="Sam")
        listed = await _listed(server, public["room"], lambda room: room["host"] == "Ann")
        assert listed["open_seats"] == 2 and listed["options"] == {"target": 300} and listed["players"] == 3
        assert secret["room"] not in json.dumps(lobby(server.url))
        # another player finds it in the list and joins
        ben = await RoomClient.join(server.url, listed["room"], name="Ben")
        await _listed(server, public["room"], lambda room: room["open_seats"] == 1)
        # play now seats a third player in the waiting room of its variant; the game can start
        found = play_now(server.url, "attack")
        assert (found["room"], found["created"]) == (public["room"], False)
        cat = await RoomClient.join(server.url, found["room"], name="Cat")
        await ann.host("start", public["host_token"])
        watching = await _listed(server, public["room"], lambda room: room["phase"] == "playing", "playing")
        assert watching["names"] == ["Ann", "Ben", "Cat"]
        # play now with nobody waiting opens a room of the variant that bots fill after the wait
        zed = await join_play_now(server.url, "Zed", "flip_attack", 4)
        started = await zed.wait_for(lambda s: s["room"]["phase"] == "playing", 30)
        assert [seat["kind"] for seat in started["room"]["seats"]] == ["human", "bot", "bot", "bot"]
        assert started["room"]["variant"] == "flip_attack" and started["room"]["host_seat"] is None
        # made private, a room leaves the list
        await ann.host("make_private", public["host_token"])
        quick = await _listed(server, zed.room, lambda room: True, "playing")
        assert quick["options"] == {"rounds": 1} and quick["host"] is None  # one hand, no host
        everything = json.dumps(lobby(server.url))
        assert public["room"] not in everything and secret["room"] not in everything
        for client in (ann, ben, cat, zed, hidden):
            await client.close()

    run(body)


def test_play_now_names_its_bots_in_the_players_language(server: ServerProcess) -> None:
    """A Russian page's Play now opens a room whose bots sit down with Russian names (they were
    the English list's, Latin, on Russian pages), and lists it as a Russian room."""

    async def body() -> None:
        found = play_now(server.url, "classic", 3, lang="ru")
        assert found["created"]
        anya = await RoomClient.join(server.url, found["room"], name="Аня")
        listed = await _listed(server, found["room"], lambda room: True)
        assert listed["lang"] == "ru"
        started = await anya.wait_for(lambda s: s["room"]["phase"] == "playing", 30)
        bots = [seat["name"] for seat in started["room"]["seats"] if seat["kind"] == "bot"]
        assert len(bots) == 2 and set(bots) <= set(bot_names_for("ru")), bots
        await anya.close()

    run(body)


async def _listed(
    server: ServerProcess, code: str, ready: Callable[[dict[str, Any]], bool], section: str = "waiting"
) -> dict[str, Any]:
    """Room ``code`` as the lobby lists it in ``section``, once ``ready`` holds for it."""
    end = time.monotonic() + 30
    while True:
        rooms = {room["room"]: room for room in lobby(server.url)[section]}
        if code in rooms and ready(rooms[code]):
            return rooms[code]
        assert time.monotonic() < end, f"room {code} never listed as expected: {rooms.get(code)}"
        await asyncio.sleep(0.05)


def test_my_games_lists_a_players_finished_games_until_forgotten(server: ServerProcess) -> None:
    me = new_identity()

    async def one_game(rooms: list[str]) -> None:
        room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann", player=me)
        await ann.host("add_bot", room["host_token"], seat=1, bot="heuristic")
        await ann.host("start", room["host_token"])
        await ann.drop()  # a reconnect says hello again with the identity: nothing is counted twice
        await play(ann, choose)
        await ann.close()
        rooms.append(room["room"])

    async def body() -> list[str]:
        rooms: list[str] = []
        for _ in range(2):
            await one_game(rooms)
        return rooms

    rooms = run(body)
    games = my_games(server.url, me)
    assert [(g["room"], g["game"], g["seat"]) for g in games] == [(rooms[1], 1, 0), (rooms[0], 1, 0)]
    for game in games:
        record = GameRecord.loads(download_record(server.url, game["room"], game["game"]))
        assert verify(record).ok
        assert game["names"] == record.names and game["variant"] == "classic"
        assert record.result is not None and game["winners"] == record.result.winners
    assert my_games(server.url, new_identity()) == []
    with pytest.raises(ServerError) as short:
        my_games(server.url, "too-short")
    assert short.value.code == "bad_player"
    assert forget_me(server.url, me) == 2
    assert my_games(server.url, me) == []
    assert verify(GameRecord.loads(download_record(server.url, rooms[0], 1))).ok  # the records stay

    async def again() -> str:
        """Forgotten while seated, the identity is known again from its next hello."""
        room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann", player=me)
        forget_me(server.url, me)
        reconnects = ann.reconnects
        await ann.drop()
        await ann.wait_for(lambda _state: ann.connected and ann.reconnects > reconnects)
        await ann.host("add_bot", room["host_token"], seat=1, bot="heuristic")
        await ann.host("start", room["host_token"])
        await play(ann, choose)
        await ann.close()
        return str(room["room"])

    code = run(again)
    assert [(g["room"], g["game"]) for g in my_games(server.url, me)] == [(code, 1)]


def test_identities_unused_for_the_retention_period_are_forgotten(database: str) -> None:
    from unokit.server.storage import Append, Store, Writer, migrate

    store = Store(database)
    writer = Writer(store)
    try:
        migrate(store.engine)
        assert store.create_room("ROOM1", {"variant": "classic"}, "hash")
        store.link_player("ROOM1", "seat-token-hash", "player-hash")
        store.link_player("ROOM1", "other-token-hash", "other-player-hash")
        game = Append(
            "ROOM1",
            0,
            [{"type": "start", "seed": 1}],
            record=(1, "{}"),
            game_seats=[(0, "seat-token-hash"), (1, "unlinked-token-hash")],
            game_summary='{"variant": "classic"}',
        )
        assert writer.commit([game]) == [None]
        games = store.player_games("player-hash", 10)
        assert [(g["room"], g["game"], g["seat"], g["variant"]) for g in games] == [("ROOM1", 1, 0, "classic")]
        assert store.player_games("other-player-hash", 10) == []  # linked, but not in that game
        assert store.prune_players(time.time() - 60) == 0  # both seen within the minute
        assert store.prune_players(time.time() + 1) == 2
        assert store.player_games("player-hash", 10) == []
        assert store.record("ROOM1", 1) == "{}"  # the record stays: it names no identity
    finally:
        writer.stop()
        store.close()


def test_the_server_forgets_identities_after_its_retention(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    # a retention of 0.00001 days (0.86 s), swept every 0.2 s
    server = make_server(f"sqlite:///{tmp_path / 'r.db'}", "--retain-players", "0.00001", "--sweep", "0.2")
    me = new_identity()

    async def body() -> str:
        room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann", player=me)
        await ann.host("add_bot", room["host_token"], seat=1, bot="heuristic")
        await ann.host("start", room["host_token"])
        await play(ann, choose)
        await ann.close()
        return str(room["room"])

    code = run(body)
    end = time.monotonic() + 30
    while my_games(server.url, me):
        assert time.monotonic() < end, "the identity was never forgotten"
        time.sleep(1.0)
    assert verify(GameRecord.loads(download_record(server.url, code, 1))).ok


def test_kill_9_keeps_the_chat_and_the_ready_marks(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    # SQLite: the chat is written by the same writer as the room log, whose kill -9 tests run on both
    database = f"sqlite:///{tmp_path / 'kill.db'}"
    server = make_server(database, "--chat-rate", "1000", "--chat-burst", "1000")

    async def talk(client: RoomClient, said: list[str]) -> None:
        """Chat until the connection drops; keep every line the server acknowledged."""
        for i in range(90):  # the history a reconnect is sent holds them all
            line = f"{client.seat}: line {i}"
            try:
                await client.say(line)
            except (ConnectionError, TimeoutError, ServerError):
                return
            said.append(line)

    async def body() -> None:
        room = create_room(server.url, "classic", 3, options={"rounds": 1}, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann")
        ben = await RoomClient.join(server.url, room["room"], name="Ben")
        wes = await RoomClient.join(server.url, room["room"], role="spectator", name="Wes")
        await ann.host("add_bot", room["host_token"], seat=2, bot="heuristic")
        await ann.host("start", room["host_token"])
        await wes.say("watching you two")
        await asyncio.gather(play(ann, choose), play(ben, choose))
        await ann.ready()
        await ben.wait_for(lambda s: s["room"]["seats"][0]["ready"])
        said: list[str] = []
        talking = asyncio.create_task(talk(ben, said))
        await ben.wait_for(lambda _s: len(said) >= 20, 30)
        server.kill()  # kill -9 while Ben is talking
        await talking
        await asyncio.sleep(0.3)
        server.start()
        for client in (ann, ben, wes):  # each reconnects by itself and is sent the chat again
            await client.wait_for(_reconnected(client, said[-1]), 60)
        for client in (ann, ben):
            lines = _lines(client)
            assert "watching you two" in lines  # the game is over: the spectator's line is the players' too
            assert all(line in lines for line in said), "an acknowledged chat line was lost"
        assert ann.state is not None
        assert [seat["ready"] for seat in ann.state["room"]["seats"]] == [True, False, False]
        assert ann.phase == "finished"
        await ben.ready()  # the marks count as before: the next game starts
        await ann.wait_for(lambda s: s["room"]["game_no"] == 2, 30)
        for client in (ann, ben, wes):
            await client.close()

    run(body)


def _reconnected(client: RoomClient, line: str) -> Callable[[dict[str, Any]], bool]:
    """A ``wait_for`` predicate: connected again, and sent the chat up to ``line``."""
    return lambda _state: client.connected and line in _lines(client)


def test_a_cluster_lists_the_same_public_rooms_and_carries_the_chat_across_processes(
    postgres: Any, make_server: Callable[..., ServerProcess]
) -> None:
    database = postgres.new_database()
    first, second = make_server(database), make_server(database)

    async def body() -> None:
        room = create_room(first.url, "flip", 3, settings=FAST, public=True)
        ann = await RoomClient.join(first.url, room["room"], name="Ann")
        ben = await RoomClient.join(second.url, room["room"], name="Ben")  # served by the other process
        for process in (first, second):
            listed = await _listed(process, room["room"], lambda r: r["open_seats"] == 1)
            assert listed["names"] == ["Ann", "Ben"]
        await ben.say("from the second process")
        await _heard(ann, "from the second process")
        await ann.say("from the first")
        await _heard(ben, "from the first")
        await ann.close()
        await ben.close()

    run(body)


def test_the_migrations_build_the_schema_the_code_declares(database: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    import unokit.server.features  # noqa: F401  (the features' tables, declared on the same metadata)
    from unokit.server.storage import Store, metadata, migrate

    store = Store(database)
    try:
        migrate(store.engine)
        with store.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), metadata)
        assert differences == []
    finally:
        store.close()


def test_a_hello_with_a_bad_identity_is_refused(server: ServerProcess) -> None:
    async def body() -> None:
        room = create_room(server.url, "classic", 2, settings=FAST)
        for player in ("short", "x" * 200, "with spaces and more than twenty-two characters"):
            with pytest.raises(ServerError) as refused:
                await RoomClient.join(server.url, room["room"], name="Ann", player=player)
            assert refused.value.code == "bad_player"
        assert get_json(server.url, f"/api/rooms/{room['room']}")["seats"][0]["kind"] == "open"

    run(body)


def test_the_protocol_page_documents_every_message_command_reaction_and_new_error() -> None:
    from unokit.server.chat import REACTIONS
    from unokit.server.messages import CLIENT
    from unokit.server.room import HOST_PHASES

    page = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip() for line in page.splitlines() if line.startswith("| `")}
    cells = {name.strip("` ") for row in rows for name in row.split(",")}
    missing = [name for name in [*CLIENT, *HOST_PHASES, "chat", "bad_chat", "muted", "bad_player"] if name not in cells]
    assert missing == []
    assert all(f"`{reaction}`" in page for reaction in REACTIONS)
