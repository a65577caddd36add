"""The room's dispatch tables are complete (:mod:`unokit.server.authority`): every client message
the protocol declares has the room's handler or is answered before the room's queue, and every
kind of queue item (:mod:`unokit.server.items`) has its handler."""

from __future__ import annotations

from unokit.server import items
from unokit.server.authority import ITEMS, NOT_ROOM_MESSAGES, ROOM_MESSAGES, SEATS_CHANGE
from unokit.server.messages import CLIENT


def test_every_client_message_has_one_place_that_answers_it() -> None:
    handled = set(ROOM_MESSAGES)
    elsewhere = set(NOT_ROOM_MESSAGES)
    assert handled.isdisjoint(elsewhere)
    assert handled | elsewhere == set(CLIENT.values())
    assert handled >= SEATS_CHANGE


def test_every_kind_of_queue_item_has_its_handler() -> None:
    kinds = {
        value
        for value in vars(items).values()
        if isinstance(value, type) and issubclass(value, items.Item) and value not in (items.Item, items.Stop)
    }
    assert kinds == set(ITEMS)
    people = {kind.__name__ for kind in kinds if kind.PEOPLE}
    assert people == {"Arrived", "Said", "Gone", "RemotePresence"}  # only these keep a room from idling
