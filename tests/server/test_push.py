"""Web Push to players whose page is closed (``docs/server.md``, "Notifications when the page is
closed"): ``unokit serve`` posts to a push service on loopback (:mod:`.pushservice`), which
checks each message's VAPID signature (RFC 8292) and decrypts it with the subscription's keys
(RFC 8291) as a browser would. The right messages, in each player's language, none while the
player looks at the table, no card and no token; a subscription the service calls gone is
deleted; opting out, "Forget me" and retention delete them; one message per event from the
owner of a room served by two processes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from unokit.server.client import (
    RoomClient,
    ServerError,
    create_room,
    forget_me,
    get_json,
    new_identity,
    play,
    push_info,
    push_subscribe,
    push_unsubscribe,
)
from unokit.server.features import store_hooks
from unokit.server.features.daily.deals import day_of, featured
from unokit.server.features.push.keys import (
    DEFAULT_KINDS,
    KINDS,
    PushServices,
    check_subscription,
    message,
    push_subscriptions,
    save_subscription,
)
from unokit.server.storage import Store, migrate

from .conftest import FAST_ARGS
from .pushservice import Browser, PushService, b64, unb64
from .support import FAST, UNOKIT, PostgresCluster, ServerProcess, choose, free_port, run

#: How long a player is away before "your turn" is sent, on the test servers.
AWAY = 0.5


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    made = PushService()
    yield made
    made.close()


@pytest.fixture(scope="module")
def server(service: PushService) -> Iterator[ServerProcess]:
    folder = Path(tempfile.mkdtemp(prefix="unokit-push-"))
    args = [*FAST_ARGS, "--push-service", service.origin, "--push-away", str(AWAY)]
    made = ServerProcess(f"sqlite:///{folder / 'server.db'}", free_port(), args)
    made.start()
    yield made
    made.stop()


def _endpoints(database: str, player: str | None = None) -> set[str]:
    """The endpoints kept in ``database`` (of the identity ``player``, hashed, if given)."""
    from unokit.server.authority import identity_hash

    with Store(database).begin() as c:
        rows = c.execute(push_subscriptions.select()).all()
    return {row.endpoint for row in rows if player is None or row.player == identity_hash(player)}


async def _until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("not within the time")
        await asyncio.sleep(0.05)


async def _to_turn(clients: list[RoomClient], seat: int) -> None:
    """Play (each seat its first choice) until it is ``seat``'s decision."""
    by_seat = {c.seat: c for c in clients}
    for _ in range(200):
        state = await clients[0].wait_for(lambda s: s["room"]["phase"] != "playing" or any(c.my_turn for c in clients))
        assert state["room"]["phase"] == "playing", "the game ended before the test was done"
        actor = next(c for c in clients if c.my_turn)
        if actor.seat == seat:
            return
        version = actor.version
        await actor.act(choose(actor.observation or {}))
        await by_seat[seat].wait_for(lambda _s: by_seat[seat].version > version)  # noqa: B023
    raise AssertionError(f"seat {seat} was never to act")


def _rollover_in(seconds: float) -> tuple[str, str]:
    """``--daily-rollover`` for a day of the deals that begins ``seconds`` from now."""
    return "--daily-rollover", repr((time.time() + seconds) % 86400 / 3600)


def _secrets_absent(service: PushService, secrets: list[str]) -> None:
    for received in service.all():
        text = json.dumps(received.message) + json.dumps(received.headers)
        assert not [s for s in secrets if s and s in text], "a token or an identity left the server"
        assert set(received.message) == {"kind", "room", "title", "body", "url", "tag"}


