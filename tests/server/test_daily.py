"""The deal of the day over the real server and database (``docs/daily.md``): the same deal and
the same bot answers for everyone, one scored attempt per identity, the board, the day's games
sealed while it runs (no record, replay or other seat's review), a seed nobody computes without
the server's secret, and an attempt that survives ``kill -9`` and is counted once."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sqlite3
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from unokit.record import GameRecord, verify
from unokit.server.client import (
    RoomClient,
    ServerError,
    daily_board,
    daily_deals,
    daily_start,
    download_record,
    forget_me,
    my_games,
    new_identity,
    play,
)
from unokit.server.features.daily.deals import (
    DealSeeds,
    day_of,
    day_start,
    deal_seed,
    featured,
    next_rollover,
    parse_deal,
    streak,
)
from unokit.server.storage import Store

from .conftest import FAST_ARGS
from .support import PostgresCluster, ServerProcess, choose, free_port, run

#: The deals of this module's server: a duel against a bot of human habits, three seats, a
#: duel against a random bot, and one against an easy bot (the board of one network's attempts).
DEALS = [
    *("--daily", "classic:2:normal", "--daily", "classic:3:easy", "--daily", "classic:2:random"),
    *("--daily", "classic:2:easy"),
    *("--daily-bot-seconds", "0.05"),  # the host's bot pause, short for the tests
]
DUEL, TRIO, RANDOM, EASY = "classic-2-normal", "classic-3-easy", "classic-2-random", "classic-2-easy"


@pytest.fixture(scope="module")
def folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="unokit-daily-"))


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(f"sqlite:///{folder / 'server.db'}", free_port(), [*FAST_ARGS, *DEALS])
    process.start()
    yield process
    process.stop()


def last_legal(observation: dict[str, Any]) -> str:
    """Another deterministic player: the last legal action (draws before it plays)."""
    return str(observation["legal_actions"][-1])


async def _attempt(
    server: ServerProcess,
    player: str,
    deal: str,
    name: str,
    chooser: Callable[[dict[str, Any]], str] = choose,
    source: str = "127.0.0.1",
) -> tuple[dict[str, Any], GameRecord]:
    """``player`` plays its attempt at ``deal`` to the end, asked from the address ``source``."""
    started = daily_start(server.url, player, deal, source=source)
    client = await RoomClient.join(server.url, started["room"], name=name, player=player)
    final = await play(client, chooser, timeout=300)
    await client.close()
    assert final["room"]["phase"] == "finished"
    assert final["room"]["settings"]["bot_seconds"] == 0.05  # the host's --daily-bot-seconds
    assert final["room"]["sealed_until"] == _day_end(started["day"]), "sealed until the day ends"
    assert final["room"]["notes"] == ["daily.not_rated"], "its end says it is not rated"
    return started, _stored(server, started["room"])


def _day_end(day: str) -> float:
    """When the deals' day ``day`` ends (the server's rollover is midnight UTC)."""
    return day_start(dt.date.fromisoformat(day) + dt.timedelta(days=1))


def _asked(url: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """The status and JSON answer of a GET (or, with ``body``, a POST) of ``url``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def _stored(server: ServerProcess, room: str) -> GameRecord:
    """The record of ``room``'s first game as the database keeps it (the operator's copy: the
    server seals a daily game's while its day runs)."""
    store = Store(server.database)
    try:
        text = store.record(room, 1)
    finally:
        store.close()
    assert text is not None
    return GameRecord.loads(text)


def _human_moves(record: GameRecord) -> list[int]:
    """The indexes of the first seat's moves in ``record``."""
    return [i for i, (seat, _text) in enumerate(record.actions) if seat == 0]


