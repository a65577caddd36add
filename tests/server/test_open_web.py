"""Facing the open web, from outside the server (real processes, loopback only, bounded): large
uploads refused while they stream, idle and trickling sockets let go, the open-file limit
respected, security headers on every response, Host and Origin checked, JSON-only APIs,
limits per client address (through trusted proxies only), room links that follow the
request's own address, and the warning for plain HTTP on a public interface."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.asyncio.client import connect

from unokit.server.client import RoomClient, create_room, ws_url
from unokit.server.protocol import NO_HELLO

from .support import FAST, ServerProcess, free_port, run, serve_once

MiB = 1 << 20


def request(
    server: ServerProcess,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request from loopback address ``source``: (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def post_room(server: ServerProcess, headers: dict[str, str] | None = None, source: str = "127.0.0.1") -> int:
    body = json.dumps({"variant": "classic", "players": 2}).encode()
    status, _headers, _body = request(
        server, "POST", "/api/rooms", body, {"Content-Type": "application/json", **(headers or {})}, source
    )
    return status


# ---------------------------------------------------------------------------------- uploads
def _upload(port: int, megabytes: int, declared: bool) -> bytes:
    """POST ``megabytes`` MiB to /api/rooms (chunked, or with a Content-Length); return what
    the server answered before it closed the connection."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = f"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {megabytes * MiB}\r\n\r\n" if declared else "Transfer-Encoding: chunked\r\n\r\n"
    chunk = b"x" * MiB
    framed = chunk if declared else b"%x\r\n" % len(chunk) + chunk + b"\r\n"
    try:
        sock.sendall(head.encode())
        for _ in range(megabytes):
            sock.sendall(framed)
    except OSError:
        pass  # refused and closed while we were still sending: what we want
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except OSError:
        pass
    sock.close()
    return answer


def test_a_large_upload_is_refused_while_it_streams(shared_server: ServerProcess) -> None:
    """Three 200 MiB bodies at once, streamed without a length, and one that declares 300 MiB:
    each is answered 413 and the server's peak memory grows by far less than one of them."""
    before = shared_server.memory()["VmHWM"]

    async def body() -> list[bytes]:
        uploads = [asyncio.to_thread(_upload, shared_server.port, 200, False) for _ in range(3)]
        uploads.append(asyncio.to_thread(_upload, shared_server.port, 300, True))
        return list(await asyncio.gather(*uploads))

    answers = run(body, timeout=120)
    grown = shared_server.memory()["VmHWM"] - before
    assert grown < 64 * MiB, f"peak memory grew by {grown / MiB:.0f} MiB"
    assert all(answer.startswith(b"HTTP/1.1 413") for answer in answers), [a[:60] for a in answers]
    assert b'"too_large"' in answers[0]


# ---------------------------------------------------------------------------------- idle sockets
def _closed_within(sock: socket.socket, seconds: float) -> bytes | None:
    """What ``sock`` received before the server closed it, or ``None`` if it is still open
    after ``seconds``."""
    sock.settimeout(0.2)
    got = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            data = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            return got
        if not data:
            return got
        got += data
    return None


