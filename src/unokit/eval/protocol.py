"""The evaluation protocol ``unokit-eval/1``: fixed suites, matches, figures and one JSON result.

**Suites.** A suite is a shipped file (``suites/<variant>-<players>.json``, made by
``scripts/make_eval_suites.py``): a variant, a table size, rule options and a list of deal
seeds. Its ``hash`` is the SHA-256 of the canonical JSON of what a run uses (the suite with the
deals taken, when ``deals`` takes the first ones only), so two results compare only when their
hashes agree.

**Matches.** A match puts bot ``A`` against bot ``B``: every deal is played once with ``A`` in
each seat in turn and ``B`` in every other seat (seat rotation; with two seats this is a
duplicate match: each side of each deal is played by both bots). A hand is one round
(``rounds=1``). Each seat's bot is seeded from the suite hash, the deal, the rotation and the
seat, so a match is the same on any machine and in any number of processes.

**Time.** Each decision of ``A`` (of every entry in a round robin) is timed; one that takes
longer than the declared budget forfeits the hand (and an external program is stopped at the
budget: it is its answer's deadline). A forfeited hand is lost, and its points are minus the
cards the forfeiting seat held. The times (mean, 95th percentile, slowest) and the number of
decisions over the budget are reported; a bot kept well within its budget gives the same result
on every machine.

**Figures.** Per match: hands, ``A``'s win rate with its 95% Wilson interval, its points per
hand (the environments' ``reward="points"``: the winner the points left in the other hands, the
others minus their own) with a 95% interval (normal approximation), forfeits, times, and ``A``'s duplicate score
(:func:`duplicate_figure`: its points in each seat of each deal compared with ``B``'s in the same
seat of the same deal, as bridge's matchpoints, :mod:`unokit.sim.duplicate`; 50% is even). A round
robin rates every entry with OpenSkill (Plackett-Luce, each hand a match between the two bots,
in a fixed order), reported as ``mu``, ``sigma`` and the ordinal ``mu - 3 sigma``.

The result (:func:`result_json`) holds the protocol, the suite (name, hash, deals, hands), the
entries, the budget, the matches, the ratings, the versions, the machine and the time taken;
:func:`stable_part` drops the fields that depend on the machine and the clock.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import shlex
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from .. import __version__
from ..bots import EXTERNAL_PREFIX, POLICY_PREFIX, check_bot_spec
from ..bots.base import Bot
from ..bots.external import ExternalBotError, ExternalBotLate
from ..bots.runner import react_all
from ..core.errors import UnokitError
from ..core.game import Game
from ..core.observation import View
from ..core.rng import Rng
from ..core.variants import get_rules
from ..files import JsonError, parse_json
from ..llm.bot import LLM_PREFIX, LLMBot, LLMTimeout
from ..sim.duplicate import SeatResult, duplicate_scores
from ..sim.runner import MAX_WORKERS, derive_seed, make_bot_spec, wilson_interval

PROTOCOL = "unokit-eval/1"
SUITE_FORMAT = "unokit-suite/1"
#: The baselines every agent is measured against by default, weakest first.
BASELINES = ("random", "rlcard_rule", "heuristic", "beginner", "easy", "normal", "hard", "expert", "ismcts_fast")
#: The declared time per decision unless told otherwise, in milliseconds.
DEFAULT_BUDGET_MS = 1000.0
#: The prefix of an OpenSpiel bot's spec (``openspiel:ismcts``; :mod:`unokit.openspiel.bot`).
OPENSPIEL_PREFIX = "openspiel:"
#: The fields of a result that depend on the machine or the clock (:func:`stable_part`).
UNSTABLE_FIELDS = frozenset({"machine", "created", "elapsed_s", "time"})
_Z95 = 1.959963984540054


class EvalError(ValueError):
    """A suite or a bot spec that cannot be evaluated, named in the message."""


# --------------------------------------------------------------------------- suites


@dataclass(frozen=True)
class Suite:
    """A fixed set of deals of one variant and table size (see the module docstring)."""

    name: str
    variant: str
    players: int
    options: dict[str, Any]
    deals: tuple[int, ...]

    def canonical(self) -> dict[str, Any]:
        return {
            "format": SUITE_FORMAT,
            "name": self.name,
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "rotation": "every seat",
            "deals": list(self.deals),
        }

    @property
    def hash(self) -> str:
        """SHA-256 of the canonical JSON of the suite as used."""
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def hands(self) -> int:
        """Hands a match plays: every deal once per seat."""
        return len(self.deals) * self.players

    def first(self, deals: int | None) -> Suite:
        """The suite of its first ``deals`` deals (all when ``None``)."""
        if deals is None:
            return self
        if deals < 1 or deals > len(self.deals):
            raise EvalError(
                f"the suite {self.name} has {len(self.deals)} deals; take 1 to {len(self.deals)}, not {deals}"
            )
        return Suite(self.name, self.variant, self.players, self.options, self.deals[:deals])


def suite_names() -> list[str]:
    """The shipped suites."""
    folder = resources.files(__package__).joinpath("suites")
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


def load_suite(name_or_path: str) -> Suite:
    """A shipped suite by name (``classic-2``) or a suite file; raise :class:`EvalError`."""
    path = Path(name_or_path)
    try:
        if path.suffix == ".json" and path.is_file():
            text = path.read_text(encoding="utf-8")
        elif name_or_path in suite_names():
            text = resources.files(__package__).joinpath("suites", f"{name_or_path}.json").read_text(encoding="utf-8")
        else:
            raise EvalError(f"no suite {name_or_path!r}; the suites are {', '.join(suite_names())}, or a suite file")
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalError(f"cannot read the suite {name_or_path}: {exc}") from None
    try:
        obj = parse_json(text)
    except JsonError as exc:
        raise EvalError(f"{name_or_path} is {exc}") from None
    try:
        if not isinstance(obj, dict) or obj.get("format") != SUITE_FORMAT:
            raise EvalError(f"{name_or_path} is not a {SUITE_FORMAT} file")
        deals = tuple(int(d) for d in obj["deals"])
        suite = Suite(str(obj["name"]), str(obj["variant"]), int(obj["players"]), dict(obj["options"]), deals)
        rules = get_rules(suite.variant)
    except (ValueError, KeyError, TypeError, AttributeError, UnokitError) as exc:
        raise EvalError(f"{name_or_path} is not a usable suite: {exc}") from None
    if not deals or not rules.min_players <= suite.players <= rules.max_players:
        raise EvalError(f"{name_or_path} has no deals or a table size {rules.title} does not take")
    try:  # its rule options are the engine's, and every deal seed is one the engine takes
        for seed in {deals[0], min(deals), max(deals)}:
            Game.new(suite.variant, suite.players, seed, **{**suite.options, "rounds": 1})
    except (UnokitError, ValueError, TypeError, OverflowError) as exc:
        raise EvalError(f"{name_or_path} is not a usable suite: {exc}") from None
    return suite


# --------------------------------------------------------------------------- bots


#: Policy bots by (spec, slot), loaded once per process: a policy has no state between hands
#: and no randomness, and loading its file is no part of a decision.
_POLICIES: dict[tuple[str, int], Bot] = {}


def make_entry(spec: str, seed: int, budget_s: float, slot: int) -> Bot:
    """The bot of ``spec``: a level or engine name, ``policy:FILE.onnx``, ``external:COMMAND``
    (its answers due within ``budget_s``), ``openspiel:ALGORITHM[:SIMULATIONS]`` or
    ``llm:URL[:MODEL]`` (:mod:`unokit.llm.bot`, its requests stopped at ``budget_s``)."""
    if spec.startswith(LLM_PREFIX):
        return LLMBot.from_spec(spec, seed, budget_s)
    if spec.startswith(OPENSPIEL_PREFIX):
        from ..openspiel.bot import OpenSpielBot

        return OpenSpielBot.from_spec(spec, seed)
    if spec.startswith(POLICY_PREFIX):
        bot = _POLICIES.get((spec, slot))
        if bot is None:
            bot = _POLICIES[(spec, slot)] = make_bot_spec(spec, seed, budget_s, slot)
        bot.rng = Rng(seed)
        return bot
    return make_bot_spec(spec, seed, budget_s, slot)


def check_entry(spec: str, suite: Suite) -> None:
    """Raise :class:`EvalError` when ``spec`` names no bot that can play ``suite``."""
    try:
        if spec.startswith(OPENSPIEL_PREFIX):
            from ..openspiel.bot import OpenSpielBot

            OpenSpielBot.from_spec(spec, 0)
        elif spec.startswith(LLM_PREFIX):
            LLMBot.from_spec(spec)
        else:
            check_bot_spec(spec, suite.variant, suite.players)
            if spec.startswith(EXTERNAL_PREFIX):
                try:
                    shlex.split(spec[len(EXTERNAL_PREFIX) :])
                except ValueError as exc:
                    raise ValueError(f"{spec!r} is not a command line: {exc}") from None
    except (ValueError, ImportError) as exc:
        raise EvalError(str(exc)) from None


# --------------------------------------------------------------------------- hands


@dataclass
class Hand:
    """One hand of a match, from the side of the measured bot (``A``)."""

    deal: int
    seat: int
    win: float
    points: float
    forfeit: str = ""
    times: list[float] = field(default_factory=list)
    #: Decisions an ``llm:`` agent made at random after its retries (:mod:`unokit.llm.bot`).
    decision_forfeits: int = 0
    #: Whether the hand ended at a decision that was never answered: an external program
    #: stopped at the budget (its time is not among ``times``, which are answers' times).
    late: bool = False
    #: Every seat's points in the hand (``points`` is ``seat_points[seat]``); empty when the
    #: hand was forfeited (the other seats' hands never ended).
    seat_points: list[float] = field(default_factory=list)


def _hand_values(game: Game) -> list[int]:
    return [game._hand_value(hand, game.side) for hand in game.hands]


def play_hand(suite: Suite, deal: int, seat: int, a: str, b: str, budget_s: float) -> Hand:
    """Deal ``deal`` of ``suite`` with bot ``a`` in ``seat`` and ``b`` in the others."""
    n = suite.players
    seed = suite.deals[deal]
    base = int(suite.hash[:16], 16)
    game, _ = Game.new(suite.variant, n, seed, **{**suite.options, "rounds": 1})
    bots = [
        make_entry(a if s == seat else b, derive_seed(base, deal, seat, s), budget_s, 0 if s == seat else 1 + s)
        for s in range(n)
    ]
    for s, bot in enumerate(bots):
        bot.reset(s)
    views = [View(game, s) for s in range(n)]
    hand = Hand(deal, seat, 0.0, 0.0)
    clock = time.perf_counter
    while not game.is_over:
        actor = game.to_act
        assert actor is not None
        started = clock()
        try:
            action = bots[actor].act(views[actor])
        except ExternalBotError as exc:
            if actor != seat:
                raise
            hand.late = isinstance(exc, ExternalBotLate)  # stopped at the budget: a decision over it
            hand.forfeit = f"external bot: {exc}"
            break
        except LLMTimeout as exc:
            if actor != seat:
                raise
            hand.forfeit = f"llm: {exc}"
            break
        if actor == seat:
            spent = clock() - started
            hand.times.append(spent)
            if spent > budget_s:
                hand.forfeit = f"a decision took {spent * 1000:.1f} ms, over the budget of {budget_s * 1000:g} ms"
                break
        try:
            game.apply(action, actor)
        except UnokitError as exc:
            if actor != seat:
                raise
            hand.forfeit = f"an illegal action: {exc}"
            break
        if game.windows and not game.is_over:
            react_all(game, bots, views)
    measured = bots[seat]
    if isinstance(measured, LLMBot):
        hand.decision_forfeits = measured.decision_forfeits
    if hand.forfeit:
        hand.points = -float(_hand_values(game)[seat])
        return hand
    ended = game.round_ended
    assert ended is not None
    values = list(ended.hand_points)
    winner = ended.winner
    hand.win = 1.0 if winner == seat else 0.0
    hand.seat_points = [float(sum(values) - v) if s == winner else -float(v) for s, v in enumerate(values)]
    hand.points = hand.seat_points[seat]
    return hand


def play_chunk(args: tuple[Suite, str, str, float, list[tuple[int, int]]]) -> list[Hand]:
    """Hands ``(deal, seat)`` of one match (a unit of work for a process or a Ray task)."""
    from ..sim.runner import close_external_bots

    suite, a, b, budget_s, hands = args
    try:
        return [play_hand(suite, deal, seat, a, b, budget_s) for deal, seat in hands]
    finally:
        close_external_bots()


# --------------------------------------------------------------------------- figures


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = _Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def duplicate_figure(hands: Iterable[Hand]) -> dict[str, object]:
    """The measured bot's duplicate score over a match's ``hands`` (:mod:`unokit.sim.duplicate`):
    each seat of each deal is held once by ``A`` and at the other rotations by ``B``, and ``A``'s
    points there are compared with ``B``'s (matchpoints; a forfeit ranks last, and a forfeited
    hand's other seats are not compared)."""
    results: list[SeatResult] = []
    for h in hands:
        results.append(SeatResult(h.deal, h.seat, "A", h.points, forfeit=bool(h.forfeit)))
        results += [SeatResult(h.deal, s, "B", p) for s, p in enumerate(h.seat_points) if s != h.seat]
    score = next(s for s in duplicate_scores(results) if s.entry == "A")
    figure = score.to_json()
    del figure["entry"]
    return figure


