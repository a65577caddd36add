"""Do the bots play the house rules well? Each bot against itself with its house-rule play off.

For each house rule, four-player single hands (``rounds=1``) of one variant are played by two
copies of a bot that plays the rule (``house_rules=True``, the default) at seats facing each
other and two copies that play as if it made no difference (``house_rules=False``: no jumps, a
swap with the smallest hand, partners treated as opponents, stacked Wild Draws never passed
on, drawing priced as one card). Seats rotate from hand to hand. With ``teams=true`` the two
aware copies are partners against the two others. The figure is the share of hands the aware
pair wins, with its 95% Wilson interval: 50% means the rule-aware play gains nothing.

    python scripts/bench_house_bots.py --bot heuristic --games 4000
    python scripts/bench_house_bots.py --bot ismcts --iterations 300 --games 400
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Sequence

from unokit.bots.base import Bot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import IsmctsBot
from unokit.bots.runner import play_game
from unokit.core.game import Game
from unokit.sim.runner import derive_seed, wilson_interval

#: The rules measured: a name and the options.
RULES: dict[str, dict[str, object]] = {
    "official (control)": {},
    "jump_in": {"jump_in": True},
    "seven_o": {"seven_o": True},
    "stacking=progressive": {"stacking": "progressive"},
    "draw_until_playable": {"draw_until_playable": True},
    "teams": {"teams": True},
    "teams + jump_in + seven_o": {"teams": True, "jump_in": True, "seven_o": True},
}


def make(bot: str, seed: int, aware: bool, iterations: int) -> Bot:
    """A bot of kind ``bot``, playing the house rules when ``aware``."""
    if bot == "ismcts":
        return IsmctsBot(seed, iterations=iterations, house_rules=aware)
    return HeuristicBot(seed, house_rules=aware)


def play_hands(args: tuple[str, str, dict[str, object], int, int, int, int]) -> float:
    """The aware pair's wins over hands ``start`` to ``stop - 1`` (a shared win counts its share)."""
    variant, bot, options, seed, start, stop, iterations = args
    wins = 0.0
    for index in range(start, stop):
        game = Game.new(variant, 4, derive_seed(seed, index), rounds=1, **options)[0]
        # entry e (aware for e = 0, 2) sits in seat (e + index) % 4
        aware_seats = {(e + index) % 4 for e in (0, 2)}
        bots: Sequence[Bot] = [
            make(bot, derive_seed(seed, index, 1 + seat), seat in aware_seats, iterations) for seat in range(4)
        ]
        play_game(game, bots)
        winners = game.winners
        wins += sum(1 for s in winners if s in aware_seats) / len(winners)
    return wins


def measure(
    variant: str, bot: str, options: dict[str, object], games: int, seed: int, workers: int, iterations: int
) -> float:
    """The aware pair's wins over ``games`` hands."""
    size = max(1, min(100, games // (workers * 4) or 1))
    chunks = [(variant, bot, options, seed, a, min(games, a + size), iterations) for a in range(0, games, size)]
    if workers == 1:
        return sum(play_hands(chunk) for chunk in chunks)
    with multiprocessing.get_context().Pool(workers) as pool:
        return sum(pool.map(play_hands, chunks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", choices=("heuristic", "ismcts"), default="heuristic")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--games", type=int, default=2000, help="hands per rule")
    parser.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rules", default=",".join(RULES), help="comma-separated names of RULES")
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{args.bot} ({args.variant}, 4 players, {args.games} hands per rule): rule-aware pair's share of hands won")
    print("| rule | aware pair wins | 95% interval |")
    print("|---|---:|---|")
    for name in args.rules.split(","):
        wins = measure(args.variant, args.bot, RULES[name], args.games, args.seed, args.workers, args.iterations)
        low, high = wilson_interval(wins, args.games)
        print(f"| {name} | {wins / args.games:.1%} | {low:.1%} to {high:.1%} |", flush=True)
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
