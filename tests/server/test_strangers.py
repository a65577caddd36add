"""Safe among strangers: the second round of hostile-client defects (N3 to N10), each attacked
from outside as a stranger would, on loopback and bounded, and the moderation public rooms
need: per-reader mutes, reports, bans across the server, a word filter, quieting spectators
where nobody hosts. Other loopback addresses (127.0.0.x) stand for other people's addresses."""

from __future__ import annotations

import asyncio
import hashlib
import http.client
import json
import secrets
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from unokit.server.client import RoomClient, create_room, lobby, new_identity, ws_url

from .support import FAST, UNOKIT, ServerProcess, free_port, run

#: This module's server: its real limits for strangers (public rooms and seats, chat), a word
#: filter, and the admin token; room creation and look-ups generous (tests make many rooms).
ADMIN_TOKEN = "the-admin-token-of-the-strangers-test"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("strangers")
    (path / "token").write_text(ADMIN_TOKEN)
    (path / "words.txt").write_text("# words this server keeps out\nbadword\nvery rude\nswear*\n")
    return path


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        f"sqlite:///{folder / 'server.db'}",
        free_port(),
        [
            *("--rate", "5000", "--burst", "5000", "--room-rate", "100000", "--client-connections", "5000"),
            *("--lookup-rate", "20", "--public-rooms", "3", "--public-seats", "2", "--play-now-wait", "600"),
            *("--word-filter", str(folder / "words.txt"), "--admin-token-file", str(folder / "token")),
        ],
    )
    process.start()
    yield process
    process.stop()


def request(
    server: ServerProcess, method: str, path: str, body: Any = None, source: str = "127.0.0.1", kind: str = "json"
) -> tuple[int, dict[str, str], Any]:
    """One HTTP request from loopback address ``source``: (status, headers, JSON body or text)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(source, 0))
    headers = {"Content-Type": "application/json" if kind == "json" else "text/plain"}
    data = None if body is None else (json.dumps(body) if kind == "json" else str(body)).encode()
    try:
        connection.request(method, path, body=data, headers=headers if data is not None else {})
        response = connection.getresponse()
        text = response.read()
        answer_headers = {k.lower(): v for k, v in response.getheaders()}
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text.decode(errors="replace")
        return response.status, answer_headers, parsed
    finally:
        connection.close()


class Raw:
    """A websocket from loopback address ``source``: what a stranger's client sends, by hand."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = 0
        self.seen: list[dict[str, Any]] = []
        self.token: str | None = None
        self.seat: int | None = None
        self.welcome: dict[str, Any] = {}

    @classmethod
    async def open(cls, server: ServerProcess, source: str = "127.0.0.1") -> Raw:
        return cls(await connect(ws_url(server.url), local_addr=(source, 0)))

    async def ask(self, message: dict[str, Any], timeout: float = 15) -> dict[str, Any]:
        """Send ``message`` with an id; its answer (``welcome``, ``ack`` or ``error``)."""
        self.ids += 1
        await self.ws.send(json.dumps({**message, "id": self.ids}))
        end = time.monotonic() + timeout
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), max(0.1, end - time.monotonic()))
            answer = json.loads(raw)
            self.seen.append(answer)
            if answer.get("reply_to") == self.ids and answer["type"] in ("welcome", "ack", "error"):
                return answer  # type: ignore[no-any-return]

    async def hello(self, room: str, **fields: Any) -> dict[str, Any]:
        answer = await self.ask({"type": "hello", "room": room, **fields})
        if answer["type"] == "welcome":
            self.welcome = answer
            self.token, self.seat = answer.get("token"), answer.get("seat")
        return answer

    async def say(self, text: str) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "chat", "text": text}
        if self.token is not None:
            message["token"] = self.token
        return await self.ask(message)

    async def close(self) -> None:
        await self.ws.close()


def _code(answer: dict[str, Any]) -> str:
    return str(answer.get("code") or answer["type"])


