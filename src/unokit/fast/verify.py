"""The differential check: random games played through the reference engine and the kernel.

:func:`compare_with_reference` plays games with the reference engine (:mod:`unokit.core`),
choosing uniformly among ``Game.legal_actions()`` exactly as :func:`unokit.fast.random_playout`
does, then replays each game's actions in a :class:`~unokit.fast.Batch`. After **every** action
it compares a digest of the state (generator state, open decision, seat, colour, side,
direction, UNO exposure, stack, passes, pile sizes, top card, launcher streak, hand sizes)
and, before every action, the legal actions in order. At checkpoints (every ``every``
decisions, the last one, and after every action of the first ``full_games`` games) it compares
the whole position (``to_position()``), every seat's observation vector and the legal-action
mask against :class:`unokit.encoding.Encoding`. Finally the games' decision count and wins
must equal :func:`~unokit.fast.random_playout`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.actions import DISCARD, PLAY, PLAY_DRAWN, UNO, Action
from ..core.game import Game
from ..core.observation import View
from ..core.position import exposed_seat
from ..core.rng import MASK64, Rng
from . import kernel as K
from .batch import WIN_DENOM, Batch, random_playout


@dataclass
class Report:
    """What one check compared, and the first difference found (``None``: none)."""

    variant: str
    players: int
    options: dict[str, Any]
    games: int = 0
    decisions: int = 0
    positions: int = 0
    observations: int = 0
    masks: int = 0
    mismatch: str | None = None
    wins: list[float] = field(default_factory=list)

    def __str__(self) -> str:
        verdict = "identical" if self.mismatch is None else f"DIFFERENT: {self.mismatch}"
        return (
            f"{self.variant} {self.players}p {self.options or ''}: {self.games} games, {self.decisions} decisions, "
            f"{self.positions} positions, {self.observations} observations, {self.masks} masks: {verdict}"
        )


def reference_digest(game: Game) -> list[int]:
    """:func:`unokit.fast.kernel.digest` of a reference game."""
    x = game.rng.state
    launcher = game.launcher
    return [
        x >> 32,
        x & 0xFFFFFFFF,
        -1 if game.to_act is None else game.to_act,
        K.DECISION_KINDS.index(game.decision),
        game.turn,
        game.color,
        game.side,
        game.direction,
        _exposed(game),
        game.stack_total,
        game.passes,
        len(game.draw),
        len(game.discard),
        game.discard[-1],
        getattr(launcher, "empty_streak", 0) if launcher is not None else 0,
        *(len(hand) for hand in game.hands),
    ]


def _exposed(game: Game) -> int:
    seat = exposed_seat(game)
    return -1 if seat is None else seat


def compare_with_reference(
    variant: str,
    players: int,
    games: int,
    seed: int,
    *,
    every: int = 64,
    full_games: int = 0,
    **options: Any,
) -> Report:
    """Play ``games`` random games (game ``i`` from seed ``seed + i``) through both engines
    and compare them as the module docstring says; stop at the first difference."""
    batch = Batch(variant, players, games, seed, **options)
    report = Report(batch.variant, players, dict(options))
    enc = batch.encoding
    n_actions = enc.num_actions
    n = players
    wins = [0] * n
    for i in range(games):
        game_seed = (seed + i) & MASK64
        game = Game.new(variant, players, game_seed, rounds=1, **options)[0]
        chooser = Rng(~game_seed & MASK64)
        history: list[list[int]] = [[] for _ in range(n)]
        codes: list[int] = []
        chosen: list[int] = []
        counts: list[int] = []
        hashes: list[int] = []
        digests: list[list[int]] = []
        checkpoints: dict[int, Snapshot] = {}
        full = i < full_games
        views = [View(game, s) for s in range(n)]
        checkpoints[-1] = _snapshot(game, views, enc, history)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions()
            row = [_code(enc, a, seat, n_actions) for a in legal]
            k = chooser.below(len(legal))
            action = legal[k]
            codes.append(row[k])
            chosen.append(k)
            counts.append(len(row))
            hashes.append(_hash(row))
            card: int | None = action.card
            if action.kind == PLAY_DRAWN:
                card = game.deck.type_id(game.pending()["card"])
            game.step(action)
            if action.kind in (PLAY, DISCARD, PLAY_DRAWN) and card is not None:
                history[seat].insert(0, card)
                del history[seat][enc.history :]
            digests.append(reference_digest(game))
            j = len(codes) - 1
            if full or j % every == every - 1 or game.is_over:
                checkpoints[j] = _snapshot(game, views, enc, history)
        report.games += 1
        report.decisions += len(codes)
        for s in game.winners:
            wins[s] += WIN_DENOM // len(game.winners)
        problem = _replay(batch, i, codes, chosen, counts, hashes, digests, checkpoints, report)
        if problem is not None:
            report.mismatch = f"game {i} (seed {game_seed}): {problem}"
            return report
    report.wins = [w / WIN_DENOM for w in wins]
    playout = random_playout(variant, players, games, seed, **options)
    if playout["decisions"] != report.decisions or playout["wins"] != report.wins:
        report.mismatch = (
            f"random_playout gave {playout['decisions']} decisions and wins {playout['wins']}, "
            f"the reference {report.decisions} and {report.wins}"
        )
    return report


def _code(enc: Any, action: Action, seat: int, n_actions: int) -> int:
    i: int | None = enc.encode(action, seat)
    if i is None:
        return n_actions if action.kind == UNO else n_actions + 1
    return i


def _hash(codes: list[int]) -> int:
    h = 0
    for code in codes:
        h = (h * 1000003 + code + 1) & 0xFFFFFFFFFFFF
    return h


Snapshot = tuple[dict[str, Any], list[Any], Any]


def _snapshot(game: Game, views: list[View], enc: Any, history: list[list[int]]) -> Snapshot:
    """The position, every seat's observation and the mask of the seat to act, now."""
    observations = [enc.observe(view, history) for view in views]
    to_act = game.to_act
    mask = enc.zero_mask() if to_act is None else enc.mask(views[to_act])
    return game.to_position(), observations, mask


def _replay(
    batch: Batch,
    i: int,
    codes: list[int],
    chosen: list[int],
    counts: list[int],
    hashes: list[int],
    digests: list[list[int]],
    checkpoints: dict[int, Snapshot],
    report: Report,
) -> str | None:
    """Replay one game in row ``i`` of ``batch``, comparing as it goes; describe a difference."""
    moves = np.asarray([codes, chosen, counts, hashes], np.int64).T.copy()
    table = np.asarray(digests, np.int64).reshape(len(digests), -1)
    row = batch.state[i]
    start = 0
    for stop in sorted(checkpoints):
        if stop >= start:
            bad = K.replay(row, batch.rules_vector, moves, table, start, stop + 1)
            if bad >= 0:
                return f"decision {bad} (action {codes[bad]}) differs"
            start = stop + 1
        position, observations, mask = checkpoints[stop]
        mine = batch.position(i)
        report.positions += 1
        if mine != position:
            keys = [key for key in position if position[key] != mine.get(key)]
            return f"after decision {stop} the position differs in {keys}"
        seats = np.arange(batch.players)
        for seat in seats:
            obs = batch.observation(i, int(seat))
            report.observations += 1
            if not np.array_equal(obs, observations[seat]):
                where = np.flatnonzero(obs != observations[seat]).tolist()
                return f"after decision {stop} seat {seat}'s observation differs at {where}"
        report.masks += 1
        if not np.array_equal(batch.mask(i), mask.astype(bool)):
            return f"after decision {stop} the legal mask differs"
    return None
