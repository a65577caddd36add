"""The messages of the protocol ``unokit-server/2``, each declared once: one frozen dataclass per
message, in each direction, with its fields, their types, limits and meaning.

Every message is one JSON object with a ``type``. :data:`CLIENT` holds what a client may send
and :data:`SERVER` what the server sends, by type. From these declarations come

* the reading of a client message (:func:`read_message`, the only door in): too large, not
  JSON, nested too deeply, not an object, of an unknown type, a field undeclared, of the wrong
  type or too long, a required one missing: each refused with a :class:`MessageError` naming the
  problem, and nothing of it reaches a room;
* the writing of every message (:meth:`~.shapes.Shape.to_json`, then :func:`.protocol.encode`):
  each message the server sends is built as its class where it is sent (an ``error`` by
  :func:`error`), never written out as a dict (a test scans the server's modules for that, and
  checks what rooms send against these declarations);
* the tables of ``docs/protocol.md`` (:func:`markdown_tables`; a test checks that the page
  holds them as they are made here), and the server's words registry (:mod:`.words`).

A new message is a class here, the room's handling of it, and the Python client's method.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from .limits import MAX_DEPTH, MAX_MESSAGE_BYTES
from .room import RoomError
from .shapes import TEXT_LIMIT, Shape, ShapeError, declare, field_words, read, slot, summary, table

#: Every message a client may send, by type.
CLIENT: dict[str, type[ClientMessage]] = {}
#: Every message the server sends, by type.
SERVER: dict[str, type[ServerMessage]] = {}


class MessageError(RoomError):
    """A client message refused as it was read; ``reply_to`` is its ``id`` when it had a
    usable one, so that the refusal still answers it."""

    def __init__(self, code: str, message: str, reply_to: str | int | None = None) -> None:
        super().__init__(code, message)
        self.reply_to = reply_to


# ---------------------------------------------------------------------- client messages
@dataclass(frozen=True, kw_only=True, slots=True)
class ClientMessage(Shape):
    """A message from a client."""

    id: str | int | None = slot("a text or a whole number that the answer's `reply_to` carries back", default=None)


def client(kind: str) -> Callable[[type[C]], type[C]]:
    return declare(kind, CLIENT)


C = TypeVar("C", bound=ClientMessage)


@client("hello")
@dataclass(frozen=True, kw_only=True, slots=True)
class Hello(ClientMessage):
    """Joins the room. A new player (with `name`) takes the first open seat; a `token` gives its
    seat back. Answered by `welcome`, `state`, then `chat` (the history), or by `redirect`
    ([below](#several-processes-redirects)). One room per connection."""

    room: str = slot("the room's code")
    protocol: str | None = slot("`unokit-server/2`", default=None)
    role: str = slot("`player`, the default, or `spectator`", default="player")
    name: str | None = slot("a new player's name; a spectator's name in the chat", default=None)
    token: str | None = slot("a returning player's seat token", default=None)
    host_token: str | None = slot("marks the connection as the host's", default=None)
    player: str | None = slot("the player's identity, [below](#a-players-identity-and-games)", default=None)
    redirects: bool | None = slot("`true`: the client follows a `redirect`", default=None)
    unreachable: str | None = slot("a `redirect`'s address the client could not reach", default=None)
    visible: bool | None = slot(
        "`false`: the page is hidden, [below](#notifications-when-the-page-is-closed)", default=None
    )


@client("action")
@dataclass(frozen=True, kw_only=True, slots=True)
class Action(ClientMessage):
    """Takes an action for the connection's seat, decided on state `version`."""

    action: str = slot("the action in the text notation")
    version: int = slot("the state version it was decided on")
    token: str = slot("the seat's token")
    seat: int | None = slot("the connection's own seat", default=None)
    decision: str | None = slot("the decision it answers", default=None)


@client("host")
@dataclass(frozen=True, kw_only=True, slots=True)
class Host(ClientMessage):
    """A host command (below)."""

    command: str = slot("the command")
    host_token: str = slot("the room's host token")
    version: int = slot("the state version it was decided on")
    seat: int | None = slot("the seat it is about, where needed", default=None)
    bot: str | None = slot("the bot to seat, where needed", default=None)


@client("more_time")
@dataclass(frozen=True, kw_only=True, slots=True)
class MoreTime(ClientMessage):
    """At the seat's own turn, while the turn timer runs: 30 seconds more, told to everyone (10
    times a game; [accessibility.md](accessibility.md#time-for-everyone)). Refused `no_timer`
    (an untimed room, a turn a stand-in plays), `out_of_turn`, `paused`, `no_more_time`."""

    token: str = slot("the seat's token")


@client("back")
@dataclass(frozen=True, kw_only=True, slots=True)
class Back(ClientMessage):
    """The player is here again: takes the seat back from its stand-in bot."""

    token: str = slot("the seat's token")


@client("leave")
@dataclass(frozen=True, kw_only=True, slots=True)
class Leave(ClientMessage):
    """Gives the seat up (in the lobby, or after a game: [play again](#play-again)); the
    connection stays as a spectator."""

    token: str = slot("the seat's token")


@client("ready")
@dataclass(frozen=True, kw_only=True, slots=True)
class Ready(ClientMessage):
    """After a game: the seat's player wants to play again (or no longer)."""

    token: str = slot("the seat's token")
    ready: bool = slot("true, the default, or false", default=True)


@client("chat")
@dataclass(frozen=True, kw_only=True, slots=True)
class Chat(ClientMessage):
    """Writes in the room's [chat](#chat)."""

    text: str | None = slot("a line of text", default=None)
    reaction: str | None = slot("a quick reaction, instead of `text`", default=None)
    token: str | None = slot("for a seat's player; none for a spectator", default=None)


@client("report")
@dataclass(frozen=True, kw_only=True, slots=True)
class Report(ClientMessage):
    """Reports a chat line, a name or a player's conduct to the server's host
    ([below](#reports-bans-and-the-word-filter)); `no_reports` on a server without moderation."""

    about: str = slot("`chat`, `name` or `conduct`")
    token: str | None = slot("for a seat's player", default=None)
    message: int | None = slot("for `chat`: the line's `n`", default=None)
    seat: int | None = slot("for the others: a player's seat", default=None)
    sender: str | None = slot("for the others: a name in the chat", default=None, wire="from")


@client("quiet")
@dataclass(frozen=True, kw_only=True, slots=True)
class Quiet(ClientMessage):
    """In a room nobody hosts (`room.hosted` false: "play now"), a player quiets the
    spectators' chat, or lets them talk again; `not_host` in a hosted room."""

    token: str = slot("the seat's token")
    quiet: bool = slot("true or false")


@client("hint")
@dataclass(frozen=True, kw_only=True, slots=True)
class Hint(ClientMessage):
    """At the seat's own decision, in a game against bots or a room with the setting `hints`:
    the engine's choice and the seat's chance with it, answered to this connection only by a
    `hint` (then its `ack`); `no_hints` elsewhere,
    `out_of_turn` at another's decision or one with a single choice, `stale` if the game moved
    on meanwhile ([review.md](review.md#hints))."""

    token: str = slot("the seat's token")


@client("visibility")
@dataclass(frozen=True, kw_only=True, slots=True)
class Visibility(ClientMessage):
    """The page shows the table, or is hidden (a tab in the background, a locked phone). A
    player who does not look may be told by [Web Push](#notifications-when-the-page-is-closed);
    a page shown again takes the seat back from the stand-in, as `back` does. Answered by
    `ack`."""

    visible: bool = slot("true or false")


@client("sync")
@dataclass(frozen=True, kw_only=True, slots=True)
class Sync(ClientMessage):
    """Asks for the current `state` again."""


@client("ping")
@dataclass(frozen=True, kw_only=True, slots=True)
class Ping(ClientMessage):
    """Answered by `pong`."""


# ---------------------------------------------------------------------- server messages
@dataclass(kw_only=True, slots=True)
class ServerMessage(Shape):
    """A message from the server, built where it is sent and written at once (``to_json``).

    Unlike a client message (read once, then handed around: frozen), a server message is not
    frozen: a ``state`` goes to every reader after every change, and a frozen dataclass's
    construction costs several times a plain one's."""


def server(kind: str) -> Callable[[type[M]], type[M]]:
    return declare(kind, SERVER)


M = TypeVar("M", bound=ServerMessage)


@server("welcome")
@dataclass(kw_only=True, slots=True)
class Welcome(ServerMessage):
    """The answer to a `hello` that seats the connection, or lets it watch."""

    protocol: str = slot("`unokit-server/2`")
    room: str = slot("the room's code")
    role: str = slot("`player` or `spectator`")
    seat: int | None = slot("`null` for a spectator")
    host: bool = slot("whether the connection is the host's")
    token: str | None = slot("only when a new seat was given: keep it to come back", default=None)
    sender: str | None = slot(
        "the name this connection's chat messages go by in the room (`null` in an offline room, which has no chat)",
        wire="from",
    )
    reply_to: str | int | None = slot("the `hello`'s `id`", default=None)
    rate: dict[str, float] | None = slot(
        "the messages this connection may send: `per_second` on average and `burst` at once "
        "(`unokit serve --rate`, `--burst`); a client that paces itself to it is never refused `rate_limited` "
        "(`null` in an offline room, which has no limit)",
        default=None,
    )


@server("state")
@dataclass(kw_only=True, slots=True)
class State(ServerMessage):
    """The seat's whole view after a change ([below](#the-state-message)). Sent to every
    connection of the room after every committed change."""

    version: int = slot("the room's state version")
    seat: int | None = slot("the reader's seat; `null` for a spectator")
    room: Any = slot("the room object")
    game_step: int = slot("the game's actions so far")
    observation: Any = slot("the seat's view of the game; `null` before the first")
    events: list[Any] = slot("the change's events, as the reader may see them")
    lines: list[Any] = slot("the same events as lines to say")
    standin: int | None = slot("the seat a stand-in bot played for in this change", default=None)
    log: list[Any] | None = slot("after a `hello`: the whole game so far as the reader saw it", default=None)
    summary: Any = slot("when a round ends: the round's summary", default=None)
    reply_to: str | int | None = slot("the `id` of the request it answers", default=None)


@server("room")
@dataclass(kw_only=True, slots=True)
class RoomUpdate(ServerMessage):
    """The room object alone, when only presence or timers changed (someone connected, a seat
    went away)."""

    version: int = slot("the room's state version")
    room: Any = slot("the room object")


@server("ack")
@dataclass(kw_only=True, slots=True)
class Ack(ServerMessage):
    """The request was carried out and committed. An action held by a window's hold
    ([server.md](server.md#out-of-turn-actions-and-the-uno-catch)) is answered when the hold
    ends; a `close` is answered before the `closed` message."""

    reply_to: str | int = slot("the request's `id`")
    version: int = slot("the room's state version after it")


@server("error")
@dataclass(kw_only=True, slots=True)
class Error(ServerMessage):
    """A refusal ([errors](#errors)); for refused room requests the current `state` comes with
    it, so the client can show it at once."""

    code: str = slot("the error's code")
    message: str = slot("in English, for logs and scripts")
    params: dict[str, Any] | None = slot("when the code has any", default=None)
    reason: str | None = slot("the engine's refusal behind an `illegal`, `invalid_action` or `bad_room`", default=None)
    reason_params: dict[str, Any] | None = slot("its parameters", default=None)
    reply_to: str | int | None = slot("the request's `id`", default=None)
    state: Any = slot("the current state", default=None)


@server("closed")
@dataclass(kw_only=True, slots=True)
class Closed(ServerMessage):
    """The room was closed; the connection ends."""

    reason: str | None = slot("`host`: the host closed it; `idle`: nobody used it for a while; `admin`")


@server("redirect")
@dataclass(kw_only=True, slots=True)
class Redirect(ServerMessage):
    """Another process owns the room: say the same `hello` there. The connection ends. Only to a
    client whose `hello` said `redirects`."""

    room: str = slot("the room's code")
    websocket: str = slot("an address, `wss://…/ws`")
    reply_to: str | int | None = slot("the `hello`'s `id`", default=None)


@server("pong")
@dataclass(kw_only=True, slots=True)
class Pong(ServerMessage):
    """The answer to a `ping`."""

    reply_to: str | int | None = slot("the `ping`'s `id`; `null` without one")


@server("chat")
@dataclass(kw_only=True, slots=True)
class ChatMessages(ServerMessage):
    """Chat messages ([below](#chat)), oldest first."""

    history: bool = slot(
        "`true` when they are the whole history this connection may read: after every `hello`, replace what you kept",
        default=False,
    )
    messages: list[Any] = slot("the messages")


@server("hint")
@dataclass(kw_only=True, slots=True)
class HintAnswer(ServerMessage):
    """The answer to a `hint`, to the connection that asked (then its `ack`, when it had an
    `id`): the engine's choice at the seat's decision and the seat's chance to win the hand with
    it ([review.md](review.md#hints))."""

    reply_to: str | int | None = slot("the `hint`'s `id`; `null` without one")
    step: int = slot("the decision's number in the game")
    action: str = slot("the engine's choice, in the notation")
    line: Any = slot("the choice as a line to say (`key` and `params`)")
    chance: float = slot("the seat's chance to win the hand with it, from 0 to 1")


def error(
    code: str,
    message: str,
    reply_to: str | int | None = None,
    state: dict[str, Any] | None = None,
    **detail: Any,
) -> dict[str, Any]:
    """An :class:`Error` message as it is sent; ``state`` is the connection's current ``state``
    message, if any; ``detail`` adds ``params`` and the engine's ``reason`` and ``reason_params``
    (:meth:`RoomError.detail`)."""
    return Error(code=code, message=message, reply_to=reply_to, state=state, **detail).to_json()


# ---------------------------------------------------------------------- reading
def _depth(value: Any, limit: int) -> bool:
    """Whether ``value`` nests no deeper than ``limit`` (iterative: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """Read one client message: the JSON object, once it is one of :data:`CLIENT`'s as declared
    (:func:`read_message`'s first half)."""
    return read_message(raw)[0]


def read_message(raw: str | bytes) -> tuple[dict[str, Any], ClientMessage]:
    """Read one client message: the JSON object (as forwarded to another process) and the
    message it is, as declared (:func:`client_message`, what a room's handler gets); raise
    :class:`MessageError` with code ``too_large``, ``bad_json``, ``too_deep``, ``bad_message``
    or ``unknown_type``, carrying the message's ``id`` whenever the message is a JSON object
    with a text or whole-number ``id``."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes, this one is {size}")
    from .protocol import decode  # the wire's JSON library, only where text is read (see .limits)

    try:
        obj = decode(raw)
    except ValueError as exc:
        if "depth limit" in str(exc):
            raise MessageError("too_deep", f"the message nests deeper than {MAX_DEPTH} levels") from None
        raise MessageError("bad_json", f"the message is not valid JSON: {str(exc)[:120]}") from None
    if not isinstance(obj, dict):
        raise MessageError("bad_message", "a message must be a JSON object with a 'type'")
    given = obj.get("id")
    usable = (isinstance(given, int) and not isinstance(given, bool)) or (
        isinstance(given, str) and len(given) <= TEXT_LIMIT
    )
    try:
        message = client_message(obj)
    except RoomError as exc:
        raise MessageError(exc.code, exc.message, given if usable else None) from None
    return obj, message


def client_message(obj: dict[str, Any]) -> ClientMessage:
    """The client message ``obj`` is (a JSON object, as read or as forwarded by another
    process); raise :class:`RoomError` naming what is wrong with it."""
    if not _depth(obj, MAX_DEPTH):
        raise RoomError("too_deep", f"the message nests objects or lists deeper than {MAX_DEPTH} levels")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise RoomError("bad_message", "a message needs a text 'type'")
    cls = CLIENT.get(kind)
    if cls is None:
        raise RoomError("unknown_type", f"unknown message type {kind[:40]!r}; types are {', '.join(CLIENT)}")
    try:
        message: ClientMessage = read(cls, obj)
    except ShapeError as exc:
        raise RoomError(exc.code, exc.message) from None
    return message


# ---------------------------------------------------------------------- documentation
def fields_of(kind: type[Shape]) -> tuple[str, ...]:
    """The JSON keys of a message's fields, in their declared order."""
    return tuple(s.wire for s in kind.SLOTS)


def _rows(registry: dict[str, Any], skip: tuple[str, ...] = ()) -> Iterator[tuple[str, str, str]]:
    for kind, cls in registry.items():
        yield f"`{kind}`", field_words(s for s in cls.SLOTS if s.wire not in skip), summary(cls)


def markdown_tables() -> dict[str, str]:
    """The tables of ``docs/protocol.md`` made from the declarations, by their marker's name."""
    return {
        "client-messages": table(("`type`", "Fields", "What it does"), _rows(CLIENT, skip=("id",))),
        "server-messages": table(("`type`", "Fields", "What it is"), _rows(SERVER)),
    }


__all__ = [
    "CLIENT",
    "SERVER",
    "Ack",
    "Action",
    "Back",
    "Chat",
    "ChatMessages",
    "ClientMessage",
    "Closed",
    "Error",
    "Hello",
    "Hint",
    "HintAnswer",
    "Host",
    "Leave",
    "MessageError",
    "MoreTime",
    "Ping",
    "Pong",
    "Quiet",
    "Ready",
    "Redirect",
    "Report",
    "RoomUpdate",
    "ServerMessage",
    "State",
    "Sync",
    "Visibility",
    "Welcome",
    "client_message",
    "error",
    "markdown_tables",
    "parse_message",
]
