"""The public bot ladder over a real server (``docs/research.md``, "The bot ladder"): two bots,
each its own ``unokit ladder join`` process (one of them an external program speaking
unokit-bot/1) with the token the host made, play ladder tables to
a standing; both appear with their ratings moved as OpenSkill computes them, never on the
people's leaderboard; a wrong token is refused."""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from unokit.record import GameRecord
from unokit.server.client import (
    RoomClient,
    ServerError,
    download_record,
    first_legal,
    ladder_join,
    ladder_play,
    ladder_standings,
    leaderboard,
    new_identity,
)
from unokit.server.features.ratings.skill import NEW_MU, NEW_SIGMA, ranks

from .support import UNOKIT, ServerProcess, run

TABLES = 2
#: An external bot (unokit-bot/1) that plays the last legal action and notes each new game.
EXTERNAL_BOT = r"""
import json, sys
games = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "last-legal"}), flush=True)
    elif message["type"] == "new_game":
        games.write(json.dumps(message) + "\n")
        games.flush()
    elif message["type"] == "act":
        print(message["legal_actions"][-1], flush=True)
    elif message["type"] == "quit":
        break
"""


def _token(server: ServerProcess, name: str, folder: Path) -> Path:
    """The host's ``unokit admin ladder-token NAME``, written to a file for the bot."""
    made = subprocess.run(
        [UNOKIT, "admin", "--database", server.database, "ladder-token", name],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    path = folder / f"{name}.token"
    path.write_text(made.stdout.strip(), encoding="utf-8")
    return path


def _openskill(records: list[GameRecord], names: list[str]) -> dict[str, tuple[float, float]]:
    """OpenSkill's own computation over the tables' results, in the order they were played."""
    model = PlackettLuce()
    now = dict.fromkeys(names, (NEW_MU, NEW_SIGMA))
    for record in records:
        assert record.result is not None
        seated = [seat.name for seat in record.seats]
        teams = [[model.rating(mu=now[name][0], sigma=now[name][1])] for name in seated]
        places = [float(p) for p in ranks(record.result.scores, record.result.winners)]
        for name, team in zip(seated, model.rate(teams, ranks=places), strict=True):
            now[name] = (team[0].mu, team[0].sigma)
    return now


def test_two_bots_play_ladder_tables_to_a_standing(shared_server: ServerProcess, tmp_path: Path) -> None:
    server = shared_server
    script, games = tmp_path / "bot.py", tmp_path / "games.jsonl"
    script.write_text(EXTERNAL_BOT, encoding="utf-8")
    external = f"external:{shlex.join([sys.executable, str(script), str(games)])}"
    tokens = {name: _token(server, name, tmp_path) for name in ("first-bot", "random.bot")}
    with pytest.raises(ServerError) as refused:
        ladder_join(server.url, "first-bot", tokens["random.bot"].read_text(), "classic", 2)
    assert refused.value.code == "bad_token"
    bots = [
        subprocess.Popen(
            [
                UNOKIT,
                "ladder",
                "join",
                server.url,
                "--name",
                name,
                "--token-file",
                str(tokens[name]),
                "--bot",
                spec,
                "--tables",
                str(TABLES),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for name, spec in (("first-bot", external), ("random.bot", "random"))
    ]
    outputs = []
    for bot in bots:
        out, _ = bot.communicate(timeout=180)
        outputs.append(out.decode())
        assert bot.returncode == 0, out.decode()
    assert all(f"{TABLES} tables played" in out for out in outputs), outputs
    told = [json.loads(line) for line in games.read_text().splitlines()]
    assert [(game["variant"], game["players"]) for game in told] == [("classic", 2)] * TABLES

    places = ladder_standings(server.url, "classic", 2)
    assert {place["name"] for place in places} == {"first-bot", "random.bot"}
    assert all(place["games"] == TABLES for place in places)
    assert places[0]["rating"] >= places[1]["rating"]
    assert not {place["name"] for place in leaderboard(server.url, "classic", 2)} & {"first-bot", "random.bot"}

    # The tables' records (from the database: the tables are not in the lobby): the stored
    # ratings are OpenSkill's over them, in order.
    records = _ladder_records(server)
    assert len(records) == TABLES
    expected = _openskill(records, ["first-bot", "random.bot"])
    for place in places:
        mu, sigma = expected[place["name"]]
        assert place["mu"] == pytest.approx(mu, abs=1e-3)
        assert place["sigma"] == pytest.approx(sigma, abs=1e-3)
        assert (place["mu"], place["sigma"]) != (NEW_MU, NEW_SIGMA)

    # `unokit admin export` writes the ratings tables beside the records: the ladder's rows too.
    exported = tmp_path / "export"
    subprocess.run([UNOKIT, "admin", "--database", server.database, "export", str(exported)], check=True, timeout=60)
    rows = {row["player"]: row for row in map(json.loads, (exported / "ratings.jsonl").read_text().splitlines())}
    for place in places:
        row = rows["ladder:" + place["name"]]
        assert (round(row["mu"], 3), round(row["sigma"], 3), row["games"]) == (place["mu"], place["sigma"], TABLES)
    history = [json.loads(line) for line in (exported / "rating_history.jsonl").read_text().splitlines()]
    assert sum(row["player"].startswith("ladder:") for row in history) == 2 * TABLES


def _ladder_records(server: ServerProcess) -> list[GameRecord]:
    """The ladder tables' records, in the order they were written (from the database)."""
    from sqlalchemy import select

    from unokit.server.storage import Store, records, rooms

    store = Store(server.database)
    try:
        with store.begin() as c:
            rows = c.execute(
                select(records.c.room, records.c.game_no)
                .join(rooms, rooms.c.code == records.c.room)
                .where(rooms.c.spec.contains('"ladder"'))
                .order_by(records.c.created_at)
            ).all()
    finally:
        store.engine.dispose()
    return [GameRecord.loads(download_record(server.url, row.room, row.game_no)) for row in rows]


def test_only_a_ladder_bot_with_its_token_sits_at_a_ladder_table(shared_server: ServerProcess, tmp_path: Path) -> None:
    """Whoever knows a ladder table's code cannot take its open seat: a hello without the bot's
    token, or with another identity under the bot's name, is refused ``bad_token``; the bot
    with its own token sits (``docs/research.md``, "The bot ladder")."""
    server = shared_server
    token = _token(server, "seated.bot", tmp_path).read_text(encoding="utf-8")
    table = ladder_join(server.url, "seated.bot", token, "classic", 3)["room"]

    async def body() -> None:
        for name, player in (("Mallory", None), ("seated.bot", new_identity()), ("Mallory", token)):
            with pytest.raises(ServerError) as refused:
                await RoomClient.join(
                    server.url, table, name=name, reconnect=False, **({"player": player} if player else {})
                )
            assert refused.value.code == "bad_token", (name, refused.value)
        bot = await RoomClient.join(server.url, table, name="seated.bot", player=token, reconnect=False)
        try:
            seated = await bot.wait_for(lambda s: any(seat["name"] == "seated.bot" for seat in s["room"]["seats"]), 30)
            assert sum(1 for seat in seated["room"]["seats"] if seat["kind"] == "human") == 1
        finally:
            await bot.close()

    run(body)


def test_a_bot_that_asks_twice_holds_one_seat(shared_server: ServerProcess, tmp_path: Path) -> None:
    """A bot that asks for a table again before it sits is sent to the same table, and the next
    bot fills it: asking twice opens no second table that would leave someone waiting alone.
    Once both sat, the table is full and the next ask opens another."""
    server = shared_server
    tokens = {name: _token(server, name, tmp_path).read_text(encoding="utf-8") for name in ("twice.bot", "next.bot")}
    first = ladder_join(server.url, "twice.bot", tokens["twice.bot"], "attack", 2)["room"]
    assert ladder_join(server.url, "twice.bot", tokens["twice.bot"], "attack", 2)["room"] == first
    assert ladder_join(server.url, "next.bot", tokens["next.bot"], "attack", 2)["room"] == first

    async def body() -> str:
        bots = [await _sit(server, first, name, tokens[name]) for name in ("twice.bot", "next.bot")]
        try:
            await bots[0].wait_for(lambda state: state["room"]["phase"] != "lobby", 30)
            return str(ladder_join(server.url, "next.bot", tokens["next.bot"], "attack", 2)["room"])
        finally:
            for bot in bots:
                await bot.close()

    assert run(body) != first  # that one is full


def test_a_seat_is_a_bots_when_it_sits_not_when_it_asks(shared_server: ServerProcess, tmp_path: Path) -> None:
    """A bot that asks for a table and never sits holds no seat: the next two bots are sent to
    that same table, sit, and it starts with them (it was booked at the ask, and the second bot
    waited alone for a third that was sent elsewhere)."""
    server = shared_server
    names = ("asks.bot", "sits.bot", "third.bot")
    tokens = {name: _token(server, name, tmp_path).read_text(encoding="utf-8") for name in names}
    table = ladder_join(server.url, "asks.bot", tokens["asks.bot"], "flip", 2)["room"]  # and never sits
    assert ladder_join(server.url, "sits.bot", tokens["sits.bot"], "flip", 2)["room"] == table

    async def body() -> list[str]:
        sits = await _sit(server, table, "sits.bot", tokens["sits.bot"])
        third_table = ladder_join(server.url, "third.bot", tokens["third.bot"], "flip", 2)["room"]
        assert third_table == table
        third = await _sit(server, table, "third.bot", tokens["third.bot"])
        try:
            started = await sits.wait_for(lambda state: state["room"]["phase"] != "lobby", 30)
            return sorted(seat["name"] for seat in started["room"]["seats"])
        finally:
            await sits.close()
            await third.close()

    assert run(body) == ["sits.bot", "third.bot"]


async def _sit(server: ServerProcess, table: str, name: str, token: str) -> RoomClient:
    """The ladder bot ``name`` sits at ``table`` with its token."""
    return await RoomClient.join(server.url, table, name=name, player=token, reconnect=False)


def test_two_bots_that_answer_at_once_play_within_the_declared_rate(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    """A server that allows 5 messages a second, 4 at once (``--rate 5 --burst 4``), and two
    bots that answer at once: they finish two tables each and none is refused
    ``rate_limited``: the client paces itself to the rate its welcome declares."""
    server = make_server(f"sqlite:///{tmp_path / 'ladder.db'}", "--rate", "5", "--burst", "4")
    names = ("quick.bot", "quicker.bot")
    tokens = {name: _token(server, name, tmp_path).read_text(encoding="utf-8") for name in names}

    async def body() -> list[int]:
        plays = [
            ladder_play(server.url, name, tokens[name], first_legal, variant="classic", players=2, tables=2)
            for name in names
        ]
        return list(await asyncio.gather(*plays))

    assert run(body) == [2, 2]
    places = ladder_standings(server.url, "classic", 2)
    assert {place["name"]: place["games"] for place in places} == dict.fromkeys(names, 2)
