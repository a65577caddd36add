"""The protocol's messages, declared once (:mod:`unokit.server.messages`): every client message
round-trips through its encoding and its reading, every field's type, limit and presence is
enforced from its declaration, every message the server sends is built from its declaration
(no server module writes one out, and what a room sends reads back as declared), and the tables
of docs/protocol.md (the messages', the room log's) are the ones made from the declarations."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unokit.server import entries, messages, words
from unokit.server.client import RoomClient, ServerError, create_room
from unokit.server.local import LocalRoom
from unokit.server.messages import CLIENT, SERVER, MessageError, client_message, parse_message
from unokit.server.protocol import MAX_MESSAGE_BYTES, encode
from unokit.server.shapes import TEXT_LIMIT, ShapeError, Slot, splice

from .support import FAST, ServerProcess, run

ROOT = Path(__file__).resolve().parents[2]
#: A value of each JSON type a field may take, and one of another type.
SAMPLES: dict[type, Any] = {str: "text", int: 7, bool: True, float: 2.5}
WRONG: dict[type, Any] = {str: 7, int: "7", bool: 1, float: "2.5"}


def _sample(slot: Slot) -> Any:
    """A value of the field's first type that is not its default."""
    if slot.types == (bool,) and isinstance(slot.default, bool):
        return not slot.default
    return SAMPLES[slot.types[0]]


def _full(kind: type[messages.ClientMessage]) -> dict[str, Any]:
    """A message of ``kind`` with every declared field set to a value of its type."""
    return {"type": kind.KIND, **{s.wire: _sample(s) for s in kind.SLOTS}}


@pytest.mark.parametrize("kind", list(CLIENT))
def test_every_client_message_round_trips_through_its_encoding_and_its_reading(kind: str) -> None:
    cls = CLIENT[kind]
    obj = _full(cls)
    read = client_message(obj)
    assert type(read) is cls
    assert parse_message(encode(read.to_json())) == read.to_json()
    assert client_message(read.to_json()) == read
    assert read.to_json() == obj  # every value differs from its default, so all are written


@pytest.mark.parametrize("kind", list(CLIENT))
def test_every_client_message_needs_its_required_fields(kind: str) -> None:
    cls = CLIENT[kind]
    for slot in (s for s in cls.SLOTS if s.required):
        obj = _full(cls)
        del obj[slot.wire]
        with pytest.raises(MessageError) as refused:
            parse_message(encode(obj))
        assert refused.value.code == "bad_message"
        assert repr(slot.wire) in refused.value.message
        assert refused.value.reply_to == obj["id"]  # the refusal still answers it


@pytest.mark.parametrize("kind", list(CLIENT))
def test_every_field_limit_and_type_is_enforced_from_its_declaration(kind: str) -> None:
    cls = CLIENT[kind]
    for slot in cls.SLOTS:
        wrong = {**_full(cls), slot.wire: WRONG[slot.types[-1] if slot.types != (str, int) else str]}
        if slot.types == (str, int):
            wrong[slot.wire] = [1]
        with pytest.raises(MessageError) as refused:
            parse_message(encode(wrong))
        assert (refused.value.code, repr(slot.wire) in refused.value.message) == ("bad_message", True)
        nothing = {**_full(cls), slot.wire: None}
        with pytest.raises(MessageError):
            parse_message(encode(nothing))
        if str in slot.types:
            assert slot.limit == TEXT_LIMIT
            longest = {**_full(cls), slot.wire: "x" * TEXT_LIMIT}
            assert len(encode(longest)) < MAX_MESSAGE_BYTES
            client_message(longest)
            with pytest.raises(MessageError) as refused:
                parse_message(encode({**longest, slot.wire: "x" * (TEXT_LIMIT + 1)}))
            assert "too long" in refused.value.message
    with pytest.raises(MessageError) as refused:
        parse_message(encode({**_full(cls), "extra": 1}))
    assert refused.value.code == "bad_message"


def test_what_is_not_a_client_message_is_refused_with_its_code() -> None:
    cases = {
        "x" * (MAX_MESSAGE_BYTES + 1): "too_large",
        "{": "bad_json",
        "[1]": "bad_message",
        '{"type": 3}': "bad_message",
        '{"type": "nope", "id": 5}': "unknown_type",
        encode({"type": "chat", "text": {"a": {"b": {"c": {"d": 1}}}}}): "too_deep",
        encode({"type": "ping", "id": True}): "bad_message",
    }
    for raw, code in cases.items():
        with pytest.raises(MessageError) as refused:
            parse_message(raw)
        assert refused.value.code == code, raw[:40]
    with pytest.raises(MessageError) as refused:
        parse_message('{"type": "nope", "id": 5}')
    assert refused.value.reply_to == 5


def test_every_server_message_writes_its_required_fields_and_leaves_out_its_defaults() -> None:
    for kind, cls in SERVER.items():
        values = {s.attr: SAMPLES[s.types[0]] if s.types else [kind] for s in cls.SLOTS if s.required}
        written = cls(**values).to_json()
        assert written == {"type": kind, **{s.wire: values[s.attr] for s in cls.SLOTS if s.required}}


