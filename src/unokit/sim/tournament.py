"""Tournaments: bots meet at tables in a chosen format and get OpenSkill ratings.

Formats (``format``):

* ``round-robin``: every combination of ``players`` different bots sits at a table (with two
  players: every pair meets);
* ``gauntlet``: the first bot against every combination of ``players - 1`` of the others;
* ``free-for-all``: all the bots at one table (``players`` is the number of bots).

Each table plays ``games`` games through the simulator (seats rotated, seeds derived from the
tournament seed and the table's number). Every game then updates the ratings of the bots at
the table with OpenSkill's Plackett-Luce model, in a fixed order, so that the ratings do not
depend on the number of workers: the winners share the first place and the others are ranked
by their final scores (higher is better with ``scoring=winner``, lower otherwise).

Beside the ratings, every pair of bots gets a *head-to-head* win rate: of the games in which
both sat at the table and one of them won while the other did not, the share the first one won
(with its 95% Wilson interval). With two players that is the first bot's win rate against the
second; with more it compares the two in the games either of them won.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .runner import (
    INTERRUPTS,
    WIN_DENOM,
    SimConfig,
    SimResult,
    config_dict,
    derive_seed,
    run_sim,
    wilson_interval,
    write_json,
)

FORMATS = ("round-robin", "gauntlet", "free-for-all")


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: ``bots`` are distinct bot specs; ``players`` is the table size."""

    variant: str = "classic"
    players: int = 2
    bots: tuple[str, ...] = ("heuristic", "rlcard_rule", "random")
    games: int = 100
    seed: int = 1
    workers: int = 1
    options: tuple[tuple[str, str], ...] = ()
    hands_only: bool = False
    format: str = "round-robin"
    time_limit: float = 5.0
    engine: str = "reference"
    backend: str = "local"
    address: str | None = None

    def tables(self) -> list[tuple[int, ...]]:
        """The tables to play, as tuples of indices into ``bots``."""
        if self.format not in FORMATS:
            raise ValueError(f"unknown tournament format {self.format!r}; formats are {', '.join(FORMATS)}")
        if len(set(self.bots)) != len(self.bots):
            raise ValueError(f"list each bot once: {','.join(self.bots)}")
        if len(self.bots) < 2:
            raise ValueError("a tournament needs at least two bots")
        count = len(self.bots)
        if self.format == "free-for-all":
            return [tuple(range(count))]
        if not 2 <= self.players <= count:
            raise ValueError(f"tables of {self.players} players need 2 to {count} players for {count} bots")
        if self.format == "round-robin":
            return list(itertools.combinations(range(count), self.players))
        return [(0, *rest) for rest in itertools.combinations(range(1, count), self.players - 1)]

    def table_size(self) -> int:
        return len(self.bots) if self.format == "free-for-all" else self.players

    def table_config(self, number: int, table: tuple[int, ...]) -> SimConfig:
        """The simulation of table ``number`` of :meth:`tables`, which seats the bots ``table``."""
        return SimConfig(
            variant=self.variant,
            players=self.table_size(),
            bots=tuple(self.bots[i] for i in table),
            games=self.games,
            seed=derive_seed(self.seed, number),
            workers=self.workers,
            options=self.options,
            hands_only=self.hands_only,
            time_limit=self.time_limit,
            keep_games=True,
            engine=self.engine,
            backend=self.backend,
            address=self.address,
        )


@dataclass
class TournamentResult:
    """Ratings (one row per bot, best first), each table's win rates and the head-to-head win
    rate of every pair (``head_to_head``: ``bot`` and ``other`` in the order of the bot list,
    ``games`` together, ``wins`` and ``losses`` of ``bot`` over ``other``, ``rate`` and its 95%
    interval); ``interrupted`` when Ctrl-C stopped the tournament (the ratings then count the
    games finished before)."""

    config: TournamentConfig
    ratings: list[dict[str, Any]]
    tables: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False
    head_to_head: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": config_dict(self.config),
            "interrupted": self.interrupted,
            "ratings": self.ratings,
            "head_to_head": self.head_to_head,
            "tables": self.tables,
            "seconds": self.seconds,
        }

    def write_json(self, path: str | Path) -> None:
        write_json(path, self.to_dict())


