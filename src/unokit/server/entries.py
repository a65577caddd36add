"""The room log's entries, each declared once as a frozen dataclass that folds itself into the
room's state (``docs/protocol.md``, "The room log").

An entry is what a room stores of one committed change: :meth:`Entry.fold` is the one place that
change is made, whether the room is advanced by its owner, rebuilt after a crash, or followed by
another process. :data:`ENTRIES` holds every kind by its ``type``; :func:`entry_of` reads one
from the log. The checks that make an entry from a request (the phase it needs, the seat, the
bot) sit beside it: the room asks them once, then commits what they made.

Only an ``action`` can be refused when it is folded: the engine judges it there, once
(``illegal``, ``invalid_action``), and changes nothing when it refuses.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .. import Event, Game, InvalidActionError, UnokitError
from ..core.actions import Action as EngineAction
from ..i18n import N_
from ..i18n.lines import Line
from ..record.hints import HintMark
from .room import (
    CLOSED,
    FINISHED,
    HAND_OVER,
    HOST_PHASES,
    LEAVE_PHASES,
    LOBBY,
    MORE_TIME_SECONDS,
    MORE_TIMES,
    PLAYING,
    POLICY_BOTS,
    RoomError,
    SeatState,
)
from .shapes import Shape, ShapeError, declare, field_words, read, slot, summary, table

if TYPE_CHECKING:
    from .messages import Action as ActionRequest
    from .room import RoomState

#: Every kind of room-log entry, by its ``type``.
ENTRIES: dict[str, type[Entry]] = {}


@dataclass(frozen=True, kw_only=True, slots=True)
class Entry(Shape):
    """One committed change of a room."""

    #: Whether the entry is one of a game's moves (the metrics count them).
    MOVE: ClassVar[bool] = False

    def fold(self, state: RoomState) -> list[Event]:
        """Make the change in ``state``; return the game events it caused (full, unredacted)."""
        raise NotImplementedError


E = TypeVar("E", bound=Entry)


def entry(kind: str) -> Callable[[type[E]], type[E]]:
    return declare(kind, ENTRIES)


def entry_of(obj: dict[str, Any]) -> Entry:
    """The entry a log holds as ``obj``; raise :class:`RoomError` ``corrupt`` for one that is
    not an entry of this server."""
    cls = ENTRIES.get(str(obj.get("type")))
    if cls is None:
        raise RoomError("corrupt", f"unknown log entry {obj.get('type')!r}")
    try:
        found: Entry = read(cls, obj, strict=False)
    except ShapeError as exc:
        raise RoomError("corrupt", f"log entry {obj.get('type')!r} does not apply: {exc.message}") from None
    return found


def _vacate(state: RoomState, seat: int) -> None:
    """The seat's occupant goes: the host's seat is no longer the host's."""
    if state.host_seat == seat:
        state.host_seat = None


def _free(state: RoomState, seat: int) -> list[Event]:
    """The seat's occupant goes (kicked, or leaving): the seat is open."""
    _vacate(state, seat)
    state.seats[seat] = SeatState()
    return []


@entry("join")
@dataclass(frozen=True, kw_only=True, slots=True)
class Join(Entry):
    """A person takes an open seat."""

    seat: int = slot("the seat")
    name: str = slot("their name as the table shows it")
    token_hash: str = slot("SHA-256 of the seat token; tokens themselves are never stored")
    host: bool = slot("true when the player joined with the host's token", default=False)

    def fold(self, state: RoomState) -> list[Event]:
        _vacate(state, self.seat)
        state.seats[self.seat] = SeatState("human", self.name, token_hash=self.token_hash)
        if self.host:
            state.host_seat = self.seat
        return []

    @staticmethod
    def check(state: RoomState, name: object) -> tuple[int, str]:
        """The seat a new player named ``name`` would take and the name as it is kept
        (:meth:`RoomState.check_name`); raise :class:`RoomError`."""
        text = state.check_name(name)
        if state.phase not in (LOBBY, HAND_OVER, FINISHED):
            raise RoomError("phase", f"players may join only between games or hands, not in the {state.phase} phase")
        for index, seat in enumerate(state.seats):
            if seat.kind == "open":
                return index, text
        raise RoomError("room_full", "every seat is taken; join as a spectator")