# ---------------------------------------------------------------------------------- N3
def test_spectators_chat_is_limited_per_address_and_per_room_however_they_reconnect(server: ServerProcess) -> None:
    """N3: a spectator's allowance (1 a second, 5 at once) is their address's in the room:
    reconnecting does not renew it. All of a room's spectators share three times one's, and
    one address three times one's across all rooms, so neither many addresses in one room nor
    one address in many rooms can flood the database."""

    async def body() -> tuple[list[str], str, list[str], list[str]]:
        room = create_room(server.url, "classic", 2, settings=FAST)["room"]
        first = await Raw.open(server, "127.0.0.31")
        await first.hello(room, role="spectator", name="Sid")
        burst = [_code(await first.say(f"line {i}")) for i in range(6)]
        await first.close()
        again = await Raw.open(server, "127.0.0.31")  # a new connection, the same address
        await again.hello(room, role="spectator", name="Sid")
        after_reconnect = _code(await again.say("and again"))
        await again.close()
        crowd_room = create_room(server.url, "classic", 2, settings=FAST)["room"]
        crowd = []
        for i in range(5):  # five addresses, each within its own allowance
            raw = await Raw.open(server, f"127.0.0.{40 + i}")
            await raw.hello(crowd_room, role="spectator")
            crowd += [_code(await raw.say(f"crowd {i}.{j}")) for j in range(4)]
            await raw.close()
        spread = []
        for _ in range(4):  # one address in four rooms, each within the room's allowance
            other = create_room(server.url, "classic", 2, settings=FAST)["room"]
            raw = await Raw.open(server, "127.0.0.50")
            await raw.hello(other, role="spectator")
            spread += [_code(await raw.say("spread")) for _ in range(4)]
            await raw.close()
        return burst, after_reconnect, crowd, spread

    started = time.monotonic()
    burst, after_reconnect, crowd, spread = run(body)
    elapsed = time.monotonic() - started
    assert burst == ["ack"] * 5 + ["rate_limited"]
    assert after_reconnect == "rate_limited"
    # 20 lines from 5 addresses: the room's spectators may send 15 at once and 3 a second.
    assert crowd.count("ack") <= 15 + 3 * elapsed and "rate_limited" in crowd, crowd
    # 16 lines from one address in 4 rooms: 10 at once and 3 a second across the server.
    assert spread.count("ack") <= 10 + 3 * elapsed and "rate_limited" in spread, spread


# ---------------------------------------------------------------------------------- N4
def test_the_lobby_lists_rooms_people_sit_in_fullest_first_and_caps_public_rooms_per_address(
    server: ServerProcess,
) -> None:
    """N4: a public room nobody sits in is not listed (an address cannot fill the list with
    empty rooms); rooms are listed with the most people first; an address may have three
    public rooms open, whether it creates them public, opens them by "play now" or makes a
    private one public."""
    flooder, public = "127.0.0.60", {"variant": "classic", "players": 3, "public": True}

    def make(source: str, body: dict[str, Any]) -> tuple[int, Any]:
        status, _headers, answer = request(server, "POST", "/api/rooms", body, source)
        return status, answer

    async def body() -> dict[str, Any]:
        made = [make(flooder, public) for _ in range(4)]
        seen: dict[str, Any] = {"statuses": [status for status, _answer in made]}
        empty, fuller = made[0][1]["room"], made[1][1]["room"]
        seen["listed_empty"] = empty in json.dumps(lobby(server.url))
        one = await Raw.open(server, flooder)
        await one.hello(empty, name="Uma", player=new_identity())
        two = [await Raw.open(server, f"127.0.0.{61 + i}") for i in range(2)]
        for i, raw in enumerate(two):
            await raw.hello(fuller, name=f"Vic {i}", player=new_identity())
        order = [room["room"] for room in lobby(server.url)["waiting"]]
        seen["listed"], seen["fullest_first"] = empty in order, order.index(fuller) < order.index(empty)
        seen["play_now"] = request(server, "POST", "/api/play-now", {"variant": "attack"}, flooder)
        for source, key in ((flooder, "over_cap"), ("127.0.0.65", "under_cap")):
            _status, private = make(source, {"variant": "classic", "players": 2})
            host = await Raw.open(server, source)
            await host.hello(private["room"], name="Hal", host_token=private["host_token"])
            command = {"type": "host", "command": "make_public", "host_token": private["host_token"], "version": 1}
            seen[key] = _code(await host.ask(command))
            await host.close()
        for raw in [one, *two]:
            await raw.close()
        return seen

    seen = run(body)
    assert seen["statuses"] == [201, 201, 201, 429]
    assert not seen["listed_empty"] and seen["listed"] and seen["fullest_first"]
    status, _headers, answer = seen["play_now"]
    assert (status, answer["error"]) == (429, "too_many_rooms")
    assert (seen["over_cap"], seen["under_cap"]) == ("too_many_rooms", "ack")


