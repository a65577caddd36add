"""What a room needs from outside it: its clients' connections (:class:`Peer`), the process
that runs it (:class:`Host`), and the secrets that name people (seat tokens, identities).

A room (:mod:`.authority`) talks to nothing else: the websocket connections of this process
(:class:`~unokit.server.app.WsPeer`), those another process forwards (:class:`RemoteMarker`),
and the hub (:class:`~unokit.server.hub.Hub`) are each one of these.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..core.actions import Action
from ..core.observation import View
from .metrics import Metrics
from .protocol import RateLimit
from .room import RoomError
from .storage import Append

if TYPE_CHECKING:
    from .authority import Room
    from .messages import ClientMessage
    from .seam import RoomMessage


def token_hash(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex): tokens themselves are never stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


#: A player identity (a browser's secret, ``hello``'s ``player``) is what the clients make:
#: :data:`IDENTITY_BYTES` random bytes in URL-safe base64 without padding (43 characters).
IDENTITY_BYTES = 32
IDENTITY_LENGTH = 43
#: The fewest different byte values an identity's bytes have: random ones have 30 on average,
#: and fewer than 16 once in more than 10^12; a made-up one ("AAAA...") has one or two.
IDENTITY_VARIETY = 16


def identity_hash(player: object) -> str:
    """The stored form of a player identity; raise :class:`RoomError` ``bad_player`` when it is
    not one of the form the clients make (:data:`IDENTITY_BYTES` random bytes, base64url), or
    plainly not random (:data:`IDENTITY_VARIETY`)."""
    secret = None
    if isinstance(player, str) and len(player) == IDENTITY_LENGTH and player.isascii():
        with contextlib.suppress(ValueError):
            secret = base64.urlsafe_b64decode(player + "=")
    if secret is None or base64.urlsafe_b64encode(secret).rstrip(b"=").decode() != player:
        raise RoomError(
            "bad_player",
            f"a player identity is {IDENTITY_BYTES} random bytes in URL-safe base64 "
            f"({IDENTITY_LENGTH} letters, digits, '-' or '_'): a secret the browser makes",
        )
    if len(set(secret)) < IDENTITY_VARIETY:
        raise RoomError("bad_player", "this player identity is not a random secret: let the browser make one")
    return token_hash(player)


class Peer(Protocol):
    """A client connection: a local websocket, or one that another process forwards.

    ``holder`` is the token hash of the player the connection sits for: a connection is bound
    to its seat's occupant, not to the seat number, so that the moment the seat changes hands
    (a kick, a bot put in, a leave) the connection is ended before it is sent anything more.
    """

    conn_id: str
    seat: int | None
    role: str
    holder: str | None
    name: str | None  # a spectator's name in the chat (players are named by their seat)
    client: str  # the client's address, as per-client limits count it (:func:`~.edge.client_key`)
    player: str | None  # the hash of the identity its hello gave, if any
    visible: bool  # its page shows the table (the page says when it is hidden: ``visibility``)

    def deliver(self, message: dict[str, Any] | str) -> None:
        """Queue a message for the client (never blocks; a client too slow to read is dropped)."""

    def close(self, reason: str, code: int = 1000) -> None:
        """Close the connection after the queued messages, with close ``code`` and ``reason``."""


class Host(Protocol):
    """What a room needs from the process that runs it (:class:`unokit.server.hub.Hub`)."""

    node: str

    async def writer_append(self, job: Append) -> None: ...

    async def load_log(self, code: str, after: int) -> list[tuple[int, dict[str, Any]]]: ...

    async def load_chat(self, code: str) -> list[dict[str, Any]]:
        """Room ``code``'s chat-log entries, in order."""
        ...

    async def link_player(self, code: str, token_hash: str, player_hash: str) -> None:
        """Store that the seat token ``token_hash`` of room ``code`` belongs to an identity."""

    def chat_limit(self, share: float = 1.0) -> RateLimit:
        """A fresh rate limit for one sender's chat messages (``--chat-rate``, ``--chat-burst``),
        or, with ``share``, for a group of senders: that many times as much."""
        ...

    def chat_published(self, room: Room, message: dict[str, Any]) -> None:
        """The owner committed a chat message: let other processes' clients see it."""

    def published(self, room: Room, *, everyone: bool = False) -> None:
        """The owner committed and told its own clients: let the processes that follow the room
        catch up (``everyone``: also those it does not know of yet, after a takeover)."""

    def forward(self, room: Room, peer: Peer, message: dict[str, Any]) -> None: ...

    async def refused(self, room: Room) -> None:
        """A write of ``room``, owned here, was refused: when another process holds the room's
        lease now, this process follows the room from here on (``room.owner`` is false)."""

    def presence(self, room: Room) -> None: ...

    def dropped(self, room: Room) -> None: ...

    def told(self, room: Room, entries: list[dict[str, Any]]) -> None:
        """The owner committed ``entries`` and told its clients: who is notified (:mod:`.notices`)."""

    def looked(self, room: Room) -> None:
        """Who looks at the owner's table may have changed (:mod:`.notices`)."""

    def admit(self, room: Room, name: str, player: str | None) -> None:
        """Raise :class:`RoomError` when a feature refuses a seat of ``room`` to the newcomer
        ``name`` with the identity (hash) ``player``: a ladder table seats its bots only."""

    def room_message(self, kind: type[ClientMessage]) -> RoomMessage:
        """The feature's answer to the client message ``kind`` (:meth:`.seam.FeatureServer.room_messages`);
        raise :class:`RoomError` when no feature this server runs answers it."""
        ...

    @property
    def metrics(self) -> Metrics:
        """The process's metrics (:mod:`.metrics`)."""
        ...

    async def think(self, room: str, act: Callable[[View], Action], view: View) -> Action:
        """``act(view)`` in the bot pool, charged to ``room``'s CPU budget."""
        ...

    def think_delay(self, room: str) -> float:
        """Seconds ``room``'s next bot move must wait for its CPU budget."""
        ...

    #: The seats one client address may hold at a public table (``--public-seats``).
    public_seats: int
    #: The messages a connection may send, a second and at once (``--rate``, ``--burst``): told
    #: in the welcome, so that a client can pace itself to them.
    message_rate: tuple[float, float]

    def banned(self, client: str, player: str | None) -> bool:
        """Whether the address ``client`` or the identity ``player`` is banned (a feature
        :meth:`~.seam.FeatureServer.bars` them: ``unokit admin ban``)."""
        ...

    async def chat_allowed(self, client: str) -> bool:
        """Take one chat message from the address ``client``'s allowance across every room (and
        every process of a cluster)."""
        ...

    async def identities(self, code: str) -> dict[str, str]:
        """The identity (hash) linked to each seat token (hash) of room ``code``."""
        ...

    async def may_list(self, room: Room) -> bool:
        """Whether ``room``'s creator may have one more public room open (``--public-rooms``)."""
        ...


class RemoteMarker:
    """Base of peers that stand for a connection on another process (forwarded messages)."""


__all__ = ["Host", "Peer", "RemoteMarker", "identity_hash", "new_token", "token_hash"]
