"""Web Push, the standard way: what the server keeps and checks (``docs/server.md``,
"Notifications when the page is closed").

A player who asks for notifications (a switch on the page, never a prompt when it opens) gets a
*subscription* from their browser (RFC 8030): an endpoint at the browser vendor's push service
and the keys that messages to it are encrypted with (RFC 8291). The page posts it with the
player's identity, the language to write in and the kinds of message wanted; the server keeps it
under the identity's hash, so it follows the player across rooms, and deletes it with the
identity ("Forget me", retention), when the player switches it off, and when the push service
answers that it is gone (404, 410).

The server signs every message with its VAPID key pair (RFC 8292), made at its first start and
kept in the database: the private key never leaves it (``unokit admin push-key --rotate`` makes
a new one). Messages are sent by :mod:`.pushsend`, on threads of their own; :mod:`.notices`
decides who is told what.

**Where the server may post.** A subscription's endpoint comes from a client, so a hostile one
could name any address, inside the host's network too (SSRF). The server posts only to
:data:`PUSH_SERVICES` (the push services of the browsers people play in, over HTTPS, at a
public address checked when the connection is made, never following a redirect) and to the
origins the host names with ``--push-service`` (a push service of their own, or a loopback
endpoint for tests), which are trusted at any address. Anything else is refused when it is
posted (``bad_subscription``) and never stored.
"""

from __future__ import annotations

import base64
import ipaddress
import re
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, delete, func, insert, select, update

from ....i18n import LANGUAGES, N_, catalog
from ....i18n.catalog import PSEUDO
from ...room import RoomError
from ...storage import Store, metadata, players
from ..daily.deals import Deal

#: What a player may be told, each switchable: it is their turn (once they have been away from
#: the page for :data:`AWAY_SECONDS`), the game they wait for has started, someone at their
#: table asks to play again, someone joined their table, the day's deals of the day are ready
#: (``docs/daily.md``; sent at the rollover, by one process of a cluster).
KINDS: tuple[str, ...] = ("turn", "start", "again", "joined", "daily")
#: The kinds a subscription wants when it does not say: every one about the player's own tables;
#: the deal of the day, a message nobody's action caused, only for a player who ticks it.
DEFAULT_KINDS: tuple[str, ...] = ("turn", "start", "again", "joined")

#: The push services of the browsers people play in (RFC 8030 endpoints are on these hosts):
#: Chrome and the browsers built on Chromium (Firebase Cloud Messaging), Firefox (Mozilla's
#: autopush), Edge on Windows (Windows Push Notification Services) and Safari (Apple's). A
#: ``*.`` origin takes the names below that domain. ``--push-service`` adds others.
PUSH_SERVICES: tuple[str, ...] = (
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://*.notify.windows.com",
    "https://*.push.apple.com",
)

#: The longest endpoint kept (the browsers' are 150 to 500 characters).
MAX_ENDPOINT = 1024
#: The most subscriptions (browsers, devices) one identity keeps: a new one beyond it replaces
#: the one its page posted least recently.
SUBSCRIPTIONS_PER_PLAYER = 10
#: A host as an endpoint may name it: a DNS name in ASCII, or an IP address.
HOST_SHAPE = re.compile(r"[a-z0-9.-]+|[0-9a-f:.]+")
#: How long a process keeps the key pair it read before reading it again (a rotation on the
#: database reaches every process of a cluster within this long).
KEY_REFRESH_SECONDS = 30.0

#: The words of each kind: its title and its text (both name the room and the game).
WORDS: Mapping[str, tuple[str, str]] = {
    "turn": (N_("push.title.turn"), N_("push.body.turn")),
    "start": (N_("push.title.start"), N_("push.body.start")),
    "again": (N_("push.title.again"), N_("push.body.again")),
    "joined": (N_("push.title.joined"), N_("push.body.joined")),
    "daily": (N_("push.title.daily"), N_("push.body.daily")),
}
#: The text of "your turn" when a stand-in bot already plays the seat.
STANDIN_BODY = N_("push.body.turn_standin")

#: The server's VAPID key pair (RFC 8292), made at its first start: the private key (PKCS#8 PEM)
#: never leaves the database; the public key (the browsers' ``applicationServerKey``, URL-safe
#: base64 of the uncompressed point) is what pages subscribe with. The newest row is the key in
#: use; ``unokit admin push-key --rotate`` adds one and deletes the others (:mod:`.keys`).
push_keys = Table(
    "push_keys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", Float, nullable=False),
    Column("private_key", Text, nullable=False),
    Column("public_key", String(100), nullable=False),
)