# ---------------------------------------------------------------------------------- N5
def test_a_muted_player_stays_muted_after_leaving_and_sitting_down_again(server: ServerProcess) -> None:
    """N5: the host's mute follows the person (their identity, and their address for whoever
    sits down from it later), not only the seat token a new hello would replace; a player who
    already sat at the table from the same address (a household) is not muted with them."""

    async def body() -> list[str]:
        room = create_room(server.url, "classic", 4, settings=FAST)
        code, host_token = room["room"], room["host_token"]
        host = await Raw.open(server)
        await host.hello(code, name="Hal", host_token=host_token)
        bob_identity = new_identity()
        bob = await Raw.open(server, "127.0.0.70")
        await bob.hello(code, name="Bob", player=bob_identity)
        kin = await Raw.open(server, "127.0.0.70")  # the same household, seated before the mute
        await kin.hello(code, name="Kim", player=new_identity())
        muted = await host.ask({"type": "host", "command": "mute", "host_token": host_token, "version": 0, "seat": 1})
        codes = [_code(muted), _code(await bob.say("still me"))]
        codes.append(_code(await bob.ask({"type": "leave", "token": bob.token})))
        again = await Raw.open(server, "127.0.0.70")
        await again.hello(code, name="Bob", player=bob_identity)  # a new seat token
        codes.append(_code(await again.say("a new seat")))
        fresh = await Raw.open(server, "127.0.0.70")  # a new identity, the same address
        await fresh.hello(code, name="Rob", player=new_identity())
        codes.append(_code(await fresh.say("a new me")))
        codes.append(_code(await kin.say("I was here before")))
        for raw in (host, bob, kin, again, fresh):
            await raw.close()
        return codes

    assert run(body) == ["ack", "muted", "ack", "muted", "muted", "ack"]


# ---------------------------------------------------------------------------------- N6, N7
def test_a_spectator_cannot_chat_as_a_player_who_sits_down_with_their_name_nor_stack_marks(
    server: ServerProcess,
) -> None:
    """N6: a spectator took the name "Zoe" before a player of that name sat down: from then on
    the spectator's lines are refused (``name_taken``), so nobody reads them as the player's.
    N7: a chat line with more than three combining marks on a letter is refused."""

    async def body() -> list[str]:
        code = create_room(server.url, "classic", 2, settings=FAST)["room"]
        fake = await Raw.open(server, "127.0.0.80")
        await fake.hello(code, role="spectator", name="Zoe")
        codes = [_code(await fake.say("before she sits"))]
        zoe = await Raw.open(server)
        await zoe.hello(code, name="Zoe", player=new_identity())
        codes.append(_code(await fake.say("I am Zoe")))
        codes.append(_code(await zoe.say("Z" + "\u0301" * 200)))
        codes.append(_code(await zoe.say("Zoë, with e\u0308 written apart")))
        for raw in (fake, zoe):
            await raw.close()
        return codes

    assert run(body) == ["ack", "name_taken", "bad_chat", "ack"]


# ---------------------------------------------------------------------------------- N8
@pytest.mark.parametrize(
    ("method", "path", "kind", "status", "code"),
    [
        ("GET", "/api/nothing-here", "json", 404, "no_route"),
        ("POST", "/api/nothing/here", "text", 404, "no_route"),
        ("POST", "/api/health", "text", 405, "bad_method"),
        ("GET", "/api/rooms", "json", 405, "bad_method"),
        ("DELETE", "/api/rooms/ABCDEF", "json", 405, "bad_method"),
        ("PUT", "/api/my-games", "json", 405, "bad_method"),
    ],
)
def test_every_api_answer_is_typed_json(
    server: ServerProcess, method: str, path: str, kind: str, status: int, code: str
) -> None:
    """N8: a path of the API that does not exist is a JSON 404, a method it does not take a
    JSON 405 naming the methods it does (never a plain-text page, nor 415 for a method)."""
    got, headers, body = request(server, method, path, {"x": 1} if method != "GET" else None, kind=kind)
    assert (got, body["error"]) == (status, code) and headers["content-type"] == "application/json"
    if status == 405:
        assert headers["allow"]


