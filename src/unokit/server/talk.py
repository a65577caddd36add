"""The room's chat as the room's actor says it (:mod:`.authority`): a seat's or a spectator's
line or reaction, the host's muting, the spectators quieted in a room nobody hosts, and who is
shown which messages (players' reports are the feature ``moderation``'s). The chat's rules and
its log are :mod:`.chat`'s; its entries are committed to a log of their own, so a message never
changes the room's state version.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from .chat import (
    LIVE_PHASES,
    PLAYERS,
    SPECTATORS,
    SPECTATORS_SHARE,
    ChatEntryKind,
    check_reaction,
    check_text,
    history,
    visible,
)
from .messages import ChatMessages
from .protocol import RateLimit
from .room import RoomError
from .storage import Append

if TYPE_CHECKING:
    from . import messages
    from .authority import Peer, Room


class Talk:
    """The chat of one room: the room's handlers of ``chat``, ``quiet`` and the host's
    ``mute``, and the delivery of messages to whoever may see them."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: The chat allowance of each sender: a seat, ``address:ADDRESS`` for a spectator,
        #: :data:`~.chat.SPECTATORS` for all of them.
        self.limits: dict[int | str, RateLimit] = {}

    async def say(self, peer: Peer, msg: messages.Chat) -> None:
        """A line or a reaction from a seat (the message carries its token) or a spectator."""
        state = self.room.state
        if (msg.text is None) == (msg.reaction is None):
            raise RoomError("bad_chat", "a chat message has either 'text' or 'reaction'")
        if msg.token is not None:
            seat: int | None = self.room.seating.own_seat(peer, msg.token)
        elif peer.seat is not None:
            raise RoomError("bad_token", "a player's chat message carries the seat's token")
        else:
            seat = None
        if self.room.host.banned(peer.client, peer.player):
            raise RoomError("banned", "you are banned from this server's chat")
        if seat is None and peer.name is not None:
            state.check_name(peer.name)  # a player may have sat down with that name since
        occupant = state.seats[seat].token_hash if seat is not None else None
        marks = self.room.seating.marks(peer) | self.room.seating.seat_marks.get(occupant or "", set())
        if self.room.chat.is_muted(seat, occupant, marks):
            whom = "your seat" if seat is not None else "spectators"
            raise RoomError("muted", f"{whom} may not write in this room's chat now")
        # A seat's allowance is the seat's; spectators' is their address's (reconnecting does
        # not renew it), and all of a room's spectators share one more; every room shares the
        # address's allowance across the server.
        limits = [self.allowance(seat if seat is not None else f"address:{peer.client}")]
        if seat is None:
            limits.append(self.allowance(SPECTATORS, SPECTATORS_SHARE))
        if not all(limit.allow() for limit in limits) or not await self.room.host.chat_allowed(peer.client):
            raise RoomError("rate_limited", "too many chat messages: wait a moment")
        entry: dict[str, Any] = {
            "type": (ChatEntryKind.SAY if msg.text is not None else ChatEntryKind.REACT).value,
            "seat": seat,
            "name": state.seats[seat].name if seat is not None else peer.name,
            "channel": PLAYERS if seat is not None else SPECTATORS,
            "game": state.game_no,
            "live": state.phase in LIVE_PHASES,
            "at": round(time.time(), 3),
            "from": self.room.seating.sender(seat, peer),
        }
        if msg.text is not None:
            entry["text"] = check_text(msg.text)
        elif msg.reaction is not None:
            entry["reaction"] = check_reaction(msg.reaction)
        await self.commit([entry])

    def allowance(self, key: int | str, share: float = 1.0) -> RateLimit:
        """The chat allowance of ``key`` in this room (a seat, ``address:ADDRESS`` for its
        spectators, :data:`SPECTATORS` for all of them, ``share`` times one sender's)."""
        limit = self.limits.get(key)
        if limit is None:
            limit = self.limits[key] = self.room.host.chat_limit(share)
        return limit

    async def mute(self, seat: object, muted: bool, by: int | None = None) -> None:
        """Mute or unmute the player at ``seat`` (their seat token and their marks), or every
        spectator (``seat`` ``None``; ``by``: the player of a room with no host who did it)."""
        entry: dict[str, Any] = {"type": ChatEntryKind.MUTE.value, "seat": seat, "who": None, "muted": muted}
        if isinstance(seat, int):
            who = self.room.state.seats[seat].token_hash
            if self.room.state.seats[seat].kind != "human" or who is None:
                raise RoomError("bad_seat", f"seat {seat} holds no player to mute")
            marks = self.room.seating.seat_marks.get(who, set())
            spared = {held for held, known in self.room.seating.seat_marks.items() if held != who and known & marks}
            entry.update(who=who, marks=sorted(marks), spared=sorted(spared))
        if by is not None:
            entry["by"] = by
        await self.commit([entry])
        self.room.teller.broadcast_room()
        self.room.host.published(self.room)

    async def quiet(self, peer: Peer, msg: messages.Quiet) -> None:
        """A player of a room nobody hosts ("play now") quiets its spectators, or lets them talk."""
        seat = self.room.seating.own_seat(peer, msg.token)
        if self.room.state.spec.hosted:
            raise RoomError("not_host", "in a room with a host, only the host may quiet its spectators")
        if self.room.chat.spectators_muted == msg.quiet:
            return  # already so: nothing to write
        # Each change is written to the chat log: it counts as one of the seat's chat messages.
        if not self.allowance(seat).allow() or not await self.room.host.chat_allowed(peer.client):
            raise RoomError("rate_limited", "too many changes: wait a moment")
        await self.mute(None, msg.quiet, by=seat)

    async def commit(self, entries: list[dict[str, Any]]) -> None:
        """Write chat-log entries, then show their messages to whoever may see them."""
        room = self.room
        await room.write(Append(room.code, room.state.seq, [], chat=entries, chat_after=room.chat.count))
        shown = [message for message in map(self.room.chat.apply, entries) if message is not None]
        self.deliver(shown)
        for message in shown:
            self.room.host.chat_published(self.room, message)

    def deliver(self, messages: list[dict[str, Any]], *, only_players: bool = False) -> None:
        state = self.room.state
        for peer in list(self.room.peers.values()):
            if only_players and peer.seat is None:
                continue
            shown = [m for m in messages if visible(m, peer.seat, state.game_no, state.phase)]
            if shown:
                peer.deliver(ChatMessages(messages=shown).to_json())

    def send_history(self, peer: Peer) -> None:
        shown = history(self.room.chat, peer.seat, self.room.state.game_no, self.room.state.phase)
        peer.deliver(ChatMessages(history=True, messages=shown).to_json())


__all__ = ["Talk"]
