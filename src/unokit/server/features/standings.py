"""Standings at a table (``docs/server.md``, "Standings"): a room that plays again keeps the
standings of its games, computed from its finished games' records (so they need no table of
their own, follow the records' retention, and are the same on every process of a cluster).

A place is a name at the table: a person keeps theirs from game to game (names are unique in a
room), and a bot that took a leaver's seat has its own. For each: the games played and won, the
points scored (each game's final score) and the hands (rounds) won.
"""

from __future__ import annotations

import asyncio
import csv
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...record import GameRecord
from ...record.replay import Replay
from ..seam import Feature, FeatureServer
from ..storage import records
from ..webapi import answer, client_of, limited, problem, room_code
from ..work import off_loop

if TYPE_CHECKING:
    from ..storage import Store

#: The most games of one room that the standings read (an evening is far fewer).
MOST_GAMES = 200
#: The columns of the standings' CSV file, in order.
CSV_COLUMNS = ("place", "name", "kind", "games", "wins", "points", "rounds_won")


@dataclass
class Place:
    """One name's line of the standings."""

    name: str
    kind: str
    games: int = 0
    wins: int = 0
    points: int = 0
    rounds_won: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "games": self.games,
            "wins": self.wins,
            "points": self.points,
            "rounds_won": self.rounds_won,
        }


def room_records(store: Store, code: str) -> list[str]:
    """The texts of room ``code``'s finished games, in order (at most :data:`MOST_GAMES`)."""
    with store.begin() as c:
        rows = c.execute(
            select(records.c.record).where(records.c.room == code).order_by(records.c.game_no).limit(MOST_GAMES)
        ).all()
    return [row.record for row in rows]


def standings(texts: list[str]) -> dict[str, Any]:
    """The standings of the games ``texts`` (``unokit-record/1``): ``places``, best first (more
    wins, then more points, then more hands won), and each game's ``winners`` and ``scores``."""
    places: dict[str, Place] = {}
    games: list[dict[str, Any]] = []
    for text in texts:
        record = GameRecord.loads(text)
        names = [seat.name for seat in record.seats]
        for index, seat in enumerate(record.seats):
            place = places.setdefault(seat.name, Place(seat.name, seat.kind))
            place.games += 1
            if record.result is not None:
                place.points += record.result.scores[index]
                place.wins += index in record.result.winners
        replay = Replay(record, check_version=False)
        for step in range(1, len(replay) + 1):
            for event in replay.events_at(step):
                if event["type"] == "round_end" and event.get("winner") is not None:
                    places[names[event["winner"]]].rounds_won += 1
        result = record.result
        games.append(
            {
                "game": int(record.meta.get("game", len(games) + 1)),
                "names": names,
                "winners": [names[i] for i in (result.winners if result else [])],
                "scores": list(result.scores) if result else [],
            }
        )
    ranked = sorted(places.values(), key=lambda p: (-p.wins, -p.points, -p.rounds_won, p.name))
    return {
        "places": [{"place": i, **place.to_json()} for i, place in enumerate(ranked, start=1)],
        "games": games,
    }


def standings_csv(table: dict[str, Any]) -> str:
    """The standings as a CSV file (:data:`CSV_COLUMNS`, a header line first)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for place in table["places"]:
        writer.writerow([_cell(place[column]) for column in CSV_COLUMNS])
    return out.getvalue()


def _cell(value: object) -> object:
    """A name a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@`` first) kept as text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return f"'{value}"
    return value


class StandingsServer(FeatureServer):
    """``GET /api/rooms/{code}/standings`` (``?format=csv``: as a file)."""

    def routes(self) -> list[BaseRoute]:
        store, misses = self.context.store, self.context.limits.misses

        async def room_standings(request: Request) -> Response:
            client = client_of(request)
            if await misses.spent(client):
                return await limited(misses, client, "room codes that do not exist")
            code = room_code(request)
            texts = await asyncio.to_thread(room_records, store, code) if code else []
            if not texts:
                await misses.allow(client)
                return problem("no_record", "this room has no finished game", 404)
            table = await off_loop(standings, texts)
            if request.query_params.get("format") == "csv":
                return Response(
                    standings_csv(table),
                    media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="unokit-{code}-standings.csv"'},
                )
            return answer({"room": code, **table})

        return [Route("/api/rooms/{code}/standings", room_standings)]


FEATURE = Feature(
    name="standings",
    summary="the standings of a room that plays again, from its finished games",
    server=StandingsServer,
)