# ---------------------------------------------------------------------------------- N9
def test_identities_are_only_of_the_clients_form_and_my_games_is_limited_per_address(server: ServerProcess) -> None:
    """N9: an identity is 32 random bytes in base64url, as the clients make them: 22 repeated
    characters, or 43, are refused; "My games" and "Forget me" are limited per address like
    code look-ups (bursts of 30, 20 a minute), and another address has its own allowance."""
    for made_up in ("A" * 22, "A" * 43, "Ab" * 21 + "A", new_identity()[:-2], "x" * 200):
        status, _headers, body = request(server, "POST", "/api/my-games", {"player": made_up}, "127.0.0.90")
        assert (status, body["error"]) == (400, "bad_player"), made_up
    statuses = [
        request(server, "POST", path, {"player": new_identity()}, "127.0.0.91")[0]
        for path in ["/api/my-games", "/api/my-games/forget"] * 18
    ]
    assert statuses[:30] == [200] * 30 and set(statuses[30:]) == {429}
    assert request(server, "POST", "/api/my-games", {"player": new_identity()}, "127.0.0.92")[0] == 200


# ---------------------------------------------------------------------------------- N10
def test_one_seat_per_identity_and_two_per_address_at_a_public_table(server: ServerProcess) -> None:
    """N10: one address cannot take every seat of a public table with idle connections: one
    identity holds one seat, an address two (the server's --public-seats); another address
    sits, and a private room among friends has no such cap."""

    async def body() -> list[str]:
        status, _headers, made = request(
            server, "POST", "/api/rooms", {"variant": "classic", "players": 4, "public": True}, "127.0.0.103"
        )
        assert status == 201
        public, me = made["room"], new_identity()
        first = await Raw.open(server, "127.0.0.100")
        codes = [_code(await first.hello(public, name="Ida", player=me))]
        twin = await Raw.open(server, "127.0.0.101")
        codes.append(_code(await twin.hello(public, name="Ida Two", player=me)))
        second = await Raw.open(server, "127.0.0.100")
        codes.append(_code(await second.hello(public, name="Ivo", player=new_identity())))
        third = await Raw.open(server, "127.0.0.100")
        codes.append(_code(await third.hello(public, name="Ike", player=new_identity())))
        other = await Raw.open(server, "127.0.0.102")
        codes.append(_code(await other.hello(public, name="Ola", player=new_identity())))
        private = create_room(server.url, "classic", 4, settings=FAST)["room"]
        friends = [await Raw.open(server, "127.0.0.100") for _ in range(4)]
        for i, raw in enumerate(friends):
            codes.append(_code(await raw.hello(private, name=f"Friend {i}", player=new_identity())))
        for raw in (first, twin, second, third, other, *friends):
            await raw.close()
        return codes

    codes = run(body)
    assert codes[:5] == ["welcome", "already_seated", "welcome", "too_many_seats", "welcome"]
    assert codes[5:] == ["welcome"] * 4