def test_players_are_told_in_their_language_only_while_they_do_not_look(
    server: ServerProcess, service: PushService
) -> None:
    info = push_info(server.url)
    assert info["enabled"] is True and info["kinds"] == list(KINDS)
    ann_id, ben_id = new_identity(), new_identity()
    ann_b, ben_b = service.browser(), service.browser()
    push_subscribe(server.url, ann_id, ann_b.subscription(), lang="ru")
    push_subscribe(server.url, ben_id, ben_b.subscription(), lang="en")

    async def body() -> tuple[str, list[str]]:
        room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        code = room["room"]
        ann = await RoomClient.join(server.url, code, name="Ann", player=ann_id, visible=False, keep=True)
        ben = await RoomClient.join(server.url, code, name="Ben", player=ben_id, keep=True)
        await ben.wait_for(lambda s: s["room"]["looking"] == [False, True])  # the others see who looks
        # Ann's page is hidden: she is told Ben sat down, in Russian; Ben looks: nothing for him.
        await _until(lambda: len(service.messages(ann_b)) == 1)
        assert service.messages(ann_b) == [message("joined", "ru", code, "classic", name="Ben")]
        await ann.host("start", room["host_token"])
        await _until(lambda: len(service.messages(ann_b)) == 2)
        assert service.messages(ann_b)[1] == message("start", "ru", code, "classic")
        assert "Игра началась" in service.messages(ann_b)[1]["title"]
        # Ben hides his page: when the turn is his and he has been away a while, he is told once.
        await ben.look(False)
        await _to_turn([ann, ben], 1)
        await _until(lambda: len(service.messages(ben_b)) == 1)
        assert service.messages(ben_b) == [message("turn", "en", code, "classic")]
        await ben.act(choose(ben.observation or {}))
        await _to_turn([ann, ben], 1)
        await asyncio.sleep(AWAY * 3)
        assert len(service.messages(ben_b)) == 1  # once per absence, not at every turn
        # Ann looks at the table when her turn comes: not told, however long she takes.
        await ann.look(True)
        await ben.act(choose(ben.observation or {}))
        await _to_turn([ann, ben], 0)
        await asyncio.sleep(AWAY * 3)
        assert len(service.messages(ann_b)) == 2
        # She looks away: told, as it is still her turn.
        await ann.look(False)
        await _until(lambda: len(service.messages(ann_b)) == 3)
        assert service.messages(ann_b)[2] == message("turn", "ru", code, "classic")
        tokens = [str(ann.token), str(ben.token), room["host_token"], ann_id, ben_id]
        await ann.close()
        await ben.close()
        return code, tokens

    code, tokens = run(body, 90)
    _secrets_absent(service, tokens)
    assert service.problems == []
    assert all(r.signer == info["key"] for r in service.all())  # signed with the server's key
    assert {r.headers["urgency"] for r in service.all() if r.message["kind"] == "turn"} == {"high"}
    assert all(r.message["url"] == f"/r/{code}" for r in service.all() if r.message["room"] == code)


def test_a_stand_in_plays_while_the_player_is_told_and_looking_again_takes_the_seat_back(
    service: PushService, tmp_path: Path
) -> None:
    """The stand-in takes the seat after the grace (0.05 s, a turn of the room's queue) and the
    player is told "your turn" once away for ``--push-away`` (3 s here, not the module's 0.5 s:
    on a loaded machine the room's queue reached the grace's end after the notice was sent, which
    then truly said the table waited), so the notice says a stand-in plays."""
    args = [*FAST_ARGS, "--push-service", service.origin, "--push-away", "3"]
    server = ServerProcess(f"sqlite:///{tmp_path / 'standin.db'}", free_port(), args)
    server.start()
    cleo_id, cleo_b = new_identity(), service.browser()
    push_subscribe(server.url, cleo_id, cleo_b.subscription(), lang="de")

    async def body() -> None:
        settings = {**FAST, "grace_seconds": 0.05, "bot_seconds": 0.3}
        room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=settings, bots=["random"])
        code = room["room"]
        cleo = await RoomClient.join(server.url, code, name="Cleo", player=cleo_id, reconnect=False)
        watcher = await RoomClient.join(server.url, code, role="spectator", keep=True)
        await cleo.host("start", room["host_token"])
        token = cleo.token
        await cleo.close()  # the phone is locked: the page is gone
        await watcher.wait_for(lambda s: s["room"]["away"] == [0], 10)
        await _until(lambda: len(service.messages(cleo_b)) >= 1)
        told = service.messages(cleo_b)
        assert told[0] == message("turn", "de", code, "classic", standin=True), told
        # A page that opens in the background does not take the seat back; shown, it does.
        back = await RoomClient.join(server.url, code, token=token, visible=False, keep=True)
        await asyncio.sleep(0.3)
        assert back.state is not None and back.state["room"]["away"] == [0]
        await back.look(True)
        await back.wait_for(lambda s: s["room"]["away"] == [])
        await back.close()
        await watcher.close()

    try:
        run(body, 60)
    finally:
        server.stop()