@entry("bot")
@dataclass(frozen=True, kw_only=True, slots=True)
class Bot(Entry):
    """A bot takes a seat (the host's `add_bot` or `replace`, or the room filling its open seats)."""

    seat: int = slot("the seat")
    bot: str = slot("the bot's level or engine name")
    name: str = slot("the person's name it sits down with")
    seed: int = slot("its random seed")

    def fold(self, state: RoomState) -> list[Event]:
        _vacate(state, self.seat)
        state.seats[self.seat] = SeatState("bot", self.name, self.bot, self.seed)
        return []


@entry("kick")
@dataclass(frozen=True, kw_only=True, slots=True)
class Kick(Entry):
    """The host frees a seat."""

    seat: int = slot("the seat")

    def fold(self, state: RoomState) -> list[Event]:
        return _free(state, self.seat)


@entry("leave")
@dataclass(frozen=True, kw_only=True, slots=True)
class Leave(Entry):
    """A player gives their seat up."""

    seat: int = slot("the seat")

    def fold(self, state: RoomState) -> list[Event]:
        return _free(state, self.seat)

    @staticmethod
    def check(state: RoomState, seat: int) -> Leave:
        """The entry for the player at ``seat`` giving it up (before a game or after one; during a
        game a stand-in bot plays an absent player's seat)."""
        if state.phase not in LEAVE_PHASES:
            raise RoomError("phase", "a seat can be left only before a game or after it; during a game a bot plays it")
        return Leave(seat=seat)


@entry("ready")
@dataclass(frozen=True, kw_only=True, slots=True)
class Ready(Entry):
    """After a game, a player says whether they want to play again."""

    seat: int = slot("the seat")
    ready: bool = slot("whether they want to")

    def fold(self, state: RoomState) -> list[Event]:
        state.seats[self.seat].ready = bool(self.ready)
        return []

    @staticmethod
    def check(state: RoomState, seat: int, ready: bool) -> Ready:
        if state.phase != FINISHED:
            raise RoomError("phase", f"'play again' is for after a game; the room is in its {state.phase} phase")
        if state.seats[seat].kind != "human":
            raise RoomError("bad_seat", f"seat {seat} holds no player")
        return Ready(seat=seat, ready=ready)


@entry("public")
@dataclass(frozen=True, kw_only=True, slots=True)
class Public(Entry):
    """The host lists the room in the lobby, or no longer."""

    public: bool = slot("listed in the lobby or not")

    def fold(self, state: RoomState) -> list[Event]:
        state.public_room = bool(self.public)
        return []


@entry("start")
@dataclass(frozen=True, kw_only=True, slots=True)
class Start(Entry):
    """A new game, `Game.new(variant, players, seed, **options)` (after a finished game, or when
    `fill_seconds` runs out, `bot` entries for the open seats come first, in the same commit)."""

    seed: int = slot("the game's seed")
    at: str | None = slot("when it started, UTC", default=None)

    def fold(self, state: RoomState) -> list[Event]:
        state.game_no += 1
        state.seed = self.seed
        state.moves = []
        state.hints = []
        state.more_times = {}
        state.turn_more = 0
        state.paused, state.paused_by = False, None
        state.paused_at, state.paused_hand, state.paused_game = None, 0.0, 0.0
        state.started_at = self.at
        state.game, events = Game.new(state.spec.variant, state.spec.players, self.seed, **state.spec.options)
        state.steps = [(events, None)]
        state.phase = PLAYING
        for seat in state.seats:
            seat.ready = False
            seat.game_moves = seat.game_standins = 0
        return events


@entry("hint")
@dataclass(frozen=True, kw_only=True, slots=True)
class Hint(Entry):
    """A hint shown to a seat before its decision at `step` (the game's record marks it,
    `meta.hints`)."""

    step: int = slot("the decision's number in the game")
    seat: int = slot("the seat")
    action: str = slot("the engine's choice, in the notation")
    chance: float = slot("its chance to win the hand")
    effort: str = slot("the search's effort")

    def fold(self, state: RoomState) -> list[Event]:
        state.hints.append(HintMark(self.step, self.seat, self.action, self.chance, self.effort))
        return []


def _reaction(text: str) -> bool:
    """A catch or a late UNO call: an action a person's page may send while a stand-in still
    plays their turns, so it does not count as the person being back."""
    return text.split(" ", 1)[0] in ("catch", "uno")


