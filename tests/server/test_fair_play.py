"""Fair play over the real server and database (``docs/ratings.md``): two identities of one
address are not rated together, and the lobby says so before the game; a new rating is
provisional and off the leaderboard; a host who closes a live rated game loses it; a stand-in
that plays a share of a person's moves makes the game theirs to lose, and plays at a rated
table at the fixed level whatever the host set."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert

from unokit.server.client import (
    RoomClient,
    ServerError,
    create_room,
    leaderboard,
    my_games,
    new_identity,
    play,
    ratings_join,
    ratings_mine,
)
from unokit.server.features.ratings.skill import (
    ACTIVE_DAYS,
    BOT_RATINGS,
    MIN_OPPONENTS,
    NEW_MU,
    NEW_SIGMA,
    PROVISIONAL_SIGMA,
    rating_opponents,
    ratings,
)
from unokit.server.peers import identity_hash
from unokit.server.room import RATED_STANDIN, SeatState
from unokit.server.storage import Store

from .support import FAST, ServerProcess, choose, run


def _duels(server: ServerProcess, ann: str, ben: str, games: int, sources: tuple[str, str]) -> None:
    """Ann and Ben play ``games`` one-hand public duels, from the addresses ``sources``; Ben
    throws them (he draws whenever he may)."""

    def throw(observation: dict[str, Any]) -> str:
        legal: list[str] = observation["legal_actions"]
        return next((a for a in legal if a.startswith("draw")), legal[-1])

    async def body() -> None:
        for _ in range(games):
            room = create_room(server.url, "classic", 2, options={"rounds": 1}, settings=FAST, public=True)
            first = await RoomClient.join(server.url, room["room"], name="Ann", player=ann, source=sources[0])
            second = await RoomClient.join(server.url, room["room"], name="Ben", player=ben, source=sources[1])
            await first.host("start", room["host_token"])
            finals = await asyncio.gather(play(first, choose), play(second, throw))
            assert all(final["room"]["phase"] == "finished" for final in finals)
            await first.close()
            await second.close()

    run(body)


def test_one_address_is_not_rated_with_itself_and_new_ratings_are_provisional(shared_server: ServerProcess) -> None:
    server = shared_server
    ann, ben = new_identity(), new_identity()
    ratings_join(server.url, ann, "Ann Twin")
    ratings_join(server.url, ben, "Ben Twin")
    # two identities of one address: five games, none rated
    _duels(server, ann, ben, 5, ("127.0.0.5", "127.0.0.5"))
    assert ratings_mine(server.url, ann)["ratings"] == [] and ratings_mine(server.url, ben)["ratings"] == []
    assert "Ann Twin" not in [p["name"] for p in leaderboard(server.url, "classic", 2)]
    # from two addresses the games are rated, but five games against one opponent are not
    # enough: the rating is provisional and off the leaderboard
    _duels(server, ann, ben, 5, ("127.0.0.6", "127.0.0.7"))
    mine = ratings_mine(server.url, ann)["ratings"]
    assert [(r["players"], r["games"], r["opponents"]) for r in mine] == [(2, 5, 1)]
    assert mine[0]["provisional"] and (mine[0]["sigma"] > PROVISIONAL_SIGMA or MIN_OPPONENTS > 1)
    assert mine[0]["mu"] > NEW_MU  # the thrown games did raise her mu: only the board's rule keeps her off
    assert "Ann Twin" not in [p["name"] for p in leaderboard(server.url, "classic", 2)]


def test_a_host_who_closes_a_live_rated_game_loses_it(shared_server: ServerProcess) -> None:
    server = shared_server
    ann = new_identity()
    ratings_join(server.url, ann, "Ann Closes")

    async def body() -> None:
        room = create_room(
            server.url,
            "classic",
            2,
            options={"rounds": 1},
            settings={**FAST, "bot_seconds": 5.0},
            public=True,
            bots=["normal"],
        )
        me = await RoomClient.join(server.url, room["room"], name="Ann", player=ann)
        await me.host("start", room["host_token"])
        await me.wait_for(lambda s: s["room"]["phase"] == "playing", 30)
        await me.host("close", room["host_token"])  # from her seat's connection: she closes it
        await me.close()

    run(body)
    model = PlackettLuce()
    lost = model.rate(
        [[model.rating(mu=NEW_MU, sigma=NEW_SIGMA)], [model.rating(*BOT_RATINGS["normal"])]], ranks=[2.0, 1.0]
    )
    mine = ratings_mine(server.url, ann)
    assert [(r["players"], r["games"]) for r in mine["ratings"]] == [(2, 1)]
    assert abs(mine["ratings"][0]["mu"] - lost[0][0].mu) < 1e-3
    assert mine["history"][0]["won"] is False


def _moved_on(version: int) -> Callable[[dict[str, Any]], bool]:
    """A :meth:`RoomClient.wait_for` predicate: the room is past ``version``."""
    return lambda state: bool(state["version"] != version)


def test_a_stand_in_that_plays_a_share_of_the_moves_counts_as_leaving_at_its_fixed_level(
    shared_server: ServerProcess,
) -> None:
    """The host sets an expert stand-in and a three-second turn timer, and lets every other turn
    of hers run out (the stand-in plays it), acting herself at the others: never two stand-in
    moves in a row, so only the share of the moves makes it leaving. (With one second, a loaded
    machine once answered a turn of hers too late, and the stand-in played two in a row.) The deck is forty red 5s
    and 6s: every card plays on every other, so each seat plays its seven cards in seven moves
    (a few more after a forgotten UNO) and the game's length is no lottery (a whole game of the
    usual deck took from one to five minutes). Such a deck makes the game unrated; a leaver's
    loss at a rated table is ``test_ratings.py``'s."""
    server = shared_server
    ann = new_identity()
    ratings_join(server.url, ann, "Ann Stands In")
    settings = {**FAST, "turn_seconds": 3.0, "bot_seconds": 1.5, "standin_bot": "expert"}
    options = {"rounds": 1, "deck": ["20 x red 5", "20 x red 6"]}

    async def body() -> tuple[str, dict[str, Any], int]:
        room = create_room(server.url, "classic", 2, options=options, settings=settings, public=True, bots=["beginner"])
        me = await RoomClient.join(server.url, room["room"], name="Ann", player=ann)
        await me.host("start", room["host_token"])
        state = await me.wait_for(lambda s: s["room"]["phase"] == "playing", 30)
        level = state["room"]["standin"]
        turns = 0
        while True:
            state = await me.wait_for(lambda s: s["room"]["phase"] == "finished" or me.my_turn, 300)
            if state["room"]["phase"] == "finished":
                return level, state, turns
            turns += 1
            if turns % 2 == 0:  # let this one run out: the stand-in plays it
                await me.wait_for(_moved_on(state["version"]), 60)
                continue
            with contextlib.suppress(ServerError):  # the stand-in was quicker: the state moved on
                await me.act(choose(state["observation"]), state["version"])

    level, final, turns = run(body, timeout=600)
    assert level == RATED_STANDIN  # not the host's expert
    seat = final["room"]["seats"][0]
    assert seat["standin_moves"] < 2  # the old rule (the last two moves) would not see her leave
    assert turns >= 4  # at least two of her turns ran out
    games = my_games(server.url, ann)
    assert games[0]["left"] == [0]
    assert ratings_mine(server.url, ann)["history"] == []  # a deck of the room's own: not rated


