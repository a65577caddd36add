"""What the browser client needs from the server besides the game protocol: the card and
option catalogue, round summaries, and the step-by-step replay of a finished game.

The client never decides a rule: it draws what these routes and the ``state`` messages say.
Everything here is read from the engine (:mod:`unokit.core`) or from the terminal table's
helpers (:mod:`unokit.play`), never restated.

Routes (``docs/web.md``):

* ``GET /api/catalog`` -> the languages, colours and their colour-blind symbols, card kinds
  (name, wild or not), every variant (sides, player range, each option with its kind, default,
  choices and whether it is a house rule), the bots a room can seat, the chat's quick reactions,
  the room settings with their defaults, the table's keys (:mod:`unokit.keys`) and each
  decision's question (:mod:`unokit.i18n.prompts`: its wordings, the facts that choose one and
  the values it shows, the terminal's too) and the largest replay request
  (:data:`REPLAY_FILE_BYTES`) (the words
  for all of them are in the catalogue of the reader's language, ``/static/i18n/<lang>.json``);
* ``POST /api/rules`` ``{variant, players, options, lang}`` -> the game those rules make, in
  short, in the reader's language ``lang`` (a code of ``LANGUAGES``, English when there is none;
  the terminal's help, :func:`unokit.play.help.rules_summary`): the page's help shows it;
* ``GET /api/rooms/{code}/records/{number}/replay?step=K[&seat=S][&log=1]`` -> step ``K`` of a
  finished game: the table as everyone saw it with every hand (the game is over), or as seat
  ``S`` saw it; what happened, as lines; with ``log=1`` the whole game's log as that view read
  it, step by step (the replay's page shows it beside the table);
* ``POST /api/replay`` ``{record, step, seat, log}`` -> the same step of a record the page was
  given (a replay file, ``docs/formats.md``; ``record`` is the record or its JSON text):
  stateless, the record travels with each request (up to :data:`REPLAY_FILE_BYTES`), and a
  record not replayed lately is counted by the client's allowance of replay files.
"""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..bots import level_names
from ..core.cards import COLOR_NAMES, COLOR_SYMBOLS, KIND_NAMES, SIDE_COLORS
from ..core.decks import standard_deck
from ..core.errors import OptionError
from ..core.game import Game
from ..core.kinds import FAIR_CHALLENGE_EXTRA, KINDS
from ..core.observation import redact
from ..core.variants import OPTION_SPECS, VARIANTS, OptionKind, VariantRules, make_options
from ..i18n import LANGUAGES
from ..i18n.catalog import ALIASES, TRADITIONAL
from ..i18n.prompts import prompt_table
from ..keys import HAND_DECISIONS, catalog_keys
from ..narration import Narrator, action_line
from ..play.help import rules_summary
from ..record import GameRecord, RecordError, Replay
from .allowances import Allowance
from .chat import REACTIONS
from .edge import BODY_LIMIT
from .offline import PYODIDE_FILES, engine_zip, pyodide_dir
from .room import RoomError, RoomSpec, Settings, seat_bots
from .stating import round_summary
from .webapi import check_lang, client_of, limited, problem, refusal, sealed_error
from .work import off_loop

#: Replays of finished games kept in memory (each holds a few copies of its game).
REPLAYS_KEPT = 8
#: The largest request ``POST /api/replay`` reads, its record included: any request body's.
REPLAY_FILE_BYTES = BODY_LIMIT
#: The fields of a ``POST /api/replay`` body.
REPLAY_FILE_FIELDS = frozenset({"record", "step", "seat", "log"})