def test_same_actions_meet_same_answers_one_scored_attempt_and_the_board(server: ServerProcess) -> None:
    ann, ben, cid = new_identity(), new_identity(), new_identity()

    async def body() -> tuple[Any, ...]:
        return tuple(
            await asyncio.gather(
                _attempt(server, ann, DUEL, "Ann", source="127.0.0.81"),
                _attempt(server, ben, DUEL, "Ben", source="127.0.0.82"),
                _attempt(server, cid, DUEL, "Cid", last_legal, source="127.0.0.83"),
            )
        )

    board_before = daily_board(server.url, DUEL, player=new_identity())
    (a_start, a_rec), (b_start, b_rec), (c_start, c_rec) = run(body)
    assert a_start["scored"] and b_start["scored"] and c_start["scored"]
    assert a_start["room"] != b_start["room"]
    # the same deal, the same actions: the same game, bot answers included
    assert a_rec.seed == b_rec.seed == c_rec.seed
    assert a_rec.actions == b_rec.actions and a_rec.result == b_rec.result
    for record in (a_rec, b_rec, c_rec):
        assert verify(record).ok
    # other actions: the same game up to the first difference
    first_diff = next(i for i, (x, y) in enumerate(zip(a_rec.actions, c_rec.actions, strict=False)) if x != y)
    assert a_rec.actions[first_diff][0] == 0, "the first difference is the person's, never a bot's"
    assert first_diff in _human_moves(a_rec)
    # one scored attempt: asking again gives practice, in another room, not counted
    again = daily_start(server.url, ann, DUEL)
    assert not again["scored"] and again["room"] != a_start["room"]
    board = daily_board(server.url, DUEL, player=ann)
    names = [row["name"] for row in board["results"]]
    assert sorted(names) == ["Ann", "Ben", "Cid"]
    ranked = [(not r["won"], -r["points"], r["seconds"]) for r in board["results"]]
    assert ranked == sorted(ranked)
    assert [r["rank"] for r in board["results"]] == [1, 2, 3]
    assert board["you"]["finished"] and board["you"]["streak"] == 1
    assert sum(r["you"] for r in board["results"]) == 1
    # the day's games stay sealed, to those who finished too: no game named until the day ends
    assert not board["replays"] and all("record" not in r for r in board["results"])
    # before one's own game: the board without the games, and no room named
    assert board_before["results"] == [] and not board_before["replays"]
    stranger = daily_board(server.url, DUEL, player=new_identity())
    assert len(stranger["results"]) == 3 and not stranger["replays"]
    assert all("record" not in r for r in stranger["results"])
    assert stranger["you"] == {"played": False, "finished": False, "room": None, "ranked": False, "streak": 0}
    # the other deal's board is apart
    assert daily_board(server.url, TRIO)["results"] == []


def test_only_an_addresss_first_attempt_ranks_and_the_others_are_shown_to_their_player(
    server: ServerProcess,
) -> None:
    """A scout plays the deal with a throwaway identity, then plays it again with another from
    the same address: the second attempt is scored for its player but does not rank; the board
    lists the scout alone, and shows the second player its own game, without a place, and says
    why. Another address's attempt ranks."""
    scout, again, elsewhere = new_identity(), new_identity(), new_identity()

    async def body() -> None:
        await _attempt(server, scout, EASY, "Scout", source="127.0.0.91")
        await _attempt(server, again, EASY, "Again", source="127.0.0.91")
        await _attempt(server, elsewhere, EASY, "Else", source="127.0.0.92")

    run(body)
    public = daily_board(server.url, EASY)
    assert sorted(row["name"] for row in public["results"]) == ["Else", "Scout"]
    assert sorted(row["rank"] for row in public["results"]) == [1, 2]
    assert all(row["ranked"] for row in public["results"])
    seen = daily_board(server.url, EASY, player=again)
    assert seen["you"]["finished"] and not seen["you"]["ranked"]
    assert [row["name"] for row in seen["results"]][-1] == "Again"
    mine = seen["results"][-1]
    assert mine["you"] and mine["rank"] is None and not mine["ranked"] and "record" not in mine
    assert sorted(row["rank"] for row in seen["results"][:-1]) == [1, 2]
    assert daily_board(server.url, EASY, player=scout)["you"]["ranked"]
    assert daily_board(server.url, EASY, player=elsewhere)["you"]["ranked"]


def test_the_days_games_are_sealed_while_it_runs_but_its_player_has_the_review(server: ServerProcess) -> None:
    """A scout finishes the deal and asks for what would tell the next player the deck: its
    record (the seed), the replay (every hand at every step), another seat's review; each is
    refused ``sealed``, saying when the day ends. Only the review of its own seat (made from what
    it saw) is given; My games says until when the game is sealed. (The seal's end, and rooms
    that are not sealed: ``test_daily_seal.py``.)"""
    scout, other = new_identity(), new_identity()
    started, _record = run(lambda: _attempt(server, scout, TRIO, "Scout", source="127.0.0.93"))
    room, when = started["room"], dt.datetime.fromtimestamp(_day_end(started["day"]), dt.UTC)
    base = f"{server.url}/api/rooms/{room}/records/1"
    with pytest.raises(ServerError) as record:
        download_record(server.url, room, 1)
    assert record.value.code == "sealed"
    asked = {
        "record": _asked(base),
        "replay": _asked(f"{base}/replay?step=0"),
        "replay of the scout's seat": _asked(f"{base}/replay?step=3&seat=0"),
        "review of a bot's seat": _asked(f"{base}/review", {"player": scout, "seat": 1}),
        "review by a stranger": _asked(f"{base}/review", {"player": other, "seat": 0}),
    }
    for what, (status, answer) in asked.items():
        assert (status, answer["error"]) == (403, "sealed"), what
        assert answer["params"] == {"until": when.strftime("%Y-%m-%d %H:%M UTC")}, what
        assert "seed" not in json.dumps(answer), what
    status, review = _asked(f"{base}/review", {"player": scout, "seat": 0})
    assert status in (200, 202) and review["status"] in ("ready", "working")
    games = [game for game in my_games(server.url, scout) if game["room"] == room]
    assert [game["sealed_until"] for game in games] == [_day_end(started["day"])]


