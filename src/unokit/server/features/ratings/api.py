"""The HTTP API of ratings (``docs/ratings.md``, ``docs/protocol.md``): choosing to be rated (or
not any more), a player's own ratings and their history, and the leaderboards. The ratings
themselves are :mod:`.ratings`'."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .... import Game, UnokitError
from ...peers import identity_hash
from ...room import RoomError, check_name
from ...webapi import unknown_fields
from .skill import leaderboard, mine, opt_in, opt_out, rating_scale

if TYPE_CHECKING:
    from ...seam import FeatureContext
    from ...storage import Store


async def join(context: FeatureContext, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/ratings/join``: rate the identity ``player`` under ``name`` from its next
    public game on (the name follows the rules of a seat's name, and the host's word filter)."""
    unknown_fields(body, {"player", "name"})
    player = identity_hash(body.get("player"))
    name = check_name(body.get("name"))
    await asyncio.to_thread(opt_in, context.store, player, name)
    return await asyncio.to_thread(mine, context.store, player)


async def leave(context: FeatureContext, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/ratings/leave``: stop rating ``player`` and forget its ratings."""
    unknown_fields(body, {"player"})
    player = identity_hash(body.get("player"))
    return {"forgotten": await asyncio.to_thread(opt_out, context.store, player)}


async def own(context: FeatureContext, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/ratings/mine``: the identity's choice, ratings and their history."""
    unknown_fields(body, {"player"})
    player = identity_hash(body.get("player"))
    return await asyncio.to_thread(mine, context.store, player)


async def board(
    context: FeatureContext,
    query: dict[str, str],
    places: Callable[[Store, str, int], list[dict[str, Any]]] = leaderboard,
) -> dict[str, Any]:
    """``GET /api/leaderboard?variant=V&players=N``: the rated players of ``V`` at tables of
    ``N``, best first, with what their numbers mean (``scale``); with ``places``, another board of
    the ratings (the bot ladder's)."""
    unknown_fields(query, {"variant", "players"})
    variant, players = query.get("variant", "classic"), query.get("players", "")
    if not players.isdigit() or len(players) > 2:
        raise RoomError("bad_request", "'players' must be a table size from 2 to 10")
    try:
        game = Game.new(variant, int(players), 0)[0]
    except UnokitError as exc:
        raise RoomError("bad_request", str(exc)) from None
    found = await asyncio.to_thread(places, context.store, game.variant, game.n)
    return {"variant": game.variant, "players": game.n, "places": found, "scale": rating_scale()}
