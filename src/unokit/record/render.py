"""The table at one step of a replay, as plain text lines, seen by a seat or by everyone.

A seat sees what :meth:`Game.observe` gives it and the redacted events; the omniscient
viewer sees every hand and every drawn card. Used by ``unokit replay`` (``--print`` and
the interactive viewer).
"""

from __future__ import annotations

from typing import Any

from ..core.codes import Param
from ..core.game import Event, Game
from ..core.observation import redact
from ..i18n import N_
from ..i18n.lines import words, words_for
from ..narration import Narrator, action_line
from .format import GameRecord
from .replay import Replay


def reader_names(record: GameRecord) -> list[str]:
    """The seats' names as a reader sees them, in the terminal's language: a seat the record
    names nobody at (an empty name, or the ``seat N`` that records of unnamed seats hold) is
    called by its number from 1 (``Seat 1``, ``Место 1``)."""
    w = words()
    names = []
    for seat in range(record.players):
        name = record.seats[seat].name.strip() if seat < len(record.seats) else ""
        names.append(w.seat(seat) if name in ("", f"seat {seat}") else name)
    return names


def color_label(color: str | None, double_sided: bool = True) -> str:
    """``red (circle)`` (with the mark of the deck, double-sided or not); none while a colour is
    being chosen."""
    return words().color_with_symbol(color, double_sided)


def event_lines(
    events: list[Event], names: list[str], seat: int | None, omniscient: bool, narrator: Narrator
) -> list[str]:
    """The events in words, as ``seat`` may see them (all of them when ``omniscient``);
    ``narrator`` follows the side in play from one call to the next."""
    shown = events if omniscient else redact(events, seat)
    say = words_for(None, names).say
    return [say(line) for line in narrator.lines(shown)]


def _header(game: Game, replay: Replay, step: int, seat: int | None) -> list[str]:
    record = replay.record
    w = words_for(None, reader_names(record))
    viewer = w.t("render.everyone") if seat is None else w.t("render.seat", player=seat)
    lines = [
        w.t(
            "render.header",
            variant=game.variant,
            count=game.n,
            seed=record.seed,
            step=step,
            steps=len(replay),
            round=game.round_number,
            viewer=viewer,
        )
    ]
    action = replay.action_at(step)
    if action is None:
        lines.append(w.t("render.start"))
    else:
        said = w.say(action_line(replay.game_at(step - 1), action[1], action[0]))
        lines.append(w.t("render.action", step=step, player=action[0], action=said))
    names = reader_names(record)
    events = replay.events_at(step)
    before = replay.game_at(max(step - 1, 0))
    narrator = Narrator(before.side if step else 0, game.rules.double_sided)
    lines += [f"  {line}" for line in event_lines(events, names, seat, seat is None, narrator)]
    return lines


def render_step(replay: Replay, step: int, seat: int | None = None) -> list[str]:
    """The table after action ``step`` as seen by ``seat`` (``None``: omniscient), in the
    terminal's language."""
    game = replay.game_at(step)
    names = reader_names(replay.record)
    w = words_for(None, names)
    lines = _header(game, replay, step, seat)
    obs: dict[str, Any] = game.observe(0 if seat is None else seat)
    position = game.to_position() if seat is None else None
    direction = obs["direction"]  # said by the message, by its parameter's type
    color = color_label(obs["color"], game.rules.double_sided)
    if game.rules.double_sided:
        lines.append(w.t("render.facts_side", side=game.side_name, direction=direction, color=color))
    else:
        lines.append(w.t("render.facts", direction=direction, color=color))
    launcher = "launcher" in obs
    key = N_("n.play.launcher_inside") if launcher else N_("n.play.draw_pile")
    supply = w.t(key, count=obs["draw_size"])
    if obs.get("draw_top_back"):
        supply += f" ({w.t('render.top_back', card=obs['draw_top_back'])})"
    if position is not None and position["draw"]:
        supply += f"; {w.t('render.next', card=_faces([position['draw'][0]], game.side)[0])}"
    lines.append(w.t("render.top", card=_faces([obs["top"]], game.side)[0], supply=supply))
    if obs["stack"]:
        lines.append(w.t("render.stacked", total=obs["stack"]))
    for members, total in zip(obs.get("teams", []), obs.get("team_scores", []), strict=True):
        team = " & ".join(names[s] for s in members)
        lines.append(w.t("n.render.team", names=team, count=total))
    if game.is_over:
        lines.append(w.t("table.game_over", winners=w.value(Param.SEATS, game.winners)))
    else:
        actor = game.to_act
        assert actor is not None
        lines.append(w.t("render.to_act", player=actor, decision=game.decision))
    if obs["uno_exposed"] is not None:
        lines.append(w.t("render.catchable", player=obs["uno_exposed"]))
    for s in range(game.n):
        mark = ">" if game.to_act == s else " "
        cards = w.t("n.cards", count=obs["hand_sizes"][s])
        head = f"{mark} {s + 1} {names[s]}: {cards}, {w.t('n.points', count=obs['scores'][s])}"
        if position is not None:
            lines.append(f"{head} — {w.value(Param.CARDS, _faces(position['hands'][s], game.side))}")
        elif s == seat:
            lines.append(f"{head} — {w.value(Param.CARDS, _faces(obs['hand'], game.side))}")
        elif obs.get("backs") is not None:
            lines.append(f"{head} — {w.t('render.backs', cards=obs['backs'][s])}")
        else:
            lines.append(head)
    return lines


def _faces(texts: list[str], side: int) -> list[str]:
    """The faces on ``side`` of cards' whole texts (``red 5/pink 2`` → ``pink 2`` on side 1)."""
    return [text.split("/")[side] if "/" in text else text for text in texts]


def render_log(replay: Replay, upto: int, seat: int | None = None) -> list[str]:
    """Every action up to ``upto`` with its events in words, as ``seat`` saw them."""
    record = replay.record
    names = reader_names(record)
    w = words_for(None, names)
    lines = [w.t("render.log_header", variant=record.variant, count=record.players, seed=record.seed)]
    narrator = Narrator(0, replay.game_at(0).rules.double_sided)
    lines += event_lines(replay.events_at(0), names, seat, seat is None, narrator)
    for step in range(1, upto + 1):
        action = replay.action_at(step)
        assert action is not None
        said = w.say(action_line(replay.game_at(step - 1), action[1], action[0]))
        lines.append(w.t("render.log_action", step=step, player=action[0], action=said))
        events = replay.events_at(step)
        lines += [f"    {line}" for line in event_lines(events, names, seat, seat is None, narrator)]
    return lines
