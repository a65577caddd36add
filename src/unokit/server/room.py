"""A room's state as the fold of its log: pure data and rules of the room, no I/O, no clock.

Every change to a room is a log entry (``docs/protocol.md``, "The room log"); :meth:`RoomState.apply`
folds one entry into the state, and the same function rebuilds a room after a crash, follows a
room owned by another process, and advances the room that this process owns. The game itself is
the engine's :class:`~unokit.Game`, started from the seed of the ``start`` entry and driven by the
``action`` entries, exactly like a ``unokit-record/1`` record.

Phases: ``lobby`` (seats are taken, bots added, the host starts), ``playing``, ``hand_over`` (a
pause after each hand but the last, when the host may kick or replace seats), ``finished`` (the
game is over; the players mark themselves ready to play again, or the host starts another) and
``closed``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import math
import re
import time
import unicodedata
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from .. import Event, Game, UnokitError
from ..bots import POLICY_PREFIX, level_names
from ..bots.levels import DEFAULT_LEVEL
from ..i18n import LANGUAGES, catalog
from ..i18n.lines import Line
from ..play.names import NAME_CHARACTERS, NAME_FORBIDDEN
from ..record import GameRecord, Result, Seat
from ..record.hints import HintMark, mark_hint
from . import wordfilter

if TYPE_CHECKING:
    from .entries import Entry

LOBBY, PLAYING, HAND_OVER, FINISHED, CLOSED = "lobby", "playing", "hand_over", "finished", "closed"
PHASES = (LOBBY, PLAYING, HAND_OVER, FINISHED, CLOSED)

#: The bots a host may seat by name: the levels, which people choose by (each plays with its
#: human habits), then the engine names, for scripts (those installed: ``ismcts_fast`` needs the
#: ``fast`` extra).
SEAT_BOTS = (*level_names(), "random", "heuristic", "ismcts", "ismcts_fast")
#: Trained policies this server offers hosts (``unokit serve --bots policy:FILE.onnx``): the seat
#: bot's name, ``policy:<file stem>``, and the bot spec it plays. A client names only these.
POLICY_BOTS: dict[str, str] = {}


def offer_policies(specs: list[str]) -> None:
    """Offer the policy files of ``specs`` (``policy:FILE.onnx``) to hosts, replacing any offered
    before; raise ``ValueError`` for a file that cannot be used or two files of one name.
    Without policies, the policy module (and numpy) is not even imported."""
    if not specs:
        POLICY_BOTS.clear()
        return
    from ..bots import make_bot
    from ..bots.policy import PolicyError, policy_path

    offered: dict[str, str] = {}
    for spec in specs:
        path = policy_path(spec)
        if path is None:
            raise PolicyError(f"the server offers policy files ('policy:FILE.onnx'), not {spec!r}")
        make_bot(spec)  # loads it: a bad file is refused here, not in a room
        name = f"{POLICY_PREFIX}{path.stem}"
        if name in offered:
            raise PolicyError(f"two policy files are named {path.stem!r}; rename one")
        offered[name] = spec
    POLICY_BOTS.clear()
    POLICY_BOTS.update(offered)


def seat_bots() -> list[str]:
    """The names of :data:`SEAT_BOTS` that this server can seat: every level (a level whose bot
    is not installed plays its fallback) and the installed engine bots; then the offered policies."""
    return [name for name in SEAT_BOTS if name in installed_bots()] + list(POLICY_BOTS)


#: The bots of :data:`SEAT_BOTS` that need an optional extra, and the module it installs.
OPTIONAL_BOTS = {"ismcts_fast": "numba"}


@functools.cache
def installed_bots() -> frozenset[str]:
    """The levels and the engine bots installed here. Found without importing the bots: one of
    them brings numba, seconds of CPU that a request must not spend on the loop that serves the
    rooms (the test suite checks that this agrees with :func:`unokit.bots.bot_names`)."""
    return frozenset(
        name for name in SEAT_BOTS if name not in OPTIONAL_BOTS or importlib.util.find_spec(OPTIONAL_BOTS[name])
    ) | frozenset(level_names())


def bot_spec(name: str) -> str:
    """The bot spec (``make_bot``) of a seat bot's name."""
    return POLICY_BOTS.get(name, name)


