"""A push service on loopback for the tests (RFC 8030): it hands out subscriptions as a
browser's push service would (an endpoint, and the browser's P-256 key and auth secret), takes
the server's messages, checks each one's VAPID header (RFC 8292: a JWT signed with the key it
names, for this service, not expired) and decrypts it with the subscription's keys (RFC 8291,
``aes128gcm``, with ``http_ece``) as the browser would. No part of the server's sending is
replaced: the server posts over HTTP to this process's socket."""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One subscription, as the browser holds it: its endpoint, its private key, its secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    @staticmethod
    def made(endpoint: str) -> Browser:
        """A new subscription at ``endpoint``: a fresh key pair and secret."""
        return Browser(endpoint, ec.generate_private_key(ec.SECP256R1()), secrets.token_bytes(16))

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }


@dataclass
class Received:
    """A message the service took: which subscription, its headers, what it said (decrypted),
    the VAPID claims and the public key that signed them."""

    endpoint: str
    headers: dict[str, str]
    raw: bytes
    message: dict[str, Any]
    claims: dict[str, Any]
    signer: str


@dataclass
class PushService:
    """The service (see the module docstring). ``answer[endpoint]`` is the status it answers a
    subscription's messages with (201 by default; 410: gone). Messages that fail a check are
    kept in ``problems``, never in ``received``."""

    received: list[Received] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    answer: dict[str, int] = field(default_factory=dict)
    browsers: dict[str, Browser] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                endpoint = f"{service.origin}{self.path}"
                status = service.take(endpoint, {k.lower(): v for k, v in self.headers.items()}, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def browser(self) -> Browser:
        """A new subscription at this service."""
        made = Browser.made(f"{self.origin}/push/{secrets.token_urlsafe(24)}")
        self.browsers[made.endpoint] = made
        return made

    def take(self, endpoint: str, headers: dict[str, str], body: bytes) -> int:
        browser = self.browsers.get(endpoint)
        if browser is None:
            with self._lock:
                self.problems.append(f"a message to an endpoint never handed out: {endpoint}")
            return 404
        try:
            claims, signer = self._vapid(headers.get("authorization", ""))
            if headers.get("content-encoding") != "aes128gcm":
                raise ValueError(f"content encoding {headers.get('content-encoding')!r}")
            if not headers.get("ttl", "").isdigit():
                raise ValueError("no TTL")
            plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
            message = json.loads(plain)
        except (ValueError, KeyError, InvalidSignature) as exc:
            with self._lock:
                self.problems.append(f"{type(exc).__name__}: {exc}")
            return 400
        status = self.answer.get(endpoint, 201)
        if status < 300:
            with self._lock:
                self.received.append(Received(endpoint, headers, body, message, claims, signer))
        return status

    def _vapid(self, header: str) -> tuple[dict[str, Any], str]:
        """The claims of an RFC 8292 ``Authorization: vapid t=JWT, k=KEY`` header, checked."""
        scheme, _, rest = header.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"not a VAPID authorization: {header[:40]!r}")
        parts = dict(part.strip().split("=", 1) for part in rest.split(","))
        token, key = parts["t"], parts["k"]
        head, claims_text, signature = token.split(".")
        if json.loads(unb64(head)) != {"typ": "JWT", "alg": "ES256"}:
            raise ValueError(f"JWT header {unb64(head)!r}")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{head}.{claims_text}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
        claims: dict[str, Any] = json.loads(unb64(claims_text))
        if claims["aud"] != self.origin:
            raise ValueError(f"aud {claims['aud']!r} is not this service")
        if not time.time() < claims["exp"] <= time.time() + 24 * 3600:
            raise ValueError(f"exp {claims['exp']} is not within the next 24 hours")
        if not str(claims["sub"]).startswith(("mailto:", "https://")):
            raise ValueError(f"sub {claims['sub']!r}")
        return claims, key

    def messages(self, browser: Browser) -> list[dict[str, Any]]:
        with self._lock:
            return [r.message for r in self.received if r.endpoint == browser.endpoint]

    def all(self) -> list[Received]:
        with self._lock:
            return list(self.received)