#: Web Push subscriptions (RFC 8030), each a browser's endpoint at its push service and the keys
#: messages to it are encrypted with (RFC 8291), belonging to a player identity (its hash): the
#: language its messages are written in, the kinds of message it wants, and the key it was made
#: for. Deleted with the identity ("Forget me", retention) and when the push service says the
#: endpoint is gone.
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("endpoint", String(1024), primary_key=True),
    Column("player", String(64), nullable=False),
    Column("p256dh", String(100), nullable=False),
    Column("auth", String(32), nullable=False),
    Column("key_id", Integer, nullable=False),
    Column("lang", String(16), nullable=False),
    Column("kinds", String(100), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Index("push_subscriptions_player", "player"),
)


def _unpadded(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64(text: object, what: str, size: int) -> bytes:
    """The ``size`` bytes that URL-safe base64 ``text`` holds; raise ``bad_subscription``."""
    if isinstance(text, str) and text.isascii() and len(text) <= 2 * size:
        try:
            raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
        except ValueError:
            raw = b""
        if len(raw) == size:
            return raw
    raise RoomError("bad_subscription", f"'keys.{what}' is not {size} bytes in URL-safe base64")


# ---------------------------------------------------------------------- where the server posts
@dataclass(frozen=True)
class ServiceOrigin:
    """An origin messages may be posted to: ``scheme://host:port``, or every name under a
    domain (``wildcard``); ``named``: the host named it with ``--push-service`` (trusted at any
    address), else it is one of :data:`PUSH_SERVICES` (reached at public addresses only)."""

    scheme: str
    host: str
    port: int
    wildcard: bool = False
    named: bool = False

    @staticmethod
    def parse(text: str, *, named: bool) -> ServiceOrigin:
        """Read ``https://host[:port]``, ``https://*.domain`` or ``http://host:port``; raise
        ``ValueError`` naming what is wrong."""
        try:
            parts = urlsplit(text.strip())
            port = parts.port
        except ValueError:
            raise ValueError(f"{text!r} is not an origin (scheme://host[:port])") from None
        host = (parts.hostname or "").lower()
        wildcard = host.startswith("*.")
        if parts.scheme not in ("https", "http") or not host or parts.username is not None or parts.password:
            raise ValueError(f"{text!r} is not an http:// or https:// origin (scheme://host[:port])")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(f"{text!r} is an address, not an origin: leave out the path")
        bare = host[2:] if wildcard else host
        if wildcard and (not bare or "*" in bare or _is_ip(bare)):
            raise ValueError(f"{text!r}: '*.' stands only before a domain name")
        if "*" in bare:
            raise ValueError(f"{text!r}: '*' stands only at the start, as '*.domain'")
        return ServiceOrigin(parts.scheme, host, port or (443 if parts.scheme == "https" else 80), wildcard, named)

    def matches(self, scheme: str, host: str, port: int) -> bool:
        if scheme != self.scheme or port != self.port:
            return False
        if self.wildcard:
            return host.endswith(self.host[1:]) and len(host) > len(self.host) - 1 and not _is_ip(host)
        return host == self.host

    def __str__(self) -> str:
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{self.host}" + ("" if self.port == default else f":{self.port}")


#: A DNS label: letters, digits and inner hyphens, 1 to 63 of them.
LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
#: What no push service's path holds: dot segments, and dots, slashes or backslashes written
#: in percent escapes (which a server may decode into a path elsewhere than the one checked).
ODD_PATH = re.compile(r"(?:^|/)\.{1,2}(?:/|$)|%2e|%2f|%5c|%00", re.IGNORECASE)


def well_formed_name(host: str) -> bool:
    """Whether ``host`` is a well-formed DNS name of letters: labels of :data:`LABEL`'s shape,
    none empty (``..x``, ``x.``) and none all digits (``127.0.0.1.notify.windows.com`` is an
    address dressed as a name; no push service's name has a numeric label)."""
    labels = host.split(".")
    return len(host) <= 253 and all(LABEL.fullmatch(label) and not label.isdigit() for label in labels)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def public_address(address: str) -> bool:
    """Whether ``address`` is a public unicast address (not loopback, private, link-local,
    reserved, shared or multicast): where the browsers' push services are."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


class PushServices:
    """The origins the server posts to: :data:`PUSH_SERVICES` and the host's own
    (``--push-service``). Raises ``ValueError`` for an origin it cannot read."""

    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.origins = [ServiceOrigin.parse(o, named=False) for o in PUSH_SERVICES]
        self.origins += [ServiceOrigin.parse(o, named=True) for o in extra]

    def origin_of(self, endpoint: str) -> ServiceOrigin | None:
        """The origin ``endpoint`` may be posted to under, or ``None``."""
        try:
            parts = urlsplit(endpoint)
            port = parts.port
        except ValueError:
            return None
        if parts.username is not None or parts.password is not None or "@" in parts.netloc:
            return None
        host = (parts.hostname or "").lower()
        if not HOST_SHAPE.fullmatch(host) or parts.fragment or not parts.path.startswith("/"):
            return None
        if not _is_ip(host) and not well_formed_name(host):
            return None
        if ODD_PATH.search(parts.path):
            return None
        port = port or (443 if parts.scheme == "https" else 80)
        for origin in self.origins:
            if origin.matches(parts.scheme, host, port):
                return origin
        return None

    def check(self, endpoint: object) -> str:
        """``endpoint`` when the server may post to it; raise :class:`RoomError`
        ``bad_subscription`` naming why not."""
        if not isinstance(endpoint, str) or not endpoint:
            raise RoomError("bad_subscription", "'endpoint' is the push service's address the browser gave")
        if len(endpoint) > MAX_ENDPOINT:
            raise RoomError("bad_subscription", f"'endpoint' is longer than {MAX_ENDPOINT} characters")
        if not endpoint.isascii() or not endpoint.isprintable() or " " in endpoint or "\\" in endpoint:
            raise RoomError("bad_subscription", "'endpoint' holds characters an address does not")
        if self.origin_of(endpoint) is None:
            raise RoomError(
                "bad_subscription",
                "this server sends notifications only to the browsers' push services "
                f"({', '.join(str(o) for o in self.origins)})",
            )
        return endpoint

    def any_address(self, scheme: str, host: str, port: int) -> bool:
        """Whether the host named this origin (``--push-service``): its address is not checked."""
        return any(o.named and o.matches(scheme, host.lower(), port) for o in self.origins)


# ---------------------------------------------------------------------- subscriptions
@dataclass(frozen=True)
class Subscription:
    """A browser's subscription as kept: where to post, the keys to encrypt with (URL-safe
    base64), the language to write in and the kinds of message wanted."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str
    kinds: frozenset[str]

    def info(self) -> dict[str, Any]:
        """The subscription as a browser's ``PushSubscription.toJSON()`` (what pywebpush reads)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def check_subscription(body: Mapping[str, Any], services: PushServices) -> Subscription:
    """The subscription a page posted (``subscription``: its ``PushSubscription.toJSON()``;
    ``lang``; ``kinds``), checked; raise :class:`RoomError` ``bad_subscription``."""
    sub = body.get("subscription")
    if not isinstance(sub, dict) or set(sub) - {"endpoint", "keys", "expirationTime"}:
        raise RoomError("bad_subscription", "'subscription' is the browser's PushSubscription as JSON")
    keys = sub.get("keys")
    if not isinstance(keys, dict) or set(keys) != {"p256dh", "auth"}:
        raise RoomError("bad_subscription", "'keys' holds the browser's 'p256dh' and 'auth'")
    endpoint = services.check(sub.get("endpoint"))
    point = _b64(keys["p256dh"], "p256dh", 65)
    secret = _b64(keys["auth"], "auth", 16)
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise RoomError("bad_subscription", "'keys.p256dh' is not a P-256 public key") from None
    lang = body.get("lang", "en")
    if lang not in LANGUAGES and lang != PSEUDO:
        raise RoomError("bad_subscription", f"'lang' is one of {', '.join(LANGUAGES)}")
    kinds = body.get("kinds", list(DEFAULT_KINDS))
    if not isinstance(kinds, list) or not all(isinstance(k, str) and k in KINDS for k in kinds):
        raise RoomError("bad_subscription", f"'kinds' lists what to be told of: {', '.join(KINDS)}")
    return Subscription(endpoint, _unpadded(point), _unpadded(secret), str(lang), frozenset(kinds))


def _kinds_text(kinds: frozenset[str]) -> str:
    return ",".join(kind for kind in KINDS if kind in kinds)


def save_subscription(store: Store, player: str, sub: Subscription, key_id: int) -> None:
    """Keep ``sub`` for the identity whose hash is ``player`` (again: its language and kinds
    are updated), made for key ``key_id``; the identity counts as used now. Beyond
    :data:`SUBSCRIPTIONS_PER_PLAYER` the least recently posted one goes. Raise
    :class:`RoomError` ``push_taken`` when another identity holds the endpoint."""
    now = time.time()
    table = push_subscriptions
    fields = {
        "p256dh": sub.p256dh,
        "auth": sub.auth,
        "key_id": key_id,
        "lang": sub.lang,
        "kinds": _kinds_text(sub.kinds),
        "seen_at": now,
    }
    with store.begin() as c:
        holder = c.scalar(select(table.c.player).where(table.c.endpoint == sub.endpoint))
        if holder is not None and holder != player:
            raise RoomError("push_taken", "this browser's subscription belongs to another player: subscribe anew")
        if holder is None:
            c.execute(insert(table).values(endpoint=sub.endpoint, player=player, created_at=now, **fields))
        else:
            c.execute(update(table).where(table.c.endpoint == sub.endpoint).values(**fields))
        kept = c.execute(
            select(table.c.endpoint).where(table.c.player == player).order_by(table.c.seen_at.desc())
        ).all()
        stale = [row.endpoint for row in kept[SUBSCRIPTIONS_PER_PLAYER:]]
        if stale:
            c.execute(delete(table).where(table.c.endpoint.in_(stale)))
        if c.execute(update(players).where(players.c.player == player).values(last_seen=now)).rowcount == 0:
            c.execute(insert(players).values(player=player, created_at=now, last_seen=now))


def remove_subscription(store: Store, player: str, endpoint: str) -> int:
    """Delete the identity ``player``'s subscription at ``endpoint`` (another identity's is
    left alone); returns how many were deleted (0 or 1)."""
    table = push_subscriptions
    with store.begin() as c:
        return int(c.execute(delete(table).where(table.c.endpoint == endpoint, table.c.player == player)).rowcount)


def drop_subscription(store: Store, endpoint: str) -> None:
    """Delete the subscription at ``endpoint``: its push service says it is gone."""
    with store.begin() as c:
        c.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))


def subscriptions_for(store: Store, player: str, kind: str, key_id: int) -> list[Subscription]:
    """The identity ``player``'s subscriptions made for key ``key_id`` that want ``kind``."""
    table = push_subscriptions
    with store.begin() as c:
        rows = c.execute(select(table).where(table.c.player == player, table.c.key_id == key_id)).all()
    found = [
        Subscription(row.endpoint, row.p256dh, row.auth, row.lang, frozenset(row.kinds.split(",")) - {""})
        for row in rows
    ]
    return [sub for sub in found if kind in sub.kinds]


