"""Signals for the operator (``docs/ratings.md``, "Signals for the operator"): lopsided pairs,
identities of one address, games a stand-in mostly played; annulling a rated game and
resetting a rating, told to the player; on the store, through ``unokit admin`` on a real SQLite
database, through ``/api/admin`` in process, and the marks a real server's games leave."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import insert, select

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.cli import main
from unokit.record import GameRecord, RecordingGame, Seat
from unokit.server.client import new_identity, ratings_join
from unokit.server.features import store_hooks
from unokit.server.features.ratings.signals import PAIR_GAMES, SIGNAL_DAYS, annul, reset_rating, suspicious
from unokit.server.features.ratings.skill import (
    ADDRESS_SECRET,
    NEW_MU,
    NEW_SIGMA,
    mine,
    opt_in,
    rating_history,
    rating_opponents,
    ratings,
)
from unokit.server.peers import identity_hash
from unokit.server.room import RoomError
from unokit.server.storage import Append, Store, Writer, metadata, migrate
from unokit.server.vault import address_mark, secret, server_secrets

from .inprocess import in_process
from .support import ServerProcess
from .test_ratings import _game


def _record() -> tuple[str, int]:
    """A real finished two-seat game's record (both seats people) and the seat that won it."""

    game, _ = RecordingGame.new("classic", 2, seed=7, rounds=1)
    play_game(game, [make_bot("normal", 1), make_bot("normal", 2)])
    record = game.to_record([Seat("A", "human"), Seat("B", "human")])
    assert record.result is not None and len(record.result.winners) == 1
    return record.dumps(), record.result.winners[0]


RECORD, WINNER = _record()


class Games:
    """Rated duels written through the store's own write (its hooks, ``record_written``)."""

    def __init__(self, store: Store, prefix: str = "R") -> None:
        self.store = store
        self.writer = Writer(store)
        self.rooms = 0
        self.prefix = prefix  # room codes PREFIX0001...: a 0 is never in a server's codes

    def player(self, name: str) -> str:
        """A new rated identity's hash."""
        player = identity_hash(new_identity())
        opt_in(self.store, player, name)
        return player

    def duel(
        self,
        winner: str,
        loser: str,
        *,
        addresses: tuple[str, str] = ("", ""),
        standins: tuple[tuple[int, int], tuple[int, int]] = ((10, 0), (10, 0)),
        public: bool = True,
    ) -> str:
        """A public duel ``winner`` wins against ``loser`` (from ``addresses``, ``""``: never
        seen; the seats' ``(moves, stand-in moves)`` ``standins``); its room's code."""
        self.rooms += 1
        code = f"{self.prefix}{self.rooms:04d}"
        assert self.store.create_room(code, {"variant": "classic"}, "hash", public=public)
        seats = {WINNER: winner, 1 - WINNER: loser}
        marks = {WINNER: addresses[0], 1 - WINNER: addresses[1]}
        moves = {WINNER: standins[0], 1 - WINNER: standins[1]}
        for seat, player in seats.items():
            self.store.link_player(code, f"{code}-token-{seat}", player)
        job = Append(
            code,
            0,
            [{"type": "start", "seed": 1}],
            record=(1, RECORD),
            game_seats=[(seat, f"{code}-token-{seat}") for seat in seats],
            addresses={seat: address for seat, address in marks.items() if address},
            standins=moves,
        )
        assert self.writer.commit([job]) == [None]
        return code


@pytest.fixture
def games(tmp_path: Path) -> Iterator[Games]:
    store = Store(f"sqlite:///{tmp_path / 'server.db'}", hooks=store_hooks())
    migrate(store.engine)
    made = Games(store)
    try:
        yield made
    finally:
        made.writer.stop()
        store.close()


def _rating(store: Store, player: str) -> dict[str, Any]:
    found = mine(store, player)["ratings"]
    assert len(found) == 1, found
    return dict(found[0])