#: The language of a room's bot names when its creator names none (a room of "Play now", or a
#: client that says nothing): English's list is people's names from many countries.
DEFAULT_NAMES_LANG = "en"


@functools.cache
def bot_names_for(lang: str) -> tuple[str, ...]:
    """The names bots sit down with in a room of language ``lang`` (a code of ``LANGUAGES``):
    people's names, so that a table reads like one ("Greta played a Red 5"; the bot's strength
    is shown beside it). They are the catalogue's ``room.bot_names``, apart by spaces."""
    return tuple(catalog(lang).t("room.bot_names").split())


#: A player's name: at most NAME_CHARACTERS characters and none of NAME_FORBIDDEN's categories,
#: as at a terminal table (:mod:`unokit.play.names`), and at most this many columns on the table
#: (a character of a wide script counts two, a combining mark none).
NAME_COLUMNS = 30
#: Combining marks allowed on one character (scripts need two or three; more only stack up).
NAME_MARKS = 3
#: Characters that draw many columns wide in one code point (U+FDFD, cuneiform, the long
#: dashes): refused in names, whose width the table cannot otherwise bound.
WIDE_GLYPHS = ((0xFDFA, 0xFDFD), (0x2E3A, 0x2E3B), (0x12000, 0x1254F), (0xA9C5, 0xA9C5))
#: Names a person may not take: a bot's (``heuristic bot 2``) or a seat's (``seat 3``).
RESERVED_NAME = re.compile(rf"(?:(?:{'|'.join(SEAT_BOTS)}) bot|seat)(?: \d+)?", re.IGNORECASE)
#: Integers that survive the trip to a browser and back (JavaScript's safe integers).
SAFE_INTEGER = 2**53 - 1


def clean_name(name: str) -> str:
    """``name`` as it is stored and shown: NFC-normalized, every run of spaces one space,
    no space at either end."""
    text = unicodedata.normalize("NFC", name)
    return " ".join("".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in text).split())


def name_key(name: str) -> str:
    """What two names are compared by: ``Ann``, ``ann`` and ``Ann`` in fullwidth letters are one name."""
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()


def name_columns(name: str) -> int:
    """The columns ``name`` takes on the table: wide and fullwidth characters two, combining
    marks none, every other character one."""
    columns = 0
    for ch in name:
        if unicodedata.category(ch) in ("Mn", "Me"):
            continue
        columns += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return columns


def stacked_marks(text: str) -> bool:
    """Whether a character of ``text`` carries more than :data:`NAME_MARKS` combining marks
    (scripts need two or three; more only stack up over the lines around them)."""
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if marks > NAME_MARKS:
            return True
    return False


def sender(code: str, key: str) -> str:
    """The name a chat message's sender goes by in room ``code`` (``from``): the same for every
    message of one person there, and telling nothing else. ``key`` is a seat's token hash, or
    a spectator's identity hash or address."""
    return hashlib.sha256(f"{code}:{key}".encode()).hexdigest()[:16]