@entry("action")
@dataclass(frozen=True, kw_only=True, slots=True)
class Action(Entry):
    """A seat's move."""

    MOVE: ClassVar[bool] = True

    seat: int = slot("the seat")
    action: str = slot("the canonical text notation")
    standin: bool = slot("true when a stand-in bot played it for an away person", default=False)
    #: The action as the engine read it, when the room has read it already (never stored).
    parsed: EngineAction | None = dataclasses.field(
        default=None, compare=False, repr=False, metadata={"internal": True}
    )

    def fold(self, state: RoomState) -> list[Event]:
        game = state.game
        if game is None:
            raise RoomError("phase", "no game has started in this room")
        try:
            action = self.parsed if self.parsed is not None else game.parse_action(self.action, self.seat)
            events = game.apply(action, self.seat)
        except InvalidActionError as exc:
            raise RoomError("invalid_action", str(exc), cause=exc) from None
        except UnokitError as exc:  # the engine refused and changed nothing
            raise RoomError("illegal", str(exc), cause=exc) from None
        state.moves.append((self.seat, action.text))
        state.turn_more = 0
        state.steps.append((events, self.seat if self.standin else None))
        occupant = state.seats[self.seat]
        occupant.game_moves += 1
        if self.standin:
            occupant.game_standins += 1
            occupant.standin_moves += 1
            state.last_standin = self.seat
        elif occupant.kind == "human" and not _reaction(action.text):
            occupant.standin_moves = 0
        return state.after_action(events)

    @staticmethod
    def read(state: RoomState, seat: int, msg: ActionRequest, last: tuple[int, str] | None = None) -> EngineAction:
        """The action a request of ``seat`` (already known to hold it) asks for, read once by the
        engine: decided on the current state ``version`` and, at the seat's turn, on the open
        ``decision``; ``last`` is the seat's last accepted ``(version, action)``, so that a double
        tap is told ``duplicate``. Raise :class:`RoomError` ``duplicate``, ``stale``, ``phase``,
        ``paused``, ``invalid_action``, ``illegal`` or ``out_of_turn``."""
        version, text = msg.version, msg.action
        if version != state.seq:
            if last == (version, text):
                raise RoomError("duplicate", f"this action was already taken at version {version}")
            raise RoomError("stale", f"the action was decided at version {version}; the room is at {state.seq}")
        game = Action.check(state)
        if msg.decision is not None and seat == game.to_act and msg.decision != game.decision:
            raise RoomError("stale", f"the open decision is {game.decision}, not {msg.decision}")
        try:
            action = game.parse_action(text, seat)
        except InvalidActionError as exc:
            raise RoomError("invalid_action", str(exc), cause=exc) from None
        except UnokitError as exc:
            raise RoomError("illegal", str(exc), cause=exc) from None
        if action not in game.legal_actions(seat) and seat != game.to_act:
            raise RoomError("out_of_turn", f"{text!r}: it is seat {game.to_act}'s decision ({game.decision})")
        return action

    @staticmethod
    def check(state: RoomState) -> Game:
        """The game an action would be taken in; raise :class:`RoomError` ``phase`` when the room
        is not playing. The engine judges the action itself when it is folded."""
        if state.phase != PLAYING or state.game is None:
            raise RoomError("phase", f"no action can be taken now: the room is in its {state.phase} phase")
        if state.paused:
            raise RoomError("paused", "the host has paused the game; wait until it goes on")
        return state.game


@entry("more_time")
@dataclass(frozen=True, kw_only=True, slots=True)
class MoreTime(Entry):
    """A player asked for more time at their turn: the turn timer gets `MORE_TIME_SECONDS` (30)
    more; each person may ask `MORE_TIMES` (10) times a game."""

    seat: int = slot("the seat")

    def fold(self, state: RoomState) -> list[Event]:
        used = state.more_times.get(self.seat, 0) + 1
        state.more_times[self.seat] = used
        state.turn_more += 1
        params = {"player": self.seat, "count": int(MORE_TIME_SECONDS), "number": MORE_TIMES - used}
        state.said = [Line(N_("room.more_time"), params)]
        return []

    @staticmethod
    def check(state: RoomState, seat: int, *, timed: bool) -> MoreTime:
        """The entry for ``seat`` asking for more time; ``timed``: the turn timer runs for the
        seat now (a person at their turn, not played by a stand-in, in a room with a timer).
        Raise :class:`RoomError`: ``phase`` (no game is being played), ``paused``,
        ``no_timer`` (an untimed room), ``out_of_turn`` (another seat's decision, whether
        or not a timer runs for it), ``no_timer`` (a stand-in playing the seat),
        ``no_more_time`` (the seat has asked :data:`MORE_TIMES` times this game)."""
        game = Action.check(state)
        if state.spec.settings.turn_seconds <= 0:
            raise RoomError("no_timer", "no timer runs for your turns: there is no time to add")
        if game.to_act != seat:
            raise RoomError("out_of_turn", "more time is for your own turn")
        if not timed:
            raise RoomError("no_timer", "no timer runs for your turns: there is no time to add")
        if state.more_times.get(seat, 0) >= MORE_TIMES:
            raise RoomError(
                "no_more_time", f"you have asked for more time {MORE_TIMES} times this game", most=MORE_TIMES
            )
        return MoreTime(seat=seat)