def subscribers(store: Store, kind: str, key_id: int) -> list[str]:
    """The identities (hashes) with a subscription made for key ``key_id`` that wants ``kind``."""
    table = push_subscriptions
    with store.begin() as c:
        rows = c.execute(select(table.c.player, table.c.kinds).where(table.c.key_id == key_id)).all()
    return sorted({row.player for row in rows if kind in row.kinds.split(",")})


def subscription_count(store: Store) -> int:
    with store.begin() as c:
        return int(c.scalar(select(func.count()).select_from(push_subscriptions)) or 0)


# ---------------------------------------------------------------------- the key pair
@dataclass(frozen=True)
class VapidKey:
    """The server's key pair: ``public_key`` is the pages' ``applicationServerKey`` (URL-safe
    base64 of the uncompressed P-256 point); ``private_pem`` never leaves the server."""

    id: int
    created_at: float
    public_key: str
    private_pem: str = ""

    def __repr__(self) -> str:  # never the private key, in a log or a traceback
        return f"VapidKey(id={self.id}, public_key={self.public_key!r})"


def _new_pair() -> tuple[str, str]:
    """A new VAPID key pair (py_vapid): its private key as PKCS#8 PEM, its public key as the
    pages take it."""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid02

    vapid = Vapid02()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return vapid.private_pem().decode("ascii"), _unpadded(public)