# ---------------------------------------------------------------------------------- moderation
def _admin(folder: Path, *args: str, server: ServerProcess | None = None) -> str:
    """``unokit admin`` on the database (or through ``server`` with the admin token)."""
    where = (
        ["--server", server.url, "--token-file", str(folder / "token")]
        if server is not None
        else ["--database", f"sqlite:///{folder / 'server.db'}"]
    )
    done = subprocess.run([UNOKIT, "admin", *where, *args], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _hash(identity: str) -> str:
    return hashlib.sha256(identity.encode()).hexdigest()


def test_a_report_keeps_the_lines_around_it_and_a_ban_reaches_every_door(server: ServerProcess, folder: Path) -> None:
    """A player reports a line: ``unokit admin reports`` (on the database, and through the
    server with the admin token) shows the room, the two identities (hashes), the name and
    the lines around it, and nothing else. Banned by identity, the player's open connection
    to the public room ends, their next hello and chat are refused; banned by address, a
    stranger can open no public room; lifted, the ban is gone."""
    ann_id, bob_id = new_identity(), new_identity()

    async def chat_and_report() -> tuple[str, str]:
        status, _headers, room = request(
            server, "POST", "/api/rooms", {"variant": "classic", "players": 3, "public": True}, "127.0.0.111"
        )
        assert status == 201
        code = room["room"]
        ann = await RoomClient.join(server.url, code, name="Ann", player=ann_id)
        bob = await RoomClient.join(server.url, code, name="Bob", player=bob_id)
        for text in ("hello all", "you play badly", "really badly", "sorry"):
            await bob.say(text)
        await ann.wait_for(lambda _s: len(ann.chat) == 4)
        line = next(m for m in ann.chat if m["text"] == "really badly")
        assert line["from"] == bob.chat[0]["from"] != ann.state["room"]["seats"][0]["from"]  # type: ignore[index]
        assert line["from"] == ann.state["room"]["seats"][1]["from"]  # type: ignore[index]
        await ann.request({"type": "report", "about": "chat", "message": line["n"], "token": ann.token})
        await ann.request({"type": "report", "about": "conduct", "seat": 1, "token": ann.token})
        await ann.close()
        await bob.close()
        return code, str(bob.token)

    code, bob_token = run(chat_and_report)
    on_database = json.loads(_admin(folder, "reports", "--room", code, "--json"))["reports"]
    through_server = json.loads(_admin(folder, "reports", "--room", code, "--json", server=server))["reports"]
    assert on_database == through_server and [r["kind"] for r in on_database] == ["conduct", "chat"]
    report = on_database[1]
    assert set(report) == {"id", "at", "room", "kind", "reporter", "reported", "name", "lines"}
    assert (report["room"], report["reporter"], report["reported"], report["name"]) == (
        code,
        _hash(ann_id),
        _hash(bob_id),
        "Bob",
    )
    assert [line["text"] for line in report["lines"]] == ["hello all", "you play badly", "really badly", "sorry"]
    assert all(
        set(line) <= {"n", "seat", "name", "channel", "text", "reaction", "at", "from"} for line in report["lines"]
    )
    assert "room" in _admin(folder, "reports") and "reported by" in _admin(folder, "reports")

    async def banned() -> tuple[str, str, str]:
        bob = await RoomClient.join(server.url, code, token=bob_token, player=bob_id, reconnect=False, keep=True)
        _admin(folder, "ban", "--identity", _hash(bob_id), "--hours", "1", "--reason", "insults")  # on the database
        end = time.monotonic() + 20  # every process reads the bans every 5 s
        while bob.connected:
            assert time.monotonic() < end, "the banned player's connection was not ended"
            await asyncio.sleep(0.1)
        told = next((m["code"] for m in bob.received if m.get("type") == "error"), "none")
        again = await Raw.open(server)
        hello = _code(await again.hello(code, token=bob_token, player=bob_id))
        await again.close()
        private = create_room(server.url, "classic", 2, settings=FAST)
        quiet = await Raw.open(server)
        await quiet.hello(private["room"], name="Bob", player=bob_id)
        said = _code(await quiet.say("can I talk?"))
        await quiet.close()
        return told, hello, said

    told, hello, said = run(banned)
    assert (told, hello, said) == ("banned", "banned", "banned")
    listed = _admin(folder, "bans")
    assert _hash(bob_id) in listed and "insults" in listed
    _admin(folder, "ban", "--address", "127.0.0.110", server=server)  # through the server: at once
    refused = request(server, "POST", "/api/rooms", {"variant": "classic", "public": True}, "127.0.0.110")
    assert (refused[0], refused[2]["error"]) == (403, "banned")
    assert request(server, "POST", "/api/rooms", {"variant": "classic"}, "127.0.0.110")[0] == 201  # private: fine
    bans = json.loads(_admin(folder, "bans", "--json", server=server))["bans"]
    for ban in bans:
        _admin(folder, "unban", str(ban["id"]), server=server)
    assert request(server, "POST", "/api/rooms", {"variant": "classic", "public": True}, "127.0.0.110")[0] == 201
    assert json.loads(_admin(folder, "bans", "--json"))["bans"] == []


def test_the_word_filter_keeps_the_hosts_words_out_of_names_and_chat(server: ServerProcess) -> None:
    """The host's list (this server's: ``badword``, ``very rude``, ``swear*``) refuses names
    and lines that hold them, however they are written (case, accents, fullwidth letters),
    and nothing else ("badge", "rude" alone)."""

    async def body() -> list[str]:
        code = create_room(server.url, "classic", 3, settings=FAST)["room"]
        codes = []
        for name in ("BadWord", "Mr \uff42\uff41\uff44\uff57\uff4f\uff52\uff44", "Swearing Sam"):
            raw = await Raw.open(server)
            codes.append(_code(await raw.hello(code, name=name)))
            await raw.close()
        ok = await Raw.open(server)
        await ok.hello(code, name="Badge", player=new_identity())
        for text in ("that was VERY   rude!", "bádwörd", "swearwords", "rude, but badge-worthy"):
            codes.append(_code(await ok.say(text)))
        await ok.close()
        return codes

    assert run(body) == ["filtered", "filtered", "filtered", "filtered", "filtered", "filtered", "ack"]


def test_in_a_room_nobody_hosts_a_player_quiets_the_spectators(server: ServerProcess) -> None:
    """A "play now" room has no host: any of its players may quiet its spectators (and let
    them talk again), as often as they may chat; in a room with a host only the host may."""

    async def body() -> list[str]:
        status, _headers, found = request(server, "POST", "/api/play-now", {"variant": "flip"}, "127.0.0.120")
        assert status == 200
        player = await Raw.open(server, "127.0.0.120")
        await player.hello(found["room"], name="Pia", player=new_identity())
        watcher = await Raw.open(server, "127.0.0.121")
        await watcher.hello(found["room"], role="spectator", name="Wil")
        codes = [_code(await watcher.say("hi from the rail"))]
        codes.append(_code(await player.ask({"type": "quiet", "token": player.token, "quiet": True})))
        codes.append(_code(await watcher.say("and again")))
        codes.append(_code(await player.ask({"type": "quiet", "token": player.token, "quiet": False})))
        codes.append(_code(await watcher.say("thanks")))
        # each change is written: a flood of them is held to the seat's chat allowance
        flips = [
            _code(await player.ask({"type": "quiet", "token": player.token, "quiet": i % 2 == 0})) for i in range(10)
        ]
        codes.append("held" if "rate_limited" in flips else f"flood {flips}")
        hosted = create_room(server.url, "classic", 2, settings=FAST)["room"]
        guest = await Raw.open(server)
        await guest.hello(hosted, name="Gus")
        codes.append(_code(await guest.ask({"type": "quiet", "token": guest.token, "quiet": True})))
        codes.append(_code(await guest.ask({"type": "report", "about": "gossip"})))
        for raw in (player, watcher, guest):
            await raw.close()
        return codes

    assert run(body) == ["ack", "ack", "muted", "ack", "ack", "held", "not_host", "bad_report"]


def test_a_report_flood_is_held_to_an_allowance_per_address(server: ServerProcess) -> None:
    """Reports are written to the database: one address may make 10 at once, 5 a minute."""

    async def body() -> list[str]:
        code = create_room(server.url, "classic", 2, settings=FAST)["room"]
        raw = await Raw.open(server, "127.0.0.130")
        await raw.hello(code, name="Rex", player=new_identity())
        other = await Raw.open(server, "127.0.0.131")
        await other.hello(code, name="Oz", player=new_identity())
        codes = [_code(await raw.ask({"type": "report", "about": "name", "seat": 1})) for _ in range(14)]
        for ws in (raw, other):
            await ws.close()
        return codes

    codes = run(body)
    assert codes[:10] == ["ack"] * 10 and set(codes[10:]) == {"rate_limited"}


def test_words_of_a_filter_entry_match_as_people_read_them() -> None:
    from unokit.server.wordfilter import WordFilter, words_of

    words = WordFilter(["bad", "very rude", "foo*", "# a comment", "  "])
    assert words.size == 3 and words_of("\uff26ôô-Bar_baz") == ["foo", "bar", "baz"]
    refused = ["a Bad day", "BÁD", "\uff22\uff21\uff24", "very   rude!", "foobar", "bad_guy"]
    allowed = ["badge", "very nice rude", "xfoo", "b a d", ""]
    assert all(words.refuses(text) for text in refused) and not any(words.refuses(text) for text in allowed)
    assert not WordFilter().refuses("anything at all")


def test_identities_a_client_makes_are_all_accepted() -> None:
    """The form check refuses made-up identities, never one the clients make (20,000 tried)."""
    from unokit.server.authority import identity_hash
    from unokit.server.room import RoomError

    for _ in range(20_000):
        identity_hash(secrets.token_urlsafe(32))
    with pytest.raises(RoomError, match="not a random secret"):
        identity_hash("A" * 43)
