"""Sending Web Push messages (``docs/server.md``, "Notifications when the page is closed"):
threads of their own, fed by a bounded queue, so that a slow or failing push service never
slows a room.

A room hands a :class:`Notice` (who, what, which room) to :meth:`Sender.submit`, which never
blocks: it queues it, or counts it dropped when the queue is full or the player has been sent
too many lately. A worker thread reads the player's subscriptions, writes the message in each
one's language (:func:`.push.message`), encrypts it for that browser (RFC 8291, ``aes128gcm``,
by pywebpush and http_ece), signs it with the server's VAPID key (RFC 8292, py_vapid) and posts
it to the endpoint (RFC 8030) with a time to live, an urgency and a topic (a newer message about
the same room replaces one the push service still holds). An endpoint its push service calls
gone (404, 410) is deleted. Every outcome is counted in ``/metrics``.

The posts go through :func:`guarded_session`: never a redirect, never a proxy from the
environment, and an endpoint of the browsers' push services is connected to only at a public
address, the one that was checked (a name that resolves inside the host's network is refused
before anything is sent: :mod:`.push`, "Where the server may post").
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ...edge import Buckets
from ...protocol import encode
from ...storage import Store
from ..daily.deals import Deal
from .keys import Keys, PushServices, VapidKey, drop_subscription, message, public_address, subscriptions_for

log = logging.getLogger("unokit.server")

#: How long a push service keeps a message for a browser that is offline (RFC 8030 ``TTL``): a
#: turn is worth little after a few minutes; a game that started or a table that waits, longer.
TTL = {"turn": 300, "start": 900, "again": 900, "joined": 900, "daily": 12 * 3600}
#: RFC 8030 ``Urgency``: a turn is worth waking a phone for; the deal of the day is not.
URGENCY = {"turn": "high", "start": "high", "again": "normal", "joined": "normal", "daily": "low"}
#: Seconds to connect to a push service, and to wait for its answer.
CONNECT_SECONDS, ANSWER_SECONDS = 3.0, 10.0
#: Messages waiting to be sent, at most; more are dropped (and counted).
QUEUE_SIZE = 2000
#: Threads that send (each waits on its push service's answer, not on the CPU).
WORKERS = 2
#: Messages one player may be sent: one every 10 s on average, 6 at once (a hostile table that
#: joins and leaves again and again cannot flood a phone).
PLAYER_RATE, PLAYER_BURST = 0.1, 6.0
#: How long a signed VAPID token is used for one push service (it is valid 12 hours).
TOKEN_SECONDS = 3600.0
#: The reasons a message was not delivered, as ``/metrics`` counts them.
FAILURES = ("dropped", "throttled", "no_key", "blocked", "gone", "refused", "unavailable", "network")


@dataclass(frozen=True)
class Notice:
    """One thing to tell one player (their identity's hash) about one room: ``kind`` (one of
    :data:`.push.KINDS`), the room's code and game, and ``name`` (who joined, who asks to play
    again) or ``standin`` (a stand-in bot plays the seat already). A ``daily`` notice names the
    day in ``room`` and carries its ``deals``."""

    player: str
    kind: str
    room: str
    variant: str
    name: str | None = None
    standin: bool = False
    deals: tuple[Deal, ...] = ()


class Blocked(OSError):
    """A connection to an address the server may not post to."""


def guarded_session(services: PushServices) -> Any:
    """A ``requests`` session that follows no redirect, reads no proxy or credentials from the
    environment, and connects to an endpoint of :data:`.push.PUSH_SERVICES` only at a public
    address (resolved once, checked, and connected to); origins the host named are connected to
    as they resolve. A refused address raises :class:`Blocked` (inside ``requests``' error)."""
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
    from urllib3.util import connection

    def checked(conn: Any, scheme: str) -> socket.socket:
        host, port = str(conn._dns_host), int(conn.port or (443 if scheme == "https" else 80))
        if services.any_address(scheme, host, port):
            return connection.create_connection(
                (host, port), conn.timeout, source_address=conn.source_address, socket_options=conn.socket_options
            )
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        allowed = [info for info in infos if public_address(str(info[4][0]))]
        if not allowed:
            raise Blocked(f"{host} is not at a public address: the server does not post there")
        address = str(allowed[0][4][0])
        return connection.create_connection(
            (address, port), conn.timeout, source_address=conn.source_address, socket_options=conn.socket_options
        )

    class Plain(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return checked(self, "http")

    class Secure(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return checked(self, "https")

    class PlainPool(HTTPConnectionPool):
        ConnectionCls = Plain

    class SecurePool(HTTPSConnectionPool):
        ConnectionCls = Secure

    class Guarded(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = {"http": PlainPool, "https": SecurePool}

    class Session(requests.Session):
        def request(self, *args: Any, **kwargs: Any) -> Any:
            kwargs["allow_redirects"] = False  # a 3xx is an answer like any other: a failure
            return super().request(*args, **kwargs)

    session = Session()
    session.trust_env = False  # no proxy, no .netrc credentials from the environment
    session.mount("http://", Guarded())
    session.mount("https://", Guarded())
    return session


def _caused_by_block(error: BaseException) -> bool:
    """Whether :class:`Blocked` is behind ``error`` (``requests`` and urllib3 wrap it)."""
    seen: set[int] = set()
    todo: list[object] = [error]
    while todo:
        item = todo.pop()
        if not isinstance(item, BaseException) or id(item) in seen:
            continue
        if isinstance(item, Blocked):
            return True
        seen.add(id(item))
        todo += [item.__cause__, item.__context__, getattr(item, "reason", None), *item.args]
    return False


class Sender:
    """Threads that post :class:`Notice` messages to the players' push services (see the
    module docstring). ``count(kind, failure)`` is told each outcome: ``failure`` ``None`` for
    a message its push service accepted, else one of :data:`FAILURES`."""

    def __init__(
        self,
        store: Store,
        services: PushServices,
        contact: str,
        count: Callable[[str, str | None], None],
        *,
        workers: int = WORKERS,
    ) -> None:
        self.store = store
        self.services = services
        self.contact = contact
        self.count = count
        self.keys = Keys(store)
        self.queue: queue.Queue[Notice | None] = queue.Queue(QUEUE_SIZE)
        self._throttle = Buckets(PLAYER_RATE, PLAYER_BURST)
        self._threads = [
            threading.Thread(target=self._work, name=f"unokit-push-{i}", daemon=True) for i in range(workers)
        ]
        self._tokens: dict[str, tuple[float, dict[str, str]]] = {}
        self._tokens_lock = threading.Lock()

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the threads once what they are sending is sent (what waits is dropped)."""
        while True:
            try:
                self.queue.get_nowait()
            except queue.Empty:
                break
        for _ in self._threads:
            with_room = True
            try:
                self.queue.put_nowait(None)
            except queue.Full:
                with_room = False
            if not with_room:
                break
        end = time.monotonic() + timeout
        for thread in self._threads:
            if thread.is_alive():
                thread.join(max(0.0, end - time.monotonic()))

    def submit(self, notice: Notice, wait: float = 0.0) -> bool:
        """Queue ``notice`` (from the event loop, ``wait`` 0: never blocks). False when it is
        dropped: the queue is full, or its player was sent too many lately. From another thread,
        ``wait`` is how long to wait for room in the queue, and the player's rate is not counted
        (the deal of the day is told once a day: its own limit)."""
        if wait <= 0 and not self._throttle.allow(notice.player):
            self.count(notice.kind, "throttled")
            return False
        try:
            if wait > 0:
                self.queue.put(notice, timeout=wait)
            else:
                self.queue.put_nowait(notice)
        except queue.Full:
            self.count(notice.kind, "dropped")
            return False
        return True

    def waiting(self) -> int:
        return self.queue.qsize()

    def _work(self) -> None:
        session = guarded_session(self.services)
        while True:
            notice = self.queue.get()
            if notice is None:
                return
            try:
                self.deliver(notice, session)
            except Exception:  # a bug must not end the thread
                log.exception("push: sending a %s message failed", notice.kind)

    def deliver(self, notice: Notice, session: Any) -> None:
        """Send ``notice`` to every subscription of its player that wants it (on this thread)."""
        key = self.keys.get()
        if key is None:
            self.count(notice.kind, "no_key")
            return
        for sub in subscriptions_for(self.store, notice.player, notice.kind, key.id):
            if self.services.origin_of(sub.endpoint) is None:  # the host's list changed since
                self.count(notice.kind, "blocked")
                continue
            said = message(
                notice.kind,
                sub.lang,
                notice.room,
                notice.variant,
                name=notice.name,
                standin=notice.standin,
                deals=notice.deals,
            )
            self.count(notice.kind, self._post(session, sub.info(), encode(said), key, notice))

    def _post(self, session: Any, info: dict[str, Any], payload: str, key: VapidKey, notice: Notice) -> str | None:
        """Post one encrypted message; return ``None`` when its push service took it, else the
        failure (and delete a subscription its push service calls gone)."""
        import requests
        from pywebpush import WebPusher

        headers = {
            **self._vapid(info["endpoint"], key),
            "Urgency": URGENCY[notice.kind],
            "Topic": f"{notice.kind}-{notice.room}"[:32],
        }
        try:
            answer = WebPusher(info, requests_session=session).send(
                payload, headers, ttl=TTL[notice.kind], timeout=(CONNECT_SECONDS, ANSWER_SECONDS)
            )
        except requests.RequestException as exc:
            blocked = _caused_by_block(exc)
            if not blocked:
                log.info("push: %s unreachable: %s", urlsplit(info["endpoint"]).hostname, type(exc).__name__)
            return "blocked" if blocked else "network"
        status = int(answer.status_code)
        if status in (200, 201, 202):
            return None
        if status in (404, 410):
            drop_subscription(self.store, info["endpoint"])
            return "gone"
        log.info("push: %s answered %d", urlsplit(info["endpoint"]).hostname, status)
        return "unavailable" if status == 429 or status >= 500 else "refused"

    def _vapid(self, endpoint: str, key: VapidKey) -> dict[str, str]:
        """The VAPID ``Authorization`` header for ``endpoint``'s push service (RFC 8292): a JWT
        naming it (``aud``), the host's contact (``sub``) and an expiry 12 hours on, signed with
        the server's private key; kept :data:`TOKEN_SECONDS` per push service."""
        from py_vapid import Vapid02

        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        cache = f"{key.id}:{audience}"
        with self._tokens_lock:
            made = self._tokens.get(cache)
            if made is not None and time.monotonic() - made[0] < TOKEN_SECONDS:
                return made[1]
        signer = Vapid02.from_pem(key.private_pem.encode("ascii"))
        claims = {"aud": audience, "sub": self.contact, "exp": int(time.time()) + 12 * 3600}
        headers = {k: str(v) for k, v in signer.sign(claims).items()}
        with self._tokens_lock:
            if len(self._tokens) > 1000:
                self._tokens.clear()
            self._tokens[cache] = (time.monotonic(), headers)
        return headers


__all__ = ["FAILURES", "Blocked", "Notice", "Sender", "guarded_session"]
