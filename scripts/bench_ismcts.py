"""Strength and speed of the ``ismcts`` and ``ismcts_fast`` bots: 2-player Classic single hands
against ``heuristic`` (or any bot named by ``--opponent``, ``ismcts`` for the two searches head
to head).

Each deal is played twice with the seats swapped (duplicate format), so the luck of the deal
cancels out as far as possible. The script prints ISMCTS's win rate with a 95% Wilson interval
and the seconds it spends per decision. Timings come from a separate pass in one process (a
parallel run shares the machine's cores and would inflate them); the games themselves run on
``--workers`` processes.

    python scripts/bench_ismcts.py                  # 400 hands at the default budget
    python scripts/bench_ismcts.py --games 2000 --workers 8 --json out.json
    python scripts/bench_ismcts.py --iterations 500 --opponent rlcard_rule
    python scripts/bench_ismcts.py --bot ismcts_fast --games 2000       # the compiled search
    python scripts/bench_ismcts.py --bot ismcts_fast --opponent ismcts  # head to head
    python scripts/bench_ismcts.py --bot ismcts_fast --opponent ismcts --sees-hands  # a ceiling
    python scripts/bench_ismcts.py --bot ismcts_fast --opponent ismcts --sees-hands colors  # part of it

The targets, at no more than 0.2 s per decision: against ``heuristic``, at least 55% for
``ismcts`` and 62% for ``ismcts_fast``; head to head against ``ismcts_fast``, at least 53% for
``ismcts_belief`` (:data:`TARGETS`).

    python scripts/bench_ismcts.py --bot ismcts_belief --opponent ismcts_fast --games 400 --first-deal 200
    python scripts/bench_ismcts.py --bot ismcts_belief --belief exact --opponent ismcts_fast  # one part
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import unokit
from unokit.bots import Bot, bot_names, make_bot
from unokit.bots.ismcts import (
    DEFAULT_EXPLORATION,
    DEFAULT_ITERATIONS,
    IsmctsBot,
)
from unokit.bots.runner import play_decision
from unokit.core.kinds import IS_WILD
from unokit.sim import wilson_interval

SEED_BASE = 7_000_000
#: The win rate each bot is asked for against an opponent (2-player Classic, <= 0.2 s a decision).
TARGETS = {("ismcts", "heuristic"): 0.55, ("ismcts_fast", "heuristic"): 0.62, ("ismcts_belief", "ismcts_fast"): 0.53}


#: Settings only the ``ismcts_belief`` bot takes.
BELIEF_ONLY = ("belief", "opponent_model", "exact_max", "samples", "paths")


def search_bot(name: str, seed: int, settings: dict[str, Any]) -> IsmctsBot:
    """The searching bot ``name`` (``ismcts``, ``ismcts_fast`` or ``ismcts_belief``) with
    ``settings``."""
    if name == "ismcts_belief":
        from unokit.bots.belief import BeliefIsmctsBot

        return BeliefIsmctsBot(seed, **settings)
    settings = {k: v for k, v in settings.items() if k not in BELIEF_ONLY}
    if name == "ismcts_fast":
        from unokit.bots.ismcts_fast import FastIsmctsBot

        return FastIsmctsBot(seed, **settings)
    kernel_only = ("policy", "expansion", "read_colors", "opponents", "model", "read_plays")
    return IsmctsBot(seed, **{k: v for k, v in settings.items() if k not in kernel_only})


class SeeingView(unokit.View):
    """A diagnostic view (``--sees-hands``) that also knows every other hand, as if each had been
    shown: the searching bot then deals only the draw pile, and its win rate says what perfect
    knowledge of the opponents' hands is worth to it (a ceiling for reading them). Its subclasses
    show part of each hand (:data:`SEEING`)."""

    __slots__ = ()

    def known(self, seat: int) -> list[int]:
        return [] if seat == self.seat else self.shown(sorted(self._game.hands[seat]))

    def shown(self, hand: list[int]) -> list[int]:
        """What the view knows of another seat's ``hand``: all of it."""
        return hand


