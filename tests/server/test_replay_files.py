"""``POST /api/replay``, the replay of a record the page was given (a replay file,
``docs/formats.md``), through the real application in process: the same steps as the room's
replay of the same record, bad files refused with a typed error, a body over the limit refused
before it is read, and new records counted by the address's allowance of replay files."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pyspiel
from sqlalchemy import insert

import unokit.openspiel  # noqa: F401 - registers the games
from unokit.kaggle.uno import replay as kaggle_replay
from unokit.record import GameRecord, RecordingGame
from unokit.server.room import RoomSpec
from unokit.server.storage import Store, records
from unokit.server.web import REPLAY_FILE_BYTES

from .inprocess import in_process


def _record(seed: int = 11) -> GameRecord:
    """A finished hand of 2-player Classic, its seats playing their first legal action."""
    game, _ = RecordingGame.new("classic", 2, seed=seed, rounds=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game.to_record()


def _room_with(store: Store, code: str, record: GameRecord) -> None:
    spec = RoomSpec.build("classic", 2, {"rounds": 1}, {}, False, "en", hosted=False).to_json()
    assert store.create_room(code, spec, "h" * 64)
    with store.begin() as c:
        c.execute(insert(records).values(room=code, game_no=1, created_at=time.time(), record=record.dumps()))


def test_a_file_replays_as_the_rooms_game_and_bad_files_are_refused(tmp_path: Path) -> None:
    record = _record()
    with in_process(tmp_path) as server:
        store = Store(server.config.database)
        try:
            _room_with(store, "FILEAA", record)
        finally:
            store.close()
        api = server.client
        last = len(record.actions)
        for step, seat in ((0, None), (1, 0), (last // 2, 1), (last, None)):
            query = f"step={step}" + ("" if seat is None else f"&seat={seat}") + "&log=1"
            room = api.get(f"/api/rooms/FILEAA/records/1/replay?{query}")
            mine = api.post("/api/replay", json={"record": record.to_json(), "step": step, "seat": seat, "log": True})
            assert room.status_code == mine.status_code == 200, mine.text
            assert mine.json() == room.json()  # the same replay, step for step
        end = mine.json()
        assert end["steps"] == last and end["observation"]["over"] and record.result is not None
        assert end["observation"]["winners"] == record.result.winners
        # A Kaggle-style episode's replay file plays as it is (its meta is the page's to read).
        episode = kaggle_replay.play_episode(
            pyspiel.load_game("uno_classic(players=2,chance=sampled,max_decisions=60)"),
            [lambda o: f"[{o['legalActionStrings'][0]}]", lambda o: int(o["legalActions"][-1])],
            names=["Text", "Ids"],
        )
        answer = api.post("/api/replay", json={"record": episode.record().to_json(), "step": 3})
        assert answer.status_code == 200 and answer.json()["names"] == ["Text", "Ids"]

        def refused(body: Any, status: int, code: str, *, raw: bytes | None = None) -> str:
            if raw is not None:
                got = api.post("/api/replay", content=raw, headers={"Content-Type": "application/json"})
            else:
                got = api.post("/api/replay", json=body)
            assert got.status_code == status and got.json()["error"] == code, got.text
            assert "Traceback" not in got.text
            return str(got.json()["message"])

        tampered = record.to_json()
        tampered["actions"][2] = [tampered["actions"][2][0], "play purple 9"]
        assert "action 3 of" in refused({"record": tampered}, 400, "bad_record")
        assert "not a unokit record" in refused({"record": {"format": "pgn"}}, 400, "bad_record")
        refused({"record": [1, 2]}, 400, "bad_record")
        refused({"step": 0}, 400, "bad_record")  # no record at all
        newer = {**record.to_json(), "unokit": "99.0.0"}
        assert "not compatible" in refused({"record": newer}, 400, "bad_record")
        refused(None, 400, "bad_json", raw=b"{not json")
        refused([1], 400, "bad_request")
        refused({"record": record.to_json(), "moves": []}, 400, "bad_request")
        refused({"record": record.to_json(), "step": last + 1}, 400, "bad_step")
        refused({"record": record.to_json(), "step": True}, 400, "bad_step")
        refused({"record": record.to_json(), "seat": 2}, 400, "bad_seat")
        refused({"record": record.to_json(), "log": "yes"}, 400, "bad_request")
        # Over the limit: refused (by the edge, before the body is read) and never replayed.
        padded = {**record.to_json(), "meta": {"pad": "x" * REPLAY_FILE_BYTES}}
        refused({"record": padded}, 413, "too_large")


def test_new_records_are_counted_by_the_addresss_allowance_stepping_is_not(tmp_path: Path) -> None:
    first, second = _record(11), _record(12)
    # lookup_rate 1 a minute: one new record, then a wait of about a minute.
    with in_process(tmp_path, lookup_rate=1.0) as server:
        api = server.client
        assert api.post("/api/replay", json={"record": first.to_json(), "step": 0}).status_code == 200
        for step in range(1, 6):  # stepping through the record replayed: not counted
            assert api.post("/api/replay", json={"record": first.to_json(), "step": step}).status_code == 200
        limited = api.post("/api/replay", json={"record": second.to_json(), "step": 0})
        assert limited.status_code == 429 and limited.json()["error"] == "rate_limited"
        assert int(limited.headers["Retry-After"]) >= 1