def test_the_leaderboard_lists_established_active_ratings_only(shared_server: ServerProcess) -> None:
    """Ratings written straight into the server's database: only the one that is neither
    provisional nor idle for more than ``ACTIVE_DAYS`` is on the board (and its owner's My
    games says which are provisional)."""
    now = time.time()
    people = {name: new_identity() for name in ("Est", "Few", "Wide", "Idle")}
    rows = {  # name: (sigma, opponents, days since the last game)
        "Est": (4.0, MIN_OPPONENTS, 1),
        "Few": (4.0, MIN_OPPONENTS - 1, 1),
        "Wide": (PROVISIONAL_SIGMA + 0.5, MIN_OPPONENTS, 1),
        "Idle": (4.0, MIN_OPPONENTS, ACTIVE_DAYS + 1),
    }
    for name, player in people.items():
        ratings_join(shared_server.url, player, f"{name} Board")
    with Store(shared_server.database).begin() as c:
        for name, (sigma, opponents, days) in rows.items():
            player = identity_hash(people[name])
            c.execute(
                insert(ratings).values(
                    player=player,
                    variant="flip",
                    players=3,
                    mu=30.0,
                    sigma=sigma,
                    games=20,
                    updated_at=now - days * 86400.0,
                )
            )
            for n in range(opponents):
                c.execute(insert(rating_opponents).values(player=player, variant="flip", players=3, opponent=f"x{n}"))
    names = [place["name"] for place in leaderboard(shared_server.url, "flip", 3)]
    assert names == ["Est Board"]
    provisional = {name: ratings_mine(shared_server.url, people[name])["ratings"][0]["provisional"] for name in rows}
    assert provisional == {"Est": False, "Few": True, "Wide": True, "Idle": False}


def test_a_person_left_a_game_when_a_stand_in_made_the_last_two_moves_or_over_a_quarter() -> None:
    """``docs/ratings.md``, "Leaving counts as a loss": the last two moves in a row by a stand-in, or more than a
    quarter of the seat's moves; a bot's seat never left."""

    def left(moves: int, standins: int, run: int, kind: str = "human") -> bool:
        return SeatState(kind=kind, game_moves=moves, game_standins=standins, standin_moves=run).left_game()

    assert left(40, 2, 2) and not left(40, 1, 1)  # the last two in a row, only a few in all
    assert left(12, 4, 0) and not left(12, 3, 0)  # 4 of 12 is over a quarter, 3 of 12 is not
    assert not left(40, 40, 40, kind="bot")