class SeesSmallHands(SeeingView):
    """Knows another hand only while it holds 2 cards or fewer."""

    __slots__ = ()

    def shown(self, hand: list[int]) -> list[int]:
        return hand if len(hand) <= 2 else []


class SeesWilds(SeeingView):
    """Knows the wild cards in another hand (the rest is dealt as usual)."""

    __slots__ = ()

    def shown(self, hand: list[int]) -> list[int]:
        kinds = self.deck.kind[self.side]
        return [t for t in hand if IS_WILD[kinds[t]]]


class SeesColors(SeeingView):
    """Knows the colour of every card in another hand, and its wilds, but not the numbers or
    symbols: each coloured card is shown as a card of its colour drawn at random among the
    unseen ones (itself included), the same draw for the same table."""

    __slots__ = ()

    def shown(self, hand: list[int]) -> list[int]:
        deck = self.deck
        kinds = deck.kind[self.side]
        colors = deck.color[self.side]
        unseen = Counter(dict(enumerate(deck.counts)))
        unseen.subtract([*self.hand, *self.discard, *hand])
        draw = random.Random(f"{len(self.discard)} {hand}")
        out = []
        for t in hand:
            if IS_WILD[kinds[t]]:
                out.append(t)
                continue
            choices = [u for u in sorted(unseen.elements()) if colors[u] == colors[t] and not IS_WILD[kinds[u]]]
            shown = draw.choice([*choices, t])
            if shown != t:
                unseen[shown] -= 1
                unseen[t] += 1
            out.append(shown)
        return sorted(out)


#: The views of ``--sees-hands``, by what they show of the other hands.
SEEING: dict[str, type[SeeingView]] = {
    "all": SeeingView,
    "small": SeesSmallHands,
    "wilds": SeesWilds,
    "colors": SeesColors,
}


