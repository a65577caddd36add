"""What the server allows one client address across its rooms, so that no address takes more
than its share: chat lines across every room (beside each room's own allowance of a seat), and
how many public rooms an address may list (``--public-rooms``). One :class:`Allowances` a
process, held by its hub. (Reports and bans are the feature ``moderation``'s.)

Each per-address allowance (these, and the routes' and features' of :class:`~.seam.Limits`) is
an :class:`Allowance`: on PostgreSQL counted in the database, so that a cluster's processes
allow an address together what one process would."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from .chat import SPECTATORS_SHARE
from .edge import Buckets
from .protocol import RateLimit

if TYPE_CHECKING:
    from .authority import Room
    from .config import ServerConfig
    from .storage import SharedAllowances, Store

log = logging.getLogger("unokit.server")


class Allowance:
    """Token buckets of one kind, per client address: ``rate`` a second on average, bursts of
    ``burst``. A process keeps its own buckets; in a cluster (``shared``, PostgreSQL) every
    take is also counted in the database, so that an address gets no more from N processes than
    from one. A bucket this process alone has emptied refuses without asking the database; a
    take the database refuses empties this process's bucket too, so that the checks that only
    look (:meth:`spent`, before every room look-up) read memory, never the database. When the
    database cannot be reached, this process's own count decides (logged)."""

    def __init__(self, name: str, rate: float, burst: float, shared: SharedAllowances | None = None) -> None:
        self.name = name
        self.rate = rate
        self.burst = burst
        self.shared = shared
        self.local = Buckets(rate, burst)

    async def allow(self, key: str, cost: float = 1.0) -> bool:
        """Take ``cost`` from ``key``'s allowance if it holds that much."""
        if not self.local.allow(key, cost):
            return False
        if self.shared is None:
            return True
        try:
            taken = await asyncio.to_thread(self.shared.take, self.name, key, self.rate, self.burst, cost)
        except SQLAlchemyError:
            log.warning("the shared allowance %s could not be read: this process's count decides", self.name)
            return True
        if not taken:
            self.local.drain(key)  # the cluster's bucket is empty: so is this process's now
        return taken

    async def spent(self, key: str) -> bool:
        """Whether ``key``'s allowance holds less than one (without taking anything)."""
        return self.local.spent(key)

    async def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may take one again."""
        return self.local.retry_after(key)


class Allowances:
    """The allowances of the client addresses of one process."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.store = store
        #: Chat per client address across every room (and every process of a cluster): as much
        #: as a room's spectators share.
        self._chat_by_address = self.make("chat", config.chat_rate * SPECTATORS_SHARE, config.chat_burst * 2)

    def make(self, name: str, rate: float, burst: float) -> Allowance:
        """An allowance ``name`` of ``rate`` a second and bursts of ``burst``, shared by a
        cluster's processes when the store is PostgreSQL's."""
        return Allowance(name, rate, burst, self.store.allowances if self.store.postgres else None)

    def chat_limit(self, share: float = 1.0) -> RateLimit:
        """A fresh allowance of one sender's chat in a room (``share`` times it: a group's)."""
        return RateLimit(self.config.chat_rate * share, self.config.chat_burst * share)

    async def chat_allowed(self, client: str) -> bool:
        """Take one chat message from the address ``client``'s allowance across every room."""
        return await self._chat_by_address.allow(client)

    async def may_list(self, room: Room) -> bool:
        """Whether ``room``'s creator may have one more public room listed."""
        if room.creator is None:
            return True
        return await asyncio.to_thread(self.store.public_rooms_of, room.creator) < self.config.public_rooms


__all__ = ["Allowance", "Allowances"]
