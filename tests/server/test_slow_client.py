"""A client that stops reading: the server holds at most ``--send-buffer`` bytes for it, then
closes its connection (1008, "too slow"); its seat stays its own, and the room plays on for the
clients that read."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from unokit.record import GameRecord, verify
from unokit.server import PROTOCOL
from unokit.server.client import RoomClient, create_room, download_record, play, ws_url
from unokit.server.websocket import STRIKES_LIMIT

from .support import FAST, ServerProcess, choose, run, serve_once

#: The smallest ``--send-buffer``, so that the test reaches it quickly.
SEND_BUFFER = 65536


class SilentClient:
    """A websocket client on a raw socket that reads only when told to: after its hello it can
    send requests and never read the answers, so that they pile up in the server."""

    def __init__(self, sock: socket.socket, protocol: ClientProtocol) -> None:
        self.sock = sock
        self.protocol = protocol
        self.messages: list[dict[str, Any]] = []

    @classmethod
    async def join(cls, base: str, room: str, name: str) -> SilentClient:
        """Connect, take a seat in ``room`` as ``name`` and read up to the first state."""
        sock = socket.socket()
        sock.setblocking(False)
        uri = parse_uri(ws_url(base))
        await asyncio.get_running_loop().sock_connect(sock, (uri.host, uri.port))
        client = cls(sock, ClientProtocol(uri, max_size=None))
        client.protocol.send_request(client.protocol.connect())
        await client._flush()
        await client.read_until(lambda: client.protocol.state is State.OPEN)
        await client.send({"type": "hello", "protocol": PROTOCOL, "room": room, "name": name})
        await client.read_until(lambda: any(m["type"] == "state" for m in client.messages))
        return client

    @property
    def welcome(self) -> dict[str, Any]:
        return next(m for m in self.messages if m["type"] == "welcome")

    async def flood_until(self, dropped: Callable[[], bool], timeout: float = 90.0) -> None:
        """Ask for the whole state over and over (within the test server's rate) and read none of
        the answers, until ``dropped()``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not dropped():
            assert loop.time() < end, "the server never closed the connection of a client that does not read"
            for _ in range(50):
                await self.send({"type": "sync"})
            await asyncio.sleep(0.05)

    async def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                await asyncio.get_running_loop().sock_sendall(self.sock, data)

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send ``message`` (a dict as JSON, or any text)."""
        text = message if isinstance(message, str) else json.dumps(message)
        self.protocol.send_text(text.encode())
        await self._flush()

    async def read_until(self, done: Callable[[], bool], timeout: float = 30.0) -> None:
        """Read (and keep the JSON messages) until ``done()`` or the server closes."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done() and self.protocol.close_rcvd is None:
            data = await asyncio.wait_for(loop.sock_recv(self.sock, 65536), end - loop.time())
            if not data:
                self.protocol.receive_eof()
                return
            self.protocol.receive_data(data)
            for event in self.protocol.events_received():
                if isinstance(event, Response):
                    assert event.status_code == 101, event
                elif isinstance(event, Frame) and event.opcode == Opcode.TEXT:
                    self.messages.append(json.loads(bytes(event.data)))
        await self._flush()  # the answer to a close frame

    def close(self) -> None:
        self.sock.close()


def seat_dropped(watcher: RoomClient, seat: int) -> bool:
    """Whether ``watcher`` was told that ``seat``'s connection is gone."""
    return watcher.state is not None and watcher.state["room"]["connected"][seat] is False


def test_a_client_that_stops_reading_is_closed_past_the_send_buffer_and_keeps_its_seat(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'server.db'}", "--send-buffer", str(SEND_BUFFER))

    async def body() -> None:
        settings = {**FAST, "grace_seconds": 0.0}
        room = create_room(server.url, "classic", 3, options={"rounds": 1}, settings=settings)
        code, host_token = room["room"], room["host_token"]
        ann = await RoomClient.join(server.url, code, name="Ann", keep=True)
        bob = await SilentClient.join(server.url, code, "Bob")
        assert bob.welcome["seat"] == 1
        await ann.host("add_bot", host_token, seat=2, bot="heuristic")
        await ann.host("start", host_token)
        await ann.wait_for(lambda s: s["room"]["phase"] == "playing" and s["room"]["connected"][:2] == [True, True])
        ann_plays = asyncio.get_running_loop().create_task(play(ann, choose))

        # Bob never reads again: the answers to his requests pile up in the server until it
        # closes the connection.
        await bob.flood_until(lambda: seat_dropped(ann, 1))
        dropped_at = ann.version

        # Bob reads again: what the server held for him, then the close frame and its reason.
        await bob.read_until(lambda: False, 60)
        bob.close()
        close = bob.protocol.close_rcvd
        assert close is not None and close.code == 1008
        assert close.reason == f"too slow: over {SEND_BUFFER} bytes unread"

        # Meanwhile the game went on (Bob's stand-in plays his seat), and the seat is still his:
        # he comes back with his token, and both play to the end.
        await ann.wait_for(lambda s: s["version"] > dropped_at + 2 or s["room"]["phase"] == "finished")
        back = await RoomClient.join(server.url, code, token=bob.welcome["token"])
        assert back.seat == 1
        bob_final, ann_final = await asyncio.gather(play(back, choose), ann_plays)
        await back.close()
        await ann.close()
        assert ann_final["room"]["phase"] == bob_final["room"]["phase"] == "finished"
        # Ann got every change of the room, in order, to the last
        versions = [m["version"] for m in ann.received if m["type"] == "state"]
        assert versions == list(range(versions[0], ann_final["version"] + 1))
        assert verify(GameRecord.loads(download_record(server.url, code, 1))).ok

    run(body)
    # what the server held for Bob when it closed the connection: over the limit, and not much more
    held = [int(n) for n in re.findall(r"as too slow: (\d+) bytes unsent", server.log())]
    assert len(held) == 1 and SEND_BUFFER < held[0] < 2 * SEND_BUFFER, server.log()


def test_a_client_that_does_not_read_does_not_hold_up_a_stopping_server(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'server.db'}", "--send-buffer", str(SEND_BUFFER))

    async def body() -> SilentClient:
        room = create_room(server.url, "classic", 2, settings=FAST)
        ann = await RoomClient.join(server.url, room["room"], name="Ann")
        bob = await SilentClient.join(server.url, room["room"], "Bob")
        await ann.wait_for(lambda s: s["room"]["connected"] == [True, True])
        await bob.flood_until(lambda: seat_dropped(ann, 1))
        await ann.close()
        return bob

    bob = run(body)  # Bob's connection stays open, with what he has not read
    try:
        assert server.proc is not None
        server.proc.terminate()
        # the server closes Bob's connection and exits by itself (it would wait for him forever)
        assert server.proc.wait(60) != -signal.SIGKILL
    finally:
        bob.close()


def test_a_connection_the_server_closes_ends_even_if_its_client_does_not_read(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'server.db'}", "--send-buffer", str(64 << 20))

    async def body() -> None:
        room = create_room(server.url, "classic", 2, settings=FAST)
        bob = await SilentClient.join(server.url, room["room"], "Bob")
        # answers Bob does not read: more than the operating system buffers for a connection
        # (4 MiB at most on Linux), less than the server's limit
        for _ in range(150):
            for _ in range(100):
                await bob.send({"type": "sync"})
            await asyncio.sleep(0.03)
        # too many refused messages: the server closes the connection, and waits for Bob to read
        # the close frame, until it cuts the connection
        for _ in range(STRIKES_LIMIT + 1):
            await bob.send("{not json")
        loop = asyncio.get_running_loop()
        end = loop.time() + 90
        while "cutting" not in server.log():
            assert loop.time() < end, "a closed connection stayed open while its client did not read"
            await asyncio.sleep(0.2)
        bob.close()

    run(body)
    cut = [int(n) for n in re.findall(r"cutting \S+: (\d+) bytes unsent", server.log())]
    assert len(cut) == 1 and cut[0] > 0, server.log()
    assert "as too slow" not in server.log()


@pytest.mark.parametrize("value", ["1000", "2000000000", "1MB", "-5"])
def test_a_bad_send_buffer_is_refused_clearly(value: str, tmp_path: Path) -> None:
    done = serve_once("--database", f"sqlite:///{tmp_path / 's.db'}", "--send-buffer", value)
    assert done.returncode == 2
    assert "Invalid value for '--send-buffer'" in done.stderr
    assert "65536<=x<=1073741824" in done.stderr or "is not a valid integer" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "s.db").exists()
