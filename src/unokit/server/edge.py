"""The server's edge with the open web: who a request is from, what address it came to, and
what is refused before the application sees it (``docs/server.md``, "Running it on the internet").

* **The client's address** is the TCP peer's, unless that peer is a proxy the host named
  (``--trusted-proxy``): then it is the last address of ``X-Forwarded-For`` that is not itself a
  trusted proxy. The header from anyone else is ignored, and ``Forwarded`` from everyone (a
  proxy passes a client's own on untouched), so a client cannot pretend to be someone else.
  IPv6 clients are counted by their /64 network (one household).
* **The request's own address** (scheme and host) comes from ``--public-url`` when it is set,
  else from the request (``X-Forwarded-Proto`` and ``X-Forwarded-Host`` only from a trusted
  proxy): room links are built from it, never from the address the server listens on.
* **Host**: a request must name the server by an IP address, a loopback name, the host of
  ``--public-url`` or one of ``--allow-host``; any other name is answered ``421`` (a page
  elsewhere that makes a browser resolve its own name to this server learns nothing).
* **Origin**: a browser's websocket or ``POST`` from another site (its ``Origin`` is neither the
  request's own address, ``--public-url``, nor one of ``--allow-origin``) is refused (``403``).
* **Bodies** are refused past :data:`BODY_LIMIT` bytes while they stream in (``413``), and a
  ``POST`` to the API must be JSON (``415``), so a plain form on another site cannot post here.
  A path of the API that does not exist is answered ``404`` and a method it does not take
  ``405``, as JSON like every answer of the API, before anything else of the request is read.
* **Security headers** on every response: a Content-Security-Policy (:data:`CONTENT_SECURITY_POLICY`)
  that allows exactly what the page of same-origin scripts and styles needs, no framing,
  ``nosniff``, no referrer, and HSTS when the request came over HTTPS.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("unokit.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The least time between two readings of the cluster's processes prompted by a refused origin.
REFRESH_EVERY = 2.0

#: The largest request body read, in bytes (a room request is under 8 KiB, a score sheet a few).
BODY_LIMIT = 64 * 1024

#: What the browser client may load: scripts, styles, images, fonts, its manifest, its service
#: worker, sounds and requests (the websocket included) from its own origin only. No inline
#: script or style attribute runs (setting a style property from a script is allowed), nothing
#: may frame the page, forms post only here, and ``<base>`` cannot move relative addresses.
#: ``'wasm-unsafe-eval'`` lets the offline worker compile Pyodide's WebAssembly (from this origin
#: too); it allows no ``eval`` of script text.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "media-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    ]
)

#: Headers every response carries (HSTS is added for requests that came over HTTPS).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
)
HSTS = (b"strict-transport-security", b"max-age=31536000")

#: Names of this machine that a Host header may use besides IP addresses.
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def parse_networks(values: Iterable[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``--trusted-proxy`` values (addresses or networks: ``127.0.0.1``, ``10.0.0.0/8``); raise
    ``ValueError`` naming one that is neither."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy {value!r} is not an IP address or network") from None
    return tuple(networks)


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url``, lower case, without a default port (``None`` when
    it has no scheme or host)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


def host_name(host: str) -> str:
    """The name in a Host header value, without its port, lower case (``[::1]:80`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name) is this machine only."""
    name = host_name(host) if not is_ip(host) else host
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def client_key(address: str) -> str:
    """What per-client limits count: the IPv4 address, or the /64 network of an IPv6 one."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if isinstance(ip, ipaddress.IPv6Address) else str(ip)


def ip_network_of(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """The address or network ``text`` as bans and their checks compare it: an IPv4 address
    written in IPv6's mapped form (``::ffff:A.B.C.D``, ``::ffff:0:0/104``) is the IPv4 one it
    maps, as clients' addresses are (:func:`client_key`), so a ban written either way applies.
    Raise ``ValueError`` for text that is neither."""
    network = ipaddress.ip_network(text, strict=False)
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
        mapped = network.network_address.ipv4_mapped
        if mapped is not None:
            return ipaddress.IPv4Network(f"{mapped}/{network.prefixlen - 96}", strict=False)
    return network


class Buckets:
    """Token buckets per client: ``rate`` a second on average, bursts of ``burst``. At most
    ``keys`` clients are remembered (the longest unseen are forgotten: a full bucket)."""

    def __init__(self, rate: float, burst: float, keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, cost: float = 1.0) -> bool:
        """Take ``cost`` from ``key``'s bucket if it holds that much."""
        now = time.monotonic()
        tokens, stamp = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        allowed = tokens >= cost
        self._buckets[key] = (tokens - cost if allowed else tokens, now)
        if len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return allowed

    def drain(self, key: str) -> None:
        """Empty ``key``'s bucket (another count found it spent); it fills again from now."""
        self._buckets.pop(key, None)
        self._buckets[key] = (0.0, time.monotonic())

    def level(self, key: str) -> float:
        """What ``key``'s bucket holds now."""
        tokens, stamp = self._buckets.get(key, (self.burst, time.monotonic()))
        return min(self.burst, tokens + (time.monotonic() - stamp) * self.rate)

    def spent(self, key: str) -> bool:
        """Whether ``key``'s bucket holds less than one (without taking anything)."""
        return self.level(key) < 1.0

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may take one again."""
        return max(0.0, (1.0 - self.level(key)) / self.rate)


@dataclass(frozen=True)
class EdgeConfig:
    """What the edge is told by ``unokit serve`` (``docs/server.md``, "Options")."""

    public_url: str | None = None
    trusted_proxies: tuple[str, ...] = ()
    allow_hosts: tuple[str, ...] = ()
    allow_origins: tuple[str, ...] = ()


class Edge:
    """The checks and the addresses of :mod:`this module <unokit.server.edge>`. ``cluster``
    holds the origins of the other processes of a cluster (kept up to date by the hub), and
    ``refresh`` reads them again (at most every :data:`REFRESH_EVERY` seconds, when an origin
    is refused)."""

    def __init__(
        self,
        config: EdgeConfig,
        cluster: set[str] | None = None,
        refresh: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.config = config
        self.cluster = cluster if cluster is not None else set()
        self.refresh = refresh
        self._refreshed = 0.0
        self.trusted = parse_networks(config.trusted_proxies)
        self.public_origin = origin_of(config.public_url) if config.public_url else None
        if config.public_url and self.public_origin is None:
            raise ValueError(f"--public-url {config.public_url!r} is not an http:// or https:// address")
        self.hosts = {host_name(h) for h in config.allow_hosts}
        if self.public_origin:
            self.hosts.add(host_name(urlsplit(self.public_origin).netloc))
        self.origins = {self.public_origin} if self.public_origin else set()
        for origin in config.allow_origins:
            parsed = origin_of(origin)
            if parsed is None:
                raise ValueError(f"--allow-origin {origin!r} is not an http:// or https:// address")
            self.origins.add(parsed)

    # ------------------------------------------------------------------ addresses
    def is_trusted(self, address: str | None) -> bool:
        if not address or not self.trusted:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    @staticmethod
    def forwarded_for(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
        """The addresses a proxy chain says the request passed through, first to last: every
        ``X-Forwarded-For`` header of the request, in order (each proxy appends the address it
        heard from). ``Forwarded`` is never read: proxies (Caddy among them) pass a client's own
        ``Forwarded`` on untouched beside the ``X-Forwarded-For`` they set, so believing it
        would let any client name its own address."""
        chain: list[str] = []
        for name, value in headers:
            if name.lower() == b"x-forwarded-for":
                chain += [part.strip() for part in value.decode("latin-1").split(",") if part.strip()]
        return chain

    def resolve(self, scope: Scope) -> tuple[str, str, str]:
        """The client's address, the scheme (``http``/``https``) and the host (``name[:port]``)
        the request was made to, through trusted proxies only."""
        peer = scope.get("client")
        address = str(peer[0]) if peer else "unknown"
        headers = dict(scope.get("headers") or [])
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
        host = headers.get(b"host", b"").decode("latin-1")
        if self.is_trusted(address):
            for hop in reversed(self.forwarded_for(scope.get("headers") or [])):
                address = hop
                if not self.is_trusted(hop):
                    break
            proto = headers.get(b"x-forwarded-proto")
            if proto is not None:
                scheme = proto.decode("latin-1").split(",")[0].strip().lower()
            forwarded_host = headers.get(b"x-forwarded-host")
            if forwarded_host is not None:
                host = forwarded_host.decode("latin-1").split(",")[0].strip()
        if scheme not in ("http", "https"):
            scheme = "http"
        return address, scheme, host

    def base_url(self, scheme: str, host: str) -> str:
        """Where clients reach this server: ``--public-url``, else the request's own address."""
        if self.config.public_url:
            return self.config.public_url.rstrip("/")
        return f"{scheme}://{host}"

    # ------------------------------------------------------------------ checks
    def host_allowed(self, host: str) -> bool:
        """An IP address, a loopback name, the public URL's host or an ``--allow-host`` name."""
        name = host_name(host)
        return bool(name) and (is_ip(name) or name in LOOPBACK_NAMES or name in self.hosts)

    def origin_allowed(self, origin: str | None, own: str) -> bool:
        """A request with no ``Origin`` (not a browser's), or one from this very origin, the
        public URL's, an ``--allow-origin``, or another process's of the cluster."""
        if origin is None:
            return True
        parsed = origin_of(origin)
        return parsed is not None and (parsed == own or parsed in self.origins or parsed in self.cluster)

    async def origin_allowed_now(self, origin: str | None, own: str) -> bool:
        """:meth:`origin_allowed`, reading the cluster's processes again before a refusal (a
        process that just started may not be known yet)."""
        if self.origin_allowed(origin, own):
            return True
        if self.refresh is None or time.monotonic() - self._refreshed < REFRESH_EVERY:
            return False
        self._refreshed = time.monotonic()
        with contextlib.suppress(Exception):
            await self.refresh()
        return self.origin_allowed(origin, own)


def _problem(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}).encode()


#: What :class:`EdgeMiddleware`'s ``route`` says of a request to the API: it has a route
#: (``None``), none at all (``no_route``), or one for other methods (the methods, for ``Allow``).
RouteCheck = Callable[[Scope], "str | tuple[str, ...] | None"]


class EdgeMiddleware:
    """The ASGI middleware that applies :class:`Edge` to every request (see the module
    docstring). The application then sees the client's real address as ``scope["client"]``
    and the address clients reach the server by as ``scope["unokit.base_url"]``.
    ``refused(code)`` is told of every request refused here. ``route`` tells whether a
    request to ``/api/`` has a route: one that has none is answered ``404`` (``no_route``),
    one that names a route with another method ``405`` (``bad_method``, with ``Allow``),
    both as JSON, before its body is read."""

    def __init__(
        self,
        app: ASGIApp,
        edge: Edge,
        refused: Callable[[str], None] | None = None,
        route: RouteCheck | None = None,
    ) -> None:
        self.app = app
        self.edge = edge
        self.refused = refused or (lambda _code: None)
        self.route = route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address, scheme, host = self.edge.resolve(scope)
        scope["client"] = (address, 0)
        scope["unokit.base_url"] = self.edge.base_url(scheme, host)
        headers = dict(scope.get("headers") or [])
        origin = headers.get(b"origin")
        own = origin_of(f"{scheme}://{host}") or ""
        if scope["type"] == "websocket":
            if not self.edge.host_allowed(host) or not await self.edge.origin_allowed_now(
                origin.decode("latin-1") if origin is not None else None, own
            ):
                self.refused("bad_origin")
                await send({"type": "websocket.close", "code": 1008})  # before the handshake: HTTP 403
                return
            await self.app(scope, receive, send)
            return
        send = self._secured(send, https=scheme == "https", api=scope["path"].startswith("/api/"))
        if not self.edge.host_allowed(host):
            await self._refuse(send, 421, "bad_host", f"this server does not answer to the name {host_name(host)!r}")
            return
        found = self.route(scope) if self.route is not None and scope["path"].startswith("/api/") else None
        if found == "no_route":
            await self._refuse(send, 404, "no_route", f"there is no {scope['path'][:80]!r} in the API")
            return
        if isinstance(found, tuple):
            allowed = ", ".join(found)
            await self._refuse(
                send,
                405,
                "bad_method",
                f"{scope['method'][:10]} is not allowed here: {allowed}",
                [(b"allow", allowed.encode())],
            )
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            if not await self.edge.origin_allowed_now(origin.decode("latin-1") if origin is not None else None, own):
                await self._refuse(send, 403, "bad_origin", "requests from other sites are refused")
                return
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if scope["path"].startswith("/api/") and kind != b"application/json":
                await self._refuse(
                    send, 415, "not_json", "the request body must be JSON (Content-Type: application/json)"
                )
                return
            body = await self._read_body(headers, receive)
            if body is None:
                await self._refuse(send, 413, "too_large", f"a request body may be at most {BODY_LIMIT} bytes")
                return
            receive = _replay(body, receive)
        started = False
        failed = False

        async def tracked(message: Message) -> None:
            # Every refusal (an answer of 400 or more with a JSON "error") is counted by its code.
            nonlocal started, failed
            if message["type"] == "http.response.start":
                started = True
                failed = message["status"] >= 400 and (b"content-type", b"application/json") in message.get(
                    "headers", []
                )
            elif failed and message["type"] == "http.response.body":
                failed = False
                with contextlib.suppress(ValueError, AttributeError):
                    self.refused(str(json.loads(message.get("body", b"")).get("error")))
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            # A bug answers 500 with the security headers and no traceback (the log has it).
            log.exception("%s %s failed", scope["method"], scope["path"])
            if not started:
                await self._refuse(send, 500, "internal", "the server failed to answer this request")

    @staticmethod
    async def _read_body(headers: dict[bytes, bytes], receive: Receive) -> bytes | None:
        """The whole body, or ``None`` as soon as it is known to be over :data:`BODY_LIMIT`
        (from its ``Content-Length``, or while it streams in): never more is held."""
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.strip().isdigit() or int(declared) > BODY_LIMIT):
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > BODY_LIMIT:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _refuse(
        self, send: Send, status: int, code: str, message: str, extra: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        self.refused(code)
        body = _problem(code, message)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),  # what is left of a refused body is never read
                    *(extra or []),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    def _secured(send: Send, *, https: bool, api: bool) -> Send:
        """``send`` with the security headers added to the response's start."""

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _value in headers}
                extra = [*SECURITY_HEADERS, HSTS] if https else list(SECURITY_HEADERS)
                if api:
                    extra.append((b"cache-control", b"no-store"))
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        return secured


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the application ``body`` (already read), then waits on the
    connection for its end."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


__all__ = [
    "BODY_LIMIT",
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "Buckets",
    "Edge",
    "EdgeConfig",
    "EdgeMiddleware",
    "client_key",
    "ip_network_of",
    "is_loopback",
    "origin_of",
]
