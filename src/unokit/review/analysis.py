"""Reviewing a game: the reviewed seat's chances at every state of a record, its decisions
marked, and the key moments (``docs/review.md``).

:func:`review_record` is the one entry point: a record, a seat, an effort and a seed give a
:class:`~unokit.review.model.Review`. It walks the record as the seat saw it
(:class:`~unokit.bots.advice.Advisor`): at every state of every hand it estimates the seat's
chance to win the hand from the seat's view and a belief over the rest (never the hidden hands
or the order of the draw pile), at each of the seat's decisions the chance after every choice.
The estimates of each state are seeded from the seed and the state's step, so a review is the
same for the same record, effort and seed, however many processes share the work.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from typing import Any

from .. import __version__
from ..bots.advice import Advice, Advisor, advise, effort_named
from ..bots.ismcts import searched_actions
from ..bots.temper import temperature, tempered
from ..core.actions import CATCH, UNO
from ..core.determinise import Determiniser
from ..core.errors import UnokitError
from ..core.game import Event, Game
from ..core.observation import View
from ..core.teams import partner
from ..narration import action_line
from ..record import GameRecord, RecordError, Replay
from ..record.hints import read_hints
from ..record.replay import start_game
from .gamechance import GameModel, game_chance, hand_points, scored
from .model import THRESHOLDS, Choice, Decision, Moment, Point, Review, ReviewError, RoundOutcome, mark_for

#: Key moments kept: the largest swings of the chance to win the hand, at least the smallest
#: mark's threshold. The action that ends a hand is not one: it settles what the chance said.
MOMENTS = 5
#: States evaluated per task when several processes share a review.
CHUNK = 12
#: Fewer states than this are estimated in the calling process whatever ``workers`` says:
#: starting a process and loading the compiled kernel there costs more than it saves.
ALONE = 120
#: Digits kept of every chance (a tenth of a point of percentage is below any estimate's noise).
DIGITS = 4

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Estimate:
    """What the search said at one state (after ``step`` actions), from the reviewed seat's view:
    each seat's chance to win the hand, its choices (action text, iterations, chance) where it
    decided, the engine, and where rounds are scored the seat's chance to win the game if each
    seat goes out of this hand (:meth:`GameModel.by_winner`; empty otherwise)."""

    step: int
    decision: bool
    chances: tuple[float, ...]
    choices: tuple[tuple[str, int, float], ...]
    engine: str
    by_winner: tuple[float, ...]


def record_digest(record: GameRecord) -> str:
    """SHA-256 of ``record`` as canonical JSON (sorted keys, no spaces): the review of a record
    names it, so that a review kept with a record can be checked to belong to it."""
    text = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _round(x: float) -> float:
    return round(float(x), DIGITS)


def estimate_steps(record: GameRecord, seat: int, effort: str, seed: int, steps: Sequence[int]) -> list[Estimate]:
    """The :class:`Estimate` of each of ``steps`` (states of ``record`` where the game goes on),
    in order: the advisor walks the whole record (keeping the seat's reads) and searches at
    those steps only. Usable in another process (its arguments are plain values)."""
    wanted = set(steps)
    start, setup = start_game(record)
    model = GameModel(start, seat, seed) if scored(start) else None
    advisor = Advisor(seat, effort_named(effort), seed)
    out = []
    for stop in advisor.walk(start, record.actions, setup):
        if stop.index not in wanted:
            if stop.index > max(wanted):
                break
            continue
        view = stop.view
        evaluation = advisor.evaluate(view, stop.index)
        by_winner: tuple[float, ...] = ()
        if model is not None:
            worth = hand_points(view, Determiniser(view).pool)
            by_winner = tuple(_round(p) for p in model.by_winner(view.scores, view.round_number, worth))
        out.append(
            Estimate(
                stop.index,
                stop.decision,
                tuple(_round(c) for c in evaluation.chances),
                tuple((c.action.text, c.visits, _round(c.chance)) for c in evaluation.choices),
                evaluation.engine,
                by_winner,
            )
        )
    return out


def hint(record: GameRecord, seat: int, effort: str = "normal", seed: int = 0) -> Advice:
    """The hint for ``seat``'s open decision at the end of ``record`` (a game in progress, as a
    server keeps it): :func:`unokit.bots.advice.advise` from the record's start and actions.
    ``ValueError`` when ``seat`` is not to act there or ``effort`` is unknown."""
    start, _ = start_game(record)
    return advise(start, record.actions, seat, effort, seed)


def _estimate_task(args: tuple[str, int, str, int, list[int]]) -> list[Estimate]:
    text, seat, effort, seed, steps = args
    return estimate_steps(GameRecord.loads(text), seat, effort, seed, steps)


def review_record(
    record: GameRecord,
    seat: int,
    effort: str = "normal",
    seed: int = 0,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    check_version: bool = True,
) -> Review:
    """Review ``seat``'s game in ``record`` (see the module docstring) with ``effort`` (``low``,
    ``normal``, ``high``: :data:`unokit.bots.advice.EFFORTS`) and ``seed``; up to ``workers``
    processes share the searches (a record of fewer than :data:`ALONE` states is estimated in
    this process; the result does not depend on it); ``progress(done, total)``
    is called as the states are estimated; ``check_version=False`` reviews a record of an
    incompatible unokit anyway (as ``unokit replay --any-version``).

    Raises :class:`ReviewError` for a seat that is not at the table, an unknown effort or a
    ``workers`` below 1; :class:`~unokit.record.RecordError` (its subclasses
    ``IncompatibleRecordError`` and ``ReplayError``) for a record that does not replay on this
    engine or whose hints cannot be read. Nothing is written anywhere."""
    if not 0 <= seat < record.players:
        raise ReviewError(f"seat {seat} is not at this table: seats are 0 to {record.players - 1}")
    try:
        effort_named(effort)
    except ValueError as exc:
        raise ReviewError(str(exc)) from None
    if workers < 1:
        raise ReviewError(f"workers must be at least 1, not {workers}")
    replay = Replay(record, check_version=check_version)
    hinted_steps(record, replay, seat)  # marks that cannot be are refused before any search
    steps = [k for k in range(len(replay) + 1) if not _over_at(replay, k)]
    estimates = _estimate_all(record, seat, effort, seed, steps, workers, progress)
    return assemble_review(record, seat, effort, seed, estimates, check_version=check_version)


def review_steps(record: GameRecord) -> list[int]:
    """The states of ``record`` that its review estimates (every state where the game goes on),
    for a caller that estimates them itself, a few at a time (:func:`estimate_steps`), and then
    makes the review with :func:`assemble_review`: a server, between other work. Raises
    :class:`~unokit.record.RecordError` for a record that does not replay."""
    replay = Replay(record)
    return [k for k in range(len(replay) + 1) if not _over_at(replay, k)]


def assemble_review(
    record: GameRecord,
    seat: int,
    effort: str,
    seed: int,
    estimates: dict[int, Estimate],
    *,
    check_version: bool = True,
) -> Review:
    """The review of ``seat`` in ``record`` from the :class:`Estimate` of each of its
    :func:`review_steps` (by step), made by :func:`estimate_steps` with the same ``effort`` and
    ``seed``: the same review as :func:`review_record`'s. Raises :class:`ReviewError` for an
    estimate missing and :class:`~unokit.record.RecordError` as :func:`review_record` does."""
    replay = Replay(record, check_version=check_version)
    missing = [k for k in range(len(replay) + 1) if not _over_at(replay, k) and k not in estimates]
    if missing:
        raise ReviewError(f"no estimate of state {missing[0]} of the record")
    return _assemble(record, replay, seat, effort, seed, estimates, hinted_steps(record, replay, seat))


def hinted_steps(record: GameRecord, replay: Replay, seat: int) -> set[int]:
    """The steps at which ``seat`` decided after a hint (the record's hint marks). Raises
    :class:`~unokit.record.RecordError` naming the mark for one that cannot have been shown: an
    effort the hint does not have, or an action that is not one its seat could take at its step."""
    steps = set()
    for number, mark in enumerate(read_hints(record), 1):
        try:
            effort_named(mark.effort)
        except ValueError as exc:
            raise RecordError(f"hint {number}: {exc}") from None
        game = replay.game_at(mark.step)
        try:
            legal = not game.is_over and game.parse_action(mark.action, mark.seat) in game.legal_actions(mark.seat)
        except UnokitError:
            legal = False
        if not legal:
            raise RecordError(
                f"hint {number}: {mark.action!r} is not an action seat {mark.seat} could take at step {mark.step}"
            )
        if mark.seat == seat:
            steps.add(mark.step)
    return steps


def review_order(record: GameRecord, seat: int) -> list[int]:
    """:func:`review_steps` in the order a caller should estimate them to show the first marks
    early: the states where ``seat`` decides with a choice first (:func:`own_choices`), then the
    others (they only draw the graph and find the other players' key moments). The review does
    not depend on the order (each state's search is seeded by its step). Raises
    :class:`~unokit.record.RecordError` for a record that does not replay."""
    return ordered_steps(record, own_choices(record, seat))


def ordered_steps(record: GameRecord, first: list[int]) -> list[int]:
    """:func:`review_steps` with the steps ``first`` (some of them) first, then the others in
    the game's order."""
    chosen = set(first)
    return first + [k for k in review_steps(record) if k not in chosen]


def own_choices(record: GameRecord, seat: int) -> list[int]:
    """The steps of :func:`review_steps` where ``seat`` decides with a choice (the review's
    decisions), in the game's order. Raises :class:`~unokit.record.RecordError` for a record
    that does not replay."""
    steps = review_steps(record)
    wanted = set(steps)
    game, _ = start_game(record)
    own: list[int] = []
    for step, (actor, text) in enumerate(record.actions):
        if step in wanted and actor == seat and game.to_act == seat:
            action = game.parse_action(text, actor)
            if action.kind not in (CATCH, UNO) and len(searched_actions(View(game, seat).legal_actions())) > 1:
                own.append(step)
        game.apply(text, seat=actor)
    return own


def partial_decisions(record: GameRecord, seat: int, estimates: dict[int, Estimate]) -> list[Decision]:
    """The seat's decisions among the states ``estimates`` holds (any of :func:`review_steps`,
    made by :func:`estimate_steps`), marked as the finished review will mark them (under the
    same temperature), in the game's order: what a page shows while the rest is estimated."""
    power = temperature(record.variant, record.players)
    hints = {m.step for m in read_hints(record) if m.seat == seat}
    game, _ = start_game(record)
    out: list[Decision] = []
    last = max(estimates, default=-1)
    for step, (actor, text) in enumerate(record.actions):
        if step > last:
            break
        estimate = estimates.get(step)
        if estimate is not None and estimate.decision:
            tempered_estimate = _tempered(estimate, seat, record.players, power)
            by_winner = list(tempered_estimate.by_winner) or None
            decision = _decision(
                game, step, game.round_number, tempered_estimate, (actor, text), seat, by_winner, step in hints
            )
            if decision is not None:
                out.append(decision)
        game.apply(text, seat=actor)
    return out


def _over_at(replay: Replay, step: int) -> bool:
    """Whether the game is over at ``step`` (only the last step can be)."""
    return step == len(replay) and replay.final.is_over


def _estimate_all(
    record: GameRecord,
    seat: int,
    effort: str,
    seed: int,
    steps: list[int],
    workers: int,
    progress: Progress | None,
) -> dict[int, Estimate]:
    total = len(steps)
    done: dict[int, Estimate] = {}
    if progress is not None:
        progress(0, total)
    chunks = [steps[i : i + CHUNK] for i in range(0, total, CHUNK)]
    if workers == 1 or total < ALONE:
        for chunk in chunks:
            for estimate in estimate_steps(record, seat, effort, seed, chunk):
                done[estimate.step] = estimate
            if progress is not None:
                progress(len(done), total)
        return done
    text = record.dumps()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_estimate_task, (text, seat, effort, seed, chunk)) for chunk in chunks]
        for future in as_completed(futures):
            for estimate in future.result():
                done[estimate.step] = estimate
            if progress is not None:
                progress(len(done), total)
    return done


def _assemble(
    record: GameRecord,
    replay: Replay,
    seat: int,
    effort: str,
    seed: int,
    estimates: dict[int, Estimate],
    hinted: set[int],
) -> Review:
    """The review from the estimates: walks the record once more for what everyone saw (the
    actions in words, the rounds, who won them), and finds the swings between states. The
    seat's chances are put under the table's temperature first (:mod:`unokit.bots.temper`)."""
    power = temperature(record.variant, record.players)
    estimates = {step: _tempered(estimate, seat, record.players, power) for step, estimate in estimates.items()}
    game, _setup = start_game(record)
    is_scored = scored(game)
    points: list[Point] = []
    decisions: list[Decision] = []
    swings: list[Moment] = []
    rounds: list[RoundOutcome] = []
    first = 0  # the first step of the round being played
    before: float | None = None  # the seat's chance at the state before, within the round
    chosen: float | None = None  # the chance of the choice the seat made there, if it decided
    last: tuple[int, int, str, dict[str, Any]] | None = None  # the action after it: step, seat, text, words
    for step in range(len(replay) + 1):
        estimate = estimates.get(step)
        round_number = game.round_number
        if estimate is None:  # the game is over
            break
        by_winner = list(estimate.by_winner) or None
        action = replay.action_at(step + 1) if step < len(replay) else None
        decision = _decision(game, step, round_number, estimate, action, seat, by_winner, step in hinted)
        if decision is not None:
            decisions.append(decision)
            chance, game_value = decision.best_choice.chance, decision.best_choice.game
            played = decision.played_choice
            swings.append(
                Moment(step, round_number, "decision", seat, played.action, played.line, chance, played.chance)
            )
        else:
            chance = max((c[2] for c in estimate.choices), default=estimate.chances[seat])
            game_value = _round(game_chance(chance, estimate.chances, seat, by_winner)) if by_winner else None
        if before is not None and last is not None:
            _swing_into(swings, replay.events_at(step), seat, last, round_number, before, chosen, chance)
        points.append(Point(step, round_number, chance, game_value, action[0] if action else None))
        if action is None:  # an unfinished game: the record stops here
            rounds.append(RoundOutcome(round_number, first, step, None, False))
            break
        before, chosen = chance, _chosen_chance(estimate, action, seat)
        actor, text = action
        last = (step, actor, text, action_line(game, text, actor, named=True).to_json())
        events = game.apply(text, seat=actor)
        end = next((e for e in events if e["type"] == "round_end"), None)
        if end is None:
            continue
        winner = int(end["winner"])
        won = winner == seat or (game.options.teams and winner == partner(seat, game.n))
        outcome = 1.0 if won else 0.0
        rounds.append(RoundOutcome(round_number, first, step, winner, won))
        points.append(Point(step + 1, round_number, outcome, _end_game_chance(game, seat, is_scored), None))
        before = chosen = last = None
        first = step + 1
    _fill_round_end_game_chances(points)
    largest = sorted(
        (m for m in swings if abs(m.swing) >= THRESHOLDS["inaccuracy"] - 1e-9), key=lambda m: -abs(m.swing)
    )
    engines = {e.engine for e in estimates.values()}
    return Review(
        record_sha256=record_digest(record),
        seat=seat,
        names=tuple(record.names),
        variant=record.variant,
        players=record.players,
        effort=effort,
        seed=seed,
        engine=engines.pop() if len(engines) == 1 else "mixed",
        power=power,
        scored=is_scored,
        rounds=tuple(rounds),
        points=tuple(points),
        decisions=tuple(decisions),
        moments=tuple(sorted(largest[:MOMENTS], key=lambda m: m.step)),
        unokit=__version__,
    )


def _swing_into(
    swings: list[Moment],
    events: list[Event],
    seat: int,
    last: tuple[int, int, str, dict[str, Any]],
    round_number: int,
    before: float,
    chosen: float | None,
    chance: float,
) -> None:
    """The swing of the action ``last`` that led to a state of chance ``chance``: another
    player's move (from the chance ``before`` it), or the luck of what the seat's own action
    showed it (from the chance of its choice, ``chosen``); the seat's other actions change
    nothing but the estimate's noise."""
    step, actor, text, line = last
    if actor != seat:
        swings.append(Moment(step, round_number, "move", actor, text, line, before, chance))
    elif chosen is not None and _chance_shown(events, seat):
        swings.append(Moment(step, round_number, "luck", seat, text, line, chosen, chance))


def _end_game_chance(game: Game, seat: int, is_scored: bool) -> float | None:
    """At the end of a round: 1 (shared among the winners) or 0 when it ended a scored game,
    ``None`` otherwise (the next round's first state gives it)."""
    if not is_scored or not game.is_over:
        return None
    winners = game.winners
    return _round(1.0 / len(winners)) if seat in winners else 0.0


def _fill_round_end_game_chances(points: list[Point]) -> None:
    """A round's end point takes the game chance of the next round's first state."""
    for i, point in enumerate(points):
        if point.actor is None and point.game is None and i + 1 < len(points) and points[i + 1].game is not None:
            nxt = points[i + 1]
            if nxt.round == point.round + 1:
                points[i] = Point(point.step, point.round, point.chance, nxt.game, None)


def _tempered(estimate: Estimate, seat: int, players: int, power: float) -> Estimate:
    """``estimate`` with the seat's chances (at the state, and of each of its choices) under
    ``power``; the other seats' chances keep their proportions (the game chance shares the rest
    as they do)."""
    if power == 1.0:
        return estimate
    chances = list(estimate.chances)
    chances[seat] = _round(tempered(chances[seat], players, power))
    choices = tuple(
        (text, visits, _round(tempered(chance, players, power))) for text, visits, chance in estimate.choices
    )
    return replace(estimate, chances=tuple(chances), choices=choices)


def _chosen_chance(estimate: Estimate, action: tuple[int, str] | None, seat: int) -> float | None:
    """The chance of the choice the seat made at ``estimate``'s state, or ``None`` when it did
    not decide there."""
    if not estimate.decision or action is None or action[0] != seat:
        return None
    chosen = _match(estimate.choices, action[1])
    return estimate.choices[chosen][2] if chosen is not None else None


def _match(choices: Sequence[tuple[str, int, float]], text: str) -> int | None:
    """The choice whose action is ``text`` (its form with or without the UNO call)."""
    plain = text.removesuffix(" uno")
    for i, (choice, _, _) in enumerate(choices):
        if choice == text or choice.removesuffix(" uno") == plain:
            return i
    return None


def _decision(
    game: Game,
    step: int,
    round_number: int,
    estimate: Estimate,
    action: tuple[int, str] | None,
    seat: int,
    by_winner: list[float] | None,
    hinted: bool,
) -> Decision | None:
    """The seat's decision at ``step`` with every choice in words, or ``None`` when it had no
    choice (one action only) or did not decide here."""
    if not estimate.decision or action is None or len(estimate.choices) < 2:
        return None
    played = _match(estimate.choices, action[1])
    if played is None:  # pragma: no cover - every in-turn action is among the searched ones
        raise AssertionError(f"the action {action[1]!r} of step {step + 1} is not among the choices searched")
    choices = tuple(
        Choice(
            text,
            action_line(game, text, seat, named=True).to_json(),
            chance,
            _round(game_chance(chance, estimate.chances, seat, by_winner)) if by_winner is not None else None,
            visits,
        )
        for text, visits, chance in estimate.choices
    )
    best = max(range(len(choices)), key=lambda i: (choices[i].chance, choices[i].visits, -i))
    drop = _round(max(0.0, choices[best].chance - choices[played].chance))
    missed = action[1] != choices[played].action and choices[played].action.endswith(" uno")
    return Decision(
        step, round_number, game.decision.value, choices, played, best, drop, mark_for(drop), hinted, missed
    )


def _chance_shown(events: list[Event], seat: int) -> bool:
    """Whether ``events`` showed the seat something chance decided: cards it took (a draw, a
    launcher's fire) or a challenge's answer."""
    for event in events:
        kind = event["type"]
        if kind in ("draw", "press") and event.get("seat") == seat and event.get("count", 0):
            return True
        if kind == "challenge":
            return True
    return False


__all__ = [
    "MOMENTS",
    "Estimate",
    "assemble_review",
    "estimate_steps",
    "hint",
    "partial_decisions",
    "record_digest",
    "review_order",
    "review_record",
    "review_steps",
]
