"""The deployment of ``deploy/``, run for real on loopback: Caddy with ``deploy/Caddyfile`` and its
internal certificate authority terminates TLS in front of two ``unokit serve`` processes started
with ``deploy/unokit@.service``'s own command line, on one PostgreSQL database. Chromium trusts
Caddy's authority (and nothing else: without it the page is refused), plays a whole game over
``https://`` and ``wss://`` under the server's Content-Security-Policy with no violation, and
goes on where it was when the process that runs the room is killed in the middle of it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shlex
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Playwright

from unokit.record import GameRecord, verify

from ..server.conftest import postgres  # noqa: F401 - the PostgreSQL fixture
from ..server.support import PostgresCluster, ServerProcess, free_port
from .conftest import CHROMIUM, CHROMIUM_ARGS
from .player import (
    YOUR_TURN,
    Clicker,
    create_room,
    hand,
    is_over,
    play_to_the_end,
    start_game,
    until_your_turn,
    wait_until,
)
from .test_csp import RECORD_VIOLATIONS

DEPLOY = Path(__file__).parents[2] / "deploy"
CADDY = "/usr/bin/caddy"


def spki_hash(pem: str) -> str:
    """The base64 SHA-256 of a certificate's SubjectPublicKeyInfo (what Chromium's
    ``--ignore-certificate-errors-spki-list`` names), read from its DER encoding."""

    def element(data: bytes, at: int) -> tuple[int, int]:
        """(where the content of the DER element at ``at`` starts, where the element ends)."""
        length, at = data[at + 1], at + 2
        if length & 0x80:
            size = length & 0x7F
            length, at = int.from_bytes(data[at : at + size], "big"), at + size
        return at, at + length

    der = ssl.PEM_cert_to_DER_cert(pem)
    tbs = element(der, element(der, 0)[0])[0]  # Certificate -> tbsCertificate
    at = element(der, tbs)[1] if der[tbs] == 0xA0 else tbs  # the explicit version, if any
    for _ in range(5):  # serial number, signature algorithm, issuer, validity, subject
        at = element(der, at)[1]
    return base64.b64encode(hashlib.sha256(der[at : element(der, at)[1]]).digest()).decode()


def unit_arguments(instance: str, port: int, public_url: str, folder: Path) -> list[str]:
    """The ``unokit serve`` arguments of ``deploy/unokit@.service`` for process ``instance``,
    with its variables and paths filled in for this test."""
    unit = (DEPLOY / "unokit@.service").read_text(encoding="utf-8")
    command = next(line for line in unit.splitlines() if line.startswith("ExecStart=")).removeprefix("ExecStart=")
    for name, value in {
        "${PORT}": str(port),
        "${PUBLIC_URL}": public_url,
        "%i": instance,
        "/etc/unokit/admin-token": str(folder / "admin-token"),
        "/var/lib/unokit/records": str(folder / "records"),
    }.items():
        command = command.replace(name, value)
    words = shlex.split(command)
    assert words[:2] == ["/opt/unokit/.venv/bin/unokit", "serve"]
    return words[2:]


@dataclass
class Site:
    """The deployment running: its address, Caddy's authority, the two processes."""

    url: str
    authority: Path
    processes: dict[str, ServerProcess]

    def get(self, path: str) -> bytes:
        """``GET`` through Caddy, trusting its authority only."""
        context = ssl.create_default_context(cafile=str(self.authority))
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10, context=context) as response:
            return bytes(response.read())