def _tables(store: Store) -> dict[str, list[Any]]:
    """Every row of every table, to show that a refusal changed nothing."""
    with store.begin() as c:
        return {
            name: sorted(map(tuple, c.execute(select(table)).all()), key=repr)
            for name, table in metadata.tables.items()
        }


def test_the_signals_list_what_passes_their_thresholds_only(games: Games) -> None:
    secret(games.store, ADDRESS_SECRET)  # as the ratings' server makes it at start
    ann, ben, cid, dan, eve, fay = (games.player(n) for n in ("Ann", "Ben", "Cid", "Dan", "Eve", "Fay"))
    for _ in range(PAIR_GAMES):  # Ann always beats Ben: listed
        games.duel(ann, ben, addresses=("10.0.0.1", "10.0.0.2"))
    for _ in range(PAIR_GAMES - 1):  # one game too few: not listed
        games.duel(cid, dan, addresses=("10.0.0.3", "10.0.0.4"))
    for n in range(PAIR_GAMES):  # Eve wins 7 of 10, under the share: not listed
        games.duel(*((eve, fay) if n < 7 else (fay, eve)))
    games.duel(cid, eve, addresses=("10.0.0.1", ""))  # Cid at another table from Ann's address
    games.duel(dan, fay, standins=((10, 6), (10, 5)))  # over half of Dan's; Fay's half is not over
    found = suspicious(games.store)
    assert [(p["winner"]["name"], p["loser"]["name"], p["games"], p["won"]) for p in found["pairs"]] == [
        ("Ann", "Ben", PAIR_GAMES, PAIR_GAMES)
    ]
    assert [
        [(i["name"], i["games"]) for i in sorted(a["identities"], key=lambda i: i["name"])] for a in found["addresses"]
    ] == [[("Ann", PAIR_GAMES), ("Cid", 1)]]
    mark = address_mark(secret(games.store, ADDRESS_SECRET), "10.0.0.1")
    assert found["addresses"][0]["mark"] == mark
    assert [(g["name"], g["moves"], g["standins"], g["won"]) for g in found["standins"]] == [("Dan", 10, 6, True)]
    # the addresses themselves are nowhere in the database
    assert "10.0.0." not in json.dumps(_tables(games.store), default=str)
    # an annulled game is no signal any more
    annul(games.store, found["standins"][0]["room"], 1)
    assert suspicious(games.store)["standins"] == []


def test_without_the_secret_a_game_keeps_no_mark(games: Games) -> None:
    ann, ben = games.player("Ann"), games.player("Ben")
    games.duel(ann, ben, addresses=("10.0.0.1", "10.0.0.2"))
    with games.store.begin() as c:
        assert c.execute(select(server_secrets)).all() == []
        assert c.execute(select(rating_history.c.address)).scalars().all() == [None, None]


def test_the_retention_clears_marks_older_than_the_signals_look(games: Games) -> None:
    secret(games.store, ADDRESS_SECRET)
    ann, ben = games.player("Ann"), games.player("Ben")
    old, new = (
        games.duel(ann, ben, addresses=("10.0.0.1", "10.0.0.2")),
        games.duel(ann, ben, addresses=("10.0.0.1", "10.0.0.2")),
    )
    with games.store.begin() as c:
        c.execute(
            rating_history.update()
            .where(rating_history.c.room == old)
            .values(at=time.time() - (SIGNAL_DAYS + 1) * 86400.0)
        )
    games.store.upkeep.prune(0.0, 0.0)  # prunes no room nor record: only the marks' own retention
    with games.store.begin() as c:
        kept = {(line.room, line.address is not None) for line in c.execute(select(rating_history))}
    assert kept == {(old, False), (new, True)}
    assert len(mine(games.store, ann)["history"]) == 2  # the lines themselves stay