def check_name(name: object) -> str:
    """The cleaned form of a new player's ``name``; raise :class:`RoomError` ``bad_name``
    naming what is wrong (empty, too long or too wide, an invisible or control character, a
    stack of combining marks, a bot's or a seat's name), ``filtered`` when it holds a word of
    the host's filter (:mod:`.wordfilter`)."""
    if not isinstance(name, str):
        raise RoomError("bad_name", "a player's 'name' must be text")
    text = clean_name(name)
    if not text:
        raise RoomError("bad_name", "a player's name cannot be empty")
    if len(text) > NAME_CHARACTERS or name_columns(text) > NAME_COLUMNS:
        raise RoomError(
            "bad_name", f"a player's name may be at most {NAME_CHARACTERS} characters and {NAME_COLUMNS} columns wide"
        )
    for ch in text:
        if unicodedata.category(ch) in NAME_FORBIDDEN or any(low <= ord(ch) <= high for low, high in WIDE_GLYPHS):
            raise RoomError("bad_name", f"a player's name cannot contain the character U+{ord(ch):04X}")
    if stacked_marks(text):
        raise RoomError("bad_name", f"a player's name may carry at most {NAME_MARKS} marks on one character")
    if RESERVED_NAME.fullmatch(text):
        raise RoomError("bad_name", f"{text!r} is how the table names a bot or an empty seat: choose another name")
    if wordfilter.refused(text):
        raise RoomError("filtered", "this name holds a word this server does not allow: choose another name")
    return text


def _unsafe_integer(value: object) -> bool:
    """Whether ``value`` holds a whole number a browser cannot carry exactly."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > SAFE_INTEGER
    if isinstance(value, list | tuple):
        return any(_unsafe_integer(item) for item in value)
    return False


#: Host commands and the phases in which each is allowed.
HOST_PHASES: dict[str, tuple[str, ...]] = {
    "add_bot": (LOBBY, HAND_OVER, FINISHED),
    "kick": (LOBBY, HAND_OVER, FINISHED),
    "replace": (LOBBY, HAND_OVER, FINISHED),
    "start": (LOBBY, FINISHED),
    "continue": (HAND_OVER,),
    "close": (LOBBY, PLAYING, HAND_OVER, FINISHED),
    "make_public": (LOBBY, PLAYING, HAND_OVER, FINISHED),
    "make_private": (LOBBY, PLAYING, HAND_OVER, FINISHED),
    "mute": (LOBBY, PLAYING, HAND_OVER, FINISHED),
    "unmute": (LOBBY, PLAYING, HAND_OVER, FINISHED),
    "pause": (PLAYING, HAND_OVER),
    "resume": (PLAYING, HAND_OVER),
}
#: More time (``more_time``, WCAG 2.2.1): each person may ask this many times a game, for this
#: many seconds each, at their own turn while the turn timer runs (``docs/accessibility.md``).
MORE_TIMES = 10
MORE_TIME_SECONDS = 30.0
#: A host's pauses last this many seconds in all per hand, and :data:`PAUSE_GAME_SECONDS` in
#: all per game (a table nobody can resume would otherwise wait for ever, and a new pause must
#: not start the clock again); a pause also ends once the host's seat is marked away
#: (``docs/server.md``). Once a hand's or the game's allowance is spent, ``pause`` is refused.
PAUSE_LIMIT_SECONDS = 900.0
PAUSE_GAME_SECONDS = 1800.0
#: The phases in which a player may give up their seat: before a game and after one.
LEAVE_PHASES = (LOBBY, FINISHED)


class RoomError(Exception):
    """A request the room refuses: ``code`` is the protocol's error code (declared with its
    parameters in :data:`unokit.server.words.ERRORS`), ``message`` says it in English for logs and
    scripts, and ``cause`` is the engine's error behind it, if any (an illegal action, a bad rule
    option): its code and parameters travel too, so that each reader's page says it in its
    language."""

    def __init__(self, code: str, message: str, *, cause: UnokitError | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.cause = cause
        self.params = params

    def detail(self) -> dict[str, Any]:
        """The fields of an ``error`` message beyond ``code`` and ``message``: ``params``, and the
        engine's ``reason`` with its ``reason_params`` (``docs/protocol.md``, "Errors")."""
        out: dict[str, Any] = {}
        if self.params:
            out["params"] = self.params
        if self.cause is not None:
            out["reason"] = self.cause.code.value
            out["reason_params"] = self.cause.params
        return out


