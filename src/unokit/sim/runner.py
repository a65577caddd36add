"""The simulator: many games between bots, played in worker processes, with statistics.

Every game ``i`` is independent and fully determined by the configuration and ``i``: its seed
and the seeds of its bots are derived from ``(seed, i)``, and the bots sit in seats rotated by
``i`` (entry ``e`` of the bot list takes seat ``(e + i) % players``). Statistics are integer
tallies summed over games, so the results are identical for any number of workers.

The loop uses the engine's fast path (``Game.step``) and builds no events, unless per-effect
statistics are asked for (``effects=True``): then every action goes through ``Game.apply``
and its events are counted (cards drawn and launcher presses by the effect that caused them,
and every event type). With ``teams=true`` entry ``e`` and entry ``e + players/2`` are partners
in every game (seats rotate together), and wins and points are tallied per team too. A jump
(``jump_in=true``) counts as a turn: it is a play, out of turn. Actions of bots other than
``random`` are checked against the legal
actions before they are applied. ``random`` seats are played inline: each choice is uniform
over the legal actions, taken from the bot's own RNG as digits of a 64-bit number (several
choices per number), so they follow the same distribution as :class:`RandomBot` with less
work per decision (but not its exact sequence of choices).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import multiprocessing
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..bots import check_bot_spec, external_command, make_bot
from ..bots.base import Bot
from ..bots.external import ExternalBot
from ..bots.random_bot import RandomBot
from ..bots.runner import react_all
from ..core.errors import IllegalActionError, OptionError, quote
from ..core.game import Event, Game
from ..core.observation import View
from ..core.rng import MASK64, Rng
from ..core.round_end import RoundResult
from ..core.types import DecisionKind as D
from ..core.types import EventType
from ..core.variants import Options, get_rules, make_options
from ..files import write_atomically

#: A shared win counts ``1/k`` for each of its ``k`` winners; tallies count in units of
#: ``1/WIN_DENOM`` (the least common multiple of 1..10) so that they stay whole numbers.
WIN_DENOM = 2520
#: ``reference``: the engine of :mod:`unokit.core`; ``fast``: the compiled kernel of
#: :mod:`unokit.fast` (same games, same results; random and rlcard_rule bots, single hands).
ENGINES = ("reference", "fast")
#: Where the games are played: worker processes of this machine, or a Ray cluster.
BACKENDS = ("local", "ray")
#: A game that has not ended after this many decisions is reported as an error.
MAX_DECISIONS = 2_000_000
#: The most worker processes (or CPUs of a local Ray instance) a run asks for; it starts no
#: more than it has chunks of games (:meth:`SimConfig.processes`).
MAX_WORKERS = 256
#: The most games one run plays (10^9 games take days on any machine; a larger number is a typo).
MAX_GAMES = 10**9
#: A random seat's pool of random digits is refilled below this, which keeps the modulo bias
#: of each choice under ``choices / 2**32``.
_POOL_LOW = 1 << 32


def derive_seed(seed: int, *parts: int) -> int:
    """A 64-bit seed derived from ``seed`` and ``parts`` (SplitMix64 steps), for games and bots."""
    rng = Rng(seed)
    value = rng.next64()
    for part in parts:
        rng = Rng(value ^ ((part * 0x9E3779B97F4A7C15) & MASK64))
        value = rng.next64()
    return value


_EXTERNAL: dict[tuple[str, float, int], ExternalBot] = {}


def make_bot_spec(spec: str, seed: int = 0, time_limit: float = 5.0, slot: int = 0) -> Bot:
    """A bot from a command-line spec: a registered name (``heuristic``) or
    ``external:<command>`` for a program speaking the ``unokit-bot/1`` protocol.

    External bots are started once per process and ``slot`` (one process per entry of a bot
    list, so that a program can play against itself) and reused, their RNG reseeded; the
    others are created afresh. Raises ``ValueError`` for an unknown name.
    """
    command = external_command(spec)
    if command is not None:
        key = (spec, time_limit, slot)
        bot = _EXTERNAL.get(key)
        if bot is None:
            bot = _EXTERNAL[key] = ExternalBot(seed, command, time_limit)
        bot.rng = Rng(seed)
        return bot
    return make_bot(spec, seed)


def close_external_bots() -> None:
    """Stop the external bots this process started."""
    while _EXTERNAL:
        _key, bot = _EXTERNAL.popitem()
        bot.close()


def wilson_interval(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    center = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``bots`` lists one bot spec per seat (the order of the *entries*;
    seats rotate from game to game). ``options`` are rule options as ``(name, value)`` pairs."""

    variant: str = "classic"
    players: int = 2
    bots: tuple[str, ...] = ("random", "random")
    games: int = 1000
    seed: int = 1
    workers: int = 1
    options: tuple[tuple[str, str], ...] = ()
    hands_only: bool = False
    effects: bool = False
    time_limit: float = 5.0
    keep_games: bool = False
    engine: str = "reference"
    backend: str = "local"
    address: str | None = None

    def game_options(self) -> dict[str, object]:
        """The options given to ``Game.new`` (``rounds=1`` with ``hands_only``)."""
        options: dict[str, object] = dict(self.options)
        if self.hands_only:
            if "rounds" in options and str(options["rounds"]) != "1":
                raise OptionError("--hands-only plays single hands; it cannot be combined with the option rounds")
            options["rounds"] = 1
        return options

    def resolved_options(self) -> Options:
        """The engine's options for these games, validated, with every default filled in."""
        return make_options(get_rules(self.variant), self.game_options())

    def validate(self) -> None:
        """Raise ``ValueError`` (``OptionError`` for rules) naming what is wrong."""
        if not 1 <= self.games <= MAX_GAMES:
            raise ValueError(f"the number of games must be from 1 to {MAX_GAMES:,}, not {quote(self.games)}")
        if not 1 <= self.workers <= MAX_WORKERS:
            raise ValueError(f"the number of workers must be from 1 to {MAX_WORKERS}, not {quote(self.workers)}")
        if not self.time_limit > 0:
            raise ValueError(
                f"the time limit of external bots must be a positive number of seconds, not {self.time_limit}"
            )
        if len(self.bots) != self.players:
            raise ValueError(
                f"{self.players} seats need {self.players} bots, got {len(self.bots)}: {','.join(self.bots)}"
            )
        Game.new(self.variant, self.players, 0, **self.game_options())
        for spec in self.bots:
            check_bot_spec(spec, self.variant, self.players)
        if self.engine not in ENGINES:
            raise ValueError(f"unknown engine {self.engine!r}; engines are {', '.join(ENGINES)}")
        if self.engine == "fast":
            from .fast import check_fast_config

            check_fast_config(self)
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown backend {self.backend!r}; backends are {', '.join(BACKENDS)}")
        if self.address is not None and self.backend != "ray":
            raise ValueError("--address names a Ray cluster: it goes with --backend ray")

    def processes(self) -> int:
        """How many worker processes (or CPUs of a local Ray instance) the run uses: ``workers``,
        but never more than it has chunks of games to hand out (2 games, 2 processes)."""
        return min(self.workers, len(_chunks(self.games, self.workers, self.engine)))

    def labels(self) -> list[str]:
        """A name per entry: the bot spec, numbered when several entries share it."""
        return entry_labels(self.bots)