def match_summary(a: str, b: str, hands: list[Hand], budget_s: float) -> dict[str, Any]:
    """The figures of one match (see the module docstring)."""
    wins = sum(h.win for h in hands)
    low, high = wilson_interval(wins, len(hands))
    points, points_low, points_high = mean_interval([h.points for h in hands])
    times = [t for h in hands for t in h.times]
    return {
        "agent": a,
        "opponent": b,
        "hands": len(hands),
        "wins": wins,
        "win_rate": round(wins / len(hands), 6) if hands else 0.0,
        "win_rate_ci95": [round(low, 6), round(high, 6)],
        "points_per_hand": round(points, 4),
        "points_ci95": [round(points_low, 4), round(points_high, 4)],
        "forfeits": sum(1 for h in hands if h.forfeit),
        "forfeit_reasons": sorted({h.forfeit.split(":")[0] for h in hands if h.forfeit}),
        "decision_forfeits": sum(h.decision_forfeits for h in hands),
        "duplicate": duplicate_figure(hands) if hands else None,
        "time": {
            "decisions": len(times),
            "mean_ms": round(1000 * sum(times) / len(times), 4) if times else 0.0,
            "p95_ms": round(1000 * _percentile(times, 0.95), 4),
            "max_ms": round(1000 * max(times), 4) if times else 0.0,
            "over_budget": sum(1 for t in times if t > budget_s) + sum(1 for h in hands if h.late),
        },
    }