def _read_key(c: Any) -> VapidKey | None:
    row = c.execute(select(push_keys).order_by(push_keys.c.id.desc()).limit(1)).first()
    return None if row is None else VapidKey(row.id, row.created_at, row.public_key, row.private_key)


def _lock(c: Any) -> None:
    """Several processes of a cluster start at once: one makes the key, the others read it."""
    if c.dialect.name == "postgresql":
        c.exec_driver_sql("SELECT pg_advisory_xact_lock(7243002)")


def ensure_key(store: Store) -> VapidKey:
    """The key pair in use, made now when the database has none (the server's first start)."""
    with store.begin() as c:
        _lock(c)
        found = _read_key(c)
        if found is not None:
            return found
        private, public = _new_pair()
        c.execute(insert(push_keys).values(created_at=time.time(), private_key=private, public_key=public))
        made = _read_key(c)
    assert made is not None
    return made


def current_key(store: Store) -> VapidKey | None:
    with store.begin() as c:
        return _read_key(c)


def rotate_key(store: Store) -> tuple[VapidKey, int]:
    """Make a new key pair and delete the old ones with every subscription made for them
    (their push services would refuse the new key's messages; each page subscribes again by
    itself when it is next opened). Returns the new key and the subscriptions deleted."""
    private, public = _new_pair()
    with store.begin() as c:
        _lock(c)
        c.execute(insert(push_keys).values(created_at=time.time(), private_key=private, public_key=public))
        made = _read_key(c)
        assert made is not None
        dropped = c.execute(delete(push_subscriptions).where(push_subscriptions.c.key_id != made.id)).rowcount
        c.execute(delete(push_keys).where(push_keys.c.id != made.id))
    return made, int(dropped)


