"""Run bots through a game: one shared loop for the simulator, the terminal and environments."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.game import Event, Game
from ..core.observation import View
from .base import Bot

#: Reactions applied after one decision at most (each is a catch, a late call or a jump, and
#: a table runs out of those long before).
_MAX_REACTIONS = 64


def react_all(game: Game, bots: Sequence[Bot | None], views: Sequence[View]) -> list[Event]:
    """Give out-of-turn reactions a chance after an action: the seats that may respond to an
    open window (``game.responders()``: for a missed UNO, the exposed seat first, then the
    others in turn order from it; for Jump-In, the seats holding the card just played, in turn
    order from its player) are asked in order and the first non-None reaction is applied. A
    reaction may open a window in turn (a jump can be jumped on), so the seats are asked again
    until nobody reacts. Seats whose bot is ``None`` (humans) are skipped."""
    events: list[Event] = []
    for _ in range(_MAX_REACTIONS):
        if game.is_over or not game.windows:
            break
        for seat in game.responders():
            bot = bots[seat]
            if bot is None:
                continue
            action = bot.react(views[seat])
            if action is not None:
                events += game.apply(action, seat=seat)
                break
        else:
            break
    return events


def play_decision(game: Game, bots: Sequence[Bot | None], views: Sequence[View]) -> list[Event]:
    """Let the bot of the seat to act decide, apply it, then :func:`react_all`; return events."""
    seat = game.to_act
    if seat is None:
        raise ValueError("the game is over")
    bot = bots[seat]
    if bot is None:
        raise ValueError(f"seat {seat} has no bot")
    events = game.apply(bot.act(views[seat]), seat=seat)
    if game.windows:
        events += react_all(game, bots, views)
    return events


def play_game(game: Game, bots: Sequence[Bot], max_decisions: int = 10_000_000) -> Game:
    """Play ``game`` to its end with one bot per seat (each reset to its seat first)."""
    if len(bots) != game.n:
        raise ValueError(f"{game.n} seats need {game.n} bots, got {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.reset(seat)
    views = [View(game, seat) for seat in range(game.n)]
    for _ in range(max_decisions):
        if game.is_over:
            return game
        play_decision(game, bots, views)
    raise RuntimeError(f"the game did not end within {max_decisions} decisions")
