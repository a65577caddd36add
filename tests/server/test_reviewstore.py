"""Reviews in the database follow their record and their identities (``docs/review.md``, "In the
browser", and ``docs/deployment.md``'s retention), on a real SQLite and a real PostgreSQL: "Forget
me" deletes the reviews of the identity's seats and those it asked for; the records' retention
deletes the reviews of the records it deletes; the migration that adds them goes up and down."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import insert, inspect, select

from unokit.server.features import store_hooks
from unokit.server.features.reviews import rows as reviewstore
from unokit.server.features.reviews.rows import ReviewKey, reviews
from unokit.server.storage import MIGRATIONS, Store, migrate, player_games, players, records, schema_revision


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    kept = Store(database, hooks=store_hooks())  # with every feature's rows, as a server has
    migrate(kept.engine)
    yield kept
    kept.close()


def _game(store: Store, room: str, game_no: int, at: float, seats: dict[int, str]) -> None:
    """A finished game's record and, for each seat played by an identity, its place in that
    identity's list of games."""
    with store.begin() as c:
        c.execute(insert(records).values(room=room, game_no=game_no, created_at=at, record="{}"))
        for seat, player in seats.items():
            if c.execute(select(players.c.player).where(players.c.player == player)).first() is None:
                c.execute(insert(players).values(player=player, created_at=at, last_seen=at))
            c.execute(
                insert(player_games).values(player=player, room=room, game_no=game_no, seat=seat, at=at, summary="{}")
            )


def _reviewed(store: Store, key: ReviewKey, asked_by: str) -> None:
    assert reviewstore.claim(store, key, asked_by, "node")
    assert reviewstore.finish(store, key, "node", {"format": "unokit-review/1", "seat": key.seat})


def _kept(store: Store) -> set[tuple[str, int, int]]:
    with store.begin() as c:
        return {
            (r.room, r.game_no, r.seat) for r in c.execute(select(reviews.c.room, reviews.c.game_no, reviews.c.seat))
        }


def test_forget_me_deletes_the_reviews_of_the_identitys_seats_and_those_it_asked_for(store: Store) -> None:
    now = time.time()
    _game(store, "ROOM", 1, now, {0: "ann", 1: "bob"})
    _game(store, "ROOM", 2, now, {0: "bob", 1: "cid"})
    _reviewed(store, ReviewKey("ROOM", 1, 0, "normal"), "ann")  # Ann's seat, asked by Ann
    _reviewed(store, ReviewKey("ROOM", 1, 1, "normal"), "ann")  # Bob's seat, asked by Ann
    _reviewed(store, ReviewKey("ROOM", 2, 0, "normal"), "cid")  # Bob's seat, asked by Cid
    _reviewed(store, ReviewKey("ROOM", 2, 1, "normal"), "cid")  # Cid's seat
    row = reviewstore.read(store, ReviewKey("ROOM", 1, 0, "normal"))
    assert row is not None and row.status == reviewstore.READY and row.body()["seat"] == 0
    store.forget_player("bob")
    assert _kept(store) == {("ROOM", 1, 0), ("ROOM", 2, 1)}
    store.forget_player("ann")
    assert _kept(store) == {("ROOM", 2, 1)}  # Cid's own stays


def test_identities_past_their_retention_take_their_reviews_with_them(store: Store) -> None:
    now = time.time()
    _game(store, "ROOM", 1, now - 100 * 86400, {0: "old"})
    _game(store, "ROOM", 2, now, {0: "new"})
    _reviewed(store, ReviewKey("ROOM", 1, 0, "normal"), "new")
    _reviewed(store, ReviewKey("ROOM", 2, 0, "normal"), "new")
    _reviewed(store, ReviewKey("ROOM", 2, 1, "normal"), "old")
    assert store.prune_players(now - 30 * 86400) == 1
    assert _kept(store) == {("ROOM", 2, 0)}


def test_the_records_retention_deletes_their_reviews(store: Store) -> None:
    now = time.time()
    _game(store, "OLD", 1, now - 100 * 86400, {})
    _game(store, "NEW", 1, now, {})
    for room in ("OLD", "NEW"):
        _reviewed(store, ReviewKey(room, 1, 0, "normal"), "ann")
        _reviewed(store, ReviewKey(room, 1, 0, "high"), "bob")
    pruned = store.upkeep.prune(now - 30 * 86400, now - 30 * 86400)
    assert pruned.records == 1
    assert _kept(store) == {("NEW", 1, 0)}
    assert reviewstore.read(store, ReviewKey("NEW", 1, 0, "high")) is not None


def test_the_migration_adds_the_reviews_and_takes_them_away(store: Store) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        assert inspect(connection).has_table("reviews")
        command.downgrade(config, "0007")
    with store.engine.begin() as connection:
        assert schema_revision(connection) == "0007"
        assert not inspect(connection).has_table("reviews")
        assert inspect(connection).has_table("records")  # the rest stays
    migrate(store.engine)
    _game(store, "ROOM", 1, time.time(), {})
    _reviewed(store, ReviewKey("ROOM", 1, 0, "normal"), "ann")
    assert _kept(store) == {("ROOM", 1, 0)}