def test_an_attempt_asked_for_again_before_its_end_is_the_same_room(server: ServerProcess) -> None:
    dee = new_identity()
    first = daily_start(server.url, dee, TRIO)
    again = daily_start(server.url, dee, TRIO)
    assert first["scored"] and again["scored"] and again.get("resumed")
    assert again["room"] == first["room"]
    mine = daily_board(server.url, TRIO, player=dee)["you"]
    assert mine == {"played": True, "finished": False, "room": first["room"], "ranked": False, "streak": 0}


def test_bad_requests_are_refused_by_name(server: ServerProcess) -> None:
    player = new_identity()
    cases: list[tuple[Callable[[], Any], str]] = [
        (lambda: daily_start(server.url, player, "classic-9-nobody"), "no_deal"),
        (lambda: daily_start(server.url, "not-an-identity", DUEL), "bad_player"),
        (lambda: daily_start(server.url, player, DUEL, lang="xx"), "bad_request"),
        (lambda: daily_board(server.url, DUEL, day="yesterday"), "bad_request"),
        (lambda: daily_board(server.url, DUEL, day="2999-01-01"), "bad_request"),
        (lambda: daily_board(server.url, "nope"), "no_deal"),
    ]
    for call, code in cases:
        with pytest.raises(ServerError) as caught:
            call()
        assert caught.value.code == code, (code, caught.value)
    assert daily_board(server.url, DUEL, player=player)["you"]["played"] is False


def test_today_lists_the_hosts_deals_and_the_next_day(server: ServerProcess) -> None:
    today = daily_deals(server.url)
    assert [d["deal"] for d in today["deals"]] == [DUEL, TRIO, RANDOM, EASY]
    assert today["deals"][1] == {
        "deal": TRIO,
        "variant": "classic",
        "players": 3,
        "bots": "easy",
        "options": {"rounds": 1},
    }
    assert today["day"] == dt.datetime.now(dt.UTC).date().isoformat() or today["next_day_at"] > 0


def test_the_seed_is_the_servers_secret_and_the_date(folder: Path, server: ServerProcess, tmp_path: Path) -> None:
    """Another server (another secret) deals another game the same day; the deal is the
    HMAC of the secret kept in the database and the date, so without it nothing says which."""
    player = new_identity()
    started = daily_start(server.url, player, DUEL)
    other = ServerProcess(f"sqlite:///{tmp_path / 'other.db'}", free_port(), [*FAST_ARGS, *DEALS])
    other.start()
    try:
        elsewhere = daily_start(other.url, player, DUEL)

        async def body() -> tuple[GameRecord, GameRecord]:
            here = await RoomClient.join(server.url, started["room"], name="Eve", player=player)
            there = await RoomClient.join(other.url, elsewhere["room"], name="Eve", player=player)
            for client in (here, there):
                await client.wait_for(lambda s: s["room"]["phase"] == "playing", 30)
            finals = await asyncio.gather(play(here, choose), play(there, choose))
            assert all(f["room"]["phase"] == "finished" for f in finals)
            await here.close()
            await there.close()
            return (
                _stored(server, started["room"]),
                _stored(other, elsewhere["room"]),
            )

        mine, theirs = run(body)
    finally:
        other.stop()
    assert mine.seed != theirs.seed
    with sqlite3.connect(folder / "server.db") as db:
        (secret,) = db.execute("SELECT secret FROM daily_secrets WHERE name = 'daily'").fetchone()
    day = dt.date.fromisoformat(started["day"])
    assert deal_seed(bytes.fromhex(secret), day, DUEL) == mine.seed
    assert deal_seed(bytes.fromhex(secret), day + dt.timedelta(days=1), DUEL) != mine.seed


def test_a_new_day_new_deals_and_the_rollover_hour() -> None:
    seeds = {DealSeeds(b"k" * 32, f"2026-11-{d:02d}", "classic-2-expert").start() for d in range(1, 29)}
    assert len(seeds) == 28
    assert DealSeeds(b"a" * 32, "2026-11-27", "x").start() != DealSeeds(b"b" * 32, "2026-11-27", "x").start()
    noon = dt.datetime(2026, 11, 27, 12, tzinfo=dt.UTC).timestamp()
    early = dt.datetime(2026, 11, 27, 3, tzinfo=dt.UTC).timestamp()
    assert day_of(noon) == dt.date(2026, 11, 27)
    assert day_of(early, 6) == dt.date(2026, 11, 26)  # the day begins at 06:00 UTC
    assert next_rollover(early, 6) == dt.datetime(2026, 11, 27, 6, tzinfo=dt.UTC).timestamp()
    days = [featured(dt.date(2026, 11, 27) + dt.timedelta(days=i))[2].key for i in range(5)]
    assert len(set(days)) == 5, "the third deal changes every day"