@entry("pause")
@dataclass(frozen=True, kw_only=True, slots=True)
class Pause(Entry):
    """The host paused the table, or let it go on (`reason` `host`); a pause also ends by itself
    once the hand's or the game's allowance of paused time is spent (`PAUSE_LIMIT_SECONDS` a hand,
    `PAUSE_GAME_SECONDS` a game, in all: `limit`) or once the host's seat is marked away
    (`host_away`)."""

    paused: bool = slot("paused or going on")
    by: int | None = slot("the host's seat; `null` for a host without one", default=None)
    reason: str = slot("`host`, `limit` or `host_away`", default="host")
    at: float | None = slot("when (seconds since the epoch): the pauses' time is counted from it", default=None)

    def fold(self, state: RoomState) -> list[Event]:
        if self.paused:
            state.paused_at = self.at
        elif state.paused_at is not None and self.at is not None:
            spent = max(0.0, self.at - state.paused_at)
            state.paused_hand += spent
            state.paused_game += spent
        if not self.paused:
            state.paused_at = None
        state.paused, state.paused_by = bool(self.paused), self.by if self.paused else None
        named = self.by is not None and self.reason == "host"
        if self.paused:
            key = N_("room.paused_by") if named else N_("room.paused")
        else:
            key = N_("room.resumed_by") if named else RESUMED[self.reason]
        state.said = [Line(key, {"player": self.by} if named else {})]
        return []


#: The line that says the table goes on, by why (a host with a seat who resumes is named:
#: ``room.resumed_by``).
RESUMED: dict[str, str] = {
    "host": N_("room.resumed"),
    "limit": N_("room.resumed_limit"),
    "host_away": N_("room.resumed_host_away"),
}


@entry("continue")
@dataclass(frozen=True, kw_only=True, slots=True)
class Continue(Entry):
    """The next hand."""

    def fold(self, state: RoomState) -> list[Event]:
        state.phase = PLAYING
        state.paused_hand = 0.0  # a new hand, a new allowance of paused time (within the game's)
        events, state.next_deal = state.next_deal, []
        return events


@entry("close")
@dataclass(frozen=True, kw_only=True, slots=True)
class Close(Entry):
    """The room is closed."""

    reason: str = slot("`host`, `idle` or `admin`", default="closed")

    def fold(self, state: RoomState) -> list[Event]:
        state.phase = CLOSED
        state.closed_reason = self.reason
        return []


