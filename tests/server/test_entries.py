"""The room log's entries, declared once (:mod:`unokit.server.entries`): every kind folds itself
into the room's state, round-trips through the JSON the log stores, and a log entry this server
does not know is refused as ``corrupt``."""

from __future__ import annotations

from typing import Any

import pytest

from unokit.server.entries import ENTRIES, Action, Entry, Join, Start, check_host, entry_of, fill_entries
from unokit.server.room import RoomError, RoomSpec, RoomState

SAMPLES: dict[type, Any] = {str: "text", int: 3, bool: True, float: 2.5}


def test_every_entry_kind_folds_itself_and_round_trips_through_the_log() -> None:
    for kind, cls in ENTRIES.items():
        assert cls.fold is not Entry.fold, f"{kind} does not fold itself"
        values = {s.attr: SAMPLES[s.types[0]] for s in cls.SLOTS}
        made = cls(**values)
        stored = made.to_json()
        assert stored == {"type": kind, **{s.wire: values[s.attr] for s in cls.SLOTS}}
        assert entry_of(stored) == made


def test_a_log_entry_this_server_does_not_know_is_corrupt() -> None:
    for bad in ({"type": "teleport"}, {"type": "join", "seat": 0}, {"type": "kick", "seat": "0"}):
        with pytest.raises(RoomError) as refused:
            entry_of(bad)
        assert refused.value.code == "corrupt"


def test_a_room_folds_the_same_from_entries_and_from_what_the_log_stores() -> None:
    spec = RoomSpec.build("classic", 2, {}, None, False, "en")
    live, rebuilt = RoomState("ABCD", spec), RoomState("ABCD", spec)
    made: list[Entry] = [Join(seat=0, name="Ann", token_hash="h", host=True)]
    live.apply(made[0])
    more = check_host(live, "add_bot", 1, "random", 11)
    assert more is not None
    made += [more, *fill_entries(live, "random", []), Start(seed=5, at="2026-01-01T00:00:00Z")]
    for entry in made[1:]:
        live.apply(entry)
    game = live.game
    assert game is not None
    seat = game.to_act
    assert seat is not None
    first = game.legal_actions(seat)[0]
    made.append(Action(seat=seat, action=first.text, parsed=first))
    live.apply(made[-1])
    for entry in made:
        rebuilt.apply(entry_of(entry.to_json()))
    assert (rebuilt.seq, rebuilt.moves, rebuilt.host_seat) == (live.seq, live.moves, 0)
    assert rebuilt.game is not None and rebuilt.game.to_act == game.to_act


def test_the_hosts_pauses_are_limited_in_all_per_hand_and_per_game_not_per_pause() -> None:
    """Paused 800 s, resumed, paused again: the new pause has the hand's last 100 s, not 15
    minutes again; once spent, ``pause`` is refused ``pause_spent``; a new hand has its own
    allowance within the game's 30 minutes; the allowance is told to everyone and is rebuilt
    from the log's ``at`` times. Each new pause used to start a fresh 15 minutes."""
    from unokit.server.entries import Continue, Pause
    from unokit.server.room import HAND_OVER, PAUSE_GAME_SECONDS, PAUSE_LIMIT_SECONDS

    spec = RoomSpec.build("classic", 2, {}, None, False, "en")
    state = RoomState("ABCD", spec)
    state.apply(Join(seat=0, name="Ann", token_hash="h", host=True))
    bot = check_host(state, "add_bot", 1, "random", 11)
    assert bot is not None
    for made in [bot, Start(seed=5)]:
        state.apply(made)
    log = [Pause(paused=True, by=0, at=1000.0), Pause(paused=False, by=0, at=1800.0)]
    for made in log:
        state.apply(made)
    assert state.pause_left(1800.0) == PAUSE_LIMIT_SECONDS - 800
    state.apply(Pause(paused=True, by=0, at=1900.0))
    assert state.pause_left(1950.0) == PAUSE_LIMIT_SECONDS - 850
    assert state.public()["pause_left"] >= 0  # told to every reader with the room
    state.apply(Pause(paused=False, reason="limit", at=2000.0))
    assert state.pause_left(2000.0) == 0
    with pytest.raises(RoomError) as spent:
        check_host(state, "pause", None, None, 0)
    assert spent.value.code == "pause_spent"
    state.phase = HAND_OVER  # the hand ends; the next one has its own 15 minutes, within the game's 30
    state.apply(Continue())
    assert state.pause_left(2000.0) == min(PAUSE_LIMIT_SECONDS, PAUSE_GAME_SECONDS - PAUSE_LIMIT_SECONDS)
    rebuilt = RoomState("ABCD", spec)
    for made in [Join(seat=0, name="Ann", token_hash="h", host=True), bot, Start(seed=5), *log]:
        rebuilt.apply(entry_of(made.to_json()))
    assert rebuilt.pause_left(1800.0) == PAUSE_LIMIT_SECONDS - 800