def test_the_words_registry_lists_the_declared_messages() -> None:
    assert (tuple(CLIENT), tuple(SERVER)) == (words.CLIENT_MESSAGES, words.SERVER_MESSAGES)


def test_the_protocol_page_holds_the_tables_made_from_the_declarations() -> None:
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    tables = {**messages.markdown_tables(), **entries.markdown_tables()}
    assert splice(page, tables) == page
    for name, table in tables.items():
        assert f"<!-- table: {name} -->\n{table}\n<!-- end of table -->" in page
    assert all(f"| `{kind}` |" in page for kind in (*CLIENT, *SERVER, *entries.ENTRIES))


def test_the_table_script_says_when_the_page_is_behind(tmp_path: Path) -> None:
    assert splice("<!-- table: t -->\nold\n<!-- end of table -->", {"t": "new"}) == (
        "<!-- table: t -->\nnew\n<!-- end of table -->"
    )
    with pytest.raises(ValueError):
        splice("no marks", {"t": "new"})
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "protocol_tables.py"), "--check"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout


# ---------------------------------------------------------------------- every send is declared
SERVER_DIR = ROOT / "src" / "unokit" / "server"
#: What a dict literal's ``"type"`` may name besides a log entry: the ASGI messages the edge and
#: the send buffer speak to the web server.
ASGI_PREFIXES = ("websocket.", "http.")


