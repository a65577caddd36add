"""Signals for the operator (``docs/ratings.md``, "Signals for the operator"): what may be a
rating farmed or shared, for a person to look at, and what the operator may do about it.

* :func:`suspicious` lists, over the last :data:`SIGNAL_DAYS` days of rated games (lines not
  annulled): pairs of rated identities that played at least :data:`PAIR_GAMES` rated games
  together in which one of them won at least :data:`PAIR_SHARE` of them; address marks from
  which two or more rated identities played rated games (two people of one address at one
  table are never rated together, so these are identities met at different tables); and rated
  games whose stand-in made more than :data:`STANDIN_SHARE` of a rated seat's moves.
* :func:`annul` takes a rated game's change back from each of its rated players' ratings.
* :func:`reset_rating` puts an identity's rating(s) back to a new player's.

Nothing here decides by itself: a signal is a list for the operator, never a ban or a change.
Each raises :class:`~...room.RoomError` with a code naming the problem, and changes nothing
then.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from ....record import GameRecord, RecordError
from ...room import RoomError
from ...storage import records
from ...webapi import unknown_fields
from .skill import NEW_MU, NEW_SIGMA, rated_players, rating_history, rating_opponents, ratings

if TYPE_CHECKING:
    from ...storage import Store

#: How far back the signals look, in days; the address marks of rated games are kept that long.
SIGNAL_DAYS = 30
#: A pair is listed from this many rated games together in :data:`SIGNAL_DAYS` days...
PAIR_GAMES = 10
#: ... when one of the two won at least this share of them.
PAIR_SHARE = 0.8
#: A game is listed when a stand-in made more than this share of a rated seat's moves.
STANDIN_SHARE = 0.5
#: The most lines of each list.
SIGNAL_LIMIT = 200
#: The largest game number a request may name (a database's 32-bit integer).
MAX_GAME = 2**31 - 1
#: The smallest sigma an annulment leaves (a rating's uncertainty never reaches nothing).
MIN_SIGMA = 0.01


@dataclass(frozen=True)
class Thresholds:
    """What :func:`suspicious` lists by (the module's constants by default)."""

    days: float = SIGNAL_DAYS
    pair_games: int = PAIR_GAMES
    pair_share: float = PAIR_SHARE
    standin_share: float = STANDIN_SHARE

    def as_json(self) -> dict[str, Any]:
        return {
            "days": self.days,
            "pair_games": self.pair_games,
            "pair_share": self.pair_share,
            "standin_share": self.standin_share,
        }


def suspicious(store: Store, now: float | None = None, limits: Thresholds = Thresholds()) -> dict[str, Any]:
    """The signals of the rated games of the ``limits.days`` before ``now`` (lines of history
    not annulled, of identities still rated): ``pairs``, ``addresses`` and ``standins`` (each
    a list, the strongest first, at most :data:`SIGNAL_LIMIT`), and the ``thresholds``."""
    since = (time.time() if now is None else now) - limits.days * 86400.0
    with store.begin() as c:
        names = {row.player: row.name for row in c.execute(select(rated_players.c.player, rated_players.c.name))}
        lines = c.execute(
            select(
                rating_history.c.player,
                rating_history.c.room,
                rating_history.c.game_no,
                rating_history.c.variant,
                rating_history.c.players,
                rating_history.c.at,
                rating_history.c.won,
                rating_history.c.address,
                rating_history.c.moves,
                rating_history.c.standins,
            ).where(rating_history.c.at >= since, rating_history.c.annulled.is_(None))
        ).all()
    lines = [line for line in lines if line.player in names]

    def who(player: str) -> dict[str, Any]:
        return {"player": player, "name": names[player]}

    games: dict[tuple[str, int], list[Any]] = defaultdict(list)
    for line in lines:
        games[(line.room, line.game_no)].append(line)
    together: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # games, first's wins, second's
    for seats in games.values():
        for i, one in enumerate(seats):
            for other in seats[i + 1 :]:
                first, second = sorted((one, other), key=lambda line: str(line.player))
                count = together[(first.player, second.player)]
                count[0] += 1
                count[1] += bool(first.won)
                count[2] += bool(second.won)
    pairs: list[dict[str, Any]] = []
    for (first, second), (played, first_won, second_won) in together.items():
        if played >= limits.pair_games and max(first_won, second_won) >= limits.pair_share * played:
            winner, loser = (first, second) if first_won >= second_won else (second, first)
            pairs.append(
                {
                    "winner": who(winner),
                    "loser": who(loser),
                    "games": played,
                    "won": max(first_won, second_won),
                    "lost": min(first_won, second_won),
                    "share": round(max(first_won, second_won) / played, 3),
                }
            )
    pairs.sort(key=lambda pair: (-pair["share"], -pair["games"], pair["winner"]["player"]))

    marks: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in lines:
        if line.address is not None:
            marks[line.address][line.player] += 1
    addresses = [
        {
            "mark": mark,
            "identities": [{**who(player), "games": count} for player, count in sorted(seen.items())],
        }
        for mark, seen in marks.items()
        if len(seen) > 1
    ]
    addresses.sort(key=lambda found: (-len(found["identities"]), found["mark"]))

    standins = [
        {
            **who(line.player),
            "room": line.room,
            "game": line.game_no,
            "variant": line.variant,
            "players": line.players,
            "at": line.at,
            "won": bool(line.won),
            "moves": line.moves,
            "standins": line.standins,
            "share": round(line.standins / line.moves, 3),
        }
        for line in lines
        if line.moves and line.standins is not None and line.standins > limits.standin_share * line.moves
    ]
    standins.sort(key=lambda game: (-game["share"], -game["at"]))
    return {
        "thresholds": limits.as_json(),
        "pairs": pairs[:SIGNAL_LIMIT],
        "addresses": addresses[:SIGNAL_LIMIT],
        "standins": standins[:SIGNAL_LIMIT],
    }


def annul(store: Store, room: str, game: int, now: float | None = None) -> dict[str, Any]:
    """Take rated game ``game`` of ``room`` back from its rated players' ratings, once, in one
    transaction; return ``{"room", "game", "players": [{"player", "name", "variant",
    "players", "mu", "sigma", "games"}]}`` (each one's rating after; ``games`` 0 when the game
    was its only one: it is a new player's again).

    Each player's ``mu`` and ``sigma`` move back by the game's own change (its line of history:
    after minus before; a line written before revision 0014 takes the line before it, or a new
    player's rating, as the before), games count one less, and an opponent met only in that
    game no longer counts. A rating reset since the game is left as it is. The line of
    history stays, marked ``annulled``; the game's record (when it has one: a forfeit has none)
    gets ``meta.annulled`` (when and how many players).

    Raise :class:`RoomError` ``no_game`` (no such game), ``not_rated`` (a game that moved no
    rating) or ``annulled`` (annulled already), changing nothing."""
    at = time.time() if now is None else now
    with store.begin() as c:
        lines = c.execute(
            select(rating_history).where(rating_history.c.room == room, rating_history.c.game_no == game)
        ).all()
        text = c.execute(select(records.c.record).where(records.c.room == room, records.c.game_no == game)).scalar()
        if not lines:
            if text is None:
                raise RoomError("no_game", f"there is no game {game} of room {room}")
            raise RoomError("not_rated", f"game {game} of room {room} was not rated: it moved no rating")
        if all(line.annulled is not None for line in lines):
            raise RoomError("annulled", f"game {game} of room {room} was annulled already")
        record = None
        if text is not None:
            try:
                record = GameRecord.loads(text)
            except RecordError as exc:
                raise RoomError("bad_record", f"the record of game {game} of {room} is unreadable: {exc}") from None
        done = [_take_back(c, line, at) for line in lines if line.annulled is None]
        if record is not None:
            record.meta["annulled"] = {"at": at, "players": len(done)}
            c.execute(
                update(records).where(records.c.room == room, records.c.game_no == game).values(record=record.dumps())
            )
    return {"room": room, "game": game, "players": done}


def _take_back(c: Connection, line: Any, at: float) -> dict[str, Any]:
    """Take the game of history ``line`` back from its player's rating (:func:`annul`)."""
    key = (ratings.c.player == line.player) & (ratings.c.variant == line.variant) & (ratings.c.players == line.players)
    rating = c.execute(select(ratings).where(key)).first()
    c.execute(
        update(rating_history)
        .where(
            rating_history.c.player == line.player,
            rating_history.c.room == line.room,
            rating_history.c.game_no == line.game_no,
        )
        .values(annulled=at)
    )
    name = c.execute(select(rated_players.c.name).where(rated_players.c.player == line.player)).scalar()
    told = {"player": line.player, "name": name, "variant": line.variant, "players": line.players}
    if rating is None or (rating.reset_at is not None and rating.reset_at >= line.at):
        return {**told, "mu": None, "sigma": None, "games": None if rating is None else rating.games}
    before = _before(c, line)
    mu = rating.mu - (line.mu - before[0])
    sigma = min(NEW_SIGMA, max(MIN_SIGMA, rating.sigma - (line.sigma - before[1])))
    games = max(0, rating.games - 1)
    if games == 0 and rating.reset_at is None:  # its only game: a new player's again
        c.execute(delete(ratings).where(key))
        mu, sigma = NEW_MU, NEW_SIGMA
    else:
        c.execute(update(ratings).where(key).values(mu=mu, sigma=sigma, games=games))
    _drop_opponents(c, line, rating.reset_at)
    return {**told, "mu": round(mu, 3), "sigma": round(sigma, 3), "games": games}


def _before(c: Connection, line: Any) -> tuple[float, float]:
    """The rating before history ``line``'s game: kept with the line since revision 0014, else
    the line before it of the same rating, else a new player's."""
    if line.mu_before is not None and line.sigma_before is not None:
        return float(line.mu_before), float(line.sigma_before)
    previous = c.execute(
        select(rating_history.c.mu, rating_history.c.sigma)
        .where(
            rating_history.c.player == line.player,
            rating_history.c.variant == line.variant,
            rating_history.c.players == line.players,
            rating_history.c.at < line.at,
        )
        .order_by(rating_history.c.at.desc())
        .limit(1)
    ).first()
    return (previous.mu, previous.sigma) if previous is not None else (NEW_MU, NEW_SIGMA)


def _drop_opponents(c: Connection, line: Any, reset_at: float | None) -> None:
    """Stop counting the opponents of ``line``'s game that its player met in no other game of
    that rating still counted (since its reset, not annulled). A line from before revision
    0014 does not say whom it met: while one counts, every opponent stays."""
    if line.opponents is None:
        return
    others = c.execute(
        select(rating_history.c.opponents).where(
            rating_history.c.player == line.player,
            rating_history.c.variant == line.variant,
            rating_history.c.players == line.players,
            rating_history.c.annulled.is_(None),
            rating_history.c.at > (reset_at if reset_at is not None else float("-inf")),
        )
    ).scalars()
    still: set[str] = set()
    for opponents in others:
        if opponents is None:
            return
        still.update(json.loads(opponents))
    gone = set(json.loads(line.opponents)) - still
    if gone:
        c.execute(
            delete(rating_opponents).where(
                rating_opponents.c.player == line.player,
                rating_opponents.c.variant == line.variant,
                rating_opponents.c.players == line.players,
                rating_opponents.c.opponent.in_(sorted(gone)),
            )
        )


def reset_rating(
    store: Store, player: str, variant: str | None = None, size: int | None = None, now: float | None = None
) -> dict[str, Any]:
    """Put the identity ``player``'s ratings (of ``variant`` only, at tables of ``size`` only,
    when given) back to a new player's: ``mu`` and ``sigma`` OpenSkill's defaults, no games, no
    opponents, ``reset_at`` now (its owner's ``ratings/mine`` says so). Its history stays as it
    was (each line says how it moved the rating then). Return ``{"player", "name", "reset":
    [{"variant", "players"}]}``; raise :class:`RoomError` ``not_rated`` (an identity not rated)
    or ``no_rating`` (no rating of that choice), changing nothing."""
    at = time.time() if now is None else now
    with store.begin() as c:
        name = c.execute(select(rated_players.c.name).where(rated_players.c.player == player)).scalar()
        if name is None:
            raise RoomError("not_rated", f"the identity {player[:12]} is not rated")
        which = ratings.c.player == player
        if variant is not None:
            which = which & (ratings.c.variant == variant)
        if size is not None:
            which = which & (ratings.c.players == size)
        found = c.execute(select(ratings.c.variant, ratings.c.players).where(which).order_by(ratings.c.variant)).all()
        if not found:
            raise RoomError("no_rating", f"the identity {player[:12]} has no such rating")
        c.execute(update(ratings).where(which).values(mu=NEW_MU, sigma=NEW_SIGMA, games=0, updated_at=at, reset_at=at))
        for row in found:
            c.execute(
                delete(rating_opponents).where(
                    rating_opponents.c.player == player,
                    rating_opponents.c.variant == row.variant,
                    rating_opponents.c.players == row.players,
                )
            )
    return {"player": player, "name": name, "reset": [{"variant": r.variant, "players": r.players} for r in found]}


def game_of(body: dict[str, Any]) -> tuple[str, int]:
    """The ``(room, game)`` a request to annul names (``{"room": CODE, "game": N}``); raise
    :class:`RoomError` ``bad_request`` naming what is wrong."""
    unknown_fields(body, {"room", "game"})
    room, game = body.get("room"), body.get("game")
    if not isinstance(room, str) or not (0 < len(room) <= 16 and room.isascii() and room.isalnum()):
        raise RoomError("bad_request", "'room' must be a room's code")
    if not isinstance(game, int) or isinstance(game, bool) or not 1 <= game <= MAX_GAME:
        raise RoomError("bad_request", "'game' must be a game's number (1 for a room's first)")
    return room.upper(), game


def reset_of(body: dict[str, Any]) -> tuple[str, str | None, int | None]:
    """The ``(player, variant, players)`` a request to reset names (``{"player": HASH,
    "variant"?: V, "players"?: N}``); raise :class:`RoomError` ``bad_request`` naming what is
    wrong."""
    unknown_fields(body, {"player", "variant", "players"})
    player, variant, size = body.get("player"), body.get("variant"), body.get("players")
    if not is_identity(player):
        raise RoomError("bad_request", "'player' must be an identity's hash (as the admin's lists show it)")
    if variant is not None and not (isinstance(variant, str) and 0 < len(variant) <= 40):
        raise RoomError("bad_request", "'variant' must be a variant's name")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or not 2 <= size <= 10):
        raise RoomError("bad_request", "'players' must be a table size from 2 to 10")
    return str(player), variant, size


def is_identity(value: object) -> bool:
    """Whether ``value`` can be an identity's hash as the tables keep it (1 to 64 ASCII
    letters, digits, ``-``, ``_`` or ``:``)."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= 64
        and value.isascii()
        and all(ch.isalnum() or ch in "-_:" for ch in value)
    )


def prune(c: Connection, records_before: float) -> None:
    """The retention's hook: clear the address marks of rated games older than
    :data:`SIGNAL_DAYS` days (the signals look no further back)."""
    c.execute(
        update(rating_history)
        .where(rating_history.c.at < time.time() - SIGNAL_DAYS * 86400.0, rating_history.c.address.is_not(None))
        .values(address=None)
    )


__all__ = [
    "PAIR_GAMES",
    "PAIR_SHARE",
    "SIGNAL_DAYS",
    "STANDIN_SHARE",
    "Thresholds",
    "annul",
    "game_of",
    "is_identity",
    "prune",
    "reset_of",
    "reset_rating",
    "suspicious",
]