def test_a_gone_subscription_is_deleted_and_switching_off_or_forgetting_stops_every_message(
    server: ServerProcess, service: PushService
) -> None:
    database = server.database
    dora_id, dan_id = new_identity(), new_identity()
    gone, kept, dans = service.browser(), service.browser(), service.browser()
    service.answer[gone.endpoint] = 410
    for browser in (gone, kept):
        push_subscribe(server.url, dora_id, browser.subscription(), lang="es")
    push_subscribe(server.url, dan_id, dans.subscription(), lang="en", kinds=["start"])
    assert _endpoints(database, dora_id) == {gone.endpoint, kept.endpoint}

    async def body() -> None:
        room = create_room(server.url, "classic", 3, options={"rounds": 1}, settings=FAST)
        code = room["room"]
        dora = await RoomClient.join(server.url, code, name="Dora", player=dora_id, visible=False, keep=True)
        dan = await RoomClient.join(server.url, code, name="Dan", player=dan_id, visible=False, keep=True)
        await _until(lambda: len(service.messages(kept)) == 1)
        assert service.messages(kept) == [message("joined", "es", code, "classic", name="Dan")]
        await _until(lambda: _endpoints(database, dora_id) == {kept.endpoint})  # 410: deleted
        # Dora switches notifications off; Dan wants only "the game starts".
        assert push_unsubscribe(server.url, dora_id, kept.endpoint) == 1
        eve = await RoomClient.join(server.url, code, name="Eve", keep=True)
        await dora.host("start", room["host_token"])
        await _until(lambda: len(service.messages(dans)) == 1)
        assert service.messages(dans) == [message("start", "en", code, "classic")]
        await asyncio.sleep(AWAY * 3)
        assert len(service.messages(kept)) == 1 and service.messages(gone) == []
        for client in (dora, dan, eve):
            await client.close()

    run(body, 60)
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as answer:
        metrics = answer.read().decode()
    assert 'unokit_push_failures_total{kind="joined",reason="gone"} 1.0' in metrics
    assert 'unokit_push_sent_total{kind="start"}' in metrics
    assert forget_me(server.url, dan_id) == 0
    assert _endpoints(database, dan_id) == set()
    assert service.problems == []


def test_subscriptions_the_server_may_not_post_to_or_cannot_read_are_refused_and_not_kept(
    server: ServerProcess, service: PushService
) -> None:
    player = new_identity()
    good = service.browser().subscription()
    before = _endpoints(server.database)
    point = unb64(good["keys"]["p256dh"])
    off_curve = b64(point[:-1] + bytes([point[-1] ^ 1]))  # the point's y changed: not on P-256
    bad: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({**good, "endpoint": "http://10.0.0.7:8080/push/x"}, {}),  # inside the host's network
        ({**good, "endpoint": "https://fcm.googleapis.com.example.org/x"}, {}),
        ({**good, "endpoint": "https://user@fcm.googleapis.com/x"}, {}),
        ({**good, "endpoint": good["endpoint"].replace("http://", "https://")}, {}),
        ({**good, "keys": {**good["keys"], "auth": "AAAA"}}, {}),
        ({**good, "keys": {**good["keys"], "p256dh": off_curve}}, {}),
        (good, {"kinds": ["cards"]}),
        (good, {"lang": "xx"}),
    ]
    for subscription, extra in bad:
        with pytest.raises(ServerError) as refused:
            push_subscribe(server.url, player, subscription, **extra)
        assert refused.value.code == "bad_subscription", (subscription, extra)
    assert _endpoints(server.database) == before
    # An endpoint already held by another identity is not handed over.
    push_subscribe(server.url, player, good)
    with pytest.raises(ServerError) as taken:
        push_subscribe(server.url, new_identity(), good)
    assert taken.value.code == "push_taken"