def play_hand(args: tuple[int, int, dict[str, Any], str, str, int]) -> dict[str, Any]:
    """One hand: deal ``deal``, the searching bot in seat ``seat``; return the result and timings."""
    deal, seat, settings, opponent, variant, players = args
    settings = dict(settings)
    name = settings.pop("bot")
    sees_hands = settings.pop("sees_hands", None)
    opponent_iterations = settings.pop("opponent_iterations", None)
    game = unokit.new_game(variant, players, seed=SEED_BASE + deal, rounds=1)
    bots: list[Bot] = [make_bot(opponent, deal * 31 + s) for s in range(players)]
    if opponent_iterations is not None:
        for bot in bots:
            bot.iterations = opponent_iterations  # type: ignore[attr-defined]
    me = search_bot(name, deal * 2 + seat, settings)
    bots[seat] = me
    for s, bot in enumerate(bots):
        bot.reset(s)
    views = [(SEEING[sees_hands] if sees_hands and s == seat else unokit.View)(game, s) for s in range(players)]
    times: list[float] = []
    searched: list[float] = []
    cpu: list[float] = []
    iterations: list[int] = []
    while not game.is_over:
        if game.to_act == seat:
            start = time.perf_counter()
            start_cpu = time.thread_time()
            play_decision(game, bots, views)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            if me.last_iterations:
                searched.append(elapsed)
                cpu.append(time.thread_time() - start_cpu)
                iterations.append(me.last_iterations)
        else:
            play_decision(game, bots, views)
    winners = game.winners
    return {
        "win": (1.0 / len(winners)) if seat in winners else 0.0,
        "times": times,
        "searched": searched,
        "cpu": cpu,
        "iterations": iterations,
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="hands to play (rounded up to an even number)")
    parser.add_argument("--timing-games", type=int, default=20, help="hands of the single-process timing pass")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--iterations", type=int, default=None, help="default: the bot's budget for the variant")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per decision instead of iterations")
    parser.add_argument(
        "--bot", choices=("ismcts", "ismcts_fast", "ismcts_belief"), default="ismcts", help="the searching bot"
    )
    parser.add_argument("--belief", default=None, help="ismcts_belief's belief (default: its own)")
    parser.add_argument("--opponent-model", default=None, help="ismcts_belief's opponent model (default: its own)")
    parser.add_argument("--exact-max", type=int, default=None, help="ismcts_belief: the most cards weighed exactly")
    parser.add_argument("--samples", type=int, default=None, help="ismcts_belief: hands drawn over the round")
    parser.add_argument("--paths", type=int, default=None, help="ismcts_belief: paths back per hand")
    parser.add_argument("--opponent-iterations", type=int, default=None, help="the opponent's budget, when it searches")
    parser.add_argument("--policy", default=None, help="ismcts_fast's rollout policy (default: its own)")
    parser.add_argument("--expansion", default=None, help="ismcts_fast's expansion (default: its own)")
    parser.add_argument("--opponents", default=None, help="ismcts_fast's opponent model (default: its own)")
    parser.add_argument("--model", default=None, help="ismcts_fast's hand-strength model (default: its own)")
    parser.add_argument("--rollout-depth", type=int, default=None, help="default: the bot's; -1: play rollouts out")
    parser.add_argument("--exploration", type=float, default=DEFAULT_EXPLORATION)
    parser.add_argument("--no-reads", action="store_true", help="do not read the opponent's draws")
    parser.add_argument(
        "--read-colors", choices=("yes", "no"), default=None, help="ismcts_fast: read the colour named with a wild"
    )
    parser.add_argument(
        "--read-plays", choices=("yes", "no"), default=None, help="ismcts_fast: weight the opponent's deal by its plays"
    )
    parser.add_argument(
        "--sees-hands",
        nargs="?",
        const="all",
        choices=tuple(SEEING),
        default=None,
        help="diagnostic: the searching bot knows the other hands (what reading them perfectly is worth), "
        "or part of them: small (only hands of 2 cards or fewer), wilds (their wild cards), colors "
        "(the colours of their cards, not the numbers)",
    )
    parser.add_argument("--opponent", default=None, help="default: heuristic if installed, else random")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-deal", type=int, default=0, help="number of the first deal (for a further sample)")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args()

    opponent = args.opponent or ("heuristic" if "heuristic" in bot_names() else "random")
    settings: dict[str, Any] = {
        "bot": args.bot,
        "iterations": args.iterations,
        "time_limit": args.time_limit,
        "exploration": args.exploration,
        "read_draws": not args.no_reads,
    }
    if args.rollout_depth is not None:
        settings["rollout_depth"] = None if args.rollout_depth < 0 else args.rollout_depth
    if args.policy is not None:
        settings["policy"] = args.policy
    if args.expansion is not None:
        settings["expansion"] = args.expansion
    if args.opponents is not None:
        settings["opponents"] = args.opponents
    if args.model is not None:
        settings["model"] = args.model
    if args.read_colors is not None:
        settings["read_colors"] = args.read_colors == "yes"
    if args.read_plays is not None:
        settings["read_plays"] = args.read_plays == "yes"
    if args.sees_hands:
        settings["sees_hands"] = args.sees_hands
    for option in ("belief", "opponent_model", "exact_max", "samples", "paths", "opponent_iterations"):
        if getattr(args, option) is not None:
            settings[option] = getattr(args, option)
    if args.time_limit is not None:
        settings["iterations"] = None
    deals = (args.games + args.players - 1) // args.players
    jobs = [
        (deal, seat, settings, opponent, args.variant, args.players)
        for deal in range(args.first_deal, args.first_deal + deals)
        for seat in range(args.players)
    ]
    if args.bot in ("ismcts_fast", "ismcts_belief"):
        from unokit.bots.ismcts_fast import FAST_ITERATIONS as budgets
    else:
        budgets = DEFAULT_ITERATIONS
    iterations = args.iterations or budgets.get(args.variant)
    budget = f"{args.time_limit} s" if args.time_limit else f"{iterations} iterations"
    shown = ", ".join(f"{k}={v}" for k, v in settings.items() if k not in ("iterations", "time_limit"))
    print(f"{args.bot} ({budget}; {shown}) vs {opponent}: {args.variant}, {args.players} players, single hands")
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, {os.cpu_count()} CPUs, Python {platform.python_version()}")

    # Timing pass: one process, nothing else running.
    timing_jobs = [
        (SEED_BASE // 2 + i // 2, i % 2, settings, opponent, args.variant, args.players)
        for i in range(args.timing_games)
    ]
    times: list[float] = []
    searched: list[float] = []
    cpu: list[float] = []
    iterations_run: list[int] = []
    if timing_jobs:
        # The first search of a process loads the compiled code (ismcts_fast): timed apart.
        start = time.perf_counter()
        play_hand((SEED_BASE // 2 - 1, 0, settings, opponent, args.variant, args.players))
        print(f"warm-up hand (loads compiled code, untimed below): {time.perf_counter() - start:.2f} s")
    for job in timing_jobs:
        result = play_hand(job)
        times += result["times"]
        searched += result["searched"]
        cpu += result["cpu"]
        iterations_run += result["iterations"]
    mean_all = sum(times) / max(1, len(times))
    mean_searched = sum(searched) / max(1, len(searched))
    if not timing_jobs:
        print("timing pass skipped")
    else:
        print(
            f"seconds per decision ({len(times)} decisions, one process): mean {mean_all:.3f}; "
            f"searched decisions ({len(searched)}): mean {mean_searched:.3f}, "
            f"p95 {percentile(searched, 0.95):.3f}, max {max(searched, default=0.0):.3f}; "
            f"CPU seconds per searched decision: mean {sum(cpu) / max(1, len(cpu)):.3f}, "
            f"p95 {percentile(cpu, 0.95):.3f}, max {max(cpu, default=0.0):.3f}"
        )
        total_time = sum(searched)
        print(
            f"iterations per searched decision: mean {sum(iterations_run) / max(1, len(iterations_run)):.0f}; "
            f"iterations per second of search: {sum(iterations_run) / total_time if total_time else 0.0:,.0f}; "
            f"decisions per second (all): {len(times) / sum(times) if times else 0.0:.1f}"
        )

    if not jobs:
        return
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    report_every = max(50, len(jobs) // 10)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for result in pool.map(play_hand, jobs, chunksize=2):
            results.append(result)
            if len(results) % report_every == 0 and len(results) < len(jobs):
                so_far = sum(r["win"] for r in results) / len(results)
                print(f"  {len(results)} hands: {so_far:.3f}", flush=True)
    wall = time.perf_counter() - start
    n = len(results)
    wins = sum(r["win"] for r in results)
    low, high = wilson_interval(wins, n)
    print(f"win rate: {wins / n:.3f} over {n} hands, 95% interval [{low:.3f}, {high:.3f}] ({wall:.0f} s wall)")
    goal = TARGETS.get((args.bot, opponent))
    if goal is not None and args.variant == "classic" and args.players == 2:
        inside = f"not established ({goal} inside the interval)"
        verdict = "met" if low >= goal else ("missed" if high < goal else inside)
        slowest = max(searched, default=0.0)
        timing = f"time {'met' if slowest <= 0.2 else 'missed'} (slowest timed decision {slowest:.3f} s)"
        print(
            f"target (>= {goal:.0%} vs {opponent}, <= 0.2 s per decision): win rate {verdict}; "
            + (timing if searched else "time not measured (--timing-games 0)")
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(
                {
                    "opponent": opponent,
                    "variant": args.variant,
                    "players": args.players,
                    "settings": settings,
                    "iterations_per_decision": None if args.time_limit else iterations,
                    "first_deal": args.first_deal,
                    "hands": n,
                    "wins": wins,
                    "win_rate": wins / n,
                    "interval95": [low, high],
                    "seconds_per_decision": mean_all,
                    "seconds_per_searched_decision": mean_searched,
                    "p95_searched": percentile(searched, 0.95),
                    "max_searched": max(searched, default=0.0),
                    "cpu_per_searched_decision": sum(cpu) / max(1, len(cpu)),
                    "results": [[job[0], job[1], r["win"]] for job, r in zip(jobs, results, strict=True)],
                    "machine": platform.machine(),
                    "cpus": os.cpu_count(),
                },
                out,
                indent=2,
            )


if __name__ == "__main__":
    main()
