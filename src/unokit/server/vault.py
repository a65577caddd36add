"""The server's secrets, kept in its database so that every process of a cluster reads the same
ones, and never sent anywhere: ``daily`` (the deals of the day's seeds, ``docs/daily.md``),
``ladder`` (the bot ladder's tokens and seeds) and ``ratings`` (the marks of the addresses rated
games were played from, ``docs/ratings.md``). Each is made at its first use.

A feature asks for its secret by name (:func:`secret`) and keeps what it must of a client
address as :func:`address_mark`: the same for the same address, and no way back to it without
the secret, so that neither a board, an export nor a copy of a table holds an address.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import TYPE_CHECKING

from sqlalchemy import Column, Float, String, Table, insert, select
from sqlalchemy.exc import IntegrityError

from .storage import metadata

if TYPE_CHECKING:
    from .storage import Store

#: One row per secret, by ``name``. (The table is named for the deal of the day, the first
#: feature that needed a secret; revision 0006 made it.)
server_secrets = Table(
    "daily_secrets",
    metadata,
    Column("name", String(16), primary_key=True),
    Column("secret", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)


def secret(store: Store, name: str = "daily") -> bytes:
    """The server's secret ``name`` (``daily``, ``ladder``, ``ratings``), made
    (``secrets.token_bytes``) at its first use; every process of a cluster reads the same one."""
    with store.begin() as c:
        row = c.execute(select(server_secrets.c.secret).where(server_secrets.c.name == name)).first()
    if row is not None:
        return bytes.fromhex(row.secret)
    try:
        with store.begin() as c:
            c.execute(
                insert(server_secrets).values(name=name, secret=secrets.token_bytes(32).hex(), created_at=time.time())
            )
    except IntegrityError:  # another process made it first
        pass
    with store.begin() as c:
        made = c.execute(select(server_secrets.c.secret).where(server_secrets.c.name == name)).scalar_one()
    return bytes.fromhex(made)


def address_mark(secret: bytes, client: str) -> str:
    """What a feature keeps of the client address ``client`` (:func:`~.edge.client_key`) under
    its ``secret``: the same for the same address, and no way back to it without the secret."""
    return hmac.new(secret, f"address|{client}".encode(), hashlib.sha256).hexdigest()[:32]


__all__ = ["address_mark", "secret", "server_secrets"]
