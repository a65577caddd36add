"""The record format: a whole game as JSON, like PGN for chess.

A record stores how the game started (variant, options, players and seed, or a start
position), who sat where, and every action with the seat that took it. The states are not
stored: they are rebuilt by replaying the actions on the deterministic engine. The final
result (scores, winners and a digest of the final position) lets :func:`~unokit.record.verify`
check that the replay reproduces the game. See ``docs/records.md`` for every field.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from .. import __version__
from ..core.errors import quote
from ..core.game import Game
from ..files import JsonError, parse_json, write_atomically

#: The format this unokit writes and reads.
FORMAT = "unokit-record/1"

_FIELDS = frozenset(
    {
        "format",
        "unokit",
        "created",
        "variant",
        "players",
        "options",
        "seed",
        "start",
        "seats",
        "actions",
        "result",
        "meta",
    }
)
_VERSION = re.compile(r"^\s*(\d+)\.(\d+)(?:\.(\d+))?")
#: The most digits a number of a version may have (longer ones are no version of unokit).
VERSION_DIGITS = 9


class RecordError(ValueError):
    """A record that cannot be read: malformed JSON, a missing or wrong field, an unknown format."""


class IncompatibleRecordError(RecordError):
    """A record written by a unokit whose rules engine may differ from this one."""


def parse_version(text: str) -> tuple[int, int, int]:
    """``"0.1.0"`` → ``(0, 1, 0)``; raise :class:`RecordError` for text that is not a version."""
    match = _VERSION.match(text)
    if match is None or any(len(part or "") > VERSION_DIGITS for part in match.groups()):
        raise RecordError(f"{quote(text)} is not a unokit version")
    return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


def compatible(recorded: str, current: str = __version__) -> bool:
    """Whether a record written by unokit ``recorded`` replays on unokit ``current``.

    Versions are compatible when they share the major version and, before 1.0, the minor
    version too (``0.1.0`` and ``0.1.4`` are; ``0.1.0`` and ``0.2.0`` are not): rules changes
    bump the minor version while unokit is below 1.0.
    """
    a, b = parse_version(recorded), parse_version(current)
    return a[0] == b[0] and (a[0] > 0 or a[1] == b[1])


def check_compatible(record: GameRecord, current: str = __version__) -> None:
    """Raise :class:`IncompatibleRecordError` when ``record`` comes from an incompatible unokit."""
    if not compatible(record.unokit, current):
        wanted = ".".join(str(n) for n in parse_version(record.unokit)[:2])
        raise IncompatibleRecordError(
            f"this record was written by unokit {record.unokit}, whose rules engine is not compatible "
            f"with this unokit {current}; replay it with unokit {wanted}.x"
        )


def position_digest(game: Game) -> str:
    """SHA-256 of the game's position as canonical JSON: equal digests, equal states."""
    text = json.dumps(game.to_position(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Seat:
    """Who sat at a seat: a ``name`` and a ``kind`` (``human`` or ``bot``; ``bot`` names the
    bot, ``settings`` holds anything else worth keeping, such as the bot's seed)."""

    name: str
    kind: str = "human"
    bot: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.bot is not None:
            out["bot"] = self.bot
        if self.settings:
            out["settings"] = dict(self.settings)
        return out

    @staticmethod
    def from_json(obj: object, index: int) -> Seat:
        if not isinstance(obj, dict):
            raise RecordError(f"seat {index} must be an object with a 'name' and a 'kind'")
        name, kind = obj.get("name"), obj.get("kind", "human")
        bot, settings = obj.get("bot"), obj.get("settings", {})
        if not isinstance(name, str) or not isinstance(kind, str):
            raise RecordError(f"seat {index} needs a text 'name' and 'kind'")
        if bot is not None and not isinstance(bot, str):
            raise RecordError(f"the 'bot' of seat {index} must be text")
        if not isinstance(settings, dict):
            raise RecordError(f"the 'settings' of seat {index} must be an object")
        return Seat(name, kind, bot, dict(settings))


@dataclass(frozen=True)
class Result:
    """How the recorded game stood after its last action; with ``teams=true`` also the
    teams' totals (``team_scores``, H-6; empty otherwise, and then not written)."""

    over: bool
    winners: list[int]
    scores: list[int]
    rounds: int
    position_sha256: str
    team_scores: list[int] = field(default_factory=list)

    @staticmethod
    def of(game: Game) -> Result:
        return Result(
            game.is_over,
            game.winners,
            list(game.scores),
            game.round_number,
            position_digest(game),
            game.team_scores,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "over": self.over,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "rounds": self.rounds,
            "position_sha256": self.position_sha256,
        }
        if self.team_scores:
            out["team_scores"] = list(self.team_scores)
        return out

    @staticmethod
    def from_json(obj: object) -> Result:
        if not isinstance(obj, dict):
            raise RecordError("'result' must be an object")
        try:
            over, winners, scores = obj["over"], obj["winners"], obj["scores"]
            rounds, digest = obj["rounds"], obj["position_sha256"]
        except KeyError as exc:
            raise RecordError(f"'result' has no {exc.args[0]!r}") from None
        if not isinstance(over, bool) or not _int_list(winners) or not _int_list(scores):
            raise RecordError("'result' needs 'over' (true/false) and lists of whole numbers 'winners', 'scores'")
        if not _is_int(rounds) or not isinstance(digest, str):
            raise RecordError("'result' needs a whole number 'rounds' and a text 'position_sha256'")
        team_scores = obj.get("team_scores", [])
        if not _int_list(team_scores):
            raise RecordError("'result' 'team_scores' must be a list of whole numbers")
        return Result(over, list(winners), list(scores), rounds, digest, list(team_scores))


@dataclass
class GameRecord:
    """One game: how it started, who played, every action, and how it ended.

    ``start`` is ``None`` for a game started with ``Game.new(variant, players, seed,
    **options)``; otherwise it is the position the game started from (``seed`` then repeats
    the position's). ``actions`` are ``(seat, text)`` pairs in the order they were applied.
    """

    variant: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    actions: list[tuple[int, str]]
    start: dict[str, Any] | None = None
    result: Result | None = None
    unokit: str = __version__
    format: str = FORMAT
    created: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The seat names, by seat."""
        return [seat.name for seat in self.seats]

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-serialisable dict."""
        return {
            "format": self.format,
            "unokit": self.unokit,
            "created": self.created,
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "start": self.start,
            "seats": [seat.to_json() for seat in self.seats],
            "actions": [[seat, text] for seat, text in self.actions],
            "result": self.result.to_json() if self.result is not None else None,
            "meta": dict(self.meta),
        }

    def dumps(self) -> str:
        """The record as JSON text: one field a line, one action a line."""
        obj = self.to_json()
        lines = []
        for key, value in obj.items():
            if key == "actions":
                body = ",\n".join(f"    {json.dumps(item, ensure_ascii=False)}" for item in value)
                lines.append(f'  "actions": [\n{body}\n  ]' if value else '  "actions": []')
            else:
                lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @staticmethod
    def from_json(obj: object) -> GameRecord:
        """Read a record from parsed JSON; raise :class:`RecordError` naming what is wrong."""
        if not isinstance(obj, dict):
            raise RecordError("a record is a JSON object")
        fmt = obj.get("format")
        if fmt != FORMAT:
            if isinstance(fmt, str) and fmt.startswith("unokit-record/"):
                raise IncompatibleRecordError(
                    f"unsupported record format {fmt!r}: this unokit ({__version__}) reads {FORMAT!r}"
                )
            raise RecordError(f"not a unokit record: 'format' is {quote(fmt)}, expected {FORMAT!r}")
        unknown = set(obj) - _FIELDS
        if unknown:
            raise RecordError(f"unknown record field(s): {', '.join(sorted(unknown))}")
        version = obj.get("unokit")
        if not isinstance(version, str):
            raise RecordError("the record does not say which unokit wrote it ('unokit')")
        parse_version(version)
        variant, players, seed = obj.get("variant"), obj.get("players"), obj.get("seed")
        if not isinstance(variant, str):
            raise RecordError("'variant' must be text such as 'flip'")
        if not _is_int(players) or not _is_int(seed):
            raise RecordError("'players' and 'seed' must be whole numbers")
        options = obj.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        start = obj.get("start")
        if start is not None and not isinstance(start, dict):
            raise RecordError("'start' must be a position object or null")
        raw_seats = obj.get("seats", [])
        if not isinstance(raw_seats, list):
            raise RecordError("'seats' must be a list")
        seats = [Seat.from_json(item, i) for i, item in enumerate(raw_seats)]
        if seats and len(seats) != players:
            raise RecordError(f"'seats' lists {len(seats)} seats for {players} players")
        raw_actions = obj.get("actions")
        if not isinstance(raw_actions, list):
            raise RecordError("'actions' must be a list of [seat, action] pairs")
        actions: list[tuple[int, str]] = []
        for i, item in enumerate(raw_actions):
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not _is_int(item[0])
                or not isinstance(item[1], str)
                or not 0 <= item[0] < players
            ):
                raise RecordError(
                    f"action {i + 1} must be [seat, text] with a seat from 0 to {players - 1}: {quote(item)}"
                )
            actions.append((item[0], item[1]))
        raw_result = obj.get("result")
        created, meta = obj.get("created"), obj.get("meta", {})
        if created is not None and not isinstance(created, str):
            raise RecordError("'created' must be text")
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be an object")
        return GameRecord(
            variant=variant,
            players=players,
            options=dict(options),
            seed=seed,
            seats=seats or [Seat(f"seat {i}", "unknown") for i in range(players)],
            actions=actions,
            start=start,
            result=Result.from_json(raw_result) if raw_result is not None else None,
            unokit=version,
            format=fmt,
            created=created,
            meta=dict(meta),
        )

    @staticmethod
    def loads(text: str) -> GameRecord:
        """Read a record from JSON text."""
        try:
            obj = parse_json(text)
        except JsonError as exc:
            raise RecordError(f"the record is {exc}") from None
        return GameRecord.from_json(obj)


def save_record(record: GameRecord, path: str | Path) -> Path:
    """Write ``record`` to ``path`` (creating its folder) in one step, so that a crash leaves
    the previous record or the new one; return the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_atomically(target, record.dumps())


def load_record(path: str | Path) -> GameRecord:
    """Read the record at ``path``; raise :class:`RecordError` (or ``OSError``) when it cannot."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    return GameRecord.loads(text)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: object) -> bool:
    return isinstance(value, list) and all(_is_int(x) for x in value)
