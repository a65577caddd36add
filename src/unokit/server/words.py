"""The server's closed sets that people read about, declared once: the message types of the
protocol, its error codes with their parameters, the room phases and the room settings.

Each error is sent as its ``code`` with its ``params`` (and an English ``message`` for logs and
scripts); the browser says it in its reader's language from the catalogue key
``server.error.<code>``. :func:`registry_keys` lists every key these sets feed, and those of
the features' own (:attr:`~.seam.Feature.catalogue_keys`), for the catalogue tools and the
tests (``docs/i18n.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from types import MappingProxyType

from ..core.codes import Param, Spec
from .chat import REACTIONS
from .messages import CLIENT, SERVER
from .room import PHASES, Settings

P = Param

#: The messages a client sends (declared in :data:`unokit.server.messages.CLIENT`).
CLIENT_MESSAGES: tuple[str, ...] = tuple(CLIENT)
#: The messages the server sends (declared in :data:`unokit.server.messages.SERVER`).
SERVER_MESSAGES: tuple[str, ...] = tuple(SERVER)


def _spec(code: str, **params: Param) -> Spec:
    return Spec(code, MappingProxyType(dict(params)))


#: Every error code of the protocol and of the HTTP API, with its parameters.
ERRORS = MappingProxyType(
    {
        spec.code: spec
        for spec in (
            _spec("too_large", limit=P.NUMBER),
            _spec("bad_json"),
            _spec("too_deep", limit=P.NUMBER),
            _spec("bad_message"),
            _spec("unknown_type"),
            _spec("rate_limited"),
            _spec("too_many_errors"),
            _spec("bad_protocol"),
            _spec("no_room"),
            _spec("room_closed"),
            _spec("room_full"),
            _spec("room_crowded"),
            _spec("not_joined"),
            _spec("bad_token"),
            _spec("spectator"),
            _spec("foreign_seat"),
            _spec("stale"),
            _spec("duplicate"),
            _spec("out_of_turn"),
            _spec("invalid_action"),
            _spec("illegal"),
            _spec("phase"),
            _spec("not_host"),
            _spec("seats_open"),
            _spec("seat_taken"),
            _spec("bad_seat"),
            _spec("bad_bot"),
            _spec("unavailable"),
            _spec("bad_room"),
            _spec("bad_settings"),
            _spec("bad_request"),
            _spec("bad_cards", given=P.TEXT),
            _spec("no_record"),
            _spec("bad_record"),
            _spec("bad_step"),
            _spec("corrupt"),
            _spec("offline"),
            _spec("bad_chat"),
            _spec("muted"),
            _spec("seat_lost"),
            _spec("no_hello"),
            _spec("bad_name"),
            _spec("name_taken", name=P.TEXT),
            _spec("bad_host"),
            _spec("bad_origin"),
            _spec("not_json"),
            _spec("internal"),
            _spec("forbidden"),
            _spec("bad_player"),
            _spec("filtered"),
            _spec("banned"),
            _spec("too_many_rooms", most=P.NUMBER),
            _spec("too_many_seats", most=P.NUMBER),
            _spec("already_seated"),
            _spec("bad_report"),
            _spec("no_reports"),
            _spec("no_ban"),
            _spec("no_route"),
            _spec("bad_method"),
            _spec("too_many_reviews"),
            _spec("no_hints"),
            _spec("paused"),
            _spec("not_paused"),
            _spec("pause_spent"),
            _spec("no_timer"),
            _spec("no_more_time", most=P.NUMBER),
            _spec("no_deal", deal=P.TEXT),
            _spec("push_off"),
            _spec("bad_subscription"),
            _spec("push_taken"),
            _spec("sealed", until=P.TEXT),
            _spec("no_arena"),
            _spec("arena_over"),
            _spec("not_your_table"),
        )
    }
)

#: Why a room was closed (the ``reason`` of a ``close`` log entry and of the ``closed`` message).
CLOSE_REASONS: tuple[str, ...] = ("host", "idle", "admin")
#: The states of a browser's connection to its room, as its status line says them.
CONNECTION_STATES: tuple[str, ...] = ("connecting", "reconnecting", "lost", "connected")

#: The models the virtual launcher page offers (``/#/launcher``), each with a description.
LAUNCHER_PAGE_MODELS: tuple[str, ...] = ("random", "pattern", "one_card")

#: The room settings people set (the stand-in bot is chosen by the server).
SETTINGS: tuple[str, ...] = tuple(f.name for f in fields(Settings) if f.name != "standin_bot")


def registry_keys() -> Iterator[str]:
    """Every catalogue key of the server's closed sets."""
    for code in ERRORS:
        yield f"server.error.{code}"
    for phase in PHASES:
        yield f"phase.{phase}"
    for reason in CLOSE_REASONS:
        yield f"room.closed.{reason}"
    for state in CONNECTION_STATES:
        yield f"net.{state}"
    for model in LAUNCHER_PAGE_MODELS:
        yield f"launcher.model.{model}"
    for reaction in REACTIONS:
        yield f"reaction.{reaction}"
    for name in SETTINGS:
        yield f"setting.{name}"
        yield f"setting.{name}.help"
    from .features import FEATURES  # (they read this module's closed sets)

    for feature in FEATURES:
        if feature.catalogue_keys is not None:
            yield from feature.catalogue_keys()


__all__ = [
    "CLIENT_MESSAGES",
    "CLOSE_REASONS",
    "CONNECTION_STATES",
    "ERRORS",
    "LAUNCHER_PAGE_MODELS",
    "SERVER_MESSAGES",
    "SETTINGS",
    "registry_keys",
]
