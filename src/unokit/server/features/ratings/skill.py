"""Ratings for those who want them (``docs/ratings.md``): an OpenSkill rating (Plackett-Luce) per
player identity, variant and table size, for the identities that chose to be rated, under the
name they chose.

A finished game of a *public* room changes ratings when every seat was a rated person or a bot
seated by level (each level has a fixed reference rating, :data:`BOT_RATINGS`, and is never
changed by a game, so that a new player's first games against bots mean something). The update
is made in the transaction that writes the game's record (:func:`record_written`), so it happens
once per game, whichever process ends it, and a restart can neither lose nor repeat it. Unrated
play stays the default: an identity that never opted in is never written here, and one that opts
out is forgotten with its ratings.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ....bots.levels import LEVELS
from ...storage import metadata, room_players, rooms
from ...vault import address_mark, server_secrets

if TYPE_CHECKING:
    from ...storage import Append, Store

#: Identities that chose to be rated, with the name their ratings go by on leaderboards.
rated_players = Table(
    "rated_players",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("name", Text, nullable=False),
    Column("since", Float, nullable=False),
)

#: One rating per identity, variant and table size.
ratings = Table(
    "ratings",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("variant", String(40), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    #: When the operator last put it back to a new player's (``unokit admin reset-rating``).
    Column("reset_at", Float, nullable=True),
    Index("ratings_board", "variant", "players", "mu"),
)

#: Each rated game's change of each rated identity's rating.
rating_history = Table(
    "rating_history",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("room", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("variant", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("won", Boolean, nullable=False),
    #: The rating before the game (``NULL`` on lines written before revision 0014): what
    #: annulling the game takes back (:mod:`.signals`).
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    #: The game's opponents (a JSON list of identities and ``bot:LEVEL``; ``NULL`` before 0014).
    Column("opponents", Text, nullable=True),
    #: The mark of the address the player played from (:func:`~...vault.address_mark`
    #: under the secret :data:`ADDRESS_SECRET`; never the address), cleared after
    #: :data:`~.signals.SIGNAL_DAYS` days; ``NULL`` when the process never saw the address.
    Column("address", String(32), nullable=True),
    #: The seat's moves in the game and how many of them a stand-in made (``NULL`` before 0014).
    Column("moves", Integer, nullable=True),
    Column("standins", Integer, nullable=True),
    #: When the operator annulled the game (``unokit admin annul``): the line stays, marked.
    Column("annulled", Float, nullable=True),
    Index("rating_history_game", "room", "game_no"),
    Index("rating_history_at", "at"),
)

#: The opponents each identity met in rated games of a variant and table size: another rated
#: identity, or ``bot:LEVEL`` for a bot level (each level is one opponent).
rating_opponents = Table(
    "rating_opponents",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("variant", String(40), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("opponent", String(64), primary_key=True),
)

#: The name of the server's secret (:func:`~...vault.secret`) the address marks of rated
#: games are made under; the ratings' server makes it at start, and a game written before it
#: exists keeps no mark.
ADDRESS_SECRET = "ratings"

#: OpenSkill's defaults: a new player's rating.
NEW_MU, NEW_SIGMA = 25.0, 25.0 / 3.0
#: The fixed reference ratings of the bot levels (``mu``, ``sigma``), measured (``docs/ratings.md``):
#: each level's OpenSkill ``mu`` from the levels' round robin in 2-player Classic, shifted so that
#: ``normal`` sits at a new player's 25 (the others keep their measured distance from it), and the
#: ``sigma`` the round robin left each level with (how well its strength is known). Reproduced by
#: ``python scripts/bench_ladder.py --setting classic-2 --games 100 --workers 2 --seed 1``.
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "beginner": (15.0, 1.9),
    "easy": (18.0, 1.7),
    "normal": (25.0, 1.6),
    "hard": (25.6, 1.6),
    "expert": (26.0, 1.6),
}
#: A rating is provisional (shown as such, on no leaderboard) while its sigma is above
#: :data:`PROVISIONAL_SIGMA` (a new player's 8.33 comes down to it after about ten games) or it
#: was played against fewer than :data:`MIN_OPPONENTS` different opponents.
PROVISIONAL_SIGMA = 5.0
MIN_OPPONENTS = 3
#: A leaderboard lists only ratings changed by a game in the last :data:`ACTIVE_DAYS` days.
ACTIVE_DAYS = 30
#: How many players one leaderboard lists, and how many changes a player's history shows.
BOARD_LIMIT = 100
HISTORY_LIMIT = 200


def ordinal(mu: float, sigma: float) -> float:
    """What a leaderboard orders by: ``mu - 3 sigma`` (OpenSkill's ordinal)."""
    return mu - 3.0 * sigma


def rating_scale() -> dict[str, Any]:
    """What a rating's number means, for a page to say beside it: a new player's rating
    (``start``), each bot level's fixed one (``levels``, weakest first: what a player as strong
    as that level comes to), how many different opponents a rating must have met to be no
    longer provisional (``min_opponents``), and how recent a game keeps it on a leaderboard
    (``active_days``)."""
    return {
        "start": round(ordinal(NEW_MU, NEW_SIGMA), 2),
        "levels": {level: round(ordinal(mu, sigma), 2) for level, (mu, sigma) in BOT_RATINGS.items()},
        "min_opponents": MIN_OPPONENTS,
        "active_days": ACTIVE_DAYS,
    }


def ranks(scores: list[int], winners: list[int]) -> list[int]:
    """Each seat's place in a finished game (1 best): the winners first, then by points, the
    most first; equal points share a place."""
    keys = [(seat not in winners, -score) for seat, score in enumerate(scores)]
    return [1 + sum(other < key for other in keys) for key in keys]


def rate(seats: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """The new ``(mu, sigma)`` of each seat after a game in which they took ``places``:
    OpenSkill's Plackett-Luce model, one player a team."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in seats]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=[float(place) for place in places])]


def record_written(c: Connection, job: Append, now: float) -> None:
    """A game ended (its record is being written in this transaction, or the host closed it:
    ``job.forfeit``): update the ratings of its rated players when the room is public, the game
    was dealt from its variant's own cards (:func:`own_cards`), every seat was a rated person or
    a bot level and no two people shared an address."""
    game = job.record or job.forfeit
    if game is None or job.shared_address:
        return
    room = c.execute(select(rooms.c.public).where(rooms.c.code == job.room)).first()
    if room is None or not room.public:
        return
    record = json.loads(game[1])
    if not own_cards(record.get("options") or {}):
        return
    result = record.get("result") or {}
    seats, scores, winners = record.get("seats", []), result.get("scores", []), result.get("winners", [])
    if not result.get("over") or len(scores) != len(seats):
        return
    tokens = dict(job.game_seats)
    people: dict[int, str] = {}
    for index, seat in enumerate(seats):
        if seat.get("kind") == "bot" and seat.get("bot") in LEVELS:
            continue
        token = tokens.get(index)
        if token is None:
            return
        player = c.execute(
            select(rated_players.c.player)
            .join(room_players, room_players.c.player == rated_players.c.player)
            .where(room_players.c.room == job.room, room_players.c.token_hash == token)
        ).scalar()
        if player is None or player in people.values():
            return  # an unrated person, or one identity in two seats: not a rated game
        people[index] = player
    if not people:
        return
    variant, size = record.get("variant"), len(seats)
    before: list[tuple[float, float]] = []
    levels: dict[int, str] = {}
    for index, seat in enumerate(seats):
        if index in people:
            before.append(current(c, people[index], str(variant), size))
        else:
            before.append(BOT_RATINGS[seat["bot"]])
            levels[index] = f"bot:{seat['bot']}"
    settle(c, job, people, before, ranks(scores, winners), winners, str(variant), size, now, levels)


def own_cards(options: dict[str, Any]) -> bool:
    """Whether a game of ``options`` is dealt from its variant's own cards, as a rated game must
    be: no deck of the room's own (``deck``) and no launcher's script (``launcher_script``),
    whose order of cards a host would choose."""
    return not options.get("deck") and not options.get("launcher_script")


def current(c: Connection, player: str, variant: str, size: int) -> tuple[float, float]:
    """``player``'s ``(mu, sigma)`` in ``variant`` at tables of ``size`` (a new player's when none)."""
    row = c.execute(
        select(ratings.c.mu, ratings.c.sigma).where(
            ratings.c.player == player, ratings.c.variant == variant, ratings.c.players == size
        )
    ).first()
    return (row.mu, row.sigma) if row is not None else (NEW_MU, NEW_SIGMA)


def settle(
    c: Connection,
    job: Append,
    people: dict[int, str],
    before: list[tuple[float, float]],
    places: list[int],
    winners: list[int],
    variant: str,
    size: int,
    now: float,
    others: dict[int, str] | None = None,
) -> None:
    """Rate a finished game whose seats had ratings ``before`` and took ``places``: a seat of
    ``people`` that left (``job.left``) is placed below everyone who stayed; each of ``people``
    (seat to rated player) gets its new rating, a line of history and its opponents noted (the
    other seats' people, and ``others``: seat to ``bot:LEVEL``)."""
    game = job.record or job.forfeit
    assert game is not None
    places = list(places)
    for index in job.left:
        if index in people:
            places[index] = len(before) + 1  # a leaver: below everyone who stayed
    after = rate(before, places)
    mark = _marker(c, job)
    for index, player in people.items():
        mu, sigma = after[index]
        key = (ratings.c.player == player) & (ratings.c.variant == variant) & (ratings.c.players == size)
        changed = c.execute(
            update(ratings).where(key).values(mu=mu, sigma=sigma, games=ratings.c.games + 1, updated_at=now)
        )
        if changed.rowcount == 0:
            c.execute(
                insert(ratings).values(
                    player=player, variant=variant, players=size, mu=mu, sigma=sigma, games=1, updated_at=now
                )
            )
        c.execute(
            insert(rating_history).values(
                player=player,
                room=job.room,
                game_no=game[0],
                variant=variant,
                players=size,
                at=now,
                mu=mu,
                sigma=sigma,
                won=index in winners and index not in job.left,
                mu_before=before[index][0],
                sigma_before=before[index][1],
                opponents=json.dumps(
                    sorted(opponent for seat, opponent in {**people, **(others or {})}.items() if seat != index)
                ),
                address=mark(index),
                moves=job.standins[index][0] if index in job.standins else None,
                standins=job.standins[index][1] if index in job.standins else None,
            )
        )
        for seat, opponent in {**people, **(others or {})}.items():
            if seat == index:
                continue
            met = (
                (rating_opponents.c.player == player)
                & (rating_opponents.c.variant == variant)
                & (rating_opponents.c.players == size)
                & (rating_opponents.c.opponent == opponent)
            )
            if c.execute(select(rating_opponents.c.player).where(met)).first() is None:
                c.execute(
                    insert(rating_opponents).values(player=player, variant=variant, players=size, opponent=opponent)
                )


def _marker(c: Connection, job: Append) -> Callable[[int], str | None]:
    """What a seat's line of history keeps of its address: the mark of ``job.addresses[seat]``
    under the secret :data:`ADDRESS_SECRET`, or ``None`` (no secret yet, or an address this
    process never saw). The raw address is never written."""
    row = c.execute(select(server_secrets.c.secret).where(server_secrets.c.name == ADDRESS_SECRET)).first()
    if row is None or not job.addresses:
        return lambda seat: None
    key = bytes.fromhex(row.secret)
    return lambda seat: address_mark(key, job.addresses[seat]) if seat in job.addresses else None


# ---------------------------------------------------------------------- reading and choosing
def opt_in(store: Store, player: str, name: str) -> None:
    """Rate the identity ``player`` from its next public game on, under ``name`` (a name already
    checked); a second call changes the name."""
    with store.begin() as c:
        if c.execute(update(rated_players).where(rated_players.c.player == player).values(name=name)).rowcount == 0:
            c.execute(insert(rated_players).values(player=player, name=name, since=time.time()))


def forget_player(c: Connection, player: str) -> int:
    """Stop rating ``player`` and forget its ratings and their history; returns whether it was rated."""
    c.execute(delete(rating_history).where(rating_history.c.player == player))
    c.execute(delete(rating_opponents).where(rating_opponents.c.player == player))
    c.execute(delete(ratings).where(ratings.c.player == player))
    return int(c.execute(delete(rated_players).where(rated_players.c.player == player)).rowcount)


def forget_stale(c: Connection, stale: Any) -> None:
    """Forget the ratings of the identities ``stale`` (a subquery of ``--retain-players``)."""
    for table in (rating_history, rating_opponents, ratings, rated_players):
        c.execute(delete(table).where(table.c.player.in_(stale)))


def opt_out(store: Store, player: str) -> bool:
    """:func:`forget_player` in a transaction of its own."""
    with store.begin() as c:
        return forget_player(c, player) > 0


def provisional(sigma: float, opponents: int) -> bool:
    """Whether a rating of this ``sigma``, met against ``opponents`` different opponents, is
    still provisional (:data:`PROVISIONAL_SIGMA`, :data:`MIN_OPPONENTS`)."""
    return sigma > PROVISIONAL_SIGMA or opponents < MIN_OPPONENTS


def _met() -> Any:
    """How many different opponents each rating met (a correlated subquery of ``ratings``)."""
    return (
        select(func.count())
        .select_from(rating_opponents)
        .where(
            rating_opponents.c.player == ratings.c.player,
            rating_opponents.c.variant == ratings.c.variant,
            rating_opponents.c.players == ratings.c.players,
        )
        .scalar_subquery()
    )


def leaderboard(
    store: Store, variant: str, players: int, limit: int = BOARD_LIMIT, now: float | None = None
) -> list[dict[str, Any]]:
    """The rated players of ``variant`` at tables of ``players``, best first (by ordinal):
    those whose rating is no longer provisional and was moved by a game in the
    :data:`ACTIVE_DAYS` days before ``now``."""
    score = ratings.c.mu - 3.0 * ratings.c.sigma
    since = (time.time() if now is None else now) - ACTIVE_DAYS * 86400.0
    with store.begin() as c:
        rows = c.execute(
            select(rated_players.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .join(rated_players, rated_players.c.player == ratings.c.player)
            .where(ratings.c.variant == variant, ratings.c.players == players)
            .where(ratings.c.sigma <= PROVISIONAL_SIGMA, ratings.c.updated_at >= since, _met() >= MIN_OPPONENTS)
            .order_by(score.desc(), ratings.c.games.desc(), rated_players.c.name)
            .limit(limit)
        ).all()
    return [
        {
            "place": i,
            "name": row.name,
            "rating": round(ordinal(row.mu, row.sigma), 2),
            "mu": round(row.mu, 3),
            "sigma": round(row.sigma, 3),
            "games": row.games,
        }
        for i, row in enumerate(rows, start=1)
    ]


def mine(store: Store, player: str) -> dict[str, Any]:
    """The identity's choice (``rated``, ``name``), its ratings and their history, newest first,
    and what their numbers mean (``scale``, :func:`rating_scale`).
    A rating's ``reset`` is when the operator last put it back to a new player's (else
    ``None``); a line of history's ``annulled``, when the operator annulled that game (its
    change no longer counts in the rating; else ``None``)."""
    with store.begin() as c:
        chosen = c.execute(select(rated_players.c.name).where(rated_players.c.player == player)).first()
        current = c.execute(
            select(ratings, _met().label("opponents")).where(ratings.c.player == player).order_by(ratings.c.variant)
        ).all()
        history = c.execute(
            select(rating_history)
            .where(rating_history.c.player == player)
            .order_by(rating_history.c.at.desc())
            .limit(HISTORY_LIMIT)
        ).all()
    return {
        "rated": chosen is not None,
        "name": None if chosen is None else chosen.name,
        "scale": rating_scale(),
        "ratings": [
            {
                "variant": row.variant,
                "players": row.players,
                "rating": round(ordinal(row.mu, row.sigma), 2),
                "mu": round(row.mu, 3),
                "sigma": round(row.sigma, 3),
                "games": row.games,
                "opponents": row.opponents,
                "provisional": provisional(row.sigma, row.opponents),
                "reset": row.reset_at,
            }
            for row in current
        ],
        "history": [
            {
                "room": row.room,
                "game": row.game_no,
                "variant": row.variant,
                "players": row.players,
                "at": row.at,
                "rating": round(ordinal(row.mu, row.sigma), 2),
                "won": bool(row.won),
                "annulled": row.annulled,
            }
            for row in history
        ],
    }
