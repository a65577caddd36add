"""The public bot ladder (``docs/research.md``, "The bot ladder"): bots connect with the
ordinary client, sit at ladder tables of a variant and size, and play rated, seeded one-hand
games around the clock; each finished table moves the bots' OpenSkill ratings, one standings
table per variant and size.

* **A bot's account** is a name and a token: the token is ``HMAC-SHA256(ladder secret, name)``
  in URL-safe base64, so it proves the name without a table of accounts (``unokit admin
  ladder-token NAME`` prints it; only the host, who holds the database, can make one). The bot
  sits with its token as its player identity (``hello``'s ``player``) and its name as its seat's
  name; a game is rated only when every seat was sat by the holder of its name's token.
* **A table** is a room that is not listed in the lobby, of :data:`LADDER_OPTIONS` and
  :data:`LADDER_SETTINGS`; its games and stand-in bots are seeded from the server's secret and
  the room's code (like the deal of the day), so nobody can know a deal before it is dealt. A
  bot that asks for a table (:meth:`~unokit.server.features.ladder.LadderServer.table`) is sent
  to the one filling for its setting while a seat of it is free, or to a new one; its seat is
  its once it sits. A new table starts when one ends, as the bots ask.
* **Ratings** are kept in :mod:`.ratings`' tables under the player ``ladder:NAME`` (never an
  identity's hash, so bots are never on the people's leaderboards), moved in the transaction
  that writes the game's record: once per game, whichever process ends it. A bot that leaves a
  game (its stand-in played its last moves) loses it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ...room import RoomError, check_name
from ...storage import room_players, room_spec
from ...vault import server_secrets
from ..ratings.skill import BOARD_LIMIT, current, ordinal, ranks, ratings, settle

if TYPE_CHECKING:
    from ...storage import Append, Store

#: The name of the server's secret that makes bot tokens and table seeds (:func:`.daily.secret`).
SECRET_NAME = "ladder"
#: Ratings of ladder bots are kept under ``ladder:NAME``.
PLAYER_PREFIX = "ladder:"
#: A bot's name on the ladder: ASCII letters, digits, ``-``, ``_`` and ``.``, 1 to 24 of them.
BOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,23}")
#: Each table plays one hand.
LADDER_OPTIONS: dict[str, Any] = {"rounds": 1}
#: A table's timing: no pauses; a bot has :data:`DECISION_SECONDS` for each decision (then the
#: stand-in plays it, and a bot that lets it play its last moves loses); seats still empty
#: :data:`FILL_SECONDS` after a table opened are filled with stand-ins, which makes it unrated.
DECISION_SECONDS = 30.0
FILL_SECONDS = 120.0
LADDER_SETTINGS: dict[str, Any] = {
    "turn_seconds": DECISION_SECONDS,
    "bot_seconds": 0.0,
    "catch_seconds": 0.0,
    "hand_pause_seconds": 0.0,
    "grace_seconds": 10.0,
    "fill_seconds": FILL_SECONDS,
}


def check_bot_name(name: object) -> str:
    """``name`` when it is a ladder bot's name (:data:`BOT_NAME`, and a seat's name the server
    allows); raise :class:`RoomError` ``bad_name``."""
    if not isinstance(name, str) or not BOT_NAME.fullmatch(name):
        raise RoomError(
            "bad_name", "a ladder bot's name is 1 to 24 ASCII letters, digits, '-', '_' or '.', starting alphanumeric"
        )
    return check_name(name)


def bot_token(secret: bytes, name: str) -> str:
    """The token of the ladder bot ``name`` under the server's ladder ``secret``: a player
    identity (32 bytes, URL-safe base64) that only the secret's holder can make."""
    digest = hmac.new(secret, f"ladder-bot|{name}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def check_bot(secret: bytes, name: object, token: object) -> str:
    """The bot's name when ``token`` is ``name``'s; raise :class:`RoomError` ``bad_name`` or
    ``bad_token``."""
    checked = check_bot_name(name)
    if not isinstance(token, str) or not hmac.compare_digest(token, bot_token(secret, checked)):
        raise RoomError("bad_token", f"this is not the ladder token of {checked!r}: ask the server's host for it")
    return checked


def _secret(c: Connection) -> bytes | None:
    row = c.execute(select(server_secrets.c.secret).where(server_secrets.c.name == SECRET_NAME)).first()
    return None if row is None else bytes.fromhex(row.secret)


def record_written(c: Connection, job: Append, now: float) -> None:
    """A game ended (its record is being written in this transaction): when its room is a
    ladder table and every seat was sat by the holder of its name's token, rate the bots."""
    from ...peers import token_hash  # the stored form of an identity (peers imports storage)

    if job.record is None:
        return
    if "ladder" not in room_spec(c, job.room):
        return
    secret = _secret(c)
    record = json.loads(job.record[1])
    result = record.get("result") or {}
    seats, scores, winners = record.get("seats", []), result.get("scores", []), result.get("winners", [])
    if secret is None or not result.get("over") or len(scores) != len(seats):
        return
    tokens = dict(job.game_seats)
    bots: dict[int, str] = {}
    for index, seat in enumerate(seats):
        name, token = seat.get("name"), tokens.get(index)
        if seat.get("kind") != "human" or not isinstance(name, str) or token is None or not BOT_NAME.fullmatch(name):
            return  # a stand-in filled an empty seat: not a ladder game
        held_by = c.execute(
            select(room_players.c.player).where(room_players.c.room == job.room, room_players.c.token_hash == token)
        ).scalar()
        if held_by != token_hash(bot_token(secret, name)) or PLAYER_PREFIX + name in bots.values():
            return  # a seat not sat with its name's token
        bots[index] = PLAYER_PREFIX + name
    variant, size = str(record.get("variant")), len(seats)
    before = [current(c, bots[index], variant, size) for index in range(size)]
    settle(c, job, bots, before, ranks(scores, winners), winners, variant, size, now)


def standings(store: Store, variant: str, players: int, limit: int = BOARD_LIMIT) -> list[dict[str, Any]]:
    """The ladder's bots in ``variant`` at tables of ``players``, best first (by ordinal)."""
    score = ratings.c.mu - 3.0 * ratings.c.sigma
    with store.begin() as c:
        rows = c.execute(
            select(ratings.c.player, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .where(
                ratings.c.variant == variant,
                ratings.c.players == players,
                ratings.c.player.startswith(PLAYER_PREFIX, autoescape=True),
            )
            .order_by(score.desc(), ratings.c.games.desc(), ratings.c.player)
            .limit(limit)
        ).all()
    return [
        {
            "place": place,
            "name": row.player[len(PLAYER_PREFIX) :],
            "rating": round(ordinal(row.mu, row.sigma), 2),
            "mu": round(row.mu, 3),
            "sigma": round(row.sigma, 3),
            "games": row.games,
        }
        for place, row in enumerate(rows, start=1)
    ]
