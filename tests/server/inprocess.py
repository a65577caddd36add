"""The server's application in this process, through Starlette's test client: the real
``create_app`` (its hub, its features, its edge middleware, its websocket) on a SQLite database
in the test's folder, with no ``unokit serve`` process, no port and no wait for one to start.

For what a feature's routes and room messages answer; a real server (:class:`.support.ServerProcess`)
stays for what only one shows: processes, ``kill -9``, several processes sharing PostgreSQL, the
network's own behaviour (slow readers, connection limits), Caddy and the browser.

The test client runs the application's event loop in a thread of its own; each call here waits
for its answer (a websocket's next message, with the client's own time limit: never a fixed
pause).
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from unokit.server import PROTOCOL
from unokit.server.app import create_app
from unokit.server.config import ServerConfig

#: The address the test client says it comes from, and the name it asks for.
ADDRESS = "127.0.0.1"
BASE = f"http://{ADDRESS}:8000"
WEBSOCKET = f"ws://{ADDRESS}:8000/ws"
#: Allowances raised as :data:`.support.GENEROUS` raises a real server's: tests drive it from one
#: address with more rooms and look-ups than one person would make.
GENEROUS_CONFIG: dict[str, Any] = {
    "rate": 5000.0,
    "burst": 5000.0,
    "room_rate": 100000.0,
    "lookup_rate": 100000.0,
    "client_connections": 5000,
    "public_rooms": 1000,
    "public_seats": 10,
    "warm_engine": False,
    "bot_threads": 2,
}


class Refused(Exception):
    """An ``error`` the application answered a websocket request with."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__(f"{answer.get('code')}: {answer.get('message')}")
        self.code = str(answer.get("code"))
        self.answer = answer


@dataclass
class Seat:
    """One websocket connection that said hello to a room: its welcome, the messages since."""

    socket: WebSocketTestSession
    welcome: dict[str, Any]
    received: list[dict[str, Any]] = field(default_factory=list)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def token(self) -> str | None:
        token = self.welcome.get("token")
        return None if token is None else str(token)

    def next_message(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.receive_text())
        self.received.append(message)
        return message

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` with an ``id`` and return the answer to it (its ``ack``, or the
        message that replies to it); raise :class:`Refused` for an ``error``."""
        ident = next(self._ids)
        self.socket.send_text(json.dumps({**message, "id": ident}))
        while True:
            answer = self.next_message()
            if answer.get("reply_to") == ident:
                if answer["type"] == "error":
                    raise Refused(answer)
                return answer


@dataclass
class InProcess:
    """The application under test, and its test client."""

    client: TestClient
    config: ServerConfig

    def room(self, **request: Any) -> dict[str, Any]:
        """``POST /api/rooms`` with ``request``; the answer (raise ``AssertionError`` on a refusal)."""
        answer = self.client.post("/api/rooms", json=request)
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created

    @contextlib.contextmanager
    def seat(self, code: str, name: str, **hello: Any) -> Iterator[Seat]:
        """A connection that said hello to room ``code`` as ``name`` and has its first state."""
        with self.client.websocket_connect(WEBSOCKET) as socket:
            socket.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL, "room": code, "name": name, **hello}))
            welcome: dict[str, Any] = json.loads(socket.receive_text())
            if welcome["type"] == "error":
                raise Refused(welcome)
            seat = Seat(socket, welcome)
            while seat.next_message()["type"] != "state":
                pass
            yield seat


@contextlib.contextmanager
def in_process(folder: Path, **config: Any) -> Iterator[InProcess]:
    """The application of a server with ``config`` (over :data:`GENEROUS_CONFIG`) on a SQLite
    database in ``folder``, started (its lifespan run) until the block ends."""
    settings = {"database": f"sqlite:///{folder / 'server.db'}", **GENEROUS_CONFIG, **config}
    server_config = ServerConfig(**settings)
    with TestClient(create_app(server_config), base_url=BASE, client=(ADDRESS, 50000)) as client:
        yield InProcess(client, server_config)


__all__ = ["ADDRESS", "BASE", "GENEROUS_CONFIG", "WEBSOCKET", "InProcess", "Refused", "Seat", "in_process"]