# ---------------------------------------------------------------------- host commands
def _seat_number(state: RoomState, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise RoomError("bad_seat", f"'seat' must be a seat number from 0 to {len(state.seats) - 1}")
    return seat


def _seat_a_bot(state: RoomState, command: str, seat: object, bot: object, seed: int) -> Entry:
    index = _seat_number(state, seat)
    current = state.seats[index]
    if command == "add_bot" and current.kind != "open":
        raise RoomError("seat_taken", f"seat {index} is not open; 'replace' it instead")
    name = state.check_bot(bot)
    if name in POLICY_BOTS:
        state.check_policy(name)
    return Bot(seat=index, bot=name, name=state.bot_person_name(index), seed=seed)


def _kick(state: RoomState, seat: object) -> Entry:
    index = _seat_number(state, seat)
    if state.seats[index].kind == "open":
        raise RoomError("bad_seat", f"seat {index} is already open")
    return Kick(seat=index)


def _every_seat_taken(state: RoomState) -> None:
    empty = [i for i, s in enumerate(state.seats) if s.kind == "open"]
    if empty and state.phase != FINISHED:  # after a game, bots take the seats left open
        raise RoomError("seats_open", f"seats {', '.join(map(str, empty))} are empty: add a bot or wait for a player")


def _continue(state: RoomState) -> Entry:
    if state.paused:
        raise RoomError("paused", "the host has paused the game; resume it first")
    _every_seat_taken(state)
    return Continue()


def _pause(state: RoomState, paused: bool) -> Entry:
    if state.paused == paused:
        if paused:
            raise RoomError("paused", "the game is already paused")
        raise RoomError("not_paused", "the game is not paused")
    now = time.time()
    if paused and state.pause_left(now) <= 0:
        raise RoomError("pause_spent", "this hand's or this game's time for pauses is used up")
    return Pause(paused=paused, by=state.host_seat, at=now)


def _chat_command(state: RoomState, seat: object) -> None:
    """``mute`` and ``unmute`` are the chat's (a chat-log entry the room makes): only their seat,
    if any, is checked here."""
    if seat is not None:
        _seat_number(state, seat)


#: What each host command makes, from the room, the message's ``seat`` and ``bot`` and a fresh
#: seed (``start`` is made by the room, which seats the stand-ins first; ``mute`` and ``unmute``
#: are the chat's: ``None``).
HOST_COMMANDS: dict[str, Callable[[RoomState, object, object, int], Entry | None]] = {
    "add_bot": lambda state, seat, bot, seed: _seat_a_bot(state, "add_bot", seat, bot, seed),
    "replace": lambda state, seat, bot, seed: _seat_a_bot(state, "replace", seat, bot, seed),
    "kick": lambda state, seat, bot, seed: _kick(state, seat),
    "start": lambda state, seat, bot, seed: _every_seat_taken(state),
    "continue": lambda state, seat, bot, seed: _continue(state),
    "pause": lambda state, seat, bot, seed: _pause(state, True),
    "resume": lambda state, seat, bot, seed: _pause(state, False),
    "close": lambda state, seat, bot, seed: Close(reason="host"),
    "make_public": lambda state, seat, bot, seed: Public(public=True),
    "make_private": lambda state, seat, bot, seed: Public(public=False),
    "mute": lambda state, seat, bot, seed: _chat_command(state, seat),
    "unmute": lambda state, seat, bot, seed: _chat_command(state, seat),
}


def check_host(state: RoomState, command: str, seat: object, bot: object, seed: int = 0) -> Entry | None:
    """The entry a host command makes (``None``: ``start``, which the room makes, and the chat's
    ``mute`` and ``unmute``); raise :class:`RoomError` when the command is unknown, out of its
    phases (:data:`~.room.HOST_PHASES`), or names a bad seat or bot."""
    phases = HOST_PHASES.get(command)
    if phases is None:
        raise RoomError("bad_message", f"unknown host command {command!r}; commands are {', '.join(HOST_PHASES)}")
    if state.phase not in phases:
        raise RoomError(
            "phase",
            f"'{command}' is not allowed while the room is in its {state.phase} phase "
            f"(allowed in: {', '.join(phases)})",
        )
    return HOST_COMMANDS[command](state, seat, bot, seed)


def fill_entries(state: RoomState, bot: str, seeds: list[int]) -> list[Entry]:
    """``bot`` entries seating a ``bot`` in every open seat (``seeds[i]`` for the i-th), named
    apart from every seat and from each other."""
    open_seats = [i for i, seat in enumerate(state.seats) if seat.kind == "open"]
    taken = {seat.name for seat in state.seats if seat.name}
    entries: list[Entry] = []
    for index, seed in zip(open_seats, seeds, strict=False):
        name = state.bot_person_name(index, taken)
        taken.add(name)
        entries.append(Bot(seat=index, bot=bot, name=name, seed=seed))
    return entries


# ---------------------------------------------------------------------- documentation
def markdown_tables() -> dict[str, str]:
    """The room log's table of ``docs/protocol.md``, made from the declarations."""
    rows = ((f"`{kind}`", field_words(cls.SLOTS), summary(cls)) for kind, cls in ENTRIES.items())
    return {"room-log": table(("Entry", "Fields", "What it is"), rows)}


__all__ = [
    "ENTRIES",
    "HOST_COMMANDS",
    "Action",
    "Bot",
    "Close",
    "Continue",
    "Entry",
    "Join",
    "Kick",
    "Leave",
    "MoreTime",
    "Pause",
    "Public",
    "Ready",
    "Start",
    "check_host",
    "entry_of",
    "fill_entries",
]