#: The level a stand-in plays at a public table (the rated ones, ``docs/ratings.md``), whatever
#: ``standin_bot`` says: the weakest, so that a stand-in never plays a rated game better than
#: its person would.
RATED_STANDIN = "beginner"


@dataclass(frozen=True)
class Settings:
    """A room's timing settings, in seconds (``docs/server.md``, "Room settings").

    ``turn_seconds`` 0 turns the turn timer off; ``hand_pause_seconds`` 0 goes straight on to
    the next hand; ``catch_seconds`` is how long an in-turn action waits while a missed UNO may
    be caught; ``jump_seconds`` how long it waits after a card that may be jumped on (Jump-In
    rooms; 0, the default, holds nothing: the first action wins); ``bot_seconds`` is a bot's
    thinking pause; ``grace_seconds`` how long a disconnected player's seat waits before a
    stand-in bot plays it.
    """

    turn_seconds: float = 45.0
    catch_seconds: float = 2.0
    jump_seconds: float = 0.0
    bot_seconds: float = 1.0
    grace_seconds: float = 30.0
    hand_pause_seconds: float = 10.0
    standin_bot: str = DEFAULT_LEVEL
    fill_seconds: float = 0.0
    hints: bool = False

    LIMITS: ClassVar[dict[str, tuple[float, float]]] = {
        "turn_seconds": (0.0, 3600.0),
        "catch_seconds": (0.0, 30.0),
        "jump_seconds": (0.0, 30.0),
        "bot_seconds": (0.0, 30.0),
        "grace_seconds": (0.0, 3600.0),
        "hand_pause_seconds": (0.0, 600.0),
        "fill_seconds": (0.0, 600.0),
    }

    @staticmethod
    def from_json(obj: object) -> Settings:
        """Read settings; raise :class:`RoomError` ``bad_settings`` naming a wrong one."""
        if obj is None:
            return Settings()
        if not isinstance(obj, dict):
            raise RoomError("bad_settings", "'settings' must be an object")
        known = {f.name for f in fields(Settings)}
        values: dict[str, Any] = {}
        for key, value in obj.items():
            if key not in known:
                raise RoomError("bad_settings", f"unknown setting {key!r}; settings are {', '.join(sorted(known))}")
            if key == "standin_bot":
                if value not in seat_bots():
                    raise RoomError("bad_settings", f"standin_bot must be one of {', '.join(seat_bots())}")
                values[key] = value
                continue
            if key == "hints":
                if not isinstance(value, bool):
                    raise RoomError("bad_settings", "hints must be true or false")
                values[key] = value
                continue
            low, high = Settings.LIMITS[key]
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise RoomError("bad_settings", f"setting {key!r} must be a number of seconds")
            if not low <= value <= high:
                raise RoomError("bad_settings", f"setting {key!r} must be between {low:g} and {high:g} seconds")
            values[key] = float(value)
        return Settings(**values)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


#: A person for whom a stand-in bot made at least this many moves in a row to the end of a game
#: had left it (``docs/ratings.md``): their "My games" says so, and a rated game counts as their
#: loss, whatever the stand-in reached.
LEFT_AFTER = 2
#: A person for whom a stand-in made more than this share of their moves in a game had left it
#: too (a turn timer of one second lets the stand-in play a seat whose person comes back for the
#: last move): one slow turn in a long game is not leaving, a stand-in playing a game is.
STANDIN_SHARE = 0.25