def test_sockets_that_never_say_hello_or_trickle_their_headers_are_let_go(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(
        f"sqlite:///{tmp_path / 'idle.db'}",
        "--max-connections",
        "30",
        "--hello-timeout",
        "1",
        "--request-timeout",
        "1",
    )

    async def body() -> tuple[list[int | None], list[bytes | None], int | None]:
        silent = [await connect(ws_url(server.url)) for _ in range(20)]
        tricklers = []
        for _ in range(10):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHo")
            tricklers.append(sock)

        async def trickle(sock: socket.socket) -> bytes | None:
            for byte in b"st: 127.0.0.1\r\n":  # a byte every 0.3 s: the request never completes in time
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    break
                await asyncio.sleep(0.3)
            return await asyncio.to_thread(_closed_within, sock, 30)

        async def ended(ws: Any) -> int | None:
            try:
                await asyncio.wait_for(ws.wait_closed(), 30)
            except TimeoutError:
                return None
            return int(ws.close_code) if ws.close_code is not None else None

        codes = await asyncio.gather(*(ended(ws) for ws in silent))
        trickled = await asyncio.gather(*(trickle(sock) for sock in tricklers))
        room = create_room(server.url, "classic", 2, settings=FAST)  # the server has room again
        client = await RoomClient.join(server.url, room["room"], name="Ann")
        seat = client.seat
        await client.close()
        return list(codes), list(trickled), seat

    codes, trickled, seat = run(body)
    assert codes == [NO_HELLO] * 20
    assert all(answer is not None and answer.startswith(b"HTTP/1.1 408") for answer in trickled), trickled
    assert seat == 0


def test_the_open_file_limit_bounds_connections_and_the_server_keeps_answering(tmp_path: Path) -> None:
    """Under a limit of 256 open files, --max-connections 20000 is lowered (with a warning) to
    what fits; 300 idle sockets from five addresses are refused past it (503) instead of
    exhausting the descriptors, and once their deadline passes the server answers again."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'files.db'}",
        free_port(),
        ["--max-connections", "20000", "--request-timeout", "2", "--client-connections", "100"],
        open_files=256,
    ).start()
    sockets: list[socket.socket] = []
    try:
        for i in range(300):
            sock = socket.socket()
            sock.settimeout(10)
            sock.bind((f"127.0.0.{2 + i % 5}", 0))
            sock.connect(("127.0.0.1", server.port))
            sockets.append(sock)
        refused = sum(1 for sock in sockets if (_closed_within(sock, 0.05) or b"").startswith(b"HTTP/1.1 503"))
        assert refused >= 300 - 192
        deadline = time.monotonic() + 30
        status = None
        while status != 200 and time.monotonic() < deadline:
            try:
                status, _headers, _body = request(server, "GET", "/api/health", source="127.0.0.9")
            except OSError:
                time.sleep(0.2)
        assert status == 200
        assert "Too many open files" not in server.log()
        assert "the open-file limit (256) allows 192 connections" in server.log()
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


# ---------------------------------------------------------------------------------- headers
@pytest.mark.parametrize("path", ["/", "/r/ABCDEF", "/static/js/app.js", "/api/health", "/api/rooms/NOPE", "/nowhere"])
def test_every_response_carries_the_security_headers(shared_server: ServerProcess, path: str) -> None:
    _status, headers, _body = request(shared_server, "GET", path)
    policy = headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert "strict-transport-security" not in headers  # plain HTTP: HSTS would be ignored anyway
    if path.startswith("/api/"):
        assert headers["cache-control"] == "no-store"


def test_host_names_other_than_the_servers_are_refused(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'host.db'}", "--allow-host", "uno.example")
    assert request(server, "GET", "/", headers={"Host": "rebound.example"})[0] == 421
    assert request(server, "GET", "/api/health", headers={"Host": "rebound.example:80"})[0] == 421
    for host in (f"127.0.0.1:{server.port}", "localhost", "uno.example", "[::1]:8000", "192.0.2.7"):
        assert request(server, "GET", "/api/health", headers={"Host": host})[0] == 200, host


# ---------------------------------------------------------------------------------- origins
def test_other_sites_cannot_open_the_websocket_or_create_rooms(shared_server: ServerProcess) -> None:
    async def handshake(origin: str) -> str:
        try:
            async with connect(ws_url(shared_server.url), origin=origin) as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"type": "ping", "id": 1}))
                return json.loads(await ws.recv())["type"]  # type: ignore[no-any-return]
        except websockets.exceptions.InvalidStatus as exc:
            return str(exc.response.status_code)

    assert run(lambda: handshake("https://evil.example")) == "403"
    assert run(lambda: handshake(f"http://127.0.0.1:{shared_server.port}")) == "pong"
    assert post_room(shared_server, {"Origin": "https://evil.example"}) == 403
    assert post_room(shared_server, {"Origin": f"http://127.0.0.1:{shared_server.port}"}) == 201
    text = json.dumps({"variant": "classic"}).encode()
    status, _headers, body = request(shared_server, "POST", "/api/rooms", text, {"Content-Type": "text/plain"})
    assert status == 415 and json.loads(body)["error"] == "not_json"


# ---------------------------------------------------------------------------------- per client
@pytest.fixture
def limited(make_server: Callable[..., ServerProcess], tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with its real per-client limits (not the tests' generous ones), trusting the
    proxy on 127.0.0.7 only, and answering to the name uno.example."""
    server = make_server(
        f"sqlite:///{tmp_path / 'limits.db'}",
        "--room-rate",
        "6",
        "--lookup-rate",
        "6",
        "--client-connections",
        "8",
        "--trusted-proxy",
        "127.0.0.7",
        "--allow-host",
        "uno.example",
    )
    yield server


def test_room_creation_and_code_guessing_are_limited_per_client_address(limited: ServerProcess) -> None:
    statuses = [post_room(limited, {"X-Forwarded-For": f"198.51.100.{i}"}) for i in range(14)]
    assert statuses[:12] == [201] * 12 and statuses[12:] == [429, 429]  # a spoofed header changes nothing
    assert post_room(limited, source="127.0.0.2") == 201  # another address has its own allowance
    misses = [request(limited, "GET", "/api/rooms/ZZZZZ2")[0] for _ in range(11)]
    assert misses[:9] == [404] * 9 and misses[9:] == [429, 429]
    status, headers, body = request(limited, "GET", "/api/rooms/ZZZZZ2")
    assert status == 429 and int(headers["retry-after"]) >= 1 and json.loads(body)["error"] == "rate_limited"

    async def hello() -> dict[str, Any]:
        async with connect(ws_url(limited.url)) as ws:
            await ws.send(json.dumps({"type": "hello", "room": "ZZZZZ3", "id": 1}))
            return json.loads(await ws.recv())  # type: ignore[no-any-return]

    assert run(hello)["code"] == "rate_limited"


def test_a_trusted_proxy_names_the_client_and_the_address_it_was_asked_for(limited: ServerProcess) -> None:
    proxy = {"Host": "uno.example", "X-Forwarded-Proto": "https"}
    for _ in range(12):  # through two hops of the trusted proxy: the client is the address before them
        assert post_room(limited, {**proxy, "X-Forwarded-For": "203.0.113.5, 127.0.0.7"}, "127.0.0.7") == 201
    # 203.0.113.5's allowance is spent, not the proxy's nor anyone else's.
    assert post_room(limited, {**proxy, "X-Forwarded-For": "203.0.113.5"}, "127.0.0.7") == 429
    assert post_room(limited, {**proxy, "X-Forwarded-For": "203.0.113.6"}, "127.0.0.7") == 201
    status, headers, body = request(
        limited,
        "POST",
        "/api/rooms",
        json.dumps({"variant": "classic"}).encode(),
        {**proxy, "X-Forwarded-For": "203.0.113.8", "Content-Type": "application/json"},
        "127.0.0.7",
    )
    room = json.loads(body)
    assert status == 201
    assert room["link"] == f"https://uno.example/r/{room['room']}" and room["websocket"] == "wss://uno.example/ws"
    assert headers["strict-transport-security"].startswith("max-age=")


def _raw_headers(server: ServerProcess, method: str, path: str, headers: list[tuple[str, str]], source: str) -> int:
    """The status of one request whose headers are sent as listed (a name may repeat)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(source, 0))
    try:
        connection.putrequest(method, path, skip_host=True)
        body = json.dumps({"variant": "classic"}).encode() if method == "POST" else b""
        for name, value in [*headers, ("Content-Length", str(len(body)))]:
            connection.putheader(name, value)
        connection.endheaders(body)
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_forwarded_header_names_no_one_and_the_proxy_s_own_address_counts(limited: ServerProcess) -> None:
    """N2: a proxy passes a client's own ``Forwarded`` header on untouched beside the
    ``X-Forwarded-For`` it sets. The server reads only the latter: a client that writes
    ``Forwarded: for=127.0.0.1`` through the trusted proxy neither reads the metrics as this
    machine nor gets a new allowance of rooms with every address it names; and of several
    ``X-Forwarded-For`` lines, the proxy's (the last) names the client."""
    proxy = [("Host", "uno.example"), ("Content-Type", "application/json")]
    statuses = [
        _raw_headers(
            limited,
            "POST",
            "/api/rooms",
            [*proxy, ("Forwarded", f'for="198.51.100.{i}"'), ("X-Forwarded-For", "203.0.113.9")],
            "127.0.0.7",
        )
        for i in range(14)
    ]
    assert statuses[:12] == [201] * 12 and statuses[12:] == [429, 429], statuses  # all 203.0.113.9's
    forged = [("Forwarded", "for=127.0.0.1"), ("X-Forwarded-For", "203.0.113.9")]
    assert _raw_headers(limited, "GET", "/metrics", [*proxy, *forged], "127.0.0.7") == 403
    two_lines = [("X-Forwarded-For", "127.0.0.1"), ("X-Forwarded-For", "203.0.113.10")]
    assert _raw_headers(limited, "GET", "/metrics", [*proxy, *two_lines], "127.0.0.7") == 403
    assert _raw_headers(limited, "GET", "/metrics", [*proxy, ("X-Forwarded-For", "127.0.0.1")], "127.0.0.7") == 200


def test_connections_per_client_address_are_capped(limited: ServerProcess) -> None:
    async def body() -> tuple[int, int]:
        opened: list[Any] = []
        refused = 0
        for _ in range(12):
            try:
                opened.append(await connect(ws_url(limited.url)))
            except (websockets.exceptions.InvalidStatus, websockets.exceptions.InvalidMessage, OSError):
                refused += 1
        for ws in opened:
            await ws.close()
        return len(opened), refused

    opened, refused = run(body)
    assert (opened, refused) == (8, 4)
    # Sockets that never say anything count too: the ninth from one address is answered 503 at
    # once (before any request), and another address is still served.
    idle = []
    for _ in range(9):
        sock = socket.socket()
        sock.bind(("127.0.0.3", 0))
        sock.connect(("127.0.0.1", limited.port))
        idle.append(sock)
    try:
        turned_away = _closed_within(idle[-1], 5)
        assert turned_away is not None and turned_away.startswith(b"HTTP/1.1 503"), turned_away
        assert _closed_within(idle[0], 0.5) is None  # the first eight stay open
        assert request(limited, "GET", "/api/health", source="127.0.0.4")[0] == 200
    finally:
        for sock in idle:
            sock.close()


# ---------------------------------------------------------------------------------- links
def test_room_links_follow_the_address_the_client_used(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    plain = make_server(f"sqlite:///{tmp_path / 'links.db'}")
    status, _headers, body = request(
        plain,
        "POST",
        "/api/rooms",
        b"{}",
        {"Host": f"localhost:{plain.port}", "Content-Type": "application/json", "X-Forwarded-Proto": "https"},
    )
    room = json.loads(body)
    assert status == 201
    # Not the listening address, and no forwarded scheme believed from an untrusted client.
    assert room["link"] == f"http://localhost:{plain.port}/r/{room['room']}"
    public = make_server(f"sqlite:///{tmp_path / 'public.db'}", "--public-url", "https://uno.example/")
    room = create_room(public.url, "classic", 2)
    assert room["link"] == f"https://uno.example/r/{room['room']}" and room["websocket"] == "wss://uno.example/ws"


def test_plain_http_on_a_public_interface_is_warned_about() -> None:
    # The database is refused after the warning, so nothing listens on the public interface.
    done = serve_once("--host", "0.0.0.0", "--database", "not-a-url")
    assert done.returncode == 2
    assert "serving plain HTTP on 0.0.0.0" in done.stderr and "--public-url https://" in done.stderr
    quiet = serve_once("--host", "127.0.0.1", "--database", "not-a-url")
    assert "plain HTTP" not in quiet.stderr