def entry_labels(specs: Sequence[str]) -> list[str]:
    """``random, random`` → ``random#1, random#2``; unique specs keep their name."""
    totals = Counter(specs)
    seen: Counter[str] = Counter()
    out = []
    for spec in specs:
        seen[spec] += 1
        out.append(spec if totals[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


# --------------------------------------------------------------------------- tallies


@dataclass
class Tally:
    """Integer statistics over a set of games; tallies of disjoint sets of games add up."""

    players: int
    games: int = 0
    decisions: int = 0
    round_count: int = 0
    win_shares: list[int] = field(default_factory=list)  # per entry, in 1/WIN_DENOM
    points: list[int] = field(default_factory=list)  # per entry: sum of final scores
    turns: Counter[int] = field(default_factory=Counter)  # turns per round -> rounds
    rounds: Counter[int] = field(default_factory=Counter)  # rounds per game -> games
    round_points: Counter[int] = field(default_factory=Counter)  # points scored in a round
    first_player: list[int] = field(default_factory=list)  # round wins by place after the dealer
    effects: dict[str, list[int]] = field(default_factory=dict)  # reason -> [draws, cards, presses, cards]
    events: Counter[str] = field(default_factory=Counter)
    records: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    #: With ``teams=true``, per team (team ``k``: entries ``k`` and ``k + players/2``): game wins
    #: in 1/WIN_DENOM and the sum of final team totals; empty otherwise.
    team_win_shares: list[int] = field(default_factory=list)
    team_points: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.players
        self.win_shares = self.win_shares or [0] * n
        self.points = self.points or [0] * n
        self.first_player = self.first_player or [0] * n

    def count_teams(self) -> None:
        """Tally per team from now on (``teams=true``)."""
        half = self.players // 2
        self.team_win_shares = self.team_win_shares or [0] * half
        self.team_points = self.team_points or [0] * half

    def add(self, other: Tally) -> None:
        """Add the games of ``other`` (which must come after these, for ``records``)."""
        self.games += other.games
        self.decisions += other.decisions
        self.round_count += other.round_count
        for i in range(self.players):
            self.win_shares[i] += other.win_shares[i]
            self.points[i] += other.points[i]
            self.first_player[i] += other.first_player[i]
        if other.team_win_shares:
            self.count_teams()
            for k, wins in enumerate(other.team_win_shares):
                self.team_win_shares[k] += wins
                self.team_points[k] += other.team_points[k]
        self.turns.update(other.turns)
        self.rounds.update(other.rounds)
        self.round_points.update(other.round_points)
        self.events.update(other.events)
        for reason, values in other.effects.items():
            mine = self.effects.setdefault(reason, [0, 0, 0, 0])
            for k in range(4):
                mine[k] += values[k]
        self.records.extend(other.records)


def _count_events(tally: Tally, events: Iterable[Event]) -> None:
    effects = tally.effects
    counts = tally.events
    for event in events:
        kind = event["type"]
        counts[kind] += 1
        if kind == EventType.DRAW:
            row = effects.setdefault(event["reason"], [0, 0, 0, 0])
            row[0] += 1
            row[1] += event["count"]
        elif kind == EventType.PRESS:
            row = effects.setdefault(event["reason"], [0, 0, 0, 0])
            row[2] += 1
            row[3] += event.get("count", 0)


# --------------------------------------------------------------------------- playing


def play_games(config: SimConfig, start: int, stop: int) -> Tally:
    """Play games ``start`` to ``stop - 1`` of ``config`` in this process; return their tally."""
    if config.engine == "fast":
        from .fast import play_games_fast

        return play_games_fast(config, start, stop)
    tally = Tally(config.players)
    options = config.game_options()
    if config.resolved_options().teams:
        tally.count_teams()
    for index in range(start, stop):
        _play_one(config, options, index, tally)
    return tally


def _play_one(config: SimConfig, options: dict[str, object], index: int, tally: Tally) -> None:
    n = config.players
    effects = config.effects
    game, setup = Game.new(config.variant, n, derive_seed(config.seed, index), **options)
    if effects:
        _count_events(tally, setup)
    entry_of = [(seat - index) % n for seat in range(n)]  # entry e sits in seat (e + index) % n
    bots = [
        make_bot_spec(
            config.bots[entry_of[seat]],
            derive_seed(config.seed, index, 1 + entry_of[seat]),
            config.time_limit,
            slot=entry_of[seat],
        )
        for seat in range(n)
    ]
    for seat, bot in enumerate(bots):
        bot.reset(seat)
    views = [View(game, seat) for seat in range(n)]
    # Random seats choose uniformly with their bot's RNG, several choices per 64-bit number.
    rngs = [bot.rng if type(bot) is RandomBot else None for bot in bots]
    pools = [0] * n
    first = (game.dealer + 1) % n
    turns = decisions = 0
    step = game.step
    apply = game.apply
    legal_actions = game.legal_actions
    scoring = game.options.scoring
    while True:
        actor = game.to_act
        assert actor is not None
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"game {index} did not end within {MAX_DECISIONS} decisions")
        decision = game.decision
        if decision is D.TURN or decision is D.STACK:
            turns += 1
        rng = rngs[actor]
        if rng is not None:
            actions = legal_actions()
            count = len(actions)
            pool = pools[actor]
            if pool < _POOL_LOW:
                pool = rng.next64()
            action = actions[pool % count]
            pools[actor] = pool // count
        else:
            action = bots[actor].act(views[actor])
            if not effects and action not in legal_actions():
                name = config.bots[entry_of[actor]]
                raise IllegalActionError(f"bot {name!r} chose {action}, which is not legal now")
        if effects:
            _count_events(tally, apply(action))
            ended = game.round_ended
        else:
            ended = step(action)
        if game.windows and ended is None:
            reactions = react_all(game, bots, views)
            if effects:
                _count_events(tally, reactions)
            for event in reactions:
                if event["type"] == EventType.JUMP_IN:
                    turns += 1  # a jump is a turn, played out of turn (H-1)
                elif event["type"] == EventType.ROUND_END:
                    ended = game.round_ended
        if ended is not None:
            _end_round(tally, ended, scoring, first, turns)
            if ended.game_over:
                break
            first = (game.dealer + 1) % n
            turns = 0
    tally.games += 1
    tally.decisions += decisions
    tally.rounds[game.round_number] += 1
    winners = game.winners
    final = game.scores
    for seat in winners:
        tally.win_shares[entry_of[seat]] += WIN_DENOM // len(winners)
    by_entry = [0] * n
    for seat in range(n):
        by_entry[entry_of[seat]] = final[seat]
        tally.points[entry_of[seat]] += final[seat]
    if tally.team_win_shares:
        half = n // 2
        teams_won = {entry_of[s] % half for s in winners}
        for team in teams_won:
            tally.team_win_shares[team] += WIN_DENOM // len(teams_won)
        for seat in range(n):
            tally.team_points[entry_of[seat] % half] += final[seat]
    if config.keep_games:
        tally.records.append((tuple(sorted(entry_of[s] for s in winners)), tuple(by_entry)))


def _end_round(tally: Tally, ended: RoundResult, scoring: str, first: int, turns: int) -> None:
    """Tally a finished round as the engine reported it (``first``: the seat that played first)."""
    n = len(ended.points)
    tally.round_count += 1
    tally.turns[turns] += 1
    if scoring == "winner":
        tally.round_points[ended.points[ended.winner]] += 1
    else:
        for points in ended.points:
            tally.round_points[points] += 1
    tally.first_player[(ended.winner - first) % n] += 1


# --------------------------------------------------------------------------- running


def _chunks(games: int, workers: int, engine: str = "reference") -> list[tuple[int, int]]:
    largest = 20_000 if engine == "fast" else 500  # the kernel plays a chunk in one call
    size = max(1, min(largest, math.ceil(games / (workers * 16))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def _task(args: tuple[SimConfig, int, int]) -> Tally:
    config, start, stop = args
    return play_games(config, start, stop)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the main process (which stops them) and close their external
    bots when they exit."""
    from multiprocessing import util

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    util.Finalize(None, close_external_bots, exitpriority=10)


class _Interrupts:
    """Ctrl-C (SIGINT) during a run in the main thread raises ``KeyboardInterrupt`` as usual,
    except inside :meth:`held` blocks (adding a tally, rating a table), where it waits until the
    block ends, so that a stopped run never holds half-added statistics."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False

    def handler(self, signum: int, frame: object) -> None:
        if self.depth:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Use :meth:`handler` during the block when the main thread has Python's default
        handler (else leave the signal alone)."""
        ours = (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        )
        if ours:
            signal.signal(signal.SIGINT, self.handler)
        try:
            yield
        finally:
            if ours:
                signal.signal(signal.SIGINT, signal.default_int_handler)

    @contextmanager
    def held(self) -> Iterator[None]:
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if not self.depth and self.pending:
            self.pending = False
            raise KeyboardInterrupt


INTERRUPTS = _Interrupts()


def run_sim(config: SimConfig, progress: Callable[[int], None] | None = None) -> SimResult:
    """Play every game of ``config`` and return the result. ``progress(games_done)`` is called
    as games finish. Raises ``ValueError`` (or ``OptionError``) for a bad configuration.

    Ctrl-C (``KeyboardInterrupt`` in the main thread) stops the run cleanly: the worker
    processes are stopped, and the result holds the games finished so far (games ``0`` to
    ``k - 1``, so they are the same games for any number of workers) with ``interrupted`` set.
    """
    config.validate()
    total = Tally(config.players)
    started = time.perf_counter()
    interrupted = False
    with INTERRUPTS.installed():
        try:
            if config.backend == "ray":
                _play_on_ray(config, total, progress)
            elif config.processes() == 1:
                _play_here(config, total, progress)
            else:
                _play_in_workers(config, total, progress)
        except KeyboardInterrupt:
            interrupted = True
    return SimResult(config, total, time.perf_counter() - started, interrupted)


def _play_here(config: SimConfig, total: Tally, progress: Callable[[int], None] | None) -> None:
    """Play in this process, game by game (an interrupted run keeps every finished game)."""
    try:
        for start, stop in _chunks(config.games, 1, config.engine):
            # The reference engine plays game by game; the kernel a chunk in one call.
            step = stop - start if config.engine == "fast" else 1
            for index in range(start, stop, step):
                part = play_games(config, index, index + step)
                with INTERRUPTS.held():
                    total.add(part)
            if progress is not None:
                progress(total.games)
    finally:
        close_external_bots()


def _play_in_workers(config: SimConfig, total: Tally, progress: Callable[[int], None] | None) -> None:
    """Play chunks of games in worker processes and add them up in order. On Ctrl-C, the
    chunks already back are added before the workers are stopped."""
    context = multiprocessing.get_context()
    with context.Pool(config.processes(), initializer=_worker_init) as pool:
        chunks = _chunks(config.games, config.workers, config.engine)
        parts = pool.imap(_task, [(config, start, stop) for start, stop in chunks])
        try:
            for part in parts:
                with INTERRUPTS.held():
                    total.add(part)
                if progress is not None:
                    progress(total.games)
        except KeyboardInterrupt:
            # Chunks already back are kept; the first one not ready (or failed) ends the loop.
            with INTERRUPTS.held(), contextlib.suppress(Exception):
                while True:
                    total.add(parts.next(timeout=0))
            raise


def _play_on_ray(config: SimConfig, total: Tally, progress: Callable[[int], None] | None) -> None:
    """Play the chunks as Ray tasks (:mod:`unokit.sim.distributed`) and add them up in order."""
    from .distributed import tallies_on_ray

    for part in tallies_on_ray(config, _chunks(config.games, config.workers, config.engine)):
        with INTERRUPTS.held():
            total.add(part)
        if progress is not None:
            progress(total.games)


# --------------------------------------------------------------------------- results


@dataclass
class SimResult:
    """The outcome of :func:`run_sim`: the configuration, the tally and the wall time;
    ``interrupted`` when Ctrl-C stopped the run (the tally holds the games finished before)."""

    config: SimConfig
    tally: Tally
    seconds: float
    interrupted: bool = False

    def bot_rows(self) -> list[dict[str, Any]]:
        """One row per entry: wins (shared wins split), win rate with its 95% Wilson interval
        and mean final points."""
        tally = self.tally
        rows = []
        for entry, label in enumerate(self.config.labels()):
            wins = tally.win_shares[entry] / WIN_DENOM
            low, high = wilson_interval(wins, tally.games)
            rows.append(
                {
                    "entry": entry,
                    "label": label,
                    "bot": self.config.bots[entry],
                    "games": tally.games,
                    "wins": round(wins, 6),
                    "win_rate": wins / tally.games if tally.games else 0.0,
                    "ci_low": low,
                    "ci_high": high,
                    "mean_points": tally.points[entry] / tally.games if tally.games else 0.0,
                }
            )
        return rows

    def team_rows(self) -> list[dict[str, Any]]:
        """With ``teams=true``, one row per team (entries ``k`` and ``k + players/2``, partners
        facing each other in every game): game wins, win rate with its 95% Wilson interval and
        mean final team total; empty otherwise."""
        tally = self.tally
        labels = self.config.labels()
        half = self.config.players // 2
        rows = []
        for team, shares in enumerate(tally.team_win_shares):
            wins = shares / WIN_DENOM
            low, high = wilson_interval(wins, tally.games)
            rows.append(
                {
                    "team": team,
                    "label": f"{labels[team]} + {labels[team + half]}",
                    "entries": [team, team + half],
                    "games": tally.games,
                    "wins": round(wins, 6),
                    "win_rate": wins / tally.games if tally.games else 0.0,
                    "ci_low": low,
                    "ci_high": high,
                    "mean_points": tally.team_points[team] / tally.games if tally.games else 0.0,
                }
            )
        return rows

    def effect_rows(self) -> list[dict[str, Any]]:
        """Draws and presses by the effect that caused them (only with ``effects=True``)."""
        games = max(self.tally.games, 1)
        rows = []
        for reason, (draws, drawn, presses, pressed) in sorted(self.tally.effects.items()):
            rows.append(
                {
                    "effect": reason,
                    "draws": draws,
                    "cards_drawn": drawn,
                    "presses": presses,
                    "cards_pressed": pressed,
                    "cards_per_game": (drawn + pressed) / games,
                    "cards_per_event": (drawn + pressed) / max(draws + presses, 1),
                }
            )
        return rows

    def summary(self) -> dict[str, Any]:
        """Means of the per-round and per-game statistics."""
        tally = self.tally
        rounds = max(tally.round_count, 1)
        games = max(tally.games, 1)
        decided = sum(tally.first_player)
        mean = sum(k * v for k, v in tally.turns.items()) / rounds
        spread = sum(v * (k - mean) ** 2 for k, v in tally.turns.items()) / max(tally.round_count - 1, 1)
        half = 1.959963984540054 * math.sqrt(spread / rounds)
        return {
            "games": tally.games,
            "rounds": tally.round_count,
            "decisions": tally.decisions,
            "rounds_per_game": tally.round_count / games,
            "turns_per_round": mean,
            "turns_per_round_ci": [mean - half, mean + half],
            "decisions_per_game": tally.decisions / games,
            "round_wins_by_place": {
                "counts": list(tally.first_player),
                "rates": [w / decided if decided else 0.0 for w in tally.first_player],
            },
        }

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        """Everything as JSON-ready data; ``timing=False`` leaves out the wall-clock figures
        (the rest depends only on the configuration)."""
        out: dict[str, Any] = {
            "config": config_dict(self.config),
            "interrupted": self.interrupted,
            "bots": self.bot_rows(),
            **({"teams": self.team_rows()} if self.tally.team_win_shares else {}),
            "summary": self.summary(),
            "turns_per_round": _histogram(self.tally.turns),
            "rounds_per_game": _histogram(self.tally.rounds),
            "round_points": _histogram(self.tally.round_points),
        }
        if self.config.effects:
            out["effects"] = self.effect_rows()
            out["events"] = dict(sorted(self.tally.events.items()))
        if timing:
            out["timing"] = {
                "seconds": self.seconds,
                "games_per_second": self.tally.games / self.seconds if self.seconds else None,
                "decisions_per_second": self.tally.decisions / self.seconds if self.seconds else None,
            }
        return out

    def write_json(self, path: str | Path) -> None:
        write_json(path, self.to_dict())

    def write_csv(self, path: str | Path) -> None:
        """The per-bot table as CSV (one row per entry)."""
        rows = self.bot_rows()
        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        write_atomically(path, text.getvalue())


def _histogram(counter: Counter[int]) -> dict[str, int]:
    return {str(k): counter[k] for k in sorted(counter)}


def config_dict(config: Any) -> dict[str, Any]:
    """A run's configuration (a dataclass with ``bots`` and ``options`` pairs) as JSON-ready
    data: the bots as a list, the options as an object."""
    out = asdict(config)
    out["bots"] = list(config.bots)
    out["options"] = dict(config.options)
    return out


def write_json(path: str | Path, data: Any) -> None:
    """Write ``data`` to ``path`` as indented JSON with a final newline (in one step: a crash
    leaves the old file or the new one)."""
    write_atomically(path, json.dumps(data, indent=2) + "\n")
