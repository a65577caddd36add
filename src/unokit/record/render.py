"""The table at one step of a replay, as plain text lines, seen by a seat or by everyone.

A seat sees what :meth:`Game.observe` gives it and the redacted events; the omniscient
viewer sees every hand and every drawn card. Used by ``unokit replay`` (``--print`` and
the interactive viewer).
"""

from __future__ import annotations

from typing import Any

from ..core.cards import COLOR_BY_NAME, COLOR_SYMBOLS
from ..core.game import Event, Game
from ..core.observation import redact
from ..i18n import DEFAULT
from ..i18n.lines import words, words_for
from ..narration import Narrator
from .replay import Replay, seat_name


def color_label(color: str | None) -> str:
    """``red (circle)``; ``none`` while a colour is being chosen."""
    if color is None:
        return "none (being chosen)"
    return f"{color} ({COLOR_SYMBOLS[COLOR_BY_NAME[color]]})"


def event_lines(
    events: list[Event], names: list[str], seat: int | None, omniscient: bool, narrator: Narrator
) -> list[str]:
    """The events in words, as ``seat`` may see them (all of them when ``omniscient``);
    ``narrator`` follows the side in play from one call to the next."""
    shown = events if omniscient else redact(events, seat)
    say = words_for(DEFAULT, names).say
    return [say(line) for line in narrator.lines(shown)]


def _header(game: Game, replay: Replay, step: int, seat: int | None) -> list[str]:
    record = replay.record
    viewer = "everyone (omniscient)" if seat is None else f"{seat_name(record, seat)} (seat {seat})"
    lines = [
        f"{game.rules.title}, {game.n} players, seed {record.seed} · step {step} of {len(replay)} · "
        f"round {game.round_number} · seen by {viewer}"
    ]
    action = replay.action_at(step)
    if action is None:
        lines.append("Start of the game")
    else:
        lines.append(f"Action {step}: {seat_name(record, action[0])} (seat {action[0]}) > {action[1]}")
    names = record.names
    events = replay.events_at(step)
    before = replay.game_at(max(step - 1, 0))
    narrator = Narrator(before.side if step else 0, game.rules.double_sided)
    lines += [f"  {line}" for line in event_lines(events, names, seat, seat is None, narrator)]
    return lines


def render_step(replay: Replay, step: int, seat: int | None = None) -> list[str]:
    """The table after action ``step`` as seen by ``seat`` (``None``: omniscient)."""
    game = replay.game_at(step)
    record = replay.record
    lines = _header(game, replay, step, seat)
    obs: dict[str, Any] = game.observe(0 if seat is None else seat)
    position = game.to_position() if seat is None else None
    top = obs["top"]
    side = f"Side: {game.side_name}   " if game.rules.double_sided else ""
    lines.append(f"{side}Direction: {obs['direction']}   Colour in play: {color_label(obs['color'])}")
    supply = f"Launcher: {obs['draw_size']} cards" if "launcher" in obs else f"Draw pile: {obs['draw_size']} cards"
    if obs.get("draw_top_back"):
        supply += f" (top card's back: {obs['draw_top_back']})"
    if position is not None and position["draw"]:
        supply += f"; next: {position['draw'][0]}"
    lines.append(f"Top of the discard pile: {top}   {supply}")
    if obs["stack"]:
        lines.append(f"Stacked draw total: {obs['stack']}")
    for members, total in zip(obs.get("teams", []), obs.get("team_scores", []), strict=True):
        team = " & ".join(seat_name(record, s) for s in members)
        lines.append(f"Team {team}: {total} points")
    if game.is_over:
        lines.append(f"Game over: won by {', '.join(seat_name(record, s) for s in game.winners)}")
    else:
        actor = game.to_act
        assert actor is not None
        lines.append(f"To act: {seat_name(record, actor)} (seat {actor}), {words().decision(game.decision)}")
    if obs["uno_exposed"] is not None:
        lines.append(f"{seat_name(record, obs['uno_exposed'])} has one card and did not call UNO: catchable")
    for s in range(game.n):
        mark = ">" if game.to_act == s else " "
        head = f"{mark} {s} {seat_name(record, s)}: {obs['hand_sizes'][s]} cards, {obs['scores'][s]} points"
        if position is not None:
            cards = ", ".join(position["hands"][s])
            lines.append(f"{head} — {cards}")
        elif s == seat:
            lines.append(f"{head} — {', '.join(obs['hand'])}")
        elif obs.get("backs") is not None:
            lines.append(f"{head} — backs: {', '.join(obs['backs'][s])}")
        else:
            lines.append(head)
    return lines


def render_log(replay: Replay, upto: int, seat: int | None = None) -> list[str]:
    """Every action up to ``upto`` with its events in words, as ``seat`` saw them."""
    record = replay.record
    lines = [f"{record.variant}, {record.players} players, seed {record.seed}"]
    narrator = Narrator(0, replay.game_at(0).rules.double_sided)
    lines += event_lines(replay.events_at(0), record.names, seat, seat is None, narrator)
    for step in range(1, upto + 1):
        action = replay.action_at(step)
        assert action is not None
        lines.append(f"[{step}] {seat_name(record, action[0])} > {action[1]}")
        events = replay.events_at(step)
        lines += [f"    {line}" for line in event_lines(events, record.names, seat, seat is None, narrator)]
    return lines
