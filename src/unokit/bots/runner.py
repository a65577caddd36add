"""Run bots through a game: one shared loop for the simulator, the terminal and environments."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.game import Event, Game
from ..core.observation import View
from .base import Bot


def react_all(game: Game, bots: Sequence[Bot | None], views: Sequence[View]) -> list[Event]:
    """Give out-of-turn reactions a chance after an action: the seats that may respond to an
    open window (``game.responders()``: for a missed UNO, the exposed seat first, for a late
    ``uno``, then the others in turn order from it) are asked in order and the first non-None
    reaction is applied. Seats whose bot is ``None`` (humans) are skipped."""
    events: list[Event] = []
    if game.is_over:
        return events
    for seat in game.responders():
        bot = bots[seat]
        if bot is None:
            continue
        action = bot.react(views[seat])
        if action is not None:
            events += game.apply(action, seat=seat)
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
