"""What every HTTP route of the server shares (the core's in :mod:`.app` and the features' in
:mod:`.features`): JSON answers and refusals, the small JSON body a request may post, the client
key per-client limits count by, the address links are built on, and the admin token's check."""

from __future__ import annotations

import json
import math
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..i18n.catalog import DEFAULT, LANGUAGES, PSEUDO
from .edge import client_key
from .room import RoomError

if TYPE_CHECKING:
    from .allowances import Allowance
    from .authority import Room
    from .seam import Rooms

#: The largest request body the API reads, in bytes.
MAX_BODY = 8192
#: Room codes: six characters without look-alikes (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def answer(body: Any, status: int = 200) -> JSONResponse:
    """``body`` as a JSON answer."""
    return JSONResponse(body, status_code=status)


def problem(code: str, message: str, status: int) -> JSONResponse:
    """A refusal: ``{"error": code, "message": message}`` with ``status``."""
    return answer({"error": code, "message": message}, status)


def refusal(exc: RoomError, status: int | None = None) -> JSONResponse:
    """A refused request: its code, English message, and the parameters and engine reason
    that let the reader's page say it in its language (:meth:`RoomError.detail`); its status
    is :func:`status_of` its code unless given."""
    return answer({"error": exc.code, "message": exc.message, **exc.detail()}, status or status_of(exc.code))


def status_of(code: str) -> int:
    """The HTTP status of a refused request of error ``code``."""
    return {
        "too_large": 413,
        "banned": 403,
        "bad_token": 403,
        "too_many_rooms": 429,
        "no_deal": 404,
        "push_taken": 409,
        "push_off": 403,
        "sealed": 403,
        "no_game": 404,
        "no_rating": 404,
        "not_rated": 409,
        "annulled": 409,
        "no_arena": 404,
        "arena_over": 409,
        "not_your_table": 403,
    }.get(code, 400)


def sealed_error(until: float) -> RoomError:
    """The refusal of a sealed game's record, replay or review (a deal of the day's while its
    day runs, ``docs/daily.md``), saying when it opens (``until``, a Unix time)."""
    when = datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return RoomError("sealed", f"this game is a deal of the day's: it opens when its day ends, at {when}", until=when)


async def limited(allowance: Allowance, key: str, what: str) -> Response:
    """429 for the client ``key`` that spent its ``allowance`` on ``what``."""
    wait = max(1, math.ceil(await allowance.retry_after(key)))
    response = problem("rate_limited", f"too many {what} from your address: try again in {wait} s", 429)
    response.headers["Retry-After"] = str(wait)
    return response


def client_of(request: Request) -> str:
    """The key per-client limits count ``request``'s client by (:func:`~.edge.client_key`)."""
    return client_key(request.client.host if request.client else "unknown")


def base_url(request: Request) -> str:
    """Where the client reaches this server (``--public-url``, else the request's own address)."""
    return str(request.scope["unokit.base_url"])


def room_code(request: Request) -> str | None:
    """The room code of the request's path (upper case), or ``None`` when it cannot be one."""
    code = str(request.path_params["code"]).upper()
    return code if len(code) <= 16 and all(ch in CODE_ALPHABET for ch in code) else None


async def open_room(request: Request, rooms: Rooms, misses: Allowance, *, public: bool = False) -> Room | Response:
    """The open room the path names (only a public one with ``public``), or the answer that
    there is none; a client asking for too many codes that do not exist is slowed down."""
    client = client_of(request)
    if await misses.spent(client):
        return await limited(misses, client, "room codes that do not exist")
    code = room_code(request)
    room = await rooms.room(code) if code else None
    if room is None or (public and not room.state.public_room):
        await misses.allow(client)
        which = "open public room" if public else "open room"
        return problem("no_room", f"there is no {which} {request.path_params['code']!r}", 404)
    return room


def check_lang(value: object, *, pseudo: bool = False) -> str:
    """The reader's language a request names (its ``lang``): a code of ``LANGUAGES`` (with
    ``pseudo``, the tests' pseudo-language too), English when it names none. Raise
    :class:`RoomError` ``bad_request``."""
    if value is None:
        return DEFAULT
    if not isinstance(value, str) or (value not in LANGUAGES and not (pseudo and value == PSEUDO)):
        raise RoomError("bad_request", f"'lang' must be one of {', '.join(LANGUAGES)}")
    return value


def unknown_fields(body: dict[str, Any], allowed: set[str]) -> None:
    """Raise :class:`RoomError` ``bad_request`` naming the fields of ``body`` not ``allowed``."""
    unknown = set(body) - allowed
    if unknown:
        raise RoomError("bad_request", f"unknown field(s) {', '.join(sorted(unknown))}")


async def body_of(request: Request) -> dict[str, Any]:
    """A small JSON object posted to the API; raise :class:`RoomError` naming what is wrong."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise RoomError("too_large", f"a request may be at most {MAX_BODY} bytes")
    try:
        payload = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise RoomError("bad_json", "the request body is not valid JSON") from None
    if not isinstance(payload, dict):
        raise RoomError("bad_room", "the request body must be a JSON object")
    return payload


def admin_refusal(request: Request, token: str | None) -> Response | None:
    """``None`` for a request that carries the admin token ``token``, else its refusal."""
    if token is None:
        return problem("forbidden", "this server has no admin token (unokit serve --admin-token-file)", 403)
    given = request.headers.get("authorization", "")
    if not (given.startswith("Bearer ") and secrets.compare_digest(given[7:].strip(), token)):
        return problem("forbidden", "the admin token is missing or wrong", 403)
    return None


__all__ = [
    "CODE_ALPHABET",
    "MAX_BODY",
    "admin_refusal",
    "answer",
    "base_url",
    "body_of",
    "client_of",
    "limited",
    "open_room",
    "problem",
    "refusal",
    "room_code",
    "status_of",
    "unknown_fields",
]