def _ranks(winners: tuple[int, ...], scores: tuple[int, ...], higher_is_better: bool) -> list[int]:
    """Plackett-Luce ranks (1 is best) for one game: winners first, then by final score."""
    order = sorted(
        (s for s in range(len(scores)) if s not in winners),
        key=lambda s: -scores[s] if higher_is_better else scores[s],
    )
    ranks = [0] * len(scores)
    for s in winners:
        ranks[s] = 1
    first = len(winners) + 1  # competition ranking: places 1, 1, 3, ...
    place = first
    previous: int | None = None
    for i, s in enumerate(order):
        if previous is not None and scores[s] != scores[previous]:
            place = first + i
        ranks[s] = place
        previous = s
    return ranks


def run_tournament(config: TournamentConfig, progress: Callable[[int, int], None] | None = None) -> TournamentResult:
    """Play every table and rate the bots. ``progress(games_done, games_total)`` is called as
    games finish. Ctrl-C stops the tournament cleanly (see :func:`run_sim`): the result rates
    the games finished so far and is marked ``interrupted``."""
    from openskill.models import PlackettLuce

    tables = config.tables()
    total_games = len(tables) * config.games
    model = PlackettLuce()
    ratings = [model.rating(name=spec) for spec in config.bots]
    wins = [0] * len(config.bots)
    played = [0] * len(config.bots)
    count = len(config.bots)
    together = [[0] * count for _ in range(count)]  # games both sat at the table
    beat = [[0] * count for _ in range(count)]  # games the first won and the second did not
    table_rows = []
    seconds = 0.0
    higher = config.table_config(0, tables[0]).resolved_options().scoring == "winner"
    done = 0
    interrupted = False
    with INTERRUPTS.installed():
        try:
            for number, table in enumerate(tables):
                sim = config.table_config(number, table)
                base = done

                def report(games: int, base: int = base) -> None:
                    if progress is not None:
                        progress(base + games, total_games)

                result = run_sim(sim, report)
                done += result.tally.games
                with INTERRUPTS.held():
                    seconds += result.seconds
                    _rate_table(model, ratings, played, wins, table, result, higher)
                    _count_pairs(together, beat, table, result)
                    if result.tally.games:
                        table_rows.append(
                            {
                                "bots": [config.bots[i] for i in table],
                                "games": result.tally.games,
                                "win_rates": [row["win_rate"] for row in result.bot_rows()],
                            }
                        )
                if result.interrupted:
                    interrupted = True
                    break
        except KeyboardInterrupt:
            interrupted = True
    rows: list[dict[str, Any]] = []
    for i, spec in enumerate(config.bots):
        rating = ratings[i]
        rows.append(
            {
                "bot": spec,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "ordinal": rating.ordinal(),
                "games": played[i],
                "wins": wins[i] / WIN_DENOM,
                "win_rate": wins[i] / WIN_DENOM / played[i] if played[i] else 0.0,
            }
        )
    rows.sort(key=lambda row: -row["ordinal"])
    pairs = []
    for i in range(count):
        for j in range(i + 1, count):
            if together[i][j]:
                decided = beat[i][j] + beat[j][i]
                low, high = wilson_interval(beat[i][j], decided)
                pairs.append(
                    {
                        "bot": config.bots[i],
                        "other": config.bots[j],
                        "games": together[i][j],
                        "wins": beat[i][j],
                        "losses": beat[j][i],
                        "rate": beat[i][j] / decided if decided else 0.0,
                        "ci_low": low,
                        "ci_high": high,
                    }
                )
    return TournamentResult(config, rows, table_rows, seconds, interrupted, pairs)


def _count_pairs(together: list[list[int]], beat: list[list[int]], table: tuple[int, ...], result: SimResult) -> None:
    """Count, for every two bots at ``table``, the games they played together and those the one
    won and the other did not (a shared win counts for neither)."""
    for winners, _scores in result.tally.records:
        won = {table[entry] for entry in winners}
        for i in table:
            for j in table:
                if i != j:
                    together[i][j] += 1
                    if i in won and j not in won:
                        beat[i][j] += 1


def _rate_table(
    model: Any,
    ratings: list[Any],
    played: list[int],
    wins: list[int],
    table: tuple[int, ...],
    result: SimResult,
    higher_is_better: bool,
) -> None:
    """Update the ratings, games and wins of the bots at ``table`` with each of its games."""
    for winners, scores in result.tally.records:
        ranks = _ranks(winners, scores, higher_is_better)
        teams = [[ratings[i]] for i in table]
        updated = model.rate(teams, ranks=[float(r) for r in ranks])
        for entry, i in enumerate(table):
            ratings[i] = updated[entry][0]
            played[i] += 1
        for entry in winners:
            wins[table[entry]] += WIN_DENOM // len(winners)
