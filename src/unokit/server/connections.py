"""What the server accepts at the TCP level, before a request is read: caps and a deadline.

* **Caps.** A process holds at most ``--max-connections`` connections (HTTP and websockets
  together), and one client address at most ``--client-connections`` of them (a proxy named
  by ``--trusted-proxy`` is exempt: it carries many clients). A connection over a cap is
  answered ``503`` and closed at once, so idle sockets cannot use up the process's file
  descriptors: ``unokit serve`` also lowers ``--max-connections`` to what the open-file limit
  allows (:func:`connection_budget`), so the server never runs out of descriptors and stops
  accepting without a word.
* **A deadline.** A request's headers and body must arrive within ``--request-timeout``
  seconds of its first byte (of the connection, for the first request), or the connection is
  answered ``408`` and closed: a client that trickles its headers a byte at a time cannot hold
  a connection. (uvicorn closes idle keep-alive connections itself; ``--hello-timeout`` covers
  websockets that never say hello.)
"""

from __future__ import annotations

import logging
import resource
import time
from asyncio import BaseTransport, TimerHandle, Transport
from collections import Counter
from typing import Any, ClassVar, cast

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .edge import Edge, client_key

log = logging.getLogger("unokit.server")

#: File descriptors kept for everything but client connections: the listening socket, the
#: database's connections, the log, the files the server reads.
RESERVED_FILES = 64
#: Seconds between two warnings about refused connections.
WARN_EVERY = 10.0

_BUSY = b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def connection_budget(wanted: int) -> tuple[int, int]:
    """Raise the soft open-file limit as far as the hard limit allows; return (the connections
    the process can hold within it, the limit). ``wanted`` is ``--max-connections``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, wanted + RESERVED_FILES)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted, soft
    return max(1, min(wanted, soft - RESERVED_FILES)), soft


class ConnectionGuard:
    """Counts the open connections, in all and per client address, and refuses those over
    ``total`` or ``per_client`` (see the module docstring). ``refused(reason)`` is told of each
    refusal (``busy`` or ``client``)."""

    def __init__(self, total: int, per_client: int, request_timeout: float, edge: Edge) -> None:
        self.total = total
        self.per_client = per_client
        self.request_timeout = request_timeout
        self.edge = edge
        self.open: dict[int, str] = {}  # id(transport) -> the client's key ("" for a proxy)
        self.by_client: Counter[str] = Counter()
        self.refused: Any = None
        self._warned = 0.0

    def admit(self, transport: BaseTransport, address: str | None) -> bool:
        """Count a new connection from ``address``; False (and nothing counted) when it is over a cap."""
        key = "" if address is None or self.edge.is_trusted(address) else client_key(address)
        if len(self.open) >= self.total:
            self._refuse("busy", f"{len(self.open)} connections open, the most this process takes (--max-connections)")
            return False
        if key and self.by_client[key] >= self.per_client:
            self._refuse("client", f"{key} has {self.by_client[key]} connections open (--client-connections)")
            return False
        self.open[id(transport)] = key
        if key:
            self.by_client[key] += 1
        return True

    def release(self, transport: BaseTransport) -> None:
        """A connection ended (idempotent)."""
        key = self.open.pop(id(transport), None)
        if key:
            self.by_client[key] -= 1
            if self.by_client[key] <= 0:
                del self.by_client[key]

    def _refuse(self, reason: str, detail: str) -> None:
        if self.refused is not None:
            self.refused(reason)
        now = time.monotonic()
        if now - self._warned > WARN_EVERY:
            self._warned = now
            log.warning("refusing connections: %s", detail)


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol under a :class:`ConnectionGuard`: connections over a cap are
    answered ``503`` and closed, and a request must arrive whole within the guard's
    ``request_timeout`` (``408``)."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline: TimerHandle | None = None
        self.admitted = False

    def connection_made(self, transport: BaseTransport) -> None:
        super().connection_made(cast(Transport, transport))
        client = self.client[0] if self.client else None
        self.admitted = self.guard.admit(transport, client)
        if not self.admitted:
            cast(Transport, transport).write(_BUSY)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self.admitted:
            self.guard.release(self.transport)
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the websocket protocol takes the connection (and its place in the guard) over
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.guard.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            log.info("closing %s: its request did not arrive in %g s", self.client, self.guard.request_timeout)
            self.transport.write(_TIMEOUT)
            self.transport.close()


def http_protocol(guard: ConnectionGuard) -> type[GuardedHttpProtocol]:
    """The HTTP protocol class to give uvicorn (``http=``) for ``guard``."""

    class Guarded(GuardedHttpProtocol):
        pass

    Guarded.guard = guard
    return Guarded


__all__ = ["ConnectionGuard", "GuardedHttpProtocol", "connection_budget", "http_protocol"]