@dataclass
class SeatState:
    """One seat: ``open``, a ``human`` (with the hash of their secret token) or a ``bot``;
    ``ready`` once its player asked to play again after a finished game."""

    kind: str = "open"
    name: str | None = None
    bot: str | None = None
    bot_seed: int = 0
    token_hash: str | None = None
    ready: bool = False
    standin_moves: int = 0  # moves a stand-in bot made for this person since they last acted
    #: This game's moves of the seat's person, and how many of them a stand-in made
    #: (``docs/ratings.md``: a stand-in that plays more than a small share is leaving).
    game_moves: int = 0
    game_standins: int = 0

    def public(self, seat: int, code: str) -> dict[str, Any]:
        """The seat as everyone sees it in room ``code``; a player's ``from`` is the name their
        chat messages go by (:func:`sender`), so that a page can mute or report them."""
        return {
            "seat": seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "ready": self.ready,
            "standin_moves": self.standin_moves,
            "from": sender(code, self.token_hash) if self.token_hash is not None else None,
        }

    def left_game(self) -> bool:
        """Whether the seat's person had left the game that has just ended: a stand-in made its
        last :data:`LEFT_AFTER` moves or more, or more than :data:`STANDIN_SHARE` of them."""
        return self.kind == "human" and (
            self.standin_moves >= LEFT_AFTER or self.game_standins > STANDIN_SHARE * self.game_moves
        )

    def occupant(self) -> str | None:
        """Who holds the seat: the player's token hash, the bot's name and seed, ``None`` if open."""
        if self.kind == "human":
            return self.token_hash
        return None if self.kind == "open" else f"bot:{self.bot}:{self.bot_seed}"


@dataclass(frozen=True)
class RoomSpec:
    """What a room plays: the variant, the number of seats, the engine's resolved options, the
    room's settings, and whether it starts out public (listed in the lobby; the host may change
    that later). Checked once, when the room is created."""

    variant: str
    players: int
    options: dict[str, Any]
    settings: Settings
    public: bool = False
    lang: str = DEFAULT_NAMES_LANG  # the language of its bots' names (its creator's)
    #: False for a room nobody hosts ("play now"): its players may quiet its spectators.
    hosted: bool = True

    @staticmethod
    def build(
        variant: object,
        players: object,
        options: object,
        settings: object,
        public: object = False,
        lang: object = DEFAULT_NAMES_LANG,
        hosted: bool = True,
    ) -> RoomSpec:
        """Check a requested room with the engine; raise :class:`RoomError` ``bad_room``."""
        if not isinstance(variant, str) or len(variant) > 200:
            raise RoomError("bad_room", "'variant' must be a variant name such as 'flip'")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise RoomError("bad_room", "'players' must be a whole number")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RoomError("bad_room", "'options' must be an object of option names and values")
        try:
            trial = Game.new(variant, players, 0, **options)[0]
        except UnokitError as exc:
            raise RoomError("bad_room", str(exc), cause=exc) from None
        for name, value in options.items():
            if _unsafe_integer(value):
                raise RoomError("bad_room", f"option {name!r} must be between {-SAFE_INTEGER} and {SAFE_INTEGER}")
        if not isinstance(public, bool):
            raise RoomError("bad_room", "'public' must be true or false")
        if not isinstance(lang, str) or lang not in LANGUAGES:
            raise RoomError("bad_room", f"'lang' must be one of {', '.join(LANGUAGES)}")
        options_used = trial.options.as_dict(trial.rules)
        return RoomSpec(trial.variant, trial.n, options_used, Settings.from_json(settings), public, lang, hosted)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "settings": self.settings.to_json(),
            "public": self.public,
            "lang": self.lang,
            "hosted": self.hosted,
        }

    @staticmethod
    def from_json(obj: dict[str, Any]) -> RoomSpec:
        """The spec :meth:`to_json` wrote (a room stored before rooms had a language names its
        bots in :data:`DEFAULT_NAMES_LANG`; one stored before "hosted" was written is hosted)."""
        settings = Settings(**obj["settings"])
        public, lang = bool(obj.get("public", False)), obj.get("lang", DEFAULT_NAMES_LANG)
        hosted = bool(obj.get("hosted", True))
        return RoomSpec(obj["variant"], obj["players"], dict(obj["options"]), settings, public, lang, hosted)

    @functools.cached_property
    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the variant's defaults (what a lobby list shows)."""
        defaults = Game.new(self.variant, self.players, 0)[0]
        plain = defaults.options.as_dict(defaults.rules)
        return {name: value for name, value in self.options.items() if plain.get(name) != value}


