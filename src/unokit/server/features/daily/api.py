"""The HTTP API of the deal of the day (``docs/daily.md``, ``docs/protocol.md``): today's deals,
a room to play one in, and a deal's board. The deals, their seeds and their table are
:mod:`.daily`'s."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from typing import TYPE_CHECKING, Any

from ...peers import identity_hash
from ...protocol import websocket_url
from ...room import RoomError, RoomSpec
from ...vault import address_mark, secret
from ...webapi import check_lang, unknown_fields
from ...work import off_loop
from .cli import DailySettings
from .deals import (
    DAILY_SETTINGS,
    STREAK_DAYS,
    Deal,
    attempt,
    board,
    claim_attempt,
    day_of,
    featured,
    finished_days,
    next_rollover,
    parse_day,
    ranks,
    streak,
)

if TYPE_CHECKING:
    from ...seam import FeatureContext


def _settings(context: FeatureContext) -> DailySettings:
    return context.config.settings_of("daily", DailySettings)


def _deal(context: FeatureContext, day: dt.date, key: object) -> Deal:
    """The deal ``key`` of ``day``; raise :class:`RoomError` ``no_deal``."""
    for deal in featured(day, _settings(context).deals):
        if deal.key == key:
            return deal
    raise RoomError("no_deal", f"there is no deal {str(key)[:40]!r} on {day.isoformat()}", deal=str(key)[:40])


def _today(context: FeatureContext) -> dt.date:
    return day_of(time.time(), _settings(context).rollover_hours)


def deals_of_today(context: FeatureContext) -> dict[str, Any]:
    """``GET /api/daily``: the day, when the next one begins, and its deals."""
    now = time.time()
    day = day_of(now, _settings(context).rollover_hours)
    return {
        "day": day.isoformat(),
        "next_day_at": next_rollover(now, _settings(context).rollover_hours),
        "deals": [deal.to_json() for deal in featured(day, _settings(context).deals)],
    }


async def start(context: FeatureContext, body: dict[str, Any], base_url: str, client: str) -> dict[str, Any]:
    """``POST /api/daily/start``: a room of today's deal ``deal`` for the identity ``player``.
    The identity's first asks it its scored attempt (asked again before it ends: the same
    room); once that is over, each ask opens a practice room of the same deal, not counted. The
    attempt keeps a mark of the address ``client`` (only an address's first attempt ranks).
    The client then sits in it with ``hello`` (and its identity), which starts the game."""
    unknown_fields(body, {"player", "deal", "lang"})
    player = identity_hash(body.get("player"))
    lang = check_lang(body.get("lang"))
    day = _today(context)
    deal = _deal(context, day, body.get("deal"))
    mine = await asyncio.to_thread(attempt, context.store, day.isoformat(), deal.key, player)
    if mine is not None and mine["finished_at"] is None and await context.rooms.room(mine["room"]) is not None:
        room = mine["room"]
        return {**_where(base_url, room), "day": day.isoformat(), "deal": deal.key, "scored": True, "resumed": True}
    spec = await off_loop(
        RoomSpec.build,
        deal.variant,
        deal.players,
        deal.options,
        {**DAILY_SETTINGS, "bot_seconds": _settings(context).bot_seconds},
        False,
        lang,
        hosted=False,
    )
    daily = {"day": day.isoformat(), "deal": deal.key}
    bots = [deal.level] * (deal.players - 1)
    created = await context.rooms.open_room(spec, base_url, bots=bots, client=client, marks={"daily": daily})
    address = address_mark(await asyncio.to_thread(secret, context.store), client)
    scored = mine is None and await asyncio.to_thread(
        claim_attempt, context.store, day.isoformat(), deal.key, player, created["room"], address
    )
    return {**_where(base_url, created["room"]), "day": day.isoformat(), "deal": deal.key, "scored": scored}


def _where(base_url: str, room: str) -> dict[str, Any]:
    return {"room": room, "link": f"{base_url}/r/{room}", "websocket": websocket_url(base_url)}


async def board_of(context: FeatureContext, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/daily/board``: the results of ``deal`` on ``day`` (today by default), best
    first; with ``player``, that identity's own attempt and streak. The games themselves
    (``record``) are shown once the day is over (until then they are sealed). Only the
    attempts that rank are listed (an address's first); the reader's own
    finished attempt that does not rank is listed after them, without a rank (``ranked``
    false), and said in ``you``."""
    unknown_fields(body, {"player", "deal", "day"})
    player = identity_hash(body["player"]) if body.get("player") is not None else None
    today = _today(context)
    day = parse_day(body.get("day"), today)
    deal = _deal(context, day, body.get("deal"))
    rows = await asyncio.to_thread(board, context.store, day.isoformat(), deal.key)
    mine = (
        None if player is None else await asyncio.to_thread(attempt, context.store, day.isoformat(), deal.key, player)
    )
    finished = mine is not None and mine["finished_at"] is not None
    replays = day < today  # a day's games are sealed while it runs (DailyServer.sealed)
    results = []
    for rank, row in enumerate(rows, start=1):
        result = {
            "rank": rank,
            "ranked": True,
            "name": row["name"],
            "won": bool(row["won"]),
            "points": row["points"],
            "seconds": round(float(row["seconds"]), 1),
            "actions": row["actions"],
            "you": row["player"] == player,
        }
        if replays:
            result["record"] = f"/api/rooms/{row['room']}/records/1"
        results.append(result)
    ranked = finished and await asyncio.to_thread(ranks, context.store, day.isoformat(), deal.key, player or "")
    if finished and not ranked and mine is not None:
        seconds = float(mine["finished_at"]) - float(mine["started_at"])
        results.append(
            {
                "rank": None,
                "ranked": False,
                "name": mine["name"],
                "won": bool(mine["won"]),
                "points": mine["points"],
                "seconds": round(seconds, 1),
                "actions": mine["actions"],
                "you": True,
                **({"record": f"/api/rooms/{mine['room']}/records/1"} if replays else {}),
            }
        )
    answer: dict[str, Any] = {
        "day": day.isoformat(),
        "deal": deal.to_json(),
        "results": results,
        "replays": replays,
    }
    if player is not None:
        since = (today - dt.timedelta(days=STREAK_DAYS)).isoformat()
        days = await asyncio.to_thread(finished_days, context.store, player, since)
        answer["you"] = {
            "played": mine is not None,
            "finished": finished,
            "room": None if mine is None or finished else mine["room"],
            "ranked": ranked,
            "streak": streak(days, today),
        }
    return answer