def _kinds(node: ast.expr) -> Iterator[str]:
    """The texts a ``"type"`` value written as ``node`` may take (a constant, either branch of
    a conditional); nothing for a value computed otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _kinds(node.body)
        yield from _kinds(node.orelse)


def typed_literals(source: str) -> Iterator[tuple[int, str]]:
    """Each ``(line, type)`` of a JSON object written out in ``source``: a dict display with a
    ``"type"`` key, or ``dict(type=...)``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "type":
                    yield from ((node.lineno, kind) for kind in _kinds(value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            for keyword in node.keywords:
                if keyword.arg == "type":
                    yield from ((node.lineno, kind) for kind in _kinds(keyword.value))


def unbuilt_sends(path: Path, source: str) -> list[str]:
    """The JSON objects ``source`` (the server module at ``path``) writes out that should be
    built from a declaration: a server message written as a literal, or an object of a type
    nothing declares. The Python client (``client.py``) writes the client messages it sends;
    log entries (:data:`.entries.ENTRIES`) are the room log's, not the wire's."""
    found = []
    for line, kind in typed_literals(source):
        if path.name == "client.py":
            unbuilt = kind not in CLIENT
        else:
            unbuilt = kind in SERVER or not (kind in entries.ENTRIES or kind.startswith(ASGI_PREFIXES))
        if unbuilt:
            found.append(f"{path.name}:{line}: {kind!r}")
    return found


def test_every_server_message_is_built_from_its_declaration() -> None:
    """No server module writes a server message as a dict literal (each is its class of
    :data:`SERVER`, written by ``to_json``), and none writes an object of an undeclared type."""
    found = []
    for path in sorted(SERVER_DIR.rglob("*.py")):
        found += unbuilt_sends(path, path.read_text(encoding="utf-8"))
    assert found == []


def test_the_scan_of_sends_sees_a_literal_message_and_an_undeclared_one() -> None:
    here = SERVER_DIR / "authority.py"
    assert unbuilt_sends(here, 'peer.deliver({"type": "ack", "reply_to": 1, "version": 2})') == [
        "authority.py:1: 'ack'"
    ]
    assert unbuilt_sends(here, 'peer.deliver(dict(type="nudge"))') == ["authority.py:1: 'nudge'"]
    assert unbuilt_sends(here, 'x = {"type": "a" if y else "state"}') == [
        "authority.py:1: 'a'",
        "authority.py:1: 'state'",
    ]
    assert unbuilt_sends(here, 'log({"type": "close", "reason": "idle"})') == []  # a log entry
    assert unbuilt_sends(SERVER_DIR / "client.py", 'send({"type": "hello", "room": "R"})') == []
    assert unbuilt_sends(SERVER_DIR / "client.py", 'send({"type": "welcome"})') == ["client.py:1: 'welcome'"]


def declared_as(obj: dict[str, Any]) -> messages.ServerMessage:
    """The server message ``obj`` is, as declared in :data:`SERVER`: every field declared, every
    required one there, each of its declared type (or ``null`` where the declaration allows it),
    and ``obj`` exactly what the declaration writes (optional fields at their default left out)."""
    cls = SERVER[obj["type"]]
    by_wire = {s.wire: s for s in cls.SLOTS}
    assert set(obj) - {"type"} <= set(by_wire), (obj["type"], set(obj) - set(by_wire))
    assert all(s.wire in obj for s in cls.SLOTS if s.required), obj
    hints = typing.get_type_hints(cls)
    for wire, value in obj.items():
        if wire != "type" and value is not None:
            by_wire[wire].check(value, obj["type"])
        elif value is None:
            assert type(None) in typing.get_args(hints[by_wire[wire].attr]) or not by_wire[wire].types, (wire, obj)
    built = cls(**{by_wire[wire].attr: value for wire, value in obj.items() if wire != "type"})
    assert built.to_json() == obj
    return built


def test_the_check_of_a_sent_message_refuses_what_its_declaration_does_not_write() -> None:
    declared_as({"type": "ack", "reply_to": 1, "version": 2})
    for wrong in (
        {"type": "ack", "reply_to": 1},  # a required field missing
        {"type": "ack", "reply_to": 1, "version": 2, "extra": 0},  # an undeclared one
        {"type": "ack", "reply_to": 1, "version": "2"},  # of the wrong type
        {"type": "ack", "reply_to": None, "version": 2},  # null where it may not be
        {"type": "chat", "history": False, "messages": []},  # a default written out
    ):
        with pytest.raises((AssertionError, ShapeError)):
            declared_as(wrong)
    with pytest.raises(KeyError):
        declared_as({"type": "nudge"})


def test_every_message_of_an_offline_game_is_one_of_its_declarations() -> None:
    """The offline room (the same parts as the server's rooms) sends only declared messages, as
    their declarations write them, through a whole game, a refusal and an acknowledgement."""
    sent: list[dict[str, Any]] = []

    async def main() -> None:
        fast = {"bot_seconds": 0.0, "hand_pause_seconds": 0.0, "catch_seconds": 0.0}
        room = LocalRoom.create(
            "classic", 2, lambda text: sent.append(json.loads(text)), lambda _t: None, settings=fast
        )
        room_code = room.code
        await room.receive(encode({"type": "hello", "room": room_code, "name": "Ann", "id": 1}))
        token = next(m["token"] for m in sent if m["type"] == "welcome")
        await room.receive(encode({"type": "visibility", "visible": True, "id": 2}))
        await room.receive(encode({"type": "sync", "id": 3}))
        await room.receive(encode({"type": "chat", "text": "hi", "id": 4}))  # refused: no chat offline
        while room.state.phase != "finished":
            state = next(m for m in reversed(sent) if m["type"] == "state")
            obs, game = state["observation"], room.state.game
            if game is not None and obs and obs["seat"] == game.to_act and state["version"] == room.state.seq:
                action = {"action": obs["legal_actions"][0], "version": state["version"], "token": token}
                await room.receive(encode({"type": "action", **action, "id": len(sent)}))
            await asyncio.sleep(0.001)
        room.stop()

    asyncio.run(main())
    kinds = {declared_as(m).KIND for m in sent}
    assert {"welcome", "state", "ack", "error"} <= kinds, kinds
    assert any("summary" in m for m in sent if m["type"] == "state")


def test_every_message_a_game_with_chat_and_a_hint_sends_is_one_of_its_declarations(
    shared_server: ServerProcess,
) -> None:
    """A server's room sends only declared messages, as their declarations write them: to a
    player and a spectator, through a hint, the chat, a ping, refusals, presence, a whole game
    and the room's closing."""
    made = create_room(shared_server.url, "classic", 2, settings=FAST, bots=["normal"])

    async def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        ann = await RoomClient.join(shared_server.url, made["room"], name="Ann", keep=True)
        watcher = await RoomClient.join(shared_server.url, made["room"], role="spectator", name="Bo", keep=True)
        await ann.send({"type": "ping", "id": "p"})
        await ann.send({"type": "ping"})
        await ann.say("hello")
        await ann.react("gg")
        await ann.look(False)
        await ann.look(True)
        with pytest.raises(ServerError):
            await ann.request({"type": "hint", "token": ann.token})  # no game yet: refused
        await ann.host("start", made["host_token"])
        hinted = False
        while True:
            state = await ann.wait_for(lambda s: s["room"]["phase"] == "finished" or ann.my_turn, 120)
            if state["room"]["phase"] == "finished":
                break
            if not hinted and len(ann.legal_actions) >= 2:
                try:
                    await ann.request({"type": "hint", "token": ann.token}, timeout=120)
                    hinted = True
                except ServerError as exc:
                    assert exc.code in ("out_of_turn", "stale"), exc
            with contextlib.suppress(ServerError):  # stale when a bot's catch came first
                await ann.act(ann.legal_actions[0])
        await ann.request({"type": "sync"})
        await ann.host("close", made["host_token"])
        await ann.wait_for(lambda _s: any(m["type"] == "closed" for m in ann.received), 30)
        await watcher.wait_for(lambda _s: any(m["type"] == "closed" for m in watcher.received), 30)
        await ann.close()
        await watcher.close()
        return ann.received, watcher.received

    seen, watched = run(body)
    kinds = {declared_as(m).KIND for m in seen + watched}
    assert {"welcome", "state", "room", "ack", "error", "pong", "chat", "hint", "closed"} <= kinds, kinds
    assert any(m["type"] == "welcome" and m["seat"] is None for m in watched)
