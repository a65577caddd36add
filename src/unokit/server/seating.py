"""Who sits where in a room, and who is here (:mod:`.authority`): a ``hello`` seats a new player
(or gives a returning one their seat back, or lets a spectator watch), a seat's token is checked
for every request, a player who drops keeps their seat through a grace period, and a
connection whose player no longer holds its seat is ended before it is told anything more.
Who is connected here and on the processes that follow the room is told to the table as
presence.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

from . import PROTOCOL
from .entries import Join
from .messages import Ack, Welcome, error
from .peers import RemoteMarker, identity_hash, new_token, token_hash
from .protocol import SEAT_LOST
from .room import CLOSED, HAND_OVER, PLAYING, RoomError, sender
from .storage import StorageError

if TYPE_CHECKING:
    from .authority import Peer, Room

log = logging.getLogger("unokit.server")


class Seating:
    """The seats and the connections of one room: the handler of ``hello``, the check of a
    seat's token, presence and the grace of a dropped player, and their state: who is known
    behind each seat token, who held each seat when the room last settled, and which seats
    are connected on the processes that follow the room. The room's connections themselves
    are the room's (:meth:`~.authority.Room.connect`, :meth:`~.authority.Room.disconnect`)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: What is known of the person behind each seat token (hash), from their hellos: their
        #: address, their identity (hash) and their marks (:meth:`marks`).
        self.addresses: dict[str, str] = {}
        self.identity_of: dict[str, str] = {}
        self.seat_marks: dict[str, set[str]] = {}
        #: The identity (hash) behind each name messages went by (``from``), for reports.
        self.senders: dict[str, str | None] = {}
        #: Who held each seat when the room last settled (:meth:`settle`).
        self.settled: list[str | None] = self.occupants()
        #: Whether a ``room`` message is due once this burst of presence changes is over.
        self.presence_due = False
        #: The owner's view of the processes that follow the room, by node: its connections
        #: there, the seats connected there and the seats whose page shows the table there.
        self.remote_watchers: dict[str, int] = {}
        self.remote_seats: dict[str, set[int]] = {}
        self.remote_looking: dict[str, set[int]] = {}

    def became_owner(self, identities: dict[str, str]) -> None:
        """This process took the room over: the identities behind its seat tokens are the
        stored ones (``identities``) too, and no other process is heard to follow it yet."""
        self.identity_of.update(identities)
        self.remote_seats.clear()
        self.remote_watchers.clear()

    def remote_presence(
        self, node: str, seats: list[int] | None, watchers: int, looking: list[int] | None = None
    ) -> None:
        """The owner hears from a process that follows the room: the seats connected there, how
        many connections it has in the room (``None``: it stopped following) and the seats whose
        page shows the table there (a page brought back takes its seat back from the stand-in)."""
        before = self.remote_seats.get(node)
        looked_before = self.remote_looking.get(node, set())
        if seats is None:
            self.remote_seats.pop(node, None)
            self.remote_watchers.pop(node, None)
            self.remote_looking.pop(node, None)
        else:
            self.remote_watchers[node] = watchers
            self.remote_seats[node] = set(seats)
            self.remote_looking[node] = set(seats if looking is None else looking) & set(seats)
            for seat in seats:  # connected there: no grace period runs out for it
                self.room.pacing.end_grace(seat)
            if before is None:
                self.room.host.published(self.room)  # a new follower: it catches up from here
        looked = self.remote_looking.get(node, set())
        for seat in looked - looked_before:
            if 0 <= seat < len(self.room.state.seats):
                self.returned(seat)
        if self.remote_seats.get(node) != before or looked != looked_before:
            self.presence_changed()
            for seat in (before or set()) - set(seats or ()):  # gone there: as a local drop
                if not self.connected(seat) and self.room.state.phase in (PLAYING, HAND_OVER):
                    self.room.pacing.start_grace(seat)

    async def seat_remote(self, peer: Peer, welcome: dict[str, Any]) -> None:
        """The owner (another process) seated this process's client: follow the log to its
        join, then serve the client here."""
        await self.room.sync_log(-1)
        peer.seat = welcome.get("seat")
        peer.role = "player" if peer.seat is not None else "spectator"
        peer.holder = self.occupant(peer.seat)
        self.room.connect(peer)
        peer.deliver(welcome)
        self.presence_changed()
        peer.deliver(self.room.teller.state_message(peer.seat, [], log=True))
        self.room.talk.send_history(peer)

    async def hello(self, peer: Peer, msg: dict[str, Any]) -> None:
        try:
            await self.welcome(peer, msg)
        except RoomError as exc:
            self.room.disconnect(peer)  # a refused hello holds no place in the room
            peer.deliver(error(exc.code, exc.message, msg.get("id"), **exc.detail()))

    async def welcome(self, peer: Peer, msg: dict[str, Any]) -> None:
        """Seat ``peer`` (or let it watch) and send it the room; raise :class:`RoomError`."""
        reply_to = msg.get("id")
        if self.room.state.phase == CLOSED:
            raise RoomError("room_closed", f"room {self.room.code} is closed")
        role = msg.get("role", "player")
        token, name = msg.get("token"), msg.get("name")
        is_host = "host_token" in msg and token_hash(msg["host_token"]) == self.room.host_hash
        if "host_token" in msg and not is_host:
            raise RoomError("bad_token", "the host token does not belong to this room")
        player = identity_hash(msg["player"]) if "player" in msg else None
        peer.player = player
        peer.visible = msg.get("visible", True)
        if self.room.state.public_room and self.room.host.banned(peer.client, player):
            raise RoomError("banned", "you are banned from this server's public rooms")
        spectator_name = self.room.state.check_name(name) if role == "spectator" and name is not None else None
        new_token_text: str | None = None
        if role == "spectator":
            seat = None
            peer.name = spectator_name
        elif role != "player":
            raise RoomError("bad_message", "'role' must be 'player' or 'spectator'")
        elif token is not None:
            found = self.seat_of(token)
            if found is None:
                raise RoomError("bad_token", "this token holds no seat in this room")
            seat = found
        elif not self.room.owner:
            self.room.host.forward(self.room, peer, msg)
            return
        else:
            seat, clean = Join.check(self.room.state, name)
            self.check_newcomer(peer, player)
            self.room.host.admit(self.room, clean, player)
            new_token_text = new_token()
            await self.room.commit([Join(seat=seat, name=clean, token_hash=token_hash(new_token_text), host=is_host)])
        if seat is not None:
            self.know(token_hash(new_token_text or token or ""), peer)
        if player is not None and seat is not None:
            # stored at every hello (a reconnect too): an identity forgotten meanwhile is known again
            try:
                await self.room.host.link_player(self.room.code, token_hash(new_token_text or token or ""), player)
            except StorageError:
                log.warning(
                    "room %s: the player's identity could not be stored", self.room.code, extra={"room": self.room.code}
                )
        welcome = Welcome(
            protocol=PROTOCOL,
            room=self.room.code,
            role=peer.role,
            seat=seat,
            host=is_host,
            token=new_token_text,
            sender=self.sender(seat, peer),  # what this reader's chat messages go by
            reply_to=reply_to,
            rate=dict(zip(("per_second", "burst"), self.room.host.message_rate, strict=True)),
        ).to_json()
        if isinstance(peer, RemoteMarker):  # a join forwarded by another process: it seats its client
            peer.deliver(welcome)
            return
        peer.seat = seat
        peer.role = "player" if seat is not None else "spectator"
        peer.holder = self.occupant(seat)
        self.room.connect(peer)
        peer.deliver(welcome)
        if seat is not None:
            self.returned(seat, looking=peer.visible)
        self.presence_changed()
        peer.deliver(self.room.teller.state_message(seat, [], log=True))
        self.room.talk.send_history(peer)

    def check_newcomer(self, peer: Peer, player: str | None) -> None:
        """Raise :class:`RoomError` when ``peer``'s person may not take another seat here: their
        identity holds one already (``already_seated``), or, at a public table, their address
        holds :attr:`Host.public_seats` (``too_many_seats``)."""
        seated = {seat.token_hash for seat in self.room.state.seats if seat.kind == "human" and seat.token_hash}
        if player is not None and any(self.identity_of.get(held) == player for held in seated):
            raise RoomError("already_seated", "you already hold a seat at this table: use it (or leave it first)")
        if self.room.state.public_room:
            mine = sum(1 for held in seated if self.addresses.get(held) == peer.client)
            if mine >= self.room.host.public_seats:
                raise RoomError(
                    "too_many_seats",
                    f"your address holds {mine} seats at this public table, the most it may",
                    most=self.room.host.public_seats,
                )

    def marks(self, peer: Peer) -> set[str]:
        """The names ``peer``'s person goes by in this room: their address's and, when their
        hello gave one, their identity's (:func:`~.room.sender`)."""
        found = {sender(self.room.code, f"address:{peer.client}")}
        if peer.player is not None:
            found.add(sender(self.room.code, peer.player))
        return found

    def know(self, token: str, peer: Peer) -> None:
        """Remember who said hello for the seat token ``token``."""
        self.addresses[token] = peer.client
        if peer.player is not None:
            self.identity_of[token] = peer.player
        self.seat_marks.setdefault(token, set()).update(self.marks(peer))

    def sender(self, seat: int | None, peer: Peer) -> str:
        """The name the sender of a chat message goes by (``from``): the seat's occupant, or a
        spectator's identity (else address); remembered for reports."""
        if seat is not None:
            occupant = self.room.state.seats[seat].token_hash or ""
            name, identity = sender(self.room.code, occupant), self.identity_of.get(occupant)
        else:
            name = sender(self.room.code, peer.player or f"address:{peer.client}")
            identity = peer.player
        self.senders[name] = identity
        return name

    def occupant(self, seat: int | None) -> str | None:
        """The token hash of ``seat``'s player (``None``: a spectator's place, or no player)."""
        return None if seat is None else self.room.state.seats[seat].token_hash

    def occupants(self) -> list[str | None]:
        """Who holds each seat: a player's token hash, a bot's name and seed, or ``None``."""
        return [seat.occupant() for seat in self.room.state.seats]

    def settle(self) -> None:
        """After entries were folded: forget what belonged to a seat's former occupant (its
        grace timer, stand-in, away mark, last action), and end every connection whose player no
        longer holds its seat (kicked, replaced by a bot, left from another connection). Such a
        connection is told ``seat_lost`` and closed with :data:`SEAT_LOST` before the room sends
        anyone anything more, so it never sees what the seat's next occupant may see."""
        occupants = self.occupants()
        for seat, (before, now) in enumerate(zip(self.settled, occupants, strict=True)):
            if before != now:
                self.room.pacing.forget(seat)
                self.room.forget_accepted(seat)
                for known in (self.addresses, self.identity_of, self.seat_marks):
                    known.pop(before or "", None)
        self.settled = occupants
        for peer in list(self.room.peers.values()):
            if peer.seat is None or self.occupant(peer.seat) == peer.holder:
                continue
            self.room.disconnect(peer)
            peer.deliver(error("seat_lost", "this seat is no longer yours: it was freed or given to someone else"))
            peer.close("seat lost", SEAT_LOST)
            peer.seat = None
            self.presence_changed()

    def seat_of(self, token: str) -> int | None:
        wanted = token_hash(token)
        for index, seat in enumerate(self.room.state.seats):
            if seat.kind == "human" and seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return index
        return None

    def own_seat(self, peer: Peer, token: str, claimed: int | None = None) -> int:
        if peer.seat is None:
            raise RoomError("spectator", "spectators cannot act; join as a player")
        seat = self.seat_of(token)
        if seat is None:
            raise RoomError("bad_token", "this token holds no seat in this room")
        if seat != peer.seat or (claimed is not None and claimed != peer.seat):
            raise RoomError("foreign_seat", f"this connection plays seat {peer.seat} and may act only for it")
        return seat

    def returned(self, seat: int, *, looking: bool = True) -> None:
        """``seat``'s player is here: cancel the grace timer, and when they look at the table
        (not a page reconnecting in the background), take the seat back from the stand-in."""
        self.room.pacing.end_grace(seat)
        if looking:
            self.room.pacing.back(seat)

    def visibility(self, peer: Peer, visible: bool, reply_to: str | int | None) -> None:
        """The connection's page is shown or hidden: who looks at the table (a process that
        follows the room tells its owner). A player whose page is shown again is back."""
        peer.visible = visible
        if visible and peer.seat is not None and self.room.owner:
            self.returned(peer.seat)
        self.presence_changed()
        if reply_to is not None:
            peer.deliver(Ack(reply_to=reply_to, version=self.room.state.seq).to_json())

    def connected(self, seat: int) -> bool:
        return any(p.seat == seat for p in self.room.peers.values()) or any(
            seat in s for s in self.remote_seats.values()
        )

    def presence_changed(self) -> None:
        """Someone came or went: tell the room once this burst of changes is over (a thousand
        hellos at once make one ``room`` message, not a thousand), and wake a paused room."""
        if not self.presence_due:
            self.presence_due = True
            asyncio.get_running_loop().call_soon(self.tell_presence)
        if self.room.owner and self.room.watched():
            self.room.pacing.wake()

    def tell_presence(self) -> None:
        self.presence_due = False
        if not self.room.owner:
            self.room.host.presence(self.room)
        self.room.teller.broadcast_room()
        if self.room.owner:
            self.room.host.looked(self.room)

    async def gone(self, peer: Peer) -> None:
        if not self.room.disconnect(peer):
            return
        self.presence_changed()
        seat = peer.seat
        if (
            seat is not None
            and self.room.owner
            and not self.connected(seat)
            and self.room.state.phase in (PLAYING, HAND_OVER)
        ):
            self.room.pacing.start_grace(seat)
        if seat is not None:
            await self.room.maybe_play_again()  # the one who had not said "play again" went away


__all__ = ["Seating"]
