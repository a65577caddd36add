"""The seal on a deal of the day's games (``docs/daily.md``, "Sealed while the day runs"), through
the real application in process: a game of today's deal is refused (its record, its replay, a
review of a seat by someone else) until the day ends; yesterday's deal's game and an ordinary
room's are open; My games says which is sealed and until when. A whole daily game against the
real server: ``test_daily.py``."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from sqlalchemy import insert

from unokit.record import RecordingGame
from unokit.server.client import new_identity
from unokit.server.features.daily.deals import day_of, day_start
from unokit.server.peers import identity_hash
from unokit.server.protocol import encode
from unokit.server.room import RoomSpec
from unokit.server.storage import Store, player_games, records

from .inprocess import in_process

GAME, _ = RecordingGame.new("classic", 2, seed=11, rounds=1)
TEXT = GAME.to_record().dumps()


def _room(store: Store, code: str, player: str, daily: dict[str, str] | None) -> None:
    """A finished room ``code`` (a daily deal's when ``daily`` names its day and deal) whose
    first game ``player`` played in seat 0."""
    spec = RoomSpec.build("classic", 2, {"rounds": 1}, {}, False, "en", hosted=False).to_json()
    assert store.create_room(code, {**spec, **({"daily": daily} if daily else {})}, "h" * 64)
    summary = encode({"variant": "classic", "names": ["Ann", "Bot"], "scores": [0, 0], "winners": [0]})
    with store.begin() as c:
        c.execute(insert(records).values(room=code, game_no=1, created_at=time.time(), record=TEXT))
        c.execute(
            insert(player_games).values(player=player, room=code, game_no=1, seat=0, at=time.time(), summary=summary)
        )


def test_todays_deal_is_sealed_until_the_day_ends_yesterdays_and_ordinary_rooms_are_open(tmp_path: Path) -> None:
    ann, bob = new_identity(), new_identity()
    today = day_of(time.time())
    ends = day_start(today + dt.timedelta(days=1))
    with in_process(tmp_path) as server:
        store = Store(server.config.database)
        try:
            _room(store, "TDAYAA", identity_hash(ann), {"day": today.isoformat(), "deal": "classic-2-expert"})
            yesterday = (today - dt.timedelta(days=1)).isoformat()
            _room(store, "PASTAA", identity_hash(ann), {"day": yesterday, "deal": "classic-2-expert"})
            _room(store, "PXANAA", identity_hash(ann), None)
        finally:
            store.close()
        api = server.client
        until = {"until": dt.datetime.fromtimestamp(ends, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")}
        for asked in (
            api.get("/api/rooms/TDAYAA/records/1"),
            api.get("/api/rooms/TDAYAA/records/1/replay?step=0"),
            api.get("/api/rooms/TDAYAA/records/1/replay?step=0&seat=0"),
            api.post("/api/rooms/TDAYAA/records/1/review", json={"player": bob, "seat": 0}),
            api.post("/api/rooms/TDAYAA/records/1/review", json={"player": ann, "seat": 1}),
        ):
            assert asked.status_code == 403, asked.request.url
            assert asked.json()["error"] == "sealed" and asked.json()["params"] == until
            assert "seed" not in asked.text
        for code in ("PASTAA", "PXANAA"):
            record = api.get(f"/api/rooms/{code}/records/1")
            assert record.status_code == 200 and record.text == TEXT
            assert api.get(f"/api/rooms/{code}/records/1/replay?step=0").status_code == 200
        games = api.post("/api/my-games", json={"player": ann}).json()["games"]
        sealed = {game["room"]: game["sealed_until"] for game in games}
        assert sealed == {"TDAYAA": ends, "PASTAA": None, "PXANAA": None}
        # a daily room's end says it is not rated, an ordinary room's says nothing
        notes = {code: api.get(f"/api/rooms/{code}").json().get("notes") for code in ("TDAYAA", "PASTAA", "PXANAA")}
        assert notes == {"TDAYAA": ["daily.not_rated"], "PASTAA": ["daily.not_rated"], "PXANAA": []}
        # the review of one's own seat is given while the day runs (made from what that seat saw)
        own = api.post("/api/rooms/TDAYAA/records/1/review", json={"player": ann, "seat": 0})
        assert own.status_code in (200, 202) and own.json()["status"] in ("ready", "working")