class Replays:
    """The replays made last (:data:`REPLAYS_KEPT`), by the text of their record: a room's
    finished game and a replay file's alike, so that stepping through either replays its
    record once. Safe to use from several threads."""

    def __init__(self, size: int = REPLAYS_KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def kept(self, text: str) -> Replay | None:
        """The replay of the record ``text`` if it is kept, else ``None``."""
        with self._lock:
            replay = self._kept.get(text)
            if replay is not None:
                self._kept.move_to_end(text)
            return replay

    def replay(self, text: str, record: GameRecord | None = None) -> Replay:
        """The replay of the record ``text`` (``record``: that text already read), made now
        unless kept; raise :class:`~unokit.record.RecordError` when the record cannot be read or
        replayed."""
        found = self.kept(text)
        if found is not None:
            return found
        made = Replay(record if record is not None else GameRecord.loads(text))
        with self._lock:
            self._kept[text] = made
            self._kept.move_to_end(text)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return made


def option_catalog(rules: VariantRules) -> list[dict[str, Any]]:
    """Every option ``rules`` accepts, house rules included, from its declaration
    (:data:`~unokit.core.variants.OPTION_SPECS`): its ``kind`` (an
    :class:`~unokit.core.variants.OptionKind`: ``bool``, ``int``, ``int_or_none``, ``choice``,
    ``numbers``, ``lines``), its default for this variant, its ``choices`` (a choice's words),
    its ``minimum`` (a number's), the catalogue keys of its ``label`` and its ``help``, and
    ``defaults_by``: how another choice changes this default (``target`` under ``loser``)."""
    defaults = make_options(rules, {})
    out = []
    for spec in OPTION_SPECS:
        if spec.name not in rules.accepted_options:  # the house rules too
            continue
        value = getattr(defaults, spec.name)
        entry: dict[str, Any] = {
            "name": spec.name,
            "kind": spec.kind.value,
            "default": list(value) if isinstance(value, tuple) else value,
            "house_rule": spec.house_rule,
            "label": spec.label_key,
            "help": spec.help_key,
        }
        if spec.kind == OptionKind.CHOICE:
            entry["choices"] = list(spec.values)
        if spec.kind in (OptionKind.INT, OptionKind.INT_OR_NONE, OptionKind.NUMBERS):
            entry["minimum"] = spec.minimum
        out.append(entry)
    by_name = {entry["name"]: entry for entry in out}
    for chooser in [e for e in out if e["kind"] == "choice"]:
        for choice in chooser["choices"]:
            try:
                resolved = make_options(rules, {chooser["name"]: choice})
            except OptionError:
                continue  # a choice that needs more (a script) changes no default by itself
            for name, entry in by_name.items():
                value = getattr(resolved, name)
                value = list(value) if isinstance(value, tuple) else value
                if name != chooser["name"] and value != entry["default"]:
                    entry.setdefault("defaults_by", {}).setdefault(chooser["name"], {})[choice] = value
    return out


#: Held while the catalogue is made: a second caller waits for the first one's catalogue.
_MAKING = threading.Lock()


def catalog() -> dict[str, Any]:
    """The catalogue the browser draws cards and forms from (see the module docstring): made
    once (it takes seconds, importing every bot), by the first caller; others wait for it."""
    with _MAKING:
        return _catalog()


@functools.cache
def _catalog() -> dict[str, Any]:
    variants = {}
    for name, rules in VARIANTS.items():
        deck = standard_deck(name)
        sides = (0, 1) if rules.double_sided else (0,)
        variants[name] = {
            "double_sided": rules.double_sided,
            "uses_launcher": rules.uses_launcher,
            "min_players": rules.min_players,
            "max_players": rules.max_players,
            "side_names": list(rules.side_names[: len(sides)]),
            "side_colors": [[COLOR_NAMES[c] for c in SIDE_COLORS[s]] for s in sides],
            "marks": rules.marks,
            "kinds": [sorted({KIND_NAMES[k] for k in deck.kind[s]}, key=KIND_NAMES.index) for s in sides],
            "options": option_catalog(rules),
        }
    return {
        "languages": dict(LANGUAGES),
        "language_tags": {"aliases": dict(ALIASES), "never": list(TRADITIONAL)},
        "colors": [{"name": name, "symbol": COLOR_SYMBOLS[i]} for i, name in enumerate(COLOR_NAMES)],
        "kinds": [{"name": kind.name, "wild": kind.wild, "draws": kind.draws, "until": kind.until} for kind in KINDS],
        "challenge_extra": FAIR_CHALLENGE_EXTRA,
        "variants": variants,
        "bots": seat_bots(),
        "levels": level_names(),
        "reactions": list(REACTIONS),
        "settings": Settings().to_json(),
        "setting_limits": {name: list(limits) for name, limits in Settings.LIMITS.items()},
        "keys": catalog_keys(),
        "hand_decisions": list(HAND_DECISIONS),
        "prompts": prompt_table(),
        "replay_file_bytes": REPLAY_FILE_BYTES,
    }


#: The largest game number of a room that a request may name (far more than a room plays).
MOST_GAMES = 10**9


def game_number(text: str) -> int | None:
    """The game number written ``text`` in a path (1 to :data:`MOST_GAMES`), else ``None``:
    a number too large for the database is no game, not an error."""
    if not text.isascii() or not text.isdigit() or len(text) > len(str(MOST_GAMES)):
        return None
    number = int(text)
    return number if 1 <= number <= MOST_GAMES else None


def replay_step(replay: Replay, step: int, seat: int | None = None, with_log: bool = False) -> dict[str, Any]:
    """Step ``step`` of ``replay`` for the browser: the table after that many actions as
    everyone saw it, with every hand (``seat`` ``None``), or as ``seat`` saw it (its
    ``observe(seat)``); the action and its events as lines (codes with parameters, which the
    reader's page says in its language), redacted for that view; with ``with_log`` the lines
    of every step of the game (``log``: ``[{"step": k, "lines": [...]}, ...]``)."""
    game = replay.game_at(step)
    names = replay.record.names
    events = redact(replay.events_at(step), seat) if seat is not None else replay.events_at(step)
    action = replay.action_at(step)
    view = game.observe(seat)
    if seat is None:
        view["hands"] = [game.observe(s)["hand"] for s in range(game.n)]
    before = replay.game_at(max(step - 1, 0))
    narrator = Narrator(before.side if step else 0, game.rules.double_sided)
    said = None
    if action is not None:
        said = {"seat": action[0], "text": action[1], "line": action_line(before, action[1], action[0]).to_json()}
    out = {
        "step": step,
        "steps": len(replay),
        "names": names,
        "seats": [seat_info.to_json() for seat_info in replay.record.seats],
        "seat": seat,
        "action": said,
        "observation": view,
        "lines": [line.to_json() for line in narrator.lines(events)],
        "summary": round_summary(game.variant, names, events),
        "round_starts": replay.round_starts(),
    }
    if with_log:
        out["log"] = replay_log(replay, seat)
    return out


def replay_log(replay: Replay, seat: int | None) -> list[dict[str, Any]]:
    """Every step of ``replay`` in lines, as ``seat`` read them (``None``: everything shown)."""
    narrator = Narrator(0, replay.final.rules.double_sided)
    log = []
    for step in range(len(replay) + 1):
        events = replay.events_at(step)
        lines = narrator.lines(redact(events, seat) if seat is not None else events)
        if lines:
            log.append({"step": step, "lines": [line.to_json() for line in lines]})
    return log


def _rules_lines(body: dict[str, Any]) -> list[str]:
    """The summary of the rules a ``POST /api/rules`` body asks for, in its ``lang``; raise
    :class:`RoomError`."""
    lang = check_lang(body.get("lang"), pseudo=True)
    spec = RoomSpec.build(body.get("variant"), body.get("players"), body.get("options"), None)
    return rules_summary(Game.new(spec.variant, spec.players, 0, **spec.options)[0], lang)


def _file_request(raw: bytes) -> tuple[GameRecord, str, int, int | None, bool]:
    """The record (read, and as its text), step, seat and ``log`` of a ``POST /api/replay``
    body ``raw``; raise :class:`RoomError` (``bad_json``, ``bad_request``, ``bad_step``,
    ``bad_seat``) or :class:`~unokit.record.RecordError` naming what is wrong. A blocking call
    (it reads the whole record): run it off the event loop."""
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise RoomError("bad_json", "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise RoomError("bad_request", "the request body must be a JSON object")
    unknown = set(body) - REPLAY_FILE_FIELDS
    if unknown:
        raise RoomError("bad_request", f"unknown field(s) {', '.join(sorted(unknown))}")
    step, seat, log = body.get("step", 0), body.get("seat"), body.get("log", False)
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise RoomError("bad_step", "'step' must be a whole number")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise RoomError("bad_seat", "'seat' must be a seat number (0 for the first) or null")
    if not isinstance(log, bool):
        raise RoomError("bad_request", "'log' must be true or false")
    if "record" not in body:
        raise RecordError("the request has no 'record'")
    record = body["record"]
    # The record's JSON text, as a browser sends it (JavaScript would round a 64-bit seed), or
    # the record itself.
    read = GameRecord.loads(record) if isinstance(record, str) else GameRecord.from_json(record)
    return read, read.dumps(), step, seat, log


def web_routes(record_text: Any, sealed: Callable[[str], Awaitable[float | None]], files: Allowance) -> list[Route]:
    """The routes of this module; ``record_text(code, number)`` reads a finished game's record
    (a blocking call, run in a worker thread) or returns ``None``; ``sealed(code)`` says until
    when room ``code``'s games are sealed (their replays refused), ``None`` when they are not;
    ``files`` is the allowance, per client address, of replay files replayed."""
    replays = Replays()

    async def catalog_route(_request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(catalog))  # made once, never on the event loop

    def load_replay(code: str, number: int) -> Replay | None:
        # Only games that exist are kept: a game asked for before it ends is read again
        # next time (it may have ended since), never remembered as missing.
        text = record_text(code, number)
        return None if text is None else replays.replay(text)

    async def step_of(replay: Replay, step: int, seat: int | None, with_log: bool) -> Response:
        """Step ``step`` of ``replay`` as ``seat`` saw it: a room's game's and a file's alike."""
        if not 0 <= step <= len(replay):
            return problem("bad_step", f"'step' must be from 0 to {len(replay)}", 400)
        if seat is not None and not 0 <= seat < replay.record.players:
            return problem("bad_seat", f"'seat' must be from 0 to {replay.record.players - 1}", 400)
        return JSONResponse(await off_loop(replay_step, replay, step, seat, with_log))

    async def replay_route(request: Request) -> Response:
        code = str(request.path_params["code"]).upper()
        number = game_number(request.path_params["number"])
        step_text = request.query_params.get("step", "0")
        seat_text = request.query_params.get("seat")
        if number is None or not code.isalnum() or len(code) > 16:
            return problem("no_record", "there is no such finished game", 404)
        if not step_text.isascii() or not step_text.isdigit() or len(step_text) > 9:
            return problem("bad_step", "'step' must be a whole number", 400)
        if seat_text is not None and (not seat_text.isascii() or not seat_text.isdigit() or len(seat_text) > 2):
            return problem("bad_seat", "'seat' must be a seat number (0 for the first)", 400)
        step = int(step_text)
        seat = int(seat_text) if seat_text is not None else None
        try:
            replay = await asyncio.to_thread(load_replay, code, number)
        except RecordError as exc:
            return problem("bad_record", f"the record cannot be replayed: {exc}", 500)
        if replay is None:
            return problem("no_record", "there is no such finished game", 404)
        until = await sealed(code)  # only for a game that exists: a miss costs no more
        if until is not None:
            return refusal(sealed_error(until))
        return await step_of(replay, step, seat, request.query_params.get("log") == "1")

    async def file_replay_route(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > REPLAY_FILE_BYTES:
            return problem("too_large", f"a replay request may be at most {REPLAY_FILE_BYTES} bytes", 413)
        try:
            record, text, step, seat, with_log = await off_loop(_file_request, raw)
        except RoomError as exc:
            return problem(exc.code, exc.message, 400)
        except RecordError as exc:
            return problem("bad_record", f"the record cannot be replayed: {exc}", 400)
        replay = replays.kept(text)
        if replay is None:  # a record to replay: counted (stepping through a kept one is not)
            client = client_of(request)
            if not await files.allow(client):
                return await limited(files, client, "replay files")
            try:
                replay = await off_loop(replays.replay, text, record)
            except RecordError as exc:
                return problem("bad_record", f"the record cannot be replayed: {exc}", 400)
        return await step_of(replay, step, seat, with_log)

    async def rules_route(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > 8192:
            return problem("too_large", "a rules request may be at most 8192 bytes", 413)
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            return problem("bad_json", "the request body is not valid JSON", 400)
        if not isinstance(body, dict):
            return problem("bad_room", "the request body must be a JSON object", 400)
        try:
            lines = await off_loop(_rules_lines, body)
        except RoomError as exc:
            return problem(exc.code, exc.message, 400)
        return JSONResponse({"lines": lines})

    return [
        Route("/api/catalog", catalog_route),
        Route("/api/rules", rules_route, methods=["POST"]),
        Route("/api/rooms/{code}/records/{number}/replay", replay_route),
        Route("/api/replay", file_replay_route, methods=["POST"]),
    ]


#: The browser client's files.
STATIC = Path(__file__).parent / "static"


def page_routes() -> list[BaseRoute]:
    """The browser client's pages: ``/`` and each room's link, the service worker (at the root,
    so that it may serve the pages of every room), the manifest, offline play's files and
    ``/static``."""

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def service_worker(_request: Request) -> Response:
        # At the root, so that it may serve the pages of every room (its scope is "/").
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    async def pyodide_file(request: Request) -> Response:
        # Offline play's Pyodide (server/offline.py): its listed files only, long cached.
        name, folder = request.path_params["name"], pyodide_dir()
        if name not in PYODIDE_FILES or folder is None:
            return JSONResponse({"error": "no_file", "message": "offline play is not served here"}, status_code=404)
        return FileResponse(folder / name, media_type=PYODIDE_FILES[name], headers={"Cache-Control": "no-cache"})

    async def engine_file(_request: Request) -> Response:
        data = await asyncio.to_thread(engine_zip)  # zipped once, never on the event loop
        return Response(data, media_type="application/zip", headers={"Cache-Control": "no-cache"})

    async def manifest(_request: Request) -> Response:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    return [
        Route("/", index),
        Route("/r/{code}", index),
        Route("/sw.js", service_worker),
        Route("/manifest.webmanifest", manifest),
        Route("/offline/pyodide/{name}", pyodide_file),
        Route("/offline/unokit.zip", engine_file),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


__all__ = [
    "REPLAY_FILE_BYTES",
    "Replays",
    "catalog",
    "option_catalog",
    "replay_log",
    "replay_step",
    "round_summary",
    "web_routes",
]
