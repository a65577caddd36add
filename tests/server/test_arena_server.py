"""The arena feature through the real application in process (docs/arena.md): the operator
schedules an arena, players join from their own addresses, a sweep (its time passed in, never
slept) seats the free ones, they sit and play the hand through the websocket, its record counts
their points and frees them, bots fill a table after the wait, a leaver loses, one address never
fills a table, the standings and the end; the admin commands on the database."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from click.testing import CliRunner
from starlette.testclient import TestClient

from unokit.cli import main
from unokit.server import PROTOCOL
from unokit.server.client import new_identity
from unokit.server.features.arena import ArenaServer
from unokit.server.hub import Hub
from unokit.server.room import FINISHED

from .inprocess import WEBSOCKET, InProcess, Seat, in_process
from .support import FAST, choose

TOKEN = "arena-admin-token-0123456789abcdef"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}


def _server(folder: Path) -> contextlib.AbstractContextManager[InProcess]:
    # the hub's own sweep (real time) never runs during a test: the test sweeps with its own time
    return in_process(folder, admin_token=TOKEN, trusted_proxies=("127.0.0.1",), sweep_seconds=3600.0)


def _arena_server(server: InProcess) -> ArenaServer:
    hub = cast(Hub, server.client.app.state.hub)  # type: ignore[attr-defined]
    found = next(f for f in hub.features if isinstance(f, ArenaServer))
    found.settings = {**FAST, "grace_seconds": 0.0}  # a leaver's stand-in plays at once
    return found


def _sweep(server: InProcess, arena: ArenaServer, now: float) -> None:
    portal = server.client.portal
    assert portal is not None
    portal.call(arena.sweep, now)


class Person:
    """A player of the test: an identity and an address of their own."""

    def __init__(self, client: TestClient, name: str, address: str) -> None:
        self.client, self.name, self.address = client, name, address
        self.identity = new_identity()
        self.headers = {"X-Forwarded-For": address}

    def join(self, arena: str) -> dict[str, Any]:
        asked = self.client.post(
            f"/api/arenas/{arena}/join", json={"player": self.identity, "name": self.name}, headers=self.headers
        )
        assert asked.status_code == 200, asked.text
        return dict(asked.json())

    def mine(self, arena: str) -> dict[str, Any]:
        asked = self.client.post(f"/api/arenas/{arena}/mine", json={"player": self.identity}, headers=self.headers)
        assert asked.status_code == 200, asked.text
        return dict(asked.json())

    @contextlib.contextmanager
    def sit(self, room: str) -> Iterator[Seat]:
        with self.client.websocket_connect(WEBSOCKET, headers=self.headers) as socket:
            hello = {"type": "hello", "protocol": PROTOCOL, "room": room, "name": self.name, "player": self.identity}
            socket.send_text(json.dumps(hello))
            welcome: dict[str, Any] = json.loads(socket.receive_text())
            assert welcome["type"] == "welcome", welcome
            yield Seat(socket, welcome)


def _play(seat: Seat, results: dict[int, dict[str, Any]], leave: bool = False) -> None:
    """Play ``seat``'s decisions (:func:`.support.choose`) until its game is over (``leave``: stop
    at its first decision, as a player who walks away) and keep its last state."""
    own = seat.welcome["seat"]
    while True:
        state = seat.next_message()
        if state["type"] != "state":
            continue
        if state["room"]["phase"] == FINISHED:
            results[own] = state
            return
        observation = state["observation"]
        if observation is not None and observation["to_act"] == own and observation["legal_actions"]:
            if leave:
                results[own] = state
                return
            action = choose(observation)
            seat.socket.send_text(
                json.dumps({"type": "action", "action": action, "version": state["version"], "token": seat.token})
            )


def _play_together(people: list[Person], room: str, leaver: Person | None = None) -> None:
    """``people`` sit at ``room`` and play its hand to the end, each in a thread of its own;
    ``leaver`` walks away (closes its connection) at its first decision."""
    results: dict[int, dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        seats = [stack.enter_context(person.sit(room)) for person in people]
        threads = {
            person.name: threading.Thread(target=_play, args=(seat, results, person is leaver))
            for seat, person in zip(seats, people, strict=True)
        }
        for thread in threads.values():
            thread.start()
        if leaver is not None:
            threads[leaver.name].join(timeout=120)
            seats[people.index(leaver)].socket.close()  # the stand-in plays on for them
        for thread in threads.values():
            thread.join(timeout=120)
        assert not any(t.is_alive() for t in threads.values()), "a seat never saw its game end"


def _create(server: InProcess, **body: Any) -> dict[str, Any]:
    made = server.client.post("/api/admin/arenas", json={"name": "Evening", **body}, headers=ADMIN)
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_an_arena_seats_free_players_counts_their_hand_and_seats_them_again(tmp_path: Path) -> None:
    with _server(tmp_path) as server:
        arena = _arena_server(server)
        made = _create(server, players=2, minutes=20, bot_wait=15)
        ident = made["id"]
        assert made["status"] == "running" and made["ends"] - made["starts"] == 1200
        listed = server.client.get("/api/arenas").json()["arenas"]
        assert [(a["id"], a["entrants"]) for a in listed] == [(ident, 0)]
        ann, bob, cy = (Person(server.client, n, f"10.0.0.{i}") for i, n in enumerate(("Ann", "Bob", "Cy"), 1))
        for person in (ann, bob, cy):
            assert person.join(ident)["free"] is True
        assert [a["entrants"] for a in server.client.get("/api/arenas").json()["arenas"]] == [3]
        now = time.time()
        _sweep(server, arena, now)
        seated = {p.name: p.mine(ident) for p in (ann, bob, cy)}
        rooms = {line["room"] for line in seated.values()}
        assert len(rooms) == 2 and None in rooms  # one table of two; the third waits
        waiting = next(p for p in (ann, bob, cy) if seated[p.name]["room"] is None)
        pair = [p for p in (ann, bob, cy) if p is not waiting]
        room = seated[pair[0].name]["room"]
        assert seated[pair[1].name]["room"] == room and seated[pair[0].name]["link"].endswith(f"/r/{room}")
        # a table is for the players it was made for
        with server.client.websocket_connect(WEBSOCKET, headers=waiting.headers) as socket:
            hello = {"type": "hello", "protocol": PROTOCOL, "room": room, "name": "Cy", "player": waiting.identity}
            socket.send_text(json.dumps(hello))
            refused = json.loads(socket.receive_text())
        assert (refused["type"], refused["code"]) == ("error", "not_your_table"), refused
        _sweep(server, arena, now + 5)  # not yet 15 s: the waiting player stays free
        assert waiting.mine(ident)["room"] is None
        _play_together(pair, room)
        after = {p.name: p.mine(ident) for p in pair}
        assert sorted(line["points"] for line in after.values()) == [0, 2]
        assert all(line["games"] == 1 and line["free"] and line["room"] is None for line in after.values())
        board = server.client.get(f"/api/arenas/{ident}").json()
        assert [line["points"] for line in board["standings"]] == [2, 0, 0]
        assert board["standings"][0]["name"] in {p.name for p in pair} and board["entrants"] == 3
        # the winner leads; the waiting player, with no game, ranks above the loser: they sit together
        _sweep(server, arena, time.time())
        lines = {p.name: p.mine(ident) for p in (ann, bob, cy)}
        winner = next(p for p in pair if after[p.name]["points"] == 2)
        assert lines[winner.name]["room"] == lines[waiting.name]["room"] is not None
        loser = next(p for p in pair if p is not winner)
        assert lines[loser.name]["room"] is None
        # after the wait, bots fill the loser's table
        _sweep(server, arena, time.time() + 15)
        assert loser.mine(ident)["room"] not in (None, lines[winner.name]["room"])


def test_a_leaver_loses_and_is_withdrawn_until_they_join_again(tmp_path: Path) -> None:
    with _server(tmp_path) as server:
        arena = _arena_server(server)
        ident = _create(server, players=2)["id"]
        ann, bob = Person(server.client, "Ann", "10.0.1.1"), Person(server.client, "Bob", "10.0.1.2")
        ann.join(ident)
        bob.join(ident)
        _sweep(server, arena, time.time())
        room = ann.mine(ident)["room"]
        assert room is not None and bob.mine(ident)["room"] == room
        _play_together([ann, bob], room, leaver=ann)
        left, stayed = ann.mine(ident), bob.mine(ident)
        assert (left["points"], left["games"], left["free"]) == (0, 1, False)
        assert (stayed["games"], stayed["free"]) == (1, True)
        assert ann.join(ident)["free"] is True  # back in


def test_one_address_never_fills_a_table_and_bots_seat_it_after_the_wait(tmp_path: Path) -> None:
    with _server(tmp_path) as server:
        arena = _arena_server(server)
        ident = _create(server, players=2, bot_wait=10)["id"]
        home = [Person(server.client, name, "10.0.2.1") for name in ("Ann", "Ann2")]
        for person in home:
            person.join(ident)
        now = time.time()
        _sweep(server, arena, now)
        assert [p.mine(ident)["room"] for p in home] == [None, None]
        _sweep(server, arena, now + 11)
        rooms = [p.mine(ident)["room"] for p in home]
        assert None not in rooms and rooms[0] != rooms[1]  # each at a table of their own, with a bot


def test_the_end_the_podium_cancelling_and_refusals(tmp_path: Path) -> None:
    with _server(tmp_path) as server:
        arena = _arena_server(server)
        made = _create(server, players=2, minutes=5)
        ident = made["id"]
        ann, bob = Person(server.client, "Ann", "10.0.3.1"), Person(server.client, "Bob", "10.0.3.2")
        ann.join(ident)
        bob.join(ident)
        arena.clock = lambda: made["ends"] + 1  # the routes' time, past the end
        _sweep(server, arena, made["ends"] + 1)  # an arena that ended seats nobody
        assert ann.mine(ident)["room"] is None
        board = server.client.get(f"/api/arenas/{ident}").json()
        assert board["status"] == "finished" and [p["name"] for p in board["podium"]] == ["Ann", "Bob"]
        late = server.client.post(
            f"/api/arenas/{ident}/join",
            json={"player": new_identity(), "name": "Cy"},
            headers={"X-Forwarded-For": "10.0.3.3"},
        )
        assert late.status_code == 409 and late.json()["error"] == "arena_over"
        arena.clock = time.time
        other = _create(server, players=2)["id"]
        cancelled = server.client.post(f"/api/admin/arenas/{other}/cancel", json={}, headers=ADMIN).json()
        assert cancelled["status"] == "cancelled"
        assert [a["id"] for a in server.client.get("/api/arenas").json()["arenas"]] == [ident]
        every = server.client.get("/api/admin/arenas", headers=ADMIN).json()["arenas"]
        assert {a["id"]: a["status"] for a in every} == {ident: "running", other: "cancelled"}  # real time again
        assert server.client.get("/api/arenas/nosuch").status_code == 404
        assert server.client.get("/api/arenas/NO!").json()["error"] == "bad_request"
        refused = server.client.post("/api/admin/arenas", json={"name": "X", "players": 11}, headers=ADMIN)
        assert refused.status_code == 400 and "players" in refused.json()["message"]
        assert server.client.post("/api/admin/arenas", json={"name": "X"}).status_code == 403


def test_the_admin_commands_schedule_list_and_cancel_on_the_database(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"
    runner = CliRunner()

    def admin(*args: str) -> str:
        ran = runner.invoke(main, ["admin", "--database", database, *args])
        assert ran.exit_code == 0, ran.output
        return ran.output

    made = runner.invoke(
        main, ["admin", "--database", database, "--create", "arena", "create", "Friday", "--players", "4"]
    )
    assert made.exit_code == 0, made.output
    ident = made.output.split()[0]
    assert "classic-4" in made.output and "Friday" in made.output
    listed = json.loads(admin("arena", "list", "--json"))["arenas"]
    assert [(a["id"], a["status"], a["players"]) for a in listed] == [(ident, "running", 4)]
    assert "cancelled" in admin("arena", "cancel", ident)
    bad = runner.invoke(main, ["admin", "--database", database, "arena", "cancel", "zzzz"])
    assert bad.exit_code == 1 and "there is no arena zzzz" in bad.output and "Traceback" not in bad.output
    bad = runner.invoke(main, ["admin", "--database", database, "arena", "create", "X", "--bot-level", "god"])
    assert bad.exit_code == 1 and "bot_level" in bad.output


def test_the_arenas_and_their_standings_are_read_within_an_addresss_allowance(tmp_path: Path) -> None:
    """A stranger polling the arenas or one's standings is held to the look-ups of one address;
    another address reads on."""
    with in_process(tmp_path, admin_token=TOKEN, trusted_proxies=("127.0.0.1",), lookup_rate=0.001) as server:
        arena = _create(server, variant="classic", players=2, minutes=30)["id"]
        for number, path in enumerate(("/api/arenas", f"/api/arenas/{arena}")):
            stranger = {"X-Forwarded-For": f"198.51.100.{number + 1}"}
            statuses = [server.client.get(path, headers=stranger).status_code for _ in range(30)]
            assert statuses[0] == 200 and statuses[-1] == 429, statuses
        assert server.client.get("/api/arenas", headers={"X-Forwarded-For": "198.51.100.10"}).status_code == 200
