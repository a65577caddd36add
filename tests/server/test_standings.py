"""Standings at a table over the real server and database: three games played again, a player
who leaves after the first replaced by a bot, the standings checked against the games' own
records, and the same as a CSV file."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import urllib.request
from collections import Counter
from typing import Any

import pytest

from unokit.record import GameRecord
from unokit.server.client import RoomClient, ServerError, create_room, download_record, get_json, play, play_again
from unokit.server.features.standings import standings_csv

from .support import FAST, ServerProcess, choose, run


def test_standings_over_three_games_with_a_leaver_replaced_by_a_bot(shared_server: ServerProcess) -> None:
    server = shared_server

    async def body() -> str:
        room = create_room(server.url, "classic", 3, options={"target": 60}, settings=FAST, bots=["heuristic"])
        code = room["room"]
        ann = await RoomClient.join(server.url, code, name="Ann")
        ben = await RoomClient.join(server.url, code, name="Ben")
        await ann.host("start", room["host_token"])
        first = await asyncio.gather(play(ann, choose), play(ben, choose))
        assert all(final["room"]["phase"] == "finished" for final in first)
        await ben.leave()  # Ben goes home; a bot takes his seat for the next games
        finals = await play_again(ann, choose, games=3)
        assert len(finals) == 3 and finals[-1]["room"]["game_no"] == 3
        for client in (ann, ben):
            await client.close()
        return str(code)

    code = run(body)
    table = get_json(server.url, f"/api/rooms/{code}/standings")
    records = [GameRecord.loads(download_record(server.url, code, n)) for n in (1, 2, 3)]
    games, wins, points = Counter[str](), Counter[str](), Counter[str]()
    for record in records:
        assert record.result is not None and record.result.over
        for seat, who in enumerate(record.seats):
            games[who.name] += 1
            points[who.name] += record.result.scores[seat]
            wins[who.name] += seat in record.result.winners
    by_name = {place["name"]: place for place in table["places"]}
    assert set(by_name) == set(games) and len(by_name) == 4  # Ann, Ben, the table's bot, Ben's stand-in
    assert by_name["Ben"]["games"] == 1 and by_name["Ann"]["games"] == 3
    stand_in = next(name for name in by_name if name not in ("Ann", "Ben", records[0].seats[2].name))
    assert by_name[stand_in]["kind"] == "bot" and by_name[stand_in]["games"] == 2
    for name, place in by_name.items():
        assert (place["games"], place["wins"], place["points"]) == (games[name], wins[name], points[name]), name
    assert sum(place["rounds_won"] for place in table["places"]) == sum(r.result.rounds for r in records if r.result)
    order = [(-p["wins"], -p["points"], -p["rounds_won"]) for p in table["places"]]
    assert order == sorted(order) and [p["place"] for p in table["places"]] == [1, 2, 3, 4]
    assert [g["game"] for g in table["games"]] == [1, 2, 3]
    # the same, downloaded as CSV
    with urllib.request.urlopen(f"{server.url}/api/rooms/{code}/standings?format=csv", timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/csv")
        assert f"unokit-{code}-standings.csv" in response.headers["Content-Disposition"]
        rows = list(csv.DictReader(io.StringIO(response.read().decode())))
    assert [(r["name"], int(r["wins"]), int(r["points"])) for r in rows] == [
        (p["name"], p["wins"], p["points"]) for p in table["places"]
    ]


def test_standings_of_a_room_without_games_and_formula_names(shared_server: ServerProcess) -> None:
    room = create_room(shared_server.url, "classic", 2)
    with pytest.raises(ServerError) as caught:
        get_json(shared_server.url, f"/api/rooms/{room['room']}/standings")
    assert caught.value.code == "no_record"
    place: dict[str, Any] = {"place": 1, "name": "=HYPERLINK(1)", "kind": "human"}
    place |= {"games": 1, "wins": 1, "points": 3, "rounds_won": 1}
    text = standings_csv({"places": [place]})
    assert "\n1,'=HYPERLINK(1),human,1,1,3,1\n" in text
    assert json.dumps(place)  # the JSON keeps the name as it is
