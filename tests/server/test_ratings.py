"""Ratings over the real server and database (``docs/ratings.md``): a public game of rated
people and a bot level moves their ratings exactly as ``openskill`` computes it, once; unrated
people are never on a leaderboard and make a game unrated; private rooms, engine bots and decks
of a room's own are not rated; leaving the ratings forgets them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from openskill.models import PlackettLuce

from unokit.record import GameRecord
from unokit.server.client import (
    RoomClient,
    ServerError,
    create_room,
    download_record,
    get_json,
    leaderboard,
    new_identity,
    play,
    ratings_join,
    ratings_leave,
    ratings_mine,
)
from unokit.server.features.ratings.skill import (
    ACTIVE_DAYS,
    BOT_RATINGS,
    MIN_OPPONENTS,
    NEW_MU,
    NEW_SIGMA,
    ranks,
)

from .support import FAST, ServerProcess, choose, run


def _game(
    server: ServerProcess,
    people: list[tuple[str, str]],
    bot: str,
    *,
    public: bool = True,
    options: dict[str, Any] | None = None,
) -> GameRecord:
    """``people`` (identity, name) and one ``bot`` play a one-hand classic game (of further
    ``options``), each person from an address of their own (``127.0.0.2``, ``127.0.0.3``, ...);
    its record."""

    async def body() -> str:
        room = create_room(
            server.url,
            "classic",
            len(people) + 1,
            options={"rounds": 1, **(options or {})},
            settings=FAST,
            public=public,
            bots=[bot],
        )
        clients = [
            await RoomClient.join(server.url, room["room"], name=n, player=p, source=f"127.0.0.{i + 2}")
            for i, (p, n) in enumerate(people)
        ]
        await clients[0].host("start", room["host_token"])
        finals = await asyncio.gather(*(play(client, choose) for client in clients))
        assert all(final["room"]["phase"] == "finished" for final in finals)
        for client in clients:
            await client.close()
        return str(room["room"])

    code = run(body)
    return GameRecord.loads(download_record(server.url, code, 1))


def _expected(record: GameRecord, before: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """OpenSkill's own computation for the game: one player a team, places from the result."""
    assert record.result is not None
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    places = [float(p) for p in ranks(record.result.scores, record.result.winners)]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=places)]


def _rating(server: ServerProcess, player: str, players: int = 3) -> dict[str, Any]:
    found = [r for r in ratings_mine(server.url, player)["ratings"] if r["players"] == players]
    assert len(found) == 1, found
    return dict(found[0])


def test_a_rated_public_game_moves_ratings_as_openskill_does(shared_server: ServerProcess) -> None:
    server = shared_server
    ann, ben, cid = new_identity(), new_identity(), new_identity()
    assert ratings_join(server.url, ann, "Ann R")["rated"]
    ratings_join(server.url, ben, "Ben R")
    record = _game(server, [(ann, "Ann"), (ben, "Ben")], "normal")
    after = _expected(record, [(NEW_MU, NEW_SIGMA), (NEW_MU, NEW_SIGMA), BOT_RATINGS["normal"]])
    for seat, player in enumerate((ann, ben)):
        mine = _rating(server, player)
        assert (mine["variant"], mine["players"], mine["games"]) == ("classic", 3, 1)
        assert mine["mu"] == pytest.approx(after[seat][0], abs=1e-3)
        assert mine["sigma"] == pytest.approx(after[seat][1], abs=1e-3)
        history = ratings_mine(server.url, player)["history"]
        assert [(h["game"], h["won"]) for h in history] == [(1, seat in record.result.winners)]  # type: ignore[union-attr]
        assert mine["provisional"] and mine["opponents"] == 2  # one game: provisional
    # a provisional rating is on no leaderboard (test_fair_play.py has more)
    assert not {"Ann R", "Ben R"} & {place["name"] for place in leaderboard(server.url, "classic", 3)}
    # a table of two is another rating, which starts new
    second = _game(server, [(ann, "Ann")], "expert")
    expected = _expected(second, [(NEW_MU, NEW_SIGMA), BOT_RATINGS["expert"]])
    duel = _rating(server, ann, 2)
    assert duel["mu"] == pytest.approx(expected[0][0], abs=1e-3) and duel["games"] == 1
    assert _rating(server, ann)["games"] == 1
    assert sorted(r["players"] for r in ratings_mine(server.url, ann)["ratings"]) == [2, 3]
    # an unrated person makes the game unrated, and is on no leaderboard
    games_before = _rating(server, ben)["games"]
    _game(server, [(ben, "Ben"), (cid, "Cid")], "normal")
    assert _rating(server, ben)["games"] == games_before
    unrated = ratings_mine(server.url, cid)
    assert {k: v for k, v in unrated.items() if k != "scale"} == {
        "rated": False,
        "name": None,
        "ratings": [],
        "history": [],
    }
    assert all(place["name"] not in ("Cid",) for place in leaderboard(server.url, "classic", 3))
    # private rooms, engine bots and a deck of the room's own are not rated
    _game(server, [(ann, "Ann"), (ben, "Ben")], "normal", public=False)
    _game(server, [(ann, "Ann"), (ben, "Ben")], "heuristic")
    assert _game(server, [(ann, "Ann"), (ben, "Ben")], "normal", options={"deck": ["15 x red 5", "15 x red 6"]}).result
    assert _rating(server, ben)["games"] == games_before
    # leaving the ratings forgets them
    assert ratings_leave(server.url, ben)
    assert "Ben R" not in [place["name"] for place in leaderboard(server.url, "classic", 3)]
    assert ratings_mine(server.url, ben)["rated"] is False


