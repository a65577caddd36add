"""What the server allows one client address across its rooms, so that no address takes more
than its share: chat lines across every room (beside each room's own allowance of a seat), and
how many public rooms an address may list (``--public-rooms``). One :class:`Allowances` a
process, held by its hub. (Reports and bans are the feature ``moderation``'s.)"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from .chat import SPECTATORS_SHARE
from .edge import Buckets
from .protocol import RateLimit

if TYPE_CHECKING:
    from .authority import Room
    from .config import ServerConfig
    from .storage import Store


class Allowances:
    """The allowances of the client addresses of one process."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.store = store
        #: Chat per client address across every room: as much as a room's spectators share.
        self._chat_by_address = Buckets(config.chat_rate * SPECTATORS_SHARE, config.chat_burst * 2)

    def chat_limit(self, share: float = 1.0) -> RateLimit:
        """A fresh allowance of one sender's chat in a room (``share`` times it: a group's)."""
        return RateLimit(self.config.chat_rate * share, self.config.chat_burst * share)

    def chat_allowed(self, client: str) -> bool:
        """Take one chat message from the address ``client``'s allowance across every room."""
        return self._chat_by_address.allow(client)

    async def may_list(self, room: Room) -> bool:
        """Whether ``room``'s creator may have one more public room listed."""
        if room.creator is None:
            return True
        return await asyncio.to_thread(self.store.public_rooms_of, room.creator) < self.config.public_rooms


__all__ = ["Allowances"]