def test_retention_deletes_the_subscriptions_of_identities_it_forgets(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'kept.db'}"
    store = Store(url, hooks=store_hooks())  # with every feature's rows, as a server has
    migrate(store.engine)
    service = PushServices(["http://127.0.0.1:9"])
    old, fresh = new_identity(), new_identity()
    from unokit.server.authority import identity_hash

    for who in (old, fresh):
        sub = check_subscription(
            {"subscription": Browser.made("http://127.0.0.1:9/push/" + who[:8]).subscription()}, service
        )
        save_subscription(store, identity_hash(who), sub, 1)
    with store.begin() as c:
        from sqlalchemy import update

        from unokit.server.storage import players

        c.execute(update(players).where(players.c.player == identity_hash(old)).values(last_seen=1.0))
    assert store.prune_players(time.time() - 3600) == 1
    assert _endpoints(url) == {"http://127.0.0.1:9/push/" + fresh[:8]}


def test_rotating_the_key_deletes_the_old_key_s_subscriptions(tmp_path: Path, service: PushService) -> None:
    database = f"sqlite:///{tmp_path / 'rotate.db'}"
    (tmp_path / "token").write_text("t" * 40)
    args = [*FAST_ARGS, "--push-service", service.origin, "--admin-token-file", str(tmp_path / "token")]
    server = ServerProcess(database, free_port(), args)
    server.start()
    try:
        first = push_info(server.url)["key"]
        push_subscribe(server.url, new_identity(), service.browser().subscription())
        on_database = [UNOKIT, "admin", "--database", database, "push-key"]
        shown = subprocess.run(on_database, capture_output=True, text=True, check=True)
        assert first in shown.stdout and "PRIVATE" not in shown.stdout
        through_server = [UNOKIT, "admin", "--server", server.url, "--token-file", str(tmp_path / "token")]
        done = subprocess.run([*through_server, "push-key", "--rotate"], capture_output=True, text=True, check=True)
        assert "1 subscriptions of the old key deleted" in done.stdout
        assert _endpoints(database) == set()
        second = push_info(server.url)["key"]  # the process that rotated uses the new key at once
        assert second != first and second in done.stdout
        shown = subprocess.run(on_database, capture_output=True, text=True, check=True)
        assert second in shown.stdout and first not in shown.stdout
        # A page subscribes again with the new key; a rotation with a wrong token is refused.
        push_subscribe(server.url, new_identity(), service.browser().subscription())
        (tmp_path / "wrong").write_text("w" * 40)
        wrong = [UNOKIT, "admin", "--server", server.url, "--token-file", str(tmp_path / "wrong")]
        refused = subprocess.run([*wrong, "push-key", "--rotate"], capture_output=True, text=True, check=False)
        assert refused.returncode != 0 and len(_endpoints(database)) == 1
    finally:
        server.stop()


def test_a_server_without_push_says_so_and_keeps_nothing(tmp_path: Path, service: PushService) -> None:
    database = f"sqlite:///{tmp_path / 'off.db'}"
    server = ServerProcess(database, free_port(), [*FAST_ARGS, "--no-push"])
    server.start()
    try:
        assert push_info(server.url) == {"enabled": False, "key": None, "kinds": [], "defaults": []}
        with pytest.raises(ServerError) as off:
            push_subscribe(server.url, new_identity(), service.browser().subscription())
        assert off.value.code == "push_off"
        assert get_json(server.url, "/api/health")["status"] == "ok"
    finally:
        server.stop()
    assert _endpoints(database) == set()