@pytest.fixture
def site(postgres: PostgresCluster) -> Iterator[Site]:  # noqa: F811
    folder = Path(tempfile.mkdtemp(prefix="unokit-deploy-"))
    (folder / "admin-token").write_text("the-admin-token-of-the-deployment-test")
    https, http = free_port(), free_port()
    public = f"https://localhost:{https}"
    database = postgres.new_database()
    ports = {"a": free_port(), "b": free_port()}
    processes = {
        name: ServerProcess(database, port, [*unit_arguments(name, port, public, folder), "--lease", "3"])
        for name, port in ports.items()
    }
    environment = {
        **os.environ,
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "UNOKIT_SITE": "localhost",
        "UNOKIT_TLS": "internal",
        "UNOKIT_HTTPS_PORT": str(https),
        "UNOKIT_HTTP_PORT": str(http),
        "UNOKIT_CADDY_ADMIN": "off",
        "UNOKIT_CADDY_GLOBAL": "skip_install_trust\ndefault_bind 127.0.0.1",
        "UNOKIT_NODE_A": f"127.0.0.1:{ports['a']}",
        "UNOKIT_NODE_B": f"127.0.0.1:{ports['b']}",
    }
    if not Path(CADDY).exists():
        pytest.fail(f"{CADDY} is missing: 'make test' installs Debian's caddy package")
    caddy_log = open(folder / "caddy.log", "wb")  # noqa: SIM115 - Caddy writes it
    caddy = subprocess.Popen(
        [CADDY, "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        env=environment,
        stdout=caddy_log,
        stderr=subprocess.STDOUT,
    )
    try:
        for process in processes.values():
            process.start()
        authority = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        running = Site(public, authority, processes)
        deadline = time.monotonic() + 60
        while True:  # Caddy has made its authority and its certificate, and a process is ready
            assert caddy.poll() is None, (folder / "caddy.log").read_text()
            try:
                if authority.exists() and json.loads(running.get("/api/ready"))["status"] == "ready":
                    break
            except (OSError, ValueError):
                pass
            assert time.monotonic() < deadline, (folder / "caddy.log").read_text()[-3000:]
            time.sleep(0.2)
        yield running
    finally:
        caddy.terminate()
        caddy.wait(15)
        caddy_log.close()
        for process in processes.values():
            process.stop()


def test_a_game_over_https_goes_on_when_a_process_is_killed(playwright: Playwright, site: Site) -> None:
    intermediate = site.authority.with_name("intermediate.crt").read_text()
    trusting = playwright.chromium.launch(
        executable_path=CHROMIUM,
        # Trust certificates chained to Caddy's local authority, as if it were installed: the
        # key named is the authority's intermediate, the one that signs the site's certificate.
        args=[*CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={spki_hash(intermediate)}"],
    )
    distrusting = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        page = distrusting.new_page()
        with pytest.raises(PlaywrightError, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(f"{site.url}/")  # TLS is checked: only the authority is trusted
        page = trusting.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.add_init_script(RECORD_VIOLATIONS)
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        code = create_room(page, site.url, name="Ann", variant="classic", players=2, bots=1)
        start_game(page)
        until_your_turn(page)
        before = sorted(hand(page))
        room = json.loads(site.get(f"/api/rooms/{code}"))
        nodes = {name: json.loads(process_get(p, "/api/health"))["node"] for name, p in site.processes.items()}
        owner = next(name for name, node in nodes.items() if node == room["served_by"])
        opened = len(sockets)
        site.processes[owner].kill()  # kill -9 mid-game: the other process takes the room over
        end = time.monotonic() + 30
        while len(sockets) == opened:  # the page opens a new websocket, through Caddy again
            assert time.monotonic() < end, "the page did not reconnect"
            page.wait_for_timeout(100)
        wait_until(page, "document.querySelector('#status').dataset.state === 'connected' && " + YOUR_TURN)
        assert sorted(hand(page)) == before  # its turn, its hand: nothing it was shown is lost
        taken_over = json.loads(site.get(f"/api/rooms/{code}"))
        assert taken_over["version"] >= room["version"]  # every acknowledged step is still there
        play_to_the_end([Clicker(page)], timeout=180)
        assert is_over(page)
        violations = page.evaluate("window.__violations")
    finally:
        trusting.close()
        distrusting.close()
    assert violations == []
    assert sockets and all(url.startswith(f"wss://localhost:{site.url.rsplit(':', 1)[1]}/") for url in sockets)
    survivor = next(name for name in site.processes if name != owner)
    assert json.loads(site.get(f"/api/rooms/{code}"))["served_by"] == nodes[survivor]
    assert verify(GameRecord.loads(site.get(f"/api/rooms/{code}/records/1").decode())).ok


def process_get(process: ServerProcess, path: str) -> bytes:
    """``GET`` from one process directly (plain HTTP on loopback, as Caddy reaches it)."""
    with urllib.request.urlopen(f"{process.url}{path}", timeout=10) as response:
        return bytes(response.read())


#: Forwarding headers a client writes itself, naming this machine (as an attacker would).
FORGED = {"Forwarded": "for=127.0.0.1", "X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1"}


def site_status(site: Site, method: str, path: str, headers: dict[str, str], body: bytes | None = None) -> int:
    """The status of a request through Caddy (its authority trusted), however it is answered."""
    context = ssl.create_default_context(cafile=str(site.authority))
    request = urllib.request.Request(f"{site.url}{path}", body, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_forged_forwarding_headers_through_caddy_change_no_limit_and_open_no_metrics(site: Site) -> None:
    """N2, as deployed: a client that names its own address in ``Forwarded``,
    ``X-Forwarded-For`` and ``X-Real-IP`` reads no process's metrics by any path, and creating
    rooms with a new forged address each time still spends its own allowance (each process
    lets one address create 20 at once: the two processes, 40)."""
    for path in (
        "/metrics",
        "/node/a/metrics",
        "/node/b/metrics",
        "/node/a//metrics",
        "/NODE/A/METRICS",
        "/node/b/%6Detrics",
        "/node/a/metrics/",
        "/node/a/./metrics?x=1",
    ):
        assert site_status(site, "GET", path, FORGED) == 404, path
    body = json.dumps({"variant": "classic", "players": 2}).encode()
    statuses = []
    for i in range(50):
        forged = {"Forwarded": f"for=198.51.100.{i}", "X-Forwarded-For": f"198.51.100.{i}", "X-Real-IP": "127.0.0.1"}
        statuses.append(site_status(site, "POST", "/api/rooms", {**forged, "Content-Type": "application/json"}, body))
    assert set(statuses) == {201, 429} and statuses.count(201) <= 40, statuses
    # Behind Caddy, a process believes only the address Caddy heard: a request from the
    # proxy's address that names another client is that client, not this machine.
    process = site.processes["a"]
    forged = {"Forwarded": "for=127.0.0.1", "X-Forwarded-For": "127.0.0.1, 203.0.113.5"}
    leaked = urllib.request.Request(f"{process.url}/metrics", headers=forged)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(leaked, timeout=10)
    assert refused.value.code == 403