class RoomState:
    """A room: its spec, seats, phase and current game, advanced one log entry at a time.

    ``seq`` is the number of entries folded so far: the room's state version, which every
    client message that changes the room must name.
    """

    def __init__(self, code: str, spec: RoomSpec) -> None:
        self.code = code
        self.spec = spec
        self.seq = 0
        self.phase = LOBBY
        self.seats = [SeatState() for _ in range(spec.players)]
        self.game: Game | None = None
        self.game_no = 0
        self.seed = 0
        self.moves: list[tuple[int, str]] = []
        #: The events of each step of the current game (step 0: its deal; then one per move),
        #: full and unredacted, with the seat a stand-in bot played in that move (the room's
        #: log in words, sent to a client at its ``hello``: ``docs/protocol.md``, ``state``).
        self.steps: list[tuple[list[Event], int | None]] = []
        self.started_at: str | None = None
        self.closed_reason: str | None = None
        self.last_standin: int | None = None  # the seat a stand-in played in the last entry
        self.public_room = spec.public
        self.host_seat: int | None = None
        self._settings = spec.settings.to_json()
        #: The events of the next hand's deal while the room pauses between hands: told when
        #: the next hand starts (``continue``), to whoever holds each seat then.
        self.next_deal: list[Event] = []
        #: The hints given in the current game (``hint`` entries, :mod:`.features.hints`).
        self.hints: list[HintMark] = []
        #: More time asked in the current game, by seat (``more_time`` entries), and how many
        #: times on the turn being played (the turn timer adds that many extensions).
        self.more_times: dict[int, int] = {}
        self.turn_more = 0
        #: The host's pause (``pause`` entries): timers and bots wait; ``paused_by`` is the
        #: host's seat, ``None`` for a host who has none.
        self.paused = False
        self.paused_by: int | None = None
        #: The pauses' time (``pause`` entries' ``at``): when the pause in force began, and the
        #: seconds paused in this hand and in this game so far.
        self.paused_at: float | None = None
        self.paused_hand = 0.0
        self.paused_game = 0.0
        #: The lines the last folded entry said about the room itself (more time, a pause), told
        #: with its change beside the game's lines.
        self.said: list[Line] = []

    # ------------------------------------------------------------------ folding
    def apply(self, entry: Entry) -> list[Event]:
        """Fold one log entry (:mod:`.entries`, or a JSON object as the log stores it); return
        the game events it caused (full, unredacted).

        An ``action`` the engine refuses raises :class:`RoomError` ``illegal`` or
        ``invalid_action`` and changes nothing (the engine's guarantee); any other entry that
        does not apply means a log that does not fit this engine: ``corrupt``.
        """
        try:
            self.last_standin = None
            self.said = []
            events = entry.fold(self)
        except (UnokitError, KeyError, IndexError, TypeError) as exc:
            raise RoomError("corrupt", f"log entry {self.seq + 1} ({entry.KIND}) does not apply: {exc}") from None
        self.seq += 1
        return events

    def after_action(self, events: list[Event]) -> list[Event]:
        """The phase after an action and the events it tells now: a hand that ends (not the
        game) pauses the room, and the next hand's deal, which the engine made with the same
        action, waits in :attr:`next_deal` until the pause ends. Seats may change hands during
        the pause, so nobody sees a hand before it belongs to its player: the deal is
        determined by the seed and the actions as always, and shown only to who plays it."""
        game = self._game()
        if game.is_over:
            self.phase = FINISHED
            return events
        ended = next((i for i, e in enumerate(events) if e["type"] == "round_end"), None)
        if self.spec.settings.hand_pause_seconds > 0 and ended is not None:
            self.phase = HAND_OVER
            self.next_deal = events[ended + 1 :]
            return events[: ended + 1]
        return events

    def observe(self, seat: int | None) -> dict[str, Any] | None:
        """What ``seat`` (``None``: a spectator) sees of the current game (``None`` before the
        first). Between hands every seat sees the table as a spectator does: the next hand is
        dealt, but it is its player's only once the pause is over."""
        game = self.game
        if game is None:
            return None
        if self.phase != HAND_OVER:
            return game.observe(seat)
        view = game.observe(None)
        view["seat"] = seat
        return view

    def _game(self) -> Game:
        if self.game is None:
            raise RoomError("phase", "no game has started in this room")
        return self.game

    # ------------------------------------------------------------------ checks
    def check_name(self, name: object) -> str:
        """A person's name as it is kept and shown (a player's, or a spectator's in the chat):
        :func:`check_name`, and no seat of the room already has it, whatever the case (raise
        :class:`RoomError` ``name_taken``)."""
        text = check_name(name)
        if any(seat.name and name_key(seat.name) == name_key(text) for seat in self.seats):
            raise RoomError(
                "name_taken", f"someone in this room is already called {text!r}: choose another name", name=text
            )
        return text

    def everyone_ready(self, present: set[int]) -> bool:
        """After a game: whether every player present (a human seat with a connection) has said
        "play again", and at least one has."""
        if self.phase != FINISHED:
            return False
        here = [seat for index, seat in enumerate(self.seats) if seat.kind == "human" and index in present]
        return bool(here) and all(seat.ready for seat in here)

    def open_seats(self) -> int:
        return sum(1 for seat in self.seats if seat.kind == "open")

    def bot_person_name(self, index: int, taken: set[str] | None = None) -> str:
        """A person's name for a bot sitting at seat ``index`` (:func:`bot_names_for` the room's
        language), one that no other seat of the room has (nor ``taken``), chosen by the room
        code and the seat so that rooms differ; numbered ("Ada 2") only when every name is taken."""
        if taken is None:
            taken = {seat.name for i, seat in enumerate(self.seats) if i != index and seat.name}
        folded = {name_key(name) for name in taken}  # as people's names are told apart
        names = bot_names_for(self.spec.lang)
        start = (sum(ord(ch) for ch in self.code) * 7 + index * 11) % len(names)
        for step in range(len(names)):
            candidate = names[(start + step) % len(names)]
            if name_key(candidate) not in folded:
                return candidate
        number = 2
        while name_key(f"{names[start]} {number}") in folded:
            number += 1
        return f"{names[start]} {number}"

    def check_policy(self, name: str) -> None:
        """Raise :class:`RoomError` ``bad_bot`` unless the policy ``name`` plays this room's game."""
        from ..bots.policy import PolicyError, load_policy, policy_path

        path = policy_path(POLICY_BOTS[name])
        assert path is not None
        try:
            load_policy(path).check_game(self.spec.variant, self.spec.players)
        except PolicyError as exc:
            raise RoomError("bad_bot", str(exc)) from None

    @staticmethod
    def check_bot(bot: object) -> str:
        """``bot`` if a seat can be given to it; raise :class:`RoomError` ``bad_bot``."""
        available = seat_bots()
        if bot not in available:
            raise RoomError("bad_bot", f"'bot' must be one of {', '.join(available)}")
        assert isinstance(bot, str)
        return bot

    def standin_level(self) -> str:
        """The bot a stand-in plays as here: :data:`RATED_STANDIN` at a public table, else the
        host's ``standin_bot``."""
        return RATED_STANDIN if self.public_room else self.spec.settings.standin_bot

    # ------------------------------------------------------------------ views
    def names(self) -> list[str]:
        return [seat.name or f"seat {i}" for i, seat in enumerate(self.seats)]

    def public(self) -> dict[str, Any]:
        """The room as everyone may see it (no token hashes)."""
        return {
            "code": self.code,
            "phase": self.phase,
            "variant": self.spec.variant,
            "players": self.spec.players,
            "options": dict(self.spec.options),
            "settings": self._settings,
            "seats": [seat.public(i, self.code) for i, seat in enumerate(self.seats)],
            "game_no": self.game_no,
            "version": self.seq,
            "closed_reason": self.closed_reason,
            "public": self.public_room,
            "host_seat": self.host_seat,
            "hosted": self.spec.hosted,
            "paused": self.paused,
            "paused_by": self.paused_by,
            "standin": self.standin_level(),
            "pause_left": round(self.pause_left(time.time()), 1),
            "more_time": {
                "seconds": MORE_TIME_SECONDS,
                "most": MORE_TIMES,
                "used": [self.more_times.get(seat, 0) for seat in range(len(self.seats))],
            },
        }

    def people(self) -> int:
        """How many people sit in the room (not bots)."""
        return sum(1 for seat in self.seats if seat.kind == "human")

    def listing(self) -> dict[str, Any] | None:
        """The room as a lobby list shows it, or ``None`` when it is not listed: a private room
        never is, nor a public one before someone sits in it (a room nobody joined is no game
        to find). What it plays, the options changed from the variant's defaults, its phase,
        its open seats, the people seated, its host's name and the language of its bots' names."""
        if not self.public_room or self.phase == CLOSED or not self.people():
            return None
        host = self.seats[self.host_seat].name if self.host_seat is not None else None
        return {
            "variant": self.spec.variant,
            "players": self.spec.players,
            "options": self.spec.changed_options,
            "phase": self.phase,
            "open_seats": self.open_seats(),
            "people": self.people(),
            "host": host,
            "names": [seat.name for seat in self.seats if seat.kind != "open"],
            "game_no": self.game_no,
            "lang": self.spec.lang,
        }

    def record(self) -> GameRecord:
        """The current game as a ``unokit-record/1`` record (with its result once it is over)."""
        game = self._game()
        seats = [
            Seat(s.name or f"seat {i}", s.kind if s.kind != "open" else "unknown", s.bot)
            for i, s in enumerate(self.seats)
        ]
        return GameRecord(
            variant=self.spec.variant,
            players=self.spec.players,
            options=dict(self.spec.options),
            seed=self.seed,
            seats=seats,
            actions=list(self.moves),
            result=Result.of(game),
            created=self.started_at or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            meta=self._meta(),
        )

    def forfeit(self, closer: int) -> dict[str, Any]:
        """What rates a live game that the person at ``closer`` closed, in the shape of a
        record: its variant and seats, and a result in which everyone else won (their places
        shared) and ``closer`` is last (``docs/ratings.md``)."""
        return {
            "variant": self.spec.variant,
            "options": dict(self.spec.options),
            "seats": [{"kind": s.kind, "bot": s.bot, "name": s.name} for s in self.seats],
            "result": {
                "over": True,
                "scores": [0] * len(self.seats),
                "winners": [seat for seat in range(len(self.seats)) if seat != closer],
            },
        }

    def _meta(self) -> dict[str, Any]:
        """The record's ``meta``: the room and game, and the hints given (``meta.hints``)."""
        meta: dict[str, Any] = {"room": self.code, "game": self.game_no}
        for mark in self.hints:
            mark_hint(meta, mark)
        return meta

    def pause_left(self, now: float) -> float:
        """Seconds the host may still keep the table paused (the pause in force counting from
        its start): what is left of the hand's and of the game's allowance, whichever is less."""
        spent = 0.0 if self.paused_at is None else max(0.0, now - self.paused_at)
        left = min(PAUSE_LIMIT_SECONDS - self.paused_hand, PAUSE_GAME_SECONDS - self.paused_game) - spent
        return max(0.0, left)

    @property
    def settings_allow_hints(self) -> bool:
        """Whether the room's host allowed hints (the setting ``hints``)."""
        return self.spec.settings.hints