def test_two_processes_tell_each_event_once_from_the_owner(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess], service: PushService
) -> None:
    database = postgres.new_database()
    # The deal of the day changes while they run: both see it, one tells it.
    args = ("--push-service", service.origin, "--push-away", str(AWAY), *_rollover_in(15))
    first, second = (s.wait() for s in [make_server(database, *args, wait=False) for _ in range(2)])
    ann_id, ben_id, cy_id = new_identity(), new_identity(), new_identity()
    ann_b, ben_b, cy_b = service.browser(), service.browser(), service.browser()
    push_subscribe(first.url, ann_id, ann_b.subscription())
    push_subscribe(second.url, ben_id, ben_b.subscription())
    push_subscribe(second.url, cy_id, cy_b.subscription(), kinds=["daily"])

    async def body() -> str:
        room = create_room(first.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        code = str(room["room"])
        ann = await RoomClient.join(first.url, code, name="Ann", player=ann_id, visible=False, keep=True)
        # Ben is served by the other process (it forwards to the owner and tells it who looks).
        ben = await RoomClient.join(
            second.url, code, name="Ben", player=ben_id, visible=False, keep=True, follow_redirects=False
        )
        await _until(lambda: len(service.messages(ann_b)) == 1)
        await ann.host("start", room["host_token"])
        await _until(lambda: len(service.messages(ben_b)) == 1 and len(service.messages(ann_b)) == 2)
        await ben.look(True)  # looking there: not told when his turn comes
        await _to_turn([ann, ben], 1)
        await asyncio.sleep(AWAY * 3)
        assert len(service.messages(ben_b)) == 1
        await ben.look(False)
        await _until(lambda: len(service.messages(ben_b)) == 2)
        await asyncio.sleep(AWAY * 3)  # time for a duplicate from the other process to show
        for client in (ann, ben):
            await client.close()
        await _until(lambda: len(service.messages(cy_b)) == 1, 30)
        await asyncio.sleep(4)  # more than a sweep of each process: time for a second one to show
        return code

    code = run(body, 90)
    assert [m["kind"] for m in service.messages(ann_b)] == ["joined", "start"]
    assert [m["kind"] for m in service.messages(ben_b)] == ["start", "turn"]
    assert [m["kind"] for m in service.messages(cy_b)] == ["daily"]
    assert all(m["room"] == code for m in service.messages(ann_b) + service.messages(ben_b))


def test_the_deal_of_the_day_is_told_once_at_the_rollover_to_those_who_ticked_it_only(
    tmp_path: Path, service: PushService
) -> None:
    # the day begins once the server is up and everyone has subscribed: 20 s leaves room for a
    # slow start on a loaded machine (the day must not begin before the subscriptions)
    args = [*FAST_ARGS, "--push-service", service.origin, "--sweep", "0.3", *_rollover_in(20)]
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", free_port(), args)
    server.start()
    try:
        assert push_info(server.url)["defaults"] == list(DEFAULT_KINDS) and "daily" not in DEFAULT_KINDS
        ann_id, ben_id, cy_id = new_identity(), new_identity(), new_identity()
        ann_b, ben_b, cy_b = service.browser(), service.browser(), service.browser()
        push_subscribe(server.url, ann_id, ann_b.subscription(), lang="de", kinds=["turn", "daily"])
        push_subscribe(server.url, ben_id, ben_b.subscription(), kinds=list(KINDS))
        push_subscribe(server.url, ben_id, ben_b.subscription(), kinds=["turn", "start"])  # switched it off
        push_subscribe(server.url, cy_id, cy_b.subscription())  # the kinds by default: not this one

        async def body() -> None:
            await _until(lambda: len(service.messages(ann_b)) == 1, 45)
            await asyncio.sleep(2)  # several sweeps more: told once a day, not at every sweep

        run(body, 60)
        day = day_of(time.time(), float(args[-1]))
        said = service.messages(ann_b)
        assert said == [message("daily", "de", day.isoformat(), "", deals=tuple(featured(day)))]
        assert said[0]["title"] == "Die Spiele des Tages sind bereit"
        assert said[0]["url"] == f"/#/daily/{featured(day)[0].key}" and "UNO Klassisch" in said[0]["body"]
        assert service.messages(ben_b) == [] and service.messages(cy_b) == []
        _secrets_absent(service, [ann_id, ben_id, cy_id])
    finally:
        server.stop()


def test_every_kind_of_message_has_its_words_its_time_to_live_and_its_urgency() -> None:
    from unokit.server.features.push.keys import WORDS
    from unokit.server.features.push.send import TTL, URGENCY

    assert set(WORDS) == set(TTL) == set(URGENCY) == set(KINDS)


def test_a_call_to_play_again_is_told_once_a_game_to_the_others_who_do_not_look(
    server: ServerProcess, service: PushService
) -> None:
    fay_id, gus_id = new_identity(), new_identity()
    fay_b, gus_b = service.browser(), service.browser()
    push_subscribe(server.url, fay_id, fay_b.subscription(), kinds=["again"])
    push_subscribe(server.url, gus_id, gus_b.subscription(), kinds=["again"])

    async def body() -> str:
        room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST)
        code = str(room["room"])
        fay = await RoomClient.join(server.url, code, name="Fay", player=fay_id, keep=True)
        gus = await RoomClient.join(server.url, code, name="Gus", player=gus_id, keep=True)
        await fay.host("start", room["host_token"])
        await asyncio.gather(play(fay, choose, timeout=60), play(gus, choose, timeout=60))
        await gus.look(False)  # the game is over: Gus puts the phone away
        await fay.ready()
        await _until(lambda: len(service.messages(gus_b)) == 1)
        await fay.ready(False)
        await fay.ready()  # asked again in the same game: not told again
        await asyncio.sleep(AWAY * 3)
        assert service.messages(gus_b) == [message("again", "en", code, "classic", name="Fay")]
        assert service.messages(fay_b) == []  # the one who asks is not told of it
        for client in (fay, gus):
            await client.close()
        return code

    run(body, 90)


