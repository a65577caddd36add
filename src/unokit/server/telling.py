"""What a room tells its readers (:mod:`.authority`): each seat's ``state`` message (its own view
of the game, the change's events redacted for it, the same events as lines to say, after a hello
the game so far, and when a round ends its summary), and the ``room`` message when only
presence or timers changed. A spectator is told the public view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .. import Event
from ..i18n.lines import Line
from .messages import RoomUpdate
from .protocol import encode, fragment
from .stating import StateTeller

if TYPE_CHECKING:
    from .authority import Room


class Teller(StateTeller):
    """The ``state`` and ``room`` messages of one room, made for each reader (the ``state``
    message itself: :class:`~.stating.StateTeller`) and sent to its connections."""

    room: Room

    def broadcast(self, events: list[Event], said: Sequence[Line] = ()) -> None:
        if not self.room.peers:
            return
        info = fragment(self.room.room_info())  # the same for every seat: encoded once
        texts: dict[int | None, str] = {}
        for peer in list(self.room.peers.values()):
            text = texts.get(peer.seat)
            if text is None:
                text = texts[peer.seat] = encode(self.state_message(peer.seat, events, info=info, said=said))
            peer.deliver(text)

    def broadcast_room(self) -> None:
        if not self.room.peers:
            return
        text = encode(RoomUpdate(version=self.room.state.seq, room=self.room.room_info()).to_json())
        for peer in list(self.room.peers.values()):
            peer.deliver(text)


__all__ = ["Teller"]
