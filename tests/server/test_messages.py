"""The protocol's messages, declared once (:mod:`unokit.server.messages`): every client message
round-trips through its encoding and its reading, every field's type, limit and presence is
enforced from its declaration, and the tables of docs/protocol.md (the messages', the room
log's) are the ones made from the declarations."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unokit.server import entries, messages, words
from unokit.server.messages import CLIENT, SERVER, MessageError, client_message, parse_message
from unokit.server.protocol import MAX_MESSAGE_BYTES, encode
from unokit.server.shapes import TEXT_LIMIT, Slot, splice

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
