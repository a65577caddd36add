"""How long ``unokit review`` takes: a whole 2-player Classic game (to 500 points) and a single
hand, reviewed at each effort, on this machine (``docs/review.md``, "Time").

The games are played between ``normal`` bots from fixed seeds, so every run reviews the same
records. Each review runs as ``unokit review`` runs it, with ``--workers`` processes (2 by
default); the script prints the wall time, the CPU time of the processes (this one and its
workers) and the machine's load average, which says how much other work shared the cores.

    python scripts/bench_review.py                 # low, normal and high, 2 processes
    python scripts/bench_review.py --efforts low normal --workers 1
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from unokit.bots import make_bot
from unokit.bots.advice import EFFORTS
from unokit.bots.runner import play_game
from unokit.record import GameRecord, RecordingGame
from unokit.review import review_record


def game_record(seed: int, **options: object) -> GameRecord:
    """A 2-player Classic game between ``normal`` bots."""
    game, _ = RecordingGame.new("classic", 2, seed, **options)
    play_game(game, [make_bot("normal", seed * 2 + 1), make_bot("normal", seed * 2 + 2)])
    return game.to_record()


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--efforts", nargs="+", default=list(EFFORTS), choices=list(EFFORTS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7, help="the games' seed")
    args = parser.parse_args()
    records = {
        "whole game": game_record(args.seed),
        "one hand": game_record(args.seed, rounds=1),
    }
    review_record(records["one hand"], 0, "low", workers=1)  # load the compiled kernel once
    print(f"{os.cpu_count()} CPUs; {args.workers} processes per review")
    print("| record | actions | rounds | effort | wall | CPU | load average (1 min) before, after |")
    print("|---|---|---|---|---|---|---|")
    for name, record in records.items():
        rounds = (record.result.rounds if record.result else 0) or 1
        for effort in args.efforts:
            before_load = os.getloadavg()[0]
            cpu = cpu_seconds()
            started = time.perf_counter()
            review_record(record, 0, effort, workers=args.workers)
            wall = time.perf_counter() - started
            used = cpu_seconds() - cpu
            print(
                f"| {name} | {len(record.actions)} | {rounds} | {effort} | {wall:.1f} s | {used:.1f} s | "
                f"{before_load:.1f}, {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