def test_streaks_and_deal_specs() -> None:
    today = dt.date(2026, 11, 27)
    assert streak(["2026-11-27", "2026-11-26", "2026-11-24"], today) == 2
    assert streak(["2026-11-26", "2026-11-25"], today) == 2  # today's still to play
    assert streak(["2026-11-25"], today) == 0
    deal = parse_deal("classic:4:hard:stacking=true")
    assert (deal.variant, deal.players, deal.level, deal.options) == (
        "classic",
        4,
        "hard",
        {"rounds": 1, "stacking": True},
    )
    for bad in ("classic", "classic:x:hard", "classic:2:wizard", "classic:2:hard:stacking"):
        with pytest.raises(ValueError):
            parse_deal(bad)


def test_kill_9_in_the_middle_of_an_attempt_it_goes_on_the_same_and_counts_once(
    database: str, make_server: Callable[..., ServerProcess]
) -> None:
    """One identity plays the deal straight through; another plays it the same way with the
    server killed (``kill -9``) and restarted in the middle: the same game, bot answers
    included (a bot's decisions are seeded by the deal and the moves, not by how long its
    process has run), counted once."""
    server = make_server(database, "--lease", "2", *DEALS)
    straight, killed = new_identity(), new_identity()

    async def body() -> tuple[GameRecord, str, RoomClient]:
        _started, first = await _attempt(server, straight, RANDOM, "Gus")
        started = daily_start(server.url, killed, RANDOM, source="127.0.0.84")
        me = await RoomClient.join(server.url, started["room"], name="Fay", player=killed, keep=True)
        game = asyncio.create_task(play(me, choose, timeout=300))
        await me.wait_for(lambda s: s["room"]["phase"] == "playing" and s["game_step"] >= 4, 120)
        server.kill()  # kill -9, mid-attempt
        await asyncio.sleep(0.3)
        server.start()
        final = await game
        await me.close()
        assert final["room"]["phase"] == "finished"
        return first, str(started["room"]), me

    first, room, me = run(body)
    assert me.reconnects >= 1
    record = _stored(server, room)
    assert verify(record).ok
    assert record.actions == first.actions and record.seed == first.seed
    board = daily_board(server.url, RANDOM, player=killed)
    assert sorted(r["name"] for r in board["results"]) == ["Fay", "Gus"]
    assert board["you"]["finished"]
    # asked again: practice, and the board still counts one each
    assert daily_start(server.url, killed, RANDOM)["scored"] is False
    assert len(daily_board(server.url, RANDOM)["results"]) == 2
    assert forget_me(server.url, killed) >= 1
    assert [r["name"] for r in daily_board(server.url, RANDOM)["results"]] == ["Gus"]


def test_a_postgresql_takeover_in_the_middle_of_an_attempt_it_goes_on_the_same_and_counts_once(
    postgres: PostgresCluster, make_server: Callable[..., ServerProcess]
) -> None:
    """Two processes on one PostgreSQL database: the process that runs a daily attempt is killed
    in the middle, the other takes the room over, and the game ends as one played straight
    through (the secret is the database's, so both processes deal the same), counted once."""
    database = postgres.new_database()
    launched = [make_server(database, "--lease", "2", *DEALS, wait=False) for _ in range(2)]
    first, second = (server.wait() for server in launched)
    straight, moved = new_identity(), new_identity()

    async def body() -> tuple[GameRecord, str, RoomClient]:
        # Gus plays the deal straight through on the process that stays, meanwhile.
        reference_game = asyncio.create_task(_attempt(second, straight, RANDOM, "Gus"))
        started = daily_start(first.url, moved, RANDOM, source="127.0.0.85")
        me = await RoomClient.join([first.url, second.url], started["room"], name="Hal", player=moved, keep=True)
        game = asyncio.create_task(play(me, choose, timeout=300))
        await me.wait_for(lambda s: s["room"]["phase"] == "playing" and s["game_step"] >= 4, 120)
        first.kill()  # the owner dies; the second process takes the attempt over
        final = await game
        await me.close()
        assert final["room"]["phase"] == "finished"
        _started, reference = await reference_game
        return reference, str(started["room"]), me

    reference, room, me = run(body)
    assert me.reconnects >= 1
    record = _stored(second, room)
    assert record.actions == reference.actions and record.seed == reference.seed
    board = daily_board(second.url, RANDOM, player=moved)
    assert sorted(r["name"] for r in board["results"]) == ["Gus", "Hal"] and board["you"]["finished"]