class Keys:
    """The key pair in use, as this process knows it: read from the database at most every
    :data:`KEY_REFRESH_SECONDS` (thread-safe: the sender's threads and the API share it)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._key: VapidKey | None = None
        self._read_at = -KEY_REFRESH_SECONDS
        self._lock = threading.Lock()

    def get(self) -> VapidKey | None:
        with self._lock:
            if time.monotonic() - self._read_at >= KEY_REFRESH_SECONDS:
                self._key = current_key(self.store)
                self._read_at = time.monotonic()
            return self._key

    def forget(self) -> None:
        """Read the key again at the next :meth:`get` (after a rotation through this process)."""
        with self._lock:
            self._read_at = -KEY_REFRESH_SECONDS


# ---------------------------------------------------------------------- what a message says
def message(
    kind: str,
    lang: str,
    room: str,
    variant: str,
    *,
    name: str | None = None,
    standin: bool = False,
    deals: tuple[Deal, ...] = (),
) -> dict[str, str]:
    """The message of ``kind`` about room ``room`` (a game of ``variant``), in ``lang``: its
    ``title`` and ``body`` (both name the room and the game; ``name``: the player who joined or
    asked to play again; ``standin``: a stand-in bot plays the seat already), the page to open
    (``url``: the room's, where the browser's seat token takes the seat back) and the ``tag``
    that makes a newer message about the room replace an older one. Never a card, never a token.
    A ``daily`` message names the day (``room``: ``YYYY-MM-DD``) and its ``deals`` in its body,
    and opens the first deal's page."""
    words = catalog(lang)
    title_key, body_key = WORDS[kind]
    if kind == "daily":
        named = [
            words.t(
                "n.daily.deal", variant=words.t(f"variant.{d.variant}"), count=d.players, bot=words.t(f"bot.{d.level}")
            )
            for d in deals
        ]
        return {
            "kind": kind,
            "room": room,
            "title": words.t(title_key),
            "body": words.t(body_key, list="; ".join(named)),
            "url": f"/#/daily/{deals[0].key}" if deals else "/",
            "tag": "unokit-daily",
        }
    params = {"code": room, "variant": words.t(f"variant.{variant}"), "name": name or ""}
    return {
        "kind": kind,
        "room": room,
        "title": words.t(title_key, **params),
        "body": words.t(STANDIN_BODY if standin and kind == "turn" else body_key, **params),
        "url": f"/r/{room}",
        "tag": f"unokit-{room}",
    }


def registry_keys() -> Iterable[str]:
    """The catalogue keys of :data:`KINDS`: the switch that turns each on or off, its words."""
    for kind in KINDS:
        yield f"push.kind.{kind}"
        yield from WORDS[kind]
    yield STANDIN_BODY


__all__ = [
    "DEFAULT_KINDS",
    "KINDS",
    "PUSH_SERVICES",
    "Keys",
    "PushServices",
    "ServiceOrigin",
    "Subscription",
    "VapidKey",
    "check_subscription",
    "current_key",
    "drop_subscription",
    "ensure_key",
    "message",
    "public_address",
    "remove_subscription",
    "rotate_key",
    "save_subscription",
    "subscribers",
    "subscriptions_for",
]