def test_annulling_takes_the_games_change_back_once_and_tells_the_players(games: Games) -> None:
    ann, ben, cid = games.player("Ann"), games.player("Ben"), games.player("Cid")
    games.duel(ann, ben)
    after_first = _rating(games.store, ann)
    ben_first = _rating(games.store, ben)
    second = games.duel(ann, cid)
    moved = _rating(games.store, ann)
    assert moved["mu"] != after_first["mu"] and moved["opponents"] == 2
    done = annul(games.store, second, 1)
    assert sorted(p["name"] for p in done["players"]) == ["Ann", "Cid"]
    back = _rating(games.store, ann)
    assert back["mu"] == pytest.approx(after_first["mu"], abs=1e-3)
    assert back["sigma"] == pytest.approx(after_first["sigma"], abs=1e-3)
    assert (back["games"], back["opponents"]) == (1, 1)  # Cid, met only there, no longer counts
    assert _rating(games.store, ben) == ben_first  # not in that game
    assert mine(games.store, cid)["ratings"] == []  # Cid's only game: a new player again
    history = mine(games.store, ann)["history"]
    assert [(h["room"], h["annulled"] is not None) for h in history] == [(second, True), ("R0001", False)]
    assert mine(games.store, cid)["history"][0]["annulled"] is not None
    meta = GameRecord.loads(str(games.store.record(second, 1))).meta
    assert meta["annulled"]["players"] == 2
    assert "annulled" not in GameRecord.loads(str(games.store.record("R0001", 1))).meta
    # twice, unknown, unrated: each its own refusal, nothing changed
    private = games.duel(ann, ben, public=False)
    before = _tables(games.store)
    for room, game, code in (
        (second, 1, "annulled"),
        ("NOPE", 1, "no_game"),
        (second, 2, "no_game"),
        (private, 1, "not_rated"),
    ):
        with pytest.raises(RoomError) as refused:
            annul(games.store, room, game)
        assert refused.value.code == code, (room, game)
    assert _tables(games.store) == before


def test_annulling_a_line_from_before_revision_0014_takes_the_line_before_it(games: Games) -> None:
    ann, ben = games.player("Ann"), games.player("Ben")
    games.duel(ann, ben)
    first = _rating(games.store, ann)
    second = games.duel(ann, ben)
    with games.store.begin() as c:  # as an older server wrote it
        c.execute(
            rating_history.update()
            .where(rating_history.c.room == second)
            .values(mu_before=None, sigma_before=None, opponents=None)
        )
    annul(games.store, second, 1)
    back = _rating(games.store, ann)
    assert (back["mu"], back["games"], back["opponents"]) == (pytest.approx(first["mu"], abs=1e-3), 1, 1)


def test_a_reset_puts_a_rating_back_to_a_new_players_and_says_when(games: Games) -> None:
    ann, ben = games.player("Ann"), games.player("Ben")
    first = games.duel(ann, ben)
    with games.store.begin() as c:
        c.execute(
            insert(ratings).values(player=ann, variant="flip", players=3, mu=31.0, sigma=4.0, games=9, updated_at=1.0)
        )
    done = reset_rating(games.store, ann, "classic")
    assert done["reset"] == [{"variant": "classic", "players": 2}]
    found = {r["variant"]: r for r in mine(games.store, ann)["ratings"]}
    assert (found["classic"]["mu"], found["classic"]["sigma"], found["classic"]["games"]) == (
        round(NEW_MU, 3),
        round(NEW_SIGMA, 3),
        0,
    )
    assert found["classic"]["reset"] >= mine(games.store, ann)["history"][0]["at"]
    assert found["classic"]["opponents"] == 0
    assert (found["flip"]["mu"], found["flip"]["reset"]) == (31.0, None)
    with games.store.begin() as c:
        assert c.execute(select(rating_opponents).where(rating_opponents.c.player == ann)).all() == []
    # a game from before the reset, annulled, leaves the reset rating as it is
    annul(games.store, first, 1)
    assert {r["variant"]: r["mu"] for r in mine(games.store, ann)["ratings"]}["classic"] == round(NEW_MU, 3)
    before = _tables(games.store)
    for player, variant, code in ((identity_hash(new_identity()), None, "not_rated"), (ann, "nothing", "no_rating")):
        with pytest.raises(RoomError) as refused:
            reset_rating(games.store, player, variant)
        assert refused.value.code == code
    assert _tables(games.store) == before


