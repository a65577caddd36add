"""The server's dispatch tables are complete: every client message the protocol declares has the
room's handler or is answered before the room's queue (:mod:`unokit.server.authority`), every
kind of queue item (:mod:`unokit.server.items`) has its handler, every kind of out-of-turn window
(:mod:`unokit.core.windows`) has its hold and every kind of timer its answer in the room's pacing,
every kind of chat-log entry its fold (:mod:`unokit.server.chat`), and every kind of message
between the processes of a cluster its answer in the hub (:mod:`unokit.server.cluster`)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import cast

import pytest

from unokit.server import items
from unokit.server.authority import ITEMS, NOT_ROOM_MESSAGES, ROOM_MESSAGES, SEATS_CHANGE
from unokit.server.messages import CLIENT, ClientMessage


def test_every_client_message_has_one_place_that_answers_it() -> None:
    """The room, the connection, or one feature; a feature's is refused by its own code when
    the feature is off."""
    from unokit.server.features import FEATURES

    handled = set(ROOM_MESSAGES)
    elsewhere = set(NOT_ROOM_MESSAGES)
    by_features: list[type[ClientMessage]] = [kind for feature in FEATURES for kind in feature.refusals]
    assert handled.isdisjoint(elsewhere) and handled.isdisjoint(by_features) and elsewhere.isdisjoint(by_features)
    assert len(by_features) == len(set(by_features))  # one feature each
    assert handled | elsewhere | set(by_features) == set(CLIENT.values())
    assert handled >= SEATS_CHANGE


def test_a_features_room_messages_are_those_it_refuses_when_off(tmp_path: Path) -> None:
    """A server with every feature answers each feature's messages; one without them refuses
    each by the feature's code."""
    from unokit.server.app import create_app
    from unokit.server.config import ServerConfig
    from unokit.server.features import FEATURES, NAMES
    from unokit.server.hub import Hub
    from unokit.server.room import RoomError

    every = cast(Hub, create_app(ServerConfig(database=f"sqlite:///{tmp_path / 'a.db'}")).state.hub)
    none = cast(
        Hub, create_app(ServerConfig(database=f"sqlite:///{tmp_path / 'b.db'}", without=frozenset(NAMES))).state.hub
    )
    for feature in FEATURES:
        for kind, (code, _text) in feature.refusals.items():
            assert callable(every.room_message(kind)), (feature.name, kind)
            with pytest.raises(RoomError) as refused:
                none.room_message(kind)
            assert refused.value.code == code, (feature.name, kind)
    assert set(every.feature_answers) == {kind for feature in FEATURES for kind in feature.refusals}


def test_every_kind_of_queue_item_has_its_handler() -> None:
    kinds = {
        value
        for value in vars(items).values()
        if isinstance(value, type) and issubclass(value, items.Item) and value not in (items.Item, items.Stop)
    }
    assert kinds == set(ITEMS)
    people = {kind.__name__ for kind in kinds if kind.PEOPLE}
    assert people == {"Arrived", "Said", "Gone", "RemotePresence"}  # only these keep a room from idling


def test_every_kind_of_out_of_turn_window_has_its_hold() -> None:
    from unokit.core.types import WindowKind
    from unokit.server.pacing import HOLDS
    from unokit.server.room import Settings

    assert set(HOLDS) == set(WindowKind)
    settings = Settings(catch_seconds=1.5, jump_seconds=2.5)
    assert {kind: hold.seconds(settings) for kind, hold in HOLDS.items()} == {
        WindowKind.UNO_CATCH: 1.5,
        WindowKind.JUMP_IN: 2.5,
    }


def test_every_room_handler_takes_its_own_declared_message() -> None:
    """Each handler of :data:`ROOM_MESSAGES` is given the message as declared in
    :mod:`unokit.server.messages`, not a raw dict: its last parameter names the class it is
    registered for (so ``mypy --strict`` checks every field it reads)."""
    for kind, handler in ROOM_MESSAGES.items():
        parameters = list(inspect.signature(handler).parameters.values())
        assert parameters[-1].annotation == f"messages.{kind.__name__}", (kind, handler)


def test_every_kind_of_chat_log_entry_has_its_fold() -> None:
    from unokit.server.chat import FOLDS, ChatEntryKind, ChatState

    assert set(FOLDS) == set(ChatEntryKind)
    chat = ChatState()
    said = {"type": "say", "seat": 0, "name": "Ann", "channel": "players", "text": "hi", "from": "a"}
    assert chat.apply(said) == {**{k: v for k, v in said.items() if k != "type"}, "n": 1}
    assert chat.apply({"type": "mute", "seat": None, "who": None, "muted": True}) is None
    assert chat.spectators_muted and chat.count == 2 and len(chat.messages) == 1
    with pytest.raises(ValueError):
        chat.apply({"type": "shout"})


def test_every_kind_of_timer_has_its_answer() -> None:
    from unokit.server.items import Timer
    from unokit.server.pacing import TIMERS

    assert set(TIMERS) == set(Timer)
    assert {kind for kind, answer in TIMERS.items() if answer.any_version} == {Timer.GRACE}
    assert {kind for kind, answer in TIMERS.items() if answer.in_play} == {
        Timer.REACT,
        Timer.TURN_TIMEOUT,
        Timer.BOT_MOVE,
    }


def test_every_kind_of_message_between_processes_has_its_answer() -> None:
    from unokit.server.cluster import ClusterKind
    from unokit.server.owners import NOTIFIED

    assert set(NOTIFIED) == set(ClusterKind)
