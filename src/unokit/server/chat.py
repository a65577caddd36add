"""A room's chat as the fold of its chat log: pure data and rules, no I/O, no clock.

The chat log is kept apart from the room log (``docs/protocol.md``, "Chat"): a message never
changes the room's state version, so talking can never make a player's action stale, and it
never enters a game's record. Its entries, of the kinds :class:`ChatEntryKind` declares and each
folded by its function of :data:`FOLDS`, are

* ``say`` (``seat``, ``name``, ``channel``, ``game``, ``live``, ``text``, ``from``): a line of
  free text; ``from`` is the name its sender goes by in the room (:func:`~.room.sender`), the
  same for all of one person's messages, so that a reader can mute them for themselves or
  report them;
* ``react`` (the same, with ``reaction`` instead of ``text``): one of :data:`REACTIONS`;
* ``mute`` (``seat``, ``who``, ``marks``, ``spared``, ``muted``): the host muted or unmuted a
  seat's occupant (``who`` is the hash of their seat token, so a newcomer in the seat is not
  muted; ``marks`` the names their identity and their address go by in the room, so that
  leaving the seat and sitting down again does not unmute them; ``spared`` the seat tokens of
  the others already seated with one of those marks, a household's other players, who stay
  unmuted), or, with ``seat`` null, every spectator (in a room with no host, a player may:
  ``by`` names the seat).

``channel`` is ``players`` for a message from a seat and ``spectators`` for one from a
spectator. While a game is live (phases ``playing`` and ``hand_over``) spectators' messages of
that game are shown to spectators only; once it is over they join the players' chat
(:func:`visible`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from . import wordfilter
from .room import HAND_OVER, NAME_MARKS, PLAYING, RoomError, stacked_marks

#: The quick reactions, declared once: their keys travel in the protocol; the pages say them in
#: the reader's language.
REACTIONS = ("uno", "nice", "oops", "gg", "hurry", "yes", "laugh", "wow", "sad", "heart")

#: The longest chat line, in characters (after surrounding spaces are removed).
MAX_TEXT = 280
#: How many messages a connection is sent on joining (the newest it may see).
HISTORY = 100
#: How many messages a room keeps in memory (all of them stay in the database).
KEPT = 500

PLAYERS, SPECTATORS = "players", "spectators"
LIVE_PHASES = (PLAYING, HAND_OVER)
#: How much more all of a room's spectators may write together than one of them (and one
#: address across all rooms than one sender in one).
SPECTATORS_SHARE = 3.0
#: What a player may report: a chat line, a name, a player's conduct.
REPORTS = ("chat", "name", "conduct")


def check_text(text: str) -> str:
    """``text`` as it is stored: stripped; raise :class:`RoomError` ``bad_chat`` when it is empty,
    longer than :data:`MAX_TEXT`, holds control characters (line breaks included) or a stack of
    combining marks (more than a script needs on one letter, as in names), ``filtered`` when it
    holds a word of the host's filter (:mod:`.wordfilter`). Anything else, markup included, is
    kept as it was written: pages show it as text."""
    line = text.strip()
    if not line:
        raise RoomError("bad_chat", "a chat message needs some text")
    if len(line) > MAX_TEXT:
        raise RoomError("bad_chat", f"a chat message may be at most {MAX_TEXT} characters, this one has {len(line)}")
    if not line.isprintable():
        raise RoomError("bad_chat", "a chat message is one line of printable characters")
    if stacked_marks(line):
        raise RoomError("bad_chat", f"a chat message may carry at most {NAME_MARKS} marks on one character")
    if wordfilter.refused(line):
        raise RoomError("filtered", "this message holds a word this server does not allow")
    return line


def check_reaction(reaction: str) -> str:
    if reaction not in REACTIONS:
        raise RoomError("bad_chat", f"unknown reaction {reaction[:40]!r}; reactions are {', '.join(REACTIONS)}")
    return reaction


class ChatEntryKind(StrEnum):
    """The ``type`` of a chat-log entry (the module's docstring says what each holds)."""

    SAY = "say"
    REACT = "react"
    MUTE = "mute"


@dataclass
class ChatState:
    """The messages of a room and who is muted, advanced one chat-log entry at a time."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    muted_occupants: set[str] = field(default_factory=set)  # seat-token hashes
    #: The muted people's identities and addresses, each with the seat tokens it spares.
    muted_marks: dict[str, set[str]] = field(default_factory=dict)
    spectators_muted: bool = False
    count: int = 0  # entries folded so far (the chat log's last number)

    def apply(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """Fold one entry (by its kind's function in :data:`FOLDS`; ``ValueError`` for a
        ``type`` that is not a :class:`ChatEntryKind`); return the message it adds (numbered
        ``n``), if any."""
        self.count += 1
        return FOLDS[ChatEntryKind(entry["type"])](self, entry)

    def _fold_message(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A ``say`` or a ``react``: the message, numbered."""
        message = {key: value for key, value in entry.items() if key != "type"}
        message["n"] = self.count
        self.add(message)
        return message

    def _fold_mute(self, entry: dict[str, Any]) -> None:
        """A ``mute``: the seat's occupant and their marks (or every spectator) muted or unmuted."""
        marks = set(entry.get("marks", ()))
        if entry.get("seat") is None:
            self.spectators_muted = bool(entry["muted"])
        elif entry["muted"]:
            self.muted_occupants.add(entry["who"])
            for mark in marks:
                self.muted_marks.setdefault(mark, set()).update(entry.get("spared", ()))
        else:
            self.muted_occupants.discard(entry["who"])
            for mark in marks:
                self.muted_marks.pop(mark, None)

    def add(self, message: dict[str, Any]) -> None:
        """Keep a numbered message (folded here, or committed by the process that owns the room)."""
        self.count = max(self.count, message["n"])
        self.messages.append(message)
        if len(self.messages) > KEPT:
            del self.messages[: len(self.messages) - KEPT]

    def muted_seats(self, occupants: list[str | None], marks: dict[str, set[str]]) -> list[int]:
        """The seats whose occupants (their token hashes, by seat; ``marks`` by token hash) are muted."""
        return [
            seat
            for seat, who in enumerate(occupants)
            if who is not None and self.is_muted(seat, who, marks.get(who, set()))
        ]

    def is_muted(self, seat: int | None, occupant: str | None, marks: set[str] | frozenset[str] = frozenset()) -> bool:
        """Whether the person at ``seat`` (``None``: a spectator), holding the seat token
        ``occupant`` and known by ``marks`` (their identity's and address's names in the room),
        is muted: by their seat token, or, after leaving and sitting down again, by a mark."""
        if seat is None:
            return self.spectators_muted
        if occupant is not None and occupant in self.muted_occupants:
            return True
        return any(occupant not in self.muted_marks.get(mark, {occupant}) for mark in marks)


#: How each kind of chat-log entry is folded into a :class:`ChatState` (what it adds, if a message).
FOLDS: dict[ChatEntryKind, Callable[[ChatState, dict[str, Any]], dict[str, Any] | None]] = {
    ChatEntryKind.SAY: ChatState._fold_message,
    ChatEntryKind.REACT: ChatState._fold_message,
    ChatEntryKind.MUTE: ChatState._fold_mute,
}


def visible(message: dict[str, Any], seat: int | None, game_no: int, phase: str) -> bool:
    """Whether the reader at ``seat`` (``None``: a spectator) may see ``message`` while the room
    is in ``phase`` of game ``game_no``: spectators' messages of a live game stay with the
    spectators until that game is over."""
    if seat is None or message["channel"] != SPECTATORS or not message.get("live"):
        return True
    return not (message.get("game") == game_no and phase in LIVE_PHASES)


def history(chat: ChatState, seat: int | None, game_no: int, phase: str) -> list[dict[str, Any]]:
    """The newest :data:`HISTORY` messages the reader may see, oldest first."""
    shown = [m for m in chat.messages if visible(m, seat, game_no, phase)]
    return shown[-HISTORY:]


__all__ = [
    "FOLDS",
    "HISTORY",
    "MAX_TEXT",
    "PLAYERS",
    "REACTIONS",
    "REPORTS",
    "SPECTATORS",
    "SPECTATORS_SHARE",
    "ChatEntryKind",
    "ChatState",
    "check_reaction",
    "check_text",
    "history",
    "visible",
]
