"""The bans a moderator asks for, and the bans in force as one process holds them: which
addresses and identities they keep out."""

from __future__ import annotations

import ipaddress
import time
from typing import Any

from ...edge import ip_network_of
from ...peers import identity_hash
from ...room import RoomError


def ban_fields(body: dict[str, Any]) -> tuple[str, str, float | None, str | None]:
    """A ban asked for in ``body`` (``kind``: ``identity`` or ``address``; ``value``: an
    identity, its hash, or an address or network; ``hours``: how long, none for good;
    ``reason``) as stored: (kind, value, until, reason). Raise :class:`RoomError` ``bad_request``."""
    unknown = set(body) - {"kind", "value", "hours", "reason"}
    if unknown:
        raise RoomError("bad_request", f"unknown field(s) {', '.join(sorted(unknown))}")
    kind, value, hours, reason = body.get("kind"), body.get("value"), body.get("hours"), body.get("reason")
    if not isinstance(value, str) or not value.strip():
        raise RoomError("bad_request", "'value' is the identity or the address to ban")
    value = value.strip()
    if kind == "identity":
        hashed = len(value) == 64 and all(ch in "0123456789abcdef" for ch in value)  # as a report shows it
        stored = value if hashed else identity_hash(value)
    elif kind == "address":
        try:
            stored = str(ip_network_of(value))
        except ValueError:
            raise RoomError("bad_request", f"{value[:60]!r} is not an IP address or network") from None
    else:
        raise RoomError("bad_request", "'kind' is identity or address")
    if hours is not None and (isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 1e6):
        raise RoomError("bad_request", "'hours' is how many hours the ban lasts (leave it out: for good)")
    if reason is not None and (not isinstance(reason, str) or len(reason) > 200):
        raise RoomError("bad_request", "'reason' is a short text")
    return kind, stored, None if hours is None else time.time() + float(hours) * 3600, reason


class BansInForce:
    """The bans as last read from the database (:meth:`read`): identities by hash, networks,
    each with its end (``None``: for good)."""

    def __init__(self) -> None:
        self.identities: dict[str, float | None] = {}
        self.networks: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, float | None]] = []

    def read(self, found: list[dict[str, Any]]) -> None:
        """Hold the bans ``found`` (as :func:`.rows.bans_list` gives them) in place of the last."""
        identities: dict[str, float | None] = {}
        networks = []
        for ban in found:
            if ban["kind"] == "identity":
                identities[ban["value"]] = ban["until"]
            else:
                try:
                    networks.append((ip_network_of(ban["value"]), ban["until"]))
                except ValueError:
                    continue  # not a network: written on the database by hand, and ignored
        self.identities, self.networks = identities, networks

    def bars(self, client: str, player: str | None) -> bool:
        """Whether the address ``client`` or the identity (hash) ``player`` is banned now."""
        now = time.time()
        if player is not None:
            until = self.identities.get(player, 0.0)
            if until is None or until > now:
                return True
        if not self.networks:
            return False
        try:
            address = ip_network_of(client)
        except ValueError:
            return False
        return any(
            (until is None or until > now) and address.version == network.version and address.overlaps(network)
            for network, until in self.networks
        )


__all__ = ["BansInForce", "ban_fields"]