def test_a_browser_service_s_name_that_leads_inside_the_host_s_network_is_never_posted_to(
    tmp_path: Path, service: PushService
) -> None:
    """The browsers' push services are posted to only at public addresses: a name of theirs
    that resolved to loopback (here ``localhost`` stands for one) is refused when connecting."""
    from unokit.server.features.push.keys import ServiceOrigin, ensure_key, public_address
    from unokit.server.features.push.send import Notice, Sender, guarded_session

    assert not any(public_address(a) for a in ("127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "::ffff:10.0.0.1"))
    assert all(public_address(a) for a in ("8.8.8.8", "2001:4860:4860::8888"))
    services = PushServices()
    assert services.origin_of("https://db5.notify.windows.com/w/?token=x") is not None
    assert services.origin_of("https://notify.windows.com.example.org/w") is None
    assert services.origin_of("https://fcm.googleapis.com:8443/fcm/send/x") is None
    port = service.origin.rsplit(":", 1)[1]
    services.origins.append(ServiceOrigin.parse(f"http://localhost:{port}", named=False))
    store = Store(f"sqlite:///{tmp_path / 'guard.db'}")
    migrate(store.engine)
    key = ensure_key(store)
    browser = Browser.made(f"http://localhost:{port}/push/guarded")
    service.browsers[browser.endpoint] = browser
    from unokit.server.authority import identity_hash

    player = identity_hash(new_identity())
    save_subscription(store, player, check_subscription({"subscription": browser.subscription()}, services), key.id)
    outcomes: list[tuple[str, str | None]] = []
    sender = Sender(store, services, "mailto:host@example.org", lambda kind, failure: outcomes.append((kind, failure)))
    sender.deliver(Notice(player, "turn", "ABCDEF", "classic"), guarded_session(services))
    assert outcomes == [("turn", "blocked")]
    assert service.messages(browser) == []
