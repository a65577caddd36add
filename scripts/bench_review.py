"""How long a review takes (``docs/review.md``, "Time").

**As the server makes it** (the default): a finished game whose reviewed seat took 30 turns of its
own, 2-player Classic and 4-player UNO Flip (one hand each, between ``normal`` bots, from fixed
seeds), asked of the server's :class:`~unokit.server.features.reviews.desk.ReviewDesk` (its bot pool at the
server's defaults, a SQLite database) in a fresh process, which polls it as the page does. It
prints the seconds from the ask to the first marks (the first 202 answer that carries marked
decisions) and to the whole review, with the process's CPU time and the machine's load
average, for three states of numba's on-disk cache:

* *cold, compiled at install*: an empty cache filled by ``unokit compile`` (what ``make setup``
  runs; its time is printed), then the server process;
* *warm*: the same again, the cache kept;
* with ``--uncompiled``, *cold, nothing compiled ahead*: an empty cache and the server process
  at once, the first ask compiling the kernels (as before ``unokit compile``).

The process loads the kernels before the ask (:func:`unokit.review.warm.compile_kernels`, as a
server start does it; not in the last case); that time is printed apart (``start``).

    python scripts/bench_review.py                      # the table above
    python scripts/bench_review.py --tables flip --uncompiled
    python scripts/bench_review.py --efforts low normal  # also unokit review's times, by effort

``--efforts`` adds the terminal's ``unokit review`` on a whole 2-player Classic game (to 500
points) and a single hand, with ``--workers`` processes, at each effort named.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.record import GameRecord, RecordingGame

#: The tables measured: (variant, players, the game's seed).
TABLES = (("classic", 2), ("flip", 4))
#: The reviewed seat's own turns in each game.
OWN_TURNS = 30


def game_record(variant: str, players: int, seed: int, **options: object) -> GameRecord:
    """A game between ``normal`` bots."""
    game, _ = RecordingGame.new(variant, players, seed, **options)
    play_game(game, [make_bot("normal", seed * 10 + s) for s in range(players)])
    return game.to_record()


def thirty_turns(variant: str, players: int) -> tuple[int, GameRecord]:
    """The first seed (from 1) whose one-hand game gives seat 0 :data:`OWN_TURNS` actions."""
    for seed in range(1, 1000):
        record = game_record(variant, players, seed, rounds=1)
        if sum(1 for actor, _ in record.actions if actor == 0) == OWN_TURNS:
            return seed, record
    raise SystemExit(f"no game of {OWN_TURNS} own turns in 1,000 seeds of {variant}")


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def desk_child(path: str, load: bool) -> None:
    """In the fresh process: load the kernels (``load``; else only import the server), ask the
    desk for the review of seat 0 of the record in ``path``, poll every 50 ms; print the figures
    as JSON."""
    started = time.perf_counter()
    if load:
        from unokit.review.warm import compile_kernels

        compile_kernels()
    start = time.perf_counter() - started
    from sqlalchemy import insert

    from unokit.server.botpool import BotPool, default_threads
    from unokit.server.features.reviews.desk import ReviewDesk
    from unokit.server.storage import Store, migrate, records

    text = Path(path).read_text()
    store = Store(f"sqlite:///{path}.db")
    migrate(store.engine)
    with store.begin() as c:
        c.execute(insert(records).values(room="ROOM", game_no=1, created_at=time.time(), record=text))

    async def ask() -> dict[str, float]:
        desk = ReviewDesk(BotPool(default_threads(), 0.5), store, "bench")
        cpu = cpu_seconds()
        asked = time.perf_counter()
        first = None
        while True:
            status, body = await desk.ask("ROOM", 1, 0, "bench", "127.0.0.1")
            now = time.perf_counter() - asked
            if status == 200:
                return {"first": first if first is not None else now, "ready": now, "cpu": cpu_seconds() - cpu}
            if first is None and body["decisions"]:
                first = now
            await asyncio.sleep(0.05)

    figures = asyncio.run(ask())
    store.close()
    print(json.dumps({"start": start, **figures}))


def run_desk(path: Path, cache: str, load: bool) -> dict[str, float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    command = [sys.executable, __file__, "--desk-child", str(path), *([] if load else ["--no-load"])]
    out = subprocess.run(command, check=False, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the review's process failed:\n{out.stderr}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def compile_into(cache: str) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    started = time.perf_counter()
    command = [sys.executable, "-c", "from unokit.cli import main; main()", "compile"]
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def server_table(tables: list[str], uncompiled: bool) -> None:
    print(f"{os.cpu_count()} CPUs; the server's review (ReviewDesk, its bot pool at the defaults)")
    print("| table | actions | states | cache | unokit compile | start | first marks | ready | CPU | load before |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="bench-review-") as folder:
        for variant, players in TABLES:
            if variant not in tables:
                continue
            seed, record = thirty_turns(variant, players)
            path = Path(folder) / f"{variant}-{players}.json"
            path.write_text(record.dumps())
            name = f"{variant}, {players} players (seed {seed})"
            cache = tempfile.mkdtemp(prefix="numba-", dir=folder)
            runs = [("cold, compiled at install", cache, True, True), ("warm", cache, False, True)]
            if uncompiled:
                empty = tempfile.mkdtemp(prefix="numba-", dir=folder)
                runs.append(("cold, nothing compiled ahead", empty, False, False))
            for label, where, compiling, loading in runs:
                load = os.getloadavg()[0]
                compiled = f"{compile_into(where):.1f} s" if compiling else "—"
                for leftover in Path(folder).glob("*.db"):
                    leftover.unlink()
                f = run_desk(path, where, loading)
                print(
                    f"| {name} | {len(record.actions)} | {len(record.actions) + 1} | {label} | {compiled} | "
                    f"{f['start']:.1f} s | {f['first']:.1f} s | {f['ready']:.1f} s | {f['cpu']:.1f} s | {load:.1f} |",
                    flush=True,
                )


def terminal_table(efforts: list[str], workers: int, seed: int) -> None:
    from unokit.review import review_record

    records = {
        "whole game": game_record("classic", 2, seed),
        "one hand": game_record("classic", 2, seed, rounds=1),
    }
    review_record(records["one hand"], 0, "low", workers=1)  # load the compiled kernel once
    print(f"\n`unokit review`: {workers} processes per review")
    print("| record | actions | rounds | effort | wall | CPU | load average (1 min) before, after |")
    print("|---|---|---|---|---|---|---|")
    for name, record in records.items():
        rounds = (record.result.rounds if record.result else 0) or 1
        for effort in efforts:
            before_load = os.getloadavg()[0]
            cpu = cpu_seconds()
            started = time.perf_counter()
            review_record(record, 0, effort, workers=workers)
            wall = time.perf_counter() - started
            used = cpu_seconds() - cpu
            print(
                f"| {name} | {len(record.actions)} | {rounds} | {effort} | {wall:.1f} s | {used:.1f} s | "
                f"{before_load:.1f}, {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


def main() -> None:
    from unokit.bots.advice import EFFORTS

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--efforts", nargs="*", default=[], choices=list(EFFORTS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7, help="the terminal's games' seed")
    parser.add_argument("--no-server", action="store_true", help="only the terminal's times")
    parser.add_argument("--tables", nargs="+", default=[v for v, _ in TABLES], choices=[v for v, _ in TABLES])
    parser.add_argument(
        "--uncompiled", action="store_true", help="also an empty cache not compiled ahead (the first ask compiles)"
    )
    parser.add_argument("--desk-child", help=argparse.SUPPRESS)
    parser.add_argument("--no-load", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.desk_child:
        desk_child(args.desk_child, not args.no_load)
        return
    if not args.no_server:
        server_table(args.tables, args.uncompiled)
    if args.efforts:
        terminal_table(args.efforts, args.workers, args.seed)


if __name__ == "__main__":
    main()