def test_a_rating_comes_with_what_its_number_means(shared_server: ServerProcess) -> None:
    """A rating of 0.3 said alone means nothing: My games' and every leaderboard's answer say
    where a new player starts, where each bot level sits (weakest first), and what leaves a
    rating provisional and keeps one on a leaderboard, from the ratings' own constants."""
    scale = ratings_mine(shared_server.url, new_identity())["scale"]
    assert scale["start"] == pytest.approx(NEW_MU - 3 * NEW_SIGMA, abs=0.01) == 0
    assert list(scale["levels"]) == list(BOT_RATINGS)
    assert scale["levels"] == {level: round(mu - 3 * sigma, 2) for level, (mu, sigma) in BOT_RATINGS.items()}
    assert list(scale["levels"].values()) == sorted(scale["levels"].values())  # weakest first
    assert (scale["min_opponents"], scale["active_days"]) == (MIN_OPPONENTS, ACTIVE_DAYS)
    board = get_json(shared_server.url, "/api/leaderboard?variant=flip&players=3")
    assert board["scale"] == scale


def test_bad_requests_are_refused_by_name(shared_server: ServerProcess) -> None:
    player = new_identity()
    cases: list[tuple[Callable[[], Any], str]] = [
        (lambda: leaderboard(shared_server.url, "classic", 11), "bad_request"),
        (lambda: leaderboard(shared_server.url, "nothing", 2), "bad_request"),
        (lambda: ratings_join(shared_server.url, player, ""), "bad_name"),
        (lambda: ratings_join(shared_server.url, player, "seat 3"), "bad_name"),
        (lambda: ratings_join(shared_server.url, "nope", "Ann"), "bad_player"),
    ]
    for call, code in cases:
        with pytest.raises(ServerError) as caught:
            call()
        assert caught.value.code == code, (code, caught.value)
    assert ratings_mine(shared_server.url, player)["rated"] is False


def test_a_rated_player_who_leaves_in_the_middle_loses(shared_server: ServerProcess) -> None:
    """A rated player leaves a game after it starts (her connection gone for good): the stand-in
    bot plays her seat to the end, and her rating counts the game as a loss even when the
    stand-in won it (new players until a stand-in wins, against a beginner: a few at most)."""
    server = shared_server
    settings = {**FAST, "grace_seconds": 0.2, "bot_seconds": 0.05}

    async def leave_early(player: str) -> str:
        room = create_room(
            server.url, "classic", 2, options={"rounds": 1}, settings=settings, public=True, bots=["beginner"]
        )
        me = await RoomClient.join(server.url, room["room"], name="Ann", player=player, reconnect=False)
        await me.host("start", room["host_token"])
        await me.wait_for(lambda s: s["room"]["phase"] == "playing", 30)
        await me.close()  # gone: after the grace, the stand-in plays her seat
        spectator = await RoomClient.join(server.url, room["room"], role="spectator")
        await spectator.wait_for(lambda s: s["room"]["phase"] == "finished", 120)
        await spectator.close()
        return str(room["room"])

    async def four_at_once(players: list[str]) -> list[str]:
        return list(await asyncio.gather(*(leave_early(player) for player in players)))

    for _ in range(3):  # up to 12 games, four at once (each a new identity)
        players = [new_identity() for _ in range(4)]
        for player in players:
            ratings_join(server.url, player, "Ann Leaves")
        codes = run(lambda: four_at_once(players))  # noqa: B023 - run at once
        won = []
        for player, code in zip(players, codes, strict=True):
            record = GameRecord.loads(download_record(server.url, code, 1))
            assert record.result is not None
            if record.result.winners == [0]:
                won.append(player)
        if won:
            ann = won[0]
            break
    else:
        pytest.fail("the stand-in never won against a beginner in 12 games")
    model = PlackettLuce()
    teams = [[model.rating(mu=NEW_MU, sigma=NEW_SIGMA)], [model.rating(*BOT_RATINGS["beginner"])]]
    lost = model.rate(teams, ranks=[2.0, 1.0])[0][0]
    mine = _rating(server, ann, 2)
    assert mine["mu"] == pytest.approx(lost.mu, abs=1e-3) and mine["sigma"] == pytest.approx(lost.sigma, abs=1e-3)
    assert mine["mu"] < NEW_MU
    assert ratings_mine(server.url, ann)["history"][0]["won"] is False