def openskill_ratings(entries: Sequence[str], matches: Iterable[tuple[str, str, list[Hand]]]) -> list[dict[str, Any]]:
    """OpenSkill (Plackett-Luce) ratings of ``entries`` from the hands of ``matches``, each hand
    a match between its two bots, in the order given."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in entries}
    for a, b, hands in matches:
        for hand in hands:
            ranks = [1.0, 2.0] if hand.win else [2.0, 1.0]
            (new_a,), (new_b,) = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
            ratings[a], ratings[b] = new_a, new_b
    rows = [
        {
            "bot": name,
            "mu": round(r.mu, 4),
            "sigma": round(r.sigma, 4),
            "ordinal": round(r.ordinal(), 4),
        }
        for name, r in ratings.items()
    ]
    return sorted(rows, key=lambda row: (-row["ordinal"], row["bot"]))


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class EvalConfig:
    """One evaluation: ``agent`` against each of ``opponents`` on ``suite`` (or, with
    ``round_robin``, every pair of the agent and the opponents)."""

    suite: Suite
    agent: str
    opponents: tuple[str, ...]
    budget_ms: float = DEFAULT_BUDGET_MS
    round_robin: bool = False
    workers: int = 1
    ray: bool = False
    chunk: int = 25

    def validate(self) -> None:
        """Raise :class:`EvalError` naming the first setting that cannot be played: a budget
        that is not a positive number of milliseconds, a number of workers out of 1 to
        :data:`~unokit.sim.runner.MAX_WORKERS` (as ``unokit sim``), a bot spec that names no bot."""
        if not (math.isfinite(self.budget_ms) and self.budget_ms > 0):
            raise EvalError(f"the time budget must be a positive number of milliseconds, not {self.budget_ms:g}")
        if not 1 <= self.workers <= MAX_WORKERS:
            raise EvalError(f"the number of workers must be from 1 to {MAX_WORKERS}, not {self.workers}")
        if not self.opponents:
            raise EvalError("name at least one opponent (--against)")
        for spec in dict.fromkeys([self.agent, *self.opponents]):
            check_entry(spec, self.suite)

    def processes(self, tasks: int) -> int:
        """How many processes (or CPUs of a local Ray instance) play ``tasks`` units of work:
        ``workers``, never more than there is work (2 matches of one chunk, 2 processes)."""
        return max(1, min(self.workers, tasks))

    def pairs(self) -> list[tuple[str, str]]:
        """The matches, in the order they are reported."""
        if not self.round_robin:
            return [(self.agent, b) for b in self.opponents]
        entries = [self.agent, *self.opponents]
        out = []
        for i, a in enumerate(entries):
            for b in entries[i + 1 :]:
                out.append((a, b))
                if self.suite.players > 2:
                    out.append((b, a))  # one against the field is not symmetric beyond two seats
        return out


def run_eval(config: EvalConfig, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``config`` and return its result (:func:`result_json`'s dict)."""
    suite = config.suite
    config.validate()
    budget_s = config.budget_ms / 1000.0
    started = time.perf_counter()
    hands = [(d, s) for d in range(len(suite.deals)) for s in range(suite.players)]
    tasks = [
        (suite, a, b, budget_s, hands[k : k + config.chunk])
        for a, b in config.pairs()
        for k in range(0, len(hands), config.chunk)
    ]
    results = _run_tasks(tasks, config, progress)
    matches: list[tuple[str, str, list[Hand]]] = []
    at = 0
    for a, b in config.pairs():
        played: list[Hand] = []
        for _ in range(0, len(hands), config.chunk):
            played += results[at]
            at += 1
        matches.append((a, b, played))
    entries = [config.agent, *config.opponents]
    result: dict[str, Any] = {
        "protocol": PROTOCOL,
        "suite": {
            "name": suite.name,
            "variant": suite.variant,
            "players": suite.players,
            "options": suite.options,
            "deals": len(suite.deals),
            "hands_per_match": suite.hands,
            "hash": suite.hash,
        },
        "agent": config.agent,
        "opponents": list(config.opponents),
        "budget": {"per_decision_ms": config.budget_ms, "enforced": "a decision over the budget forfeits the hand"},
        "matches": [match_summary(a, b, played, budget_s) for a, b, played in matches],
        "versions": versions(config),
        "machine": machine(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "elapsed_s": round(time.perf_counter() - started, 3),
    }
    if config.round_robin:
        result["ratings"] = openskill_ratings(entries, matches)
    return result


def _run_tasks(
    tasks: list[tuple[Suite, str, str, float, list[tuple[int, int]]]],
    config: EvalConfig,
    progress: Callable[[int], None] | None,
) -> list[list[Hand]]:
    done = 0

    def count(hands: list[Hand]) -> None:
        nonlocal done
        done += len(hands)
        if progress is not None:
            progress(done)

    if config.ray:
        from ..sim.distributed import quiet_ray

        quiet_ray()
        import ray

        started_here = not ray.is_initialized()
        if started_here:
            ray.init(num_cpus=config.processes(len(tasks)), include_dashboard=False, log_to_driver=False)
        try:
            remote = ray.remote(play_chunk)
            refs = [remote.remote(task) for task in tasks]
            out: list[list[Hand]] = []
            for ref in refs:
                out.append(ray.get(ref))
                count(out[-1])
            return out
        finally:
            if started_here:
                ray.shutdown()
    if config.processes(len(tasks)) <= 1:
        out = []
        for task in tasks:
            out.append(play_chunk(task))
            count(out[-1])
        return out
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(config.processes(len(tasks))) as pool:
        out = []
        for chunk in pool.imap(play_chunk, tasks):
            out.append(chunk)
            count(chunk)
        return out


def versions(config: EvalConfig) -> dict[str, str]:
    """The versions that matter to a result."""
    out = {"unokit": __version__, "python": platform.python_version()}
    wanted = ["numpy", "numba", "openskill"]
    specs = [config.agent, *config.opponents]
    if any(s.startswith("policy:") for s in specs):
        wanted.append("onnxruntime")
    if any(s.startswith(OPENSPIEL_PREFIX) for s in specs):
        wanted.append("open_spiel")
    for name in wanted:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


def machine() -> dict[str, Any]:
    """What the result was measured on."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
    }


def stable_part(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` without the fields that depend on the machine and the clock."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in UNSTABLE_FIELDS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    out: dict[str, Any] = strip(result)
    return out


def markdown_table(result: dict[str, Any]) -> str:
    """The matches (and ratings) of ``result`` as Markdown tables for the docs."""
    suite = result["suite"]
    lines = [
        f"Suite `{suite['name']}` ({suite['deals']} deals, {suite['hands_per_match']} hands a match, "
        f"hash `{suite['hash'][:12]}`), budget {result['budget']['per_decision_ms']:g} ms per decision.",
        "",
        "| Bot | Opponent | Hands | Win rate [95% CI] | Points per hand [95% CI] | Duplicate "
        "| ms per decision (mean / p95 / max) | Forfeits |",
        "| --- | --- | ---: | --- | --- | ---: | --- | ---: |",
    ]
    for m in result["matches"]:
        lo, hi = m["win_rate_ci95"]
        plo, phi = m["points_ci95"]
        t = m["time"]
        lines.append(
            f"| `{m['agent']}` | `{m['opponent']}` | {m['hands']} | {100 * m['win_rate']:.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] | {m['points_per_hand']:+.1f} [{plo:+.1f}, {phi:+.1f}] | "
            f"{_percent(m.get('duplicate'))} | "
            f"{t['mean_ms']:.2f} / {t['p95_ms']:.2f} / {t['max_ms']:.2f} | {m['forfeits']} |"
        )
    if "ratings" in result:
        lines += ["", "| Bot | OpenSkill mu | sigma | ordinal |", "| --- | ---: | ---: | ---: |"]
        lines += [
            f"| `{r['bot']}` | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} |" for r in result["ratings"]
        ]
    return "\n".join(lines) + "\n"


def _percent(figure: dict[str, Any] | None) -> str:
    percent = None if figure is None else figure.get("percent")
    return "n/a" if percent is None else f"{percent:.1f}%"


def hands_as_dicts(hands: list[Hand]) -> list[dict[str, Any]]:
    """Hands as JSON values (for a caller that keeps them)."""
    return [asdict(h) for h in hands]
