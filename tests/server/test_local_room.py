"""The offline room (``server/local.py``): the same messages as the server's rooms, with nothing
beyond the standard library, a whole game against bots to its end, a rebuilt room that goes on,
and the record it keeps verified by the engine."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest

from unokit.record import GameRecord, verify
from unokit.server.local import LocalRoom
from unokit.server.room import RoomError

FAST = {"bot_seconds": 0.0, "hand_pause_seconds": 0.0, "catch_seconds": 0.0}


class Page:
    """What the browser's table does with the room's messages: keeps its token and the latest
    state, and answers each of its turns with the first action it is offered."""

    def __init__(self) -> None:
        self.inbox: list[dict[str, Any]] = []
        self.kept: str | None = None
        self.token: str | None = None

    def send(self, text: str) -> None:
        msg = json.loads(text)
        if msg["type"] == "welcome" and "token" in msg:
            self.token = msg["token"]
        self.inbox.append(msg)

    def save(self, text: str) -> None:
        self.kept = text

    def last_state(self) -> dict[str, Any]:
        return next(m for m in reversed(self.inbox) if m["type"] == "state")


async def play(room: LocalRoom, page: Page, moves: int | None = None) -> int:
    """Take the person's turns until the game ends (or ``moves`` of them); return how many."""
    taken = 0
    while room.state.phase != "finished" and (moves is None or taken < moves):
        state = page.last_state()
        obs = state["observation"]
        game = room.state.game
        assert game is not None
        if obs and obs["seat"] == game.to_act and state["version"] == room.state.seq and obs.get("legal_actions"):
            action = {
                "type": "action",
                "action": obs["legal_actions"][0],
                "version": state["version"],
                "token": page.token,
            }
            await room.receive(json.dumps({**action, "id": taken + 1}))
            taken += 1
        await asyncio.sleep(0.001)
    return taken


def test_a_whole_game_against_bots_ends_and_its_record_verifies() -> None:
    async def main() -> None:
        page = Page()
        room = LocalRoom.create("classic", 2, page.send, page.save, options={"rounds": 1}, settings=FAST)
        await room.receive(
            json.dumps({"type": "hello", "protocol": "unokit-server/2", "room": room.code, "name": "Ann", "id": 1})
        )
        assert [m["type"] for m in page.inbox[:2]] == ["welcome", "state"]
        first = page.inbox[1]
        assert first["seat"] == 0 and first["observation"]["seat"] == 0 and first["log"]
        assert first["room"]["seats"][1]["kind"] == "bot" and first["room"]["offline"] is True
        assert await play(room, page) > 0
        assert room.state.phase == "finished"
        kept = json.loads(page.kept or "{}")
        record = GameRecord.loads(kept["record"])
        assert record.result is not None and verify(record).ok
        assert any(m["type"] == "state" and m.get("summary") for m in page.inbox)
        room.stop()

    asyncio.run(main())


def test_a_kept_room_goes_on_where_it_was() -> None:
    async def main() -> None:
        page = Page()
        room = LocalRoom.create("flip", 3, page.send, page.save, settings={**FAST, "bot_seconds": 30.0})
        await room.receive(json.dumps({"type": "hello", "room": room.code, "name": "Ann"}))
        before = room.state.seq
        room.stop()
        again = Page()
        again.token = page.token
        rebuilt = LocalRoom.restore(page.kept or "", again.send, again.save)
        await rebuilt.receive(json.dumps({"type": "hello", "room": rebuilt.code, "token": page.token}))
        assert rebuilt.state.seq == before
        assert [m["type"] for m in again.inbox] == ["welcome", "state"]
        assert again.inbox[1]["observation"] == page.last_state()["observation"]
        rebuilt.stop()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "bad_json"),
        ("[1]", "bad_message"),
        ('{"type": "chat", "text": "hi"}', "not_offline"),
        ('{"type": "action", "action": "draw", "version": 0, "token": "nope"}', "bad_token"),
        ('{"type": "nonsense"}', "unknown_type"),
    ],
)
def test_a_message_the_room_refuses_is_an_error_naming_it_and_changes_nothing(message: str, code: str) -> None:
    async def main() -> None:
        page = Page()
        room = LocalRoom.create("classic", 2, page.send, page.save, settings={**FAST, "bot_seconds": 30.0})
        await room.receive(json.dumps({"type": "hello", "room": room.code, "name": "Ann"}))
        seq = room.state.seq
        await room.receive(message)
        assert page.inbox[-1]["type"] == "error" and page.inbox[-1]["code"] == code
        assert room.state.seq == seq
        room.stop()

    asyncio.run(main())


def test_a_room_of_a_bad_variant_or_bot_is_refused() -> None:
    with pytest.raises(RoomError) as bad:
        LocalRoom.create("nonsense", 2, print)
    assert bad.value.code == "bad_room"
    with pytest.raises(RoomError) as bot:
        LocalRoom.create("classic", 2, print, bot="ismcts_fast")
    assert bot.value.code == "bad_bot"


def test_the_offline_room_imports_with_the_standard_library_alone() -> None:
    """What Pyodide runs: none of the server's libraries, none of the compiled bots'."""
    code = (
        "import sys\n"
        "for m in ('orjson', 'starlette', 'sqlalchemy', 'uvicorn', 'websockets', 'numpy', 'numba', 'textual'):\n"
        "    sys.modules[m] = None\n"
        "import unokit.server.local\n"
        "from unokit.bots import make_bot\n"
        "from unokit.bots.levels import LEVELS, make_level_bot\n"
        "for level in LEVELS: make_bot(level, 1)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
