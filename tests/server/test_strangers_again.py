"""Safe among strangers, round 3: what one stranger could do to other rooms through the work it
asks of the server (hints, and the pool's order: ``test_bot_pool``; reviews: ``test_review_desk``;
the word filter: ``test_word_filter``), and the lesser defects of the same round, each attacked
from outside on loopback, bounded in count and time."""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unokit.server.client import RoomClient, create_room

from .support import FAST, ServerProcess, free_port, run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("strangers-again")
    process = ServerProcess(
        f"sqlite:///{folder / 'server.db'}",
        free_port(),
        ["--rate", "5000", "--burst", "5000", "--room-rate", "100000", "--client-connections", "5000"],
    )
    process.start()
    yield process
    process.stop()


async def _at_a_decision(server: ServerProcess) -> RoomClient:
    """A person against a bot, at a decision of theirs with several choices (a hint is asked for
    at none before)."""
    made = create_room(server.url, "classic", 2, options={"target": 100000}, settings=FAST, bots=["normal"])
    ann = await RoomClient.join(server.url, made["room"], name="Ann")
    await ann.host("start", made["host_token"])
    for _ in range(200):
        await ann.wait_for(lambda _s: ann.my_turn, 60)
        if len(ann.legal_actions) >= 3:  # draw and at least two cards to play
            return ann
        await ann.act(ann.legal_actions[0])
    raise AssertionError("no decision with several choices in 200 turns")


def test_a_hint_flood_at_one_decision_makes_one_search_and_one_entry(server: ServerProcess) -> None:
    """Forty hint requests at one decision, sent at once: every one is answered with the same
    hint, and the room's log gains one entry (the state version moves once); asked again after,
    the hint comes from the log, moving nothing. The server used to search and log each one."""

    async def body() -> tuple[int, int, list[Any]]:
        ann = await _at_a_decision(server)
        before = ann.version
        answers = await asyncio.gather(
            *(ann.request({"type": "hint", "token": ann.token}, timeout=120) for _ in range(40)),
            return_exceptions=True,
        )
        again = await ann.request({"type": "hint", "token": ann.token}, timeout=60)
        await ann.request({"type": "sync"})
        after = ann.version
        await ann.close()
        return before, after, [*answers, again]

    before, after, answers = run(body)
    assert all(isinstance(a, dict) and a["type"] == "hint" for a in answers), answers
    assert len({(a["step"], a["action"], a["chance"]) for a in answers}) == 1, answers
    assert after == before + 1, (before, after)


def test_the_compiled_engine_is_warmed_before_the_server_says_it_is_ready(tmp_path: Path) -> None:
    """``--warm-engine`` (the default; the suite's servers start with ``--no-warm-engine``):
    the engine is imported and compiled in a thread during the start, and said ready before the
    server says it is, so the first room with a search bot does not stall the event loop."""
    process = ServerProcess(f"sqlite:///{tmp_path / 'warm.db'}", free_port(), ["--warm-engine", "--log-level", "info"])
    process.start(timeout=300)
    try:
        log = process.log()
    finally:
        process.stop()
    warmed, ready = log.find("the compiled engine is ready"), log.find("unokit serve: ready at")
    assert 0 <= warmed < ready, log


def test_a_ban_written_as_an_ipv4_mapped_address_applies_to_that_ipv4_client() -> None:
    """``::ffff:A.B.C.D`` is stored as ``A.B.C.D`` (and read so from a ban stored before), the
    form a client's address is counted in; it used to be kept as an IPv6 network that no IPv4
    client ever overlapped."""
    from unokit.server.edge import client_key, ip_network_of
    from unokit.server.features.moderation.rules import ban_fields

    assert ban_fields({"kind": "address", "value": "::ffff:203.0.113.9"})[1] == "203.0.113.9/32"
    assert ban_fields({"kind": "address", "value": "::ffff:203.0.113.0/120"})[1] == "203.0.113.0/24"
    assert ban_fields({"kind": "address", "value": "2001:db8::/32"})[1] == "2001:db8::/32"  # IPv6 stays
    client = ip_network_of(client_key("::ffff:203.0.113.9"))  # the client, as the check reads it
    for stored in ("::ffff:cb00:7109/128", "203.0.113.9/32"):
        ban = ip_network_of(stored)
        assert ban.version == client.version and ban.overlaps(client), stored


def test_odd_push_endpoints_are_refused_at_subscribe_time() -> None:
    """Names that are not well-formed DNS names, an address dressed as a push service's name,
    and paths with dot segments or escaped dots and slashes are refused when the browser
    subscribes (they used to be kept, left to the send-time address check alone; that check is
    tested in ``test_push``: a service's name that resolves inside the host's network)."""
    from unokit.server.features.push.keys import PushServices
    from unokit.server.room import RoomError

    services = PushServices()
    odd = [
        "https://..notify.windows.com/x",
        "https://.db5.notify.windows.com/x",
        "https://db5..notify.windows.com/x",
        "https://-db5.notify.windows.com/x",
        "https://127.0.0.1.notify.windows.com/x",
        "https://db5.notify.windows.com/w/%2e%2e/admin",
        "https://db5.notify.windows.com/w/%2E%2e%2Fadmin",
        "https://db5.notify.windows.com/w/../admin",
        "https://fcm.googleapis.com/fcm/send/./x",
        "https://fcm.googleapis.com/fcm/send%5cx",
    ]
    for endpoint in odd:
        with pytest.raises(RoomError) as refused:
            services.check(endpoint)
        assert refused.value.code == "bad_subscription", endpoint
    fine = [
        "https://db5.notify.windows.com/w/?token=AbC%3D",
        "https://wns2-by3p.notify.windows.com/w/?token=x",
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAA",
        "https://web.push.apple.com/QGx1c3Q",
    ]
    assert [services.check(endpoint) for endpoint in fine] == fine


def _status(server: ServerProcess, path: str, source: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_finishing_share_look_ups_of_a_real_public_room_are_limited_per_address(server: ServerProcess) -> None:
    """Each look-up reads the room's finished games; a real room's code used to be looked up
    without limit (300 in 1.8 s). From one address, 40 at once: the allowance (``--lookup-rate``,
    bursts of 30) answers, then ``429``; another address is not held back."""
    made = create_room(server.url, "classic", 2, public=True, bots=["normal"])
    path = f"/api/rooms/{made['room']}/finishing"
    seen = [_status(server, path, "127.0.0.41") for _ in range(40)]
    assert seen[0] == 200 and 429 in seen and set(seen) == {200, 429}, seen
    assert _status(server, path, "127.0.0.42") == 200