def _admin(database: str, *args: str) -> Any:
    return CliRunner().invoke(main, ["admin", "--database", database, *args])


def test_the_admin_commands_on_a_real_database(games: Games, tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'server.db'}"
    ann, ben = games.player("Ann"), games.player("Ben")
    rooms = [games.duel(ann, ben) for _ in range(PAIR_GAMES)]
    listed = _admin(database, "suspicious", "--json")
    assert listed.exit_code == 0, listed.output
    pairs = json.loads(listed.output)["pairs"]
    assert [(p["winner"]["player"], p["loser"]["player"]) for p in pairs] == [(ann, ben)]
    human = _admin(database, "suspicious")
    assert human.exit_code == 0 and f"Ann ({ann[:12]}) beat Ben ({ben[:12]})" in human.output, human.output
    done = _admin(database, "annul", rooms[0].lower(), "1")
    assert done.exit_code == 0 and f"game 1 of room {rooms[0]} annulled for 2 rated players" in done.output
    assert _rating(games.store, ann)["games"] == PAIR_GAMES - 1
    again = _admin(database, "annul", rooms[0], "1")
    assert again.exit_code == 1 and "annulled already" in again.output and "Traceback" not in again.output
    unknown = _admin(database, "annul", "NOPE", "3")
    assert unknown.exit_code == 1 and "there is no game 3 of room NOPE" in unknown.output
    reset = _admin(database, "reset-rating", ann, "--variant", "classic", "--players", "2")
    assert reset.exit_code == 0 and "1 ratings reset" in reset.output, reset.output
    assert _rating(games.store, ann)["games"] == 0
    nobody = _admin(database, "reset-rating", identity_hash(new_identity()))
    assert nobody.exit_code == 1 and "is not rated" in nobody.output
    bad = _admin(database, "reset-rating", "not a hash!")
    assert bad.exit_code == 2 and "is not an identity's hash" in bad.output


def test_the_admin_api_needs_the_token_and_tells_the_player(tmp_path: Path) -> None:
    with in_process(tmp_path, admin_token="the-token") as app:
        store = Store(f"sqlite:///{tmp_path / 'server.db'}", hooks=store_hooks())
        games = Games(store)
        try:
            with store.begin() as c:  # the server made the secret at start
                assert c.execute(select(server_secrets.c.name).where(server_secrets.c.name == ADDRESS_SECRET)).first()
            me = new_identity()
            app.client.post("/api/ratings/join", json={"player": me, "name": "Ann"}).raise_for_status()
            ann, ben = identity_hash(me), games.player("Ben")
            room = games.duel(ann, ben, addresses=("10.0.0.1", "10.0.0.2"))
            token = {"Authorization": "Bearer the-token"}
            assert app.client.get("/api/admin/suspicious").status_code == 403
            assert app.client.post("/api/admin/annul", json={"room": room, "game": 1}).status_code == 403
            listed = app.client.get("/api/admin/suspicious", headers=token).json()
            assert listed["thresholds"]["pair_games"] == PAIR_GAMES and listed["pairs"] == []
            annulled = app.client.post("/api/admin/annul", json={"room": room, "game": 1}, headers=token)
            assert annulled.status_code == 200, annulled.text
            again = app.client.post("/api/admin/annul", json={"room": room, "game": 1}, headers=token)
            assert (again.status_code, again.json()["error"]) == (409, "annulled")
            bad = app.client.post("/api/admin/annul", json={"room": room, "game": "1"}, headers=token)
            assert (bad.status_code, bad.json()["error"]) == (400, "bad_request")
            history = app.client.post("/api/ratings/mine", json={"player": me}).json()["history"]
            assert history[0]["annulled"] is not None
            games.duel(ann, ben)
            reset = app.client.post("/api/admin/reset-rating", json={"player": ann}, headers=token)
            assert reset.status_code == 200 and reset.json()["reset"] == [{"variant": "classic", "players": 2}]
            told = app.client.post("/api/ratings/mine", json={"player": me}).json()["ratings"]
            assert told[0]["reset"] is not None and told[0]["games"] == 0
            missing = app.client.post("/api/admin/reset-rating", json={"player": "x" * 64}, headers=token)
            assert (missing.status_code, missing.json()["error"]) == (409, "not_rated")
        finally:
            games.writer.stop()
            store.close()


