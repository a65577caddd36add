"""The pages for people who play with real cards: a score sheet and a virtual launcher.

The browser keeps the score sheet (a ``unokit-table/1`` object, the file ``unokit table``
writes) and the launcher's state; every request carries them, and the server scores and fires
with the engine's own code: :class:`~unokit.play.scorekeeper.ScoreTable` for the sheet, the
launcher models of :mod:`unokit.core.launcher` for the launcher. Nothing is stored here.

Routes (``docs/web.md``, "At a real table"):

* ``POST /api/score`` ``{variant, side, cards}`` -> each card's title and points, and the total;
* ``POST /api/sheet/new`` ``{variant, players, scoring, target, rounds}`` -> a new sheet;
* ``POST /api/sheet/round`` ``{sheet, winner, side, hands, points}`` -> the sheet with the round;
* ``POST /api/sheet/undo`` ``{sheet}`` -> the sheet without its last round;
* ``POST /api/launcher/press`` ``{state}`` -> how many cards this press fires, and the new state;
* ``POST /api/launcher/restart`` ``{state}`` -> the state after a reload or a flip;
* ``GET /api/launcher/stats`` -> the mean and spread of what each model fires.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.errors import PositionError
from ..core.launcher import (
    CARDS_PER_FIRE_WEIGHTS,
    FIRE_HAZARD,
    FIRE_PATTERN,
    PATTERN_LENGTH,
    launcher_from_state,
    make_launcher,
)
from ..core.rng import Rng
from ..play.scorekeeper import CardError, ScoreTable, hand_points, new_table
from .work import off_loop

#: The launcher models a virtual launcher offers (``scripted`` needs a script: not a toy).
VIRTUAL_MODELS = ("random", "pattern", "one_card")
MAX_BODY = 65536


class BadRequest(Exception):
    """A request this module refuses; the message names the problem in English, ``code`` and
    ``params`` say it for the reader's page (:data:`unokit.server.words.ERRORS`)."""

    def __init__(self, message: str, code: str = "bad_request", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def _refused(exc: ValueError) -> BadRequest:
    """A score keeper's refusal as a :class:`BadRequest`: a card that cannot be read is named."""
    if isinstance(exc, CardError):
        return BadRequest(str(exc), "bad_cards", given=exc.given)
    return BadRequest(str(exc))


def _fire_distribution() -> tuple[float, float]:
    """Mean and variance of the cards one fire ejects (:data:`CARDS_PER_FIRE_WEIGHTS`)."""
    total = sum(CARDS_PER_FIRE_WEIGHTS)
    mean = sum(n * w for n, w in enumerate(CARDS_PER_FIRE_WEIGHTS, 1)) / total
    square = sum(n * n * w for n, w in enumerate(CARDS_PER_FIRE_WEIGHTS, 1)) / total
    return mean, square - mean * mean


def _random_fire_rate() -> tuple[float, float]:
    """The long-run share of presses that fire under the random model, and the mean number of
    presses from a fresh launcher to its first fire (a Markov chain over empty presses in a row)."""
    states = len(FIRE_HAZARD)
    # Long run: the chance of being at k empty presses in a row is the chance of surviving
    # the hazards before it, normalised.
    survive = [1.0]
    for k in range(states - 1):
        survive.append(survive[-1] * (1 - FIRE_HAZARD[k]))
    weight = sum(survive)
    rate = sum(s * h for s, h in zip(survive, FIRE_HAZARD, strict=True)) / weight
    first = sum(survive)  # presses until the first fire: sum over k of P(no fire in k presses)
    return rate, first


def launcher_statistics() -> dict[str, dict[str, float]]:
    """For each virtual model: the share of presses that fire, the mean presses from a fresh
    launcher to its first fire, and the mean and standard deviation of the cards one press
    gives (0 for a silent press) and of the cards one fire gives."""
    fire_mean, fire_var = _fire_distribution()
    rate, first = _random_fire_rate()
    pattern_rate = len(FIRE_PATTERN) / PATTERN_LENGTH
    pattern_first = float(min(FIRE_PATTERN))
    out = {}
    for model, p, to_first, per_fire, per_fire_var in (
        ("random", rate, first, fire_mean, fire_var),
        ("pattern", pattern_rate, pattern_first, fire_mean, fire_var),
        ("one_card", 1.0, 1.0, 1.0, 0.0),
    ):
        mean = p * per_fire
        square = p * (per_fire_var + per_fire * per_fire)
        out[model] = {
            "fire_rate": p,
            "presses_to_first_fire": to_first,
            "cards_per_fire_mean": per_fire,
            "cards_per_fire_sd": math.sqrt(per_fire_var),
            "cards_per_press_mean": mean,
            "cards_per_press_sd": math.sqrt(square - mean * mean),
        }
    return out


def _launcher(body: dict[str, Any]) -> Any:
    state = body.get("state")
    if state is None:
        state = {"model": body.get("model", "random")}
    if not isinstance(state, dict) or state.get("model") not in VIRTUAL_MODELS:
        raise BadRequest(f"the launcher's 'state' needs a 'model': one of {', '.join(VIRTUAL_MODELS)}")
    try:
        return launcher_from_state(state) if len(state) > 1 else make_launcher(state["model"])
    except PositionError as exc:
        raise BadRequest(str(exc)) from None


def press(body: dict[str, Any]) -> dict[str, Any]:
    """Press the launcher in ``body['state']`` once, with fresh randomness."""
    launcher = _launcher(body)
    cards = launcher.press(Rng(secrets.randbits(64)))
    return {"cards": cards, "state": launcher.state()}


def restart(body: dict[str, Any]) -> dict[str, Any]:
    """The launcher after a reload or a flip (the model decides what that resets)."""
    launcher = _launcher(body)
    launcher.restart()
    return {"state": launcher.state()}


def _text(body: dict[str, Any], key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise BadRequest(f"{key!r} must be text")
    return value


def _sheet(body: dict[str, Any]) -> ScoreTable:
    try:
        return ScoreTable.from_json(body.get("sheet"))
    except ValueError as exc:
        raise _refused(exc) from None


def _sheet_reply(sheet: ScoreTable, row: dict[str, Any] | None = None) -> dict[str, Any]:
    reply: dict[str, Any] = {"sheet": sheet.to_json(), "totals": sheet.totals, "winners": sheet.winners}
    reply["lines"] = sheet.render()
    if row is not None:
        reply["row"] = row
    return reply


def score(body: dict[str, Any]) -> dict[str, Any]:
    side = body.get("side")
    try:
        cards = hand_points(_text(body, "variant", "classic"), _text(body, "cards"), side if side else None)
    except ValueError as exc:
        raise _refused(exc) from None
    return {
        "cards": [{"text": c.text, "title": c.title, "points": c.points} for c in cards],
        "total": sum(c.points for c in cards),
    }


def sheet_new(body: dict[str, Any]) -> dict[str, Any]:
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRequest("'players' must be a list of names")
    target, rounds = body.get("target"), body.get("rounds")
    for key, value in (("target", target), ("rounds", rounds)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadRequest(f"{key!r} must be a whole number or null")
    try:
        variant, scoring = _text(body, "variant", "classic"), _text(body, "scoring", "winner")
        sheet = new_table(variant, [p.strip() for p in players], scoring, target, rounds)
    except ValueError as exc:
        raise _refused(exc) from None
    return _sheet_reply(sheet)


def sheet_round(body: dict[str, Any]) -> dict[str, Any]:
    sheet = _sheet(body)
    hands, points = body.get("hands", {}), body.get("points", {})
    if not isinstance(hands, dict) or not all(isinstance(v, str) for v in hands.values()):
        raise BadRequest("'hands' must map names to the cards they hold, as text")
    if not isinstance(points, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in points.values()):
        raise BadRequest("'points' must map names to whole numbers")
    side = body.get("side")
    try:
        row = sheet.add_round(_text(body, "winner"), side if side else None, hands, points)
    except ValueError as exc:
        raise _refused(exc) from None
    return _sheet_reply(sheet, row)


def sheet_undo(body: dict[str, Any]) -> dict[str, Any]:
    sheet = _sheet(body)
    try:
        sheet.undo()
    except ValueError as exc:
        raise _refused(exc) from None
    return _sheet_reply(sheet)


def _post(handler: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[Request], Awaitable[Response]]:
    async def route(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return JSONResponse({"error": "too_large", "message": f"at most {MAX_BODY} bytes"}, status_code=413)
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            return JSONResponse({"error": "bad_json", "message": "the body is not valid JSON"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "bad_request", "message": "the body must be a JSON object"}, status_code=400)
        try:
            return JSONResponse(await off_loop(handler, body))
        except BadRequest as exc:
            body = {"error": exc.code, "message": str(exc), **({"params": exc.params} if exc.params else {})}
            return JSONResponse(body, status_code=400)

    return route


async def _stats(_request: Request) -> Response:
    return JSONResponse(launcher_statistics())


def realtable_routes() -> list[Route]:
    """The routes of this module (see the module docstring)."""
    posts = {
        "/api/score": score,
        "/api/sheet/new": sheet_new,
        "/api/sheet/round": sheet_round,
        "/api/sheet/undo": sheet_undo,
        "/api/launcher/press": press,
        "/api/launcher/restart": restart,
    }
    routes = [Route(path, _post(handler), methods=["POST"]) for path, handler in posts.items()]
    routes.append(Route("/api/launcher/stats", _stats))
    return routes


__all__ = ["launcher_statistics", "press", "realtable_routes", "restart"]