def test_a_real_servers_rated_game_keeps_marks_moves_and_the_rating_before(shared_server: ServerProcess) -> None:
    ann, ben = new_identity(), new_identity()
    ratings_join(shared_server.url, ann, "Ann Marks")
    ratings_join(shared_server.url, ben, "Ben Marks")
    _game(shared_server, [(ann, "Ann"), (ben, "Ben")], "normal")
    store = Store(shared_server.database)
    try:
        with store.begin() as c:
            key = bytes.fromhex(
                c.execute(select(server_secrets.c.secret).where(server_secrets.c.name == ADDRESS_SECRET)).scalar_one()
            )
            lines = {
                line.player: line
                for line in c.execute(
                    select(rating_history).where(rating_history.c.player.in_([identity_hash(ann), identity_hash(ben)]))
                )
            }
    finally:
        store.close()
    first, second = lines[identity_hash(ann)], lines[identity_hash(ben)]
    # _game seats them from 127.0.0.2 and 127.0.0.3
    assert (first.address, second.address) == (address_mark(key, "127.0.0.2"), address_mark(key, "127.0.0.3"))
    assert (first.mu_before, first.sigma_before) == (NEW_MU, NEW_SIGMA)
    assert json.loads(first.opponents) == sorted([identity_hash(ben), "bot:normal"])
    assert first.moves > 0 and first.standins == 0 and first.annulled is None


def test_the_admin_commands_through_a_running_server(make_server: Callable[..., ServerProcess], tmp_path: Path) -> None:
    (tmp_path / "token").write_text("signals-admin-token")
    database = f"sqlite:///{tmp_path / 'through.db'}"
    server = make_server(database, "--admin-token-file", str(tmp_path / "token"))
    where = ["admin", "--server", server.url, "--token-file", str(tmp_path / "token")]
    store = Store(database, hooks=store_hooks())
    games = Games(store)
    try:
        ann, ben = games.player("Ann"), games.player("Ben")
        rooms = [games.duel(ann, ben) for _ in range(PAIR_GAMES)]
        listed = CliRunner().invoke(main, [*where, "suspicious", "--json"])
        assert listed.exit_code == 0, listed.output
        assert [(p["winner"]["player"], p["games"]) for p in json.loads(listed.output)["pairs"]] == [(ann, PAIR_GAMES)]
        done = CliRunner().invoke(main, [*where, "annul", rooms[0], "1"])
        assert done.exit_code == 0 and "annulled for 2 rated players" in done.output, done.output
        again = CliRunner().invoke(main, [*where, "annul", rooms[0], "1"])
        assert again.exit_code == 1 and "the server refused" in again.output and "annulled already" in again.output
        reset = CliRunner().invoke(main, [*where, "reset-rating", ben, "--players", "2"])
        assert reset.exit_code == 0 and "Ben" in reset.output, reset.output
        assert _rating(store, ben)["reset"] is not None and _rating(store, ann)["games"] == PAIR_GAMES - 1
    finally:
        games.writer.stop()
        store.close()
