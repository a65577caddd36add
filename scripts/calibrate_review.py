"""How far the review's winning chances can be trusted: its estimates at positions of games
between ``expert`` bots against how those hands ended (``docs/review.md``, "Calibration").

Each hand (one round, ``rounds=1``) is played by ``expert`` bots at every seat, seeded by its
number; then ``--per-hand`` of its decisions (a seat to act with at least two choices, over all
seats) are drawn with a seeded generator, and each is estimated as ``unokit review`` estimates
it, from that seat's view only (``unokit.review.analysis.estimate_steps``). A position gives two
predictions, the chance of the choice the seat made and the chance of the best choice, and one
outcome, whether the seat won the hand (a shared win counts its share). The positions go to a
JSON-lines file as the hands finish, so a run stopped early (``--deadline``) keeps what it did.

    python scripts/calibrate_review.py play --variant classic --players 2 --hands 200 --out c2.jsonl
    python scripts/calibrate_review.py play --variant flip --players 4 --hands 200 --out f4.jsonl
    python scripts/calibrate_review.py report c2.jsonl f4.jsonl --plot docs/figures/review_calibration.png

``fit`` fits a temperature on the chances (:mod:`unokit.bots.temper`) by maximum likelihood on
the even-numbered hands of a file (in the order of their numbers) and measures it on the others:
their Brier score and reliability table before and after, then the power fitted on all hands.

    python scripts/calibrate_review.py fit c2.jsonl --players 2

``report`` prints, per game, the reliability table (positions by predicted chance in bins of
ten points: how many, the mean prediction, the share of them won, the difference), the Brier
score and that of always predicting the mean outcome, and draws the reliability diagrams.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from unokit.bots import make_bot
from unokit.bots.ismcts import searched_actions
from unokit.bots.runner import play_game
from unokit.bots.temper import tempered
from unokit.core.actions import CATCH, UNO
from unokit.core.rng import MASK64, Rng
from unokit.record import RecordingGame
from unokit.record.replay import start_game
from unokit.review.analysis import estimate_steps

#: Hands are numbered from here (their seeds), apart from every other script's deals.
SEED_BASE = 42_000_000
#: Bins of the reliability table: ten points of percentage each.
BINS = 10
#: Positions a bin needs before its difference is held to the target.
ENOUGH = 100
#: The target: every bin with enough positions within this of its share won.
TARGET = 0.05


def hand_positions(variant: str, players: int, hand: int, per_hand: int, effort: str, seed: int) -> dict[str, Any]:
    """Play hand ``hand`` between experts and estimate ``per_hand`` of its decisions."""
    started = time.perf_counter()
    game_seed = SEED_BASE + hand
    game, _ = RecordingGame.new(variant, players, game_seed, rounds=1)
    play_game(game, [make_bot("expert", (game_seed * 31 + s) & MASK64) for s in range(players)])
    record = game.to_record()
    played = time.perf_counter() - started
    winners = game.winners
    # The decisions: the seat to act takes the next action in turn and had a choice.
    replay, _ = start_game(record)
    decisions = []
    facts: dict[int, tuple[str, int, int]] = {}  # the decision's kind, the seat's cards, the fewest of another's
    for step, (seat, text) in enumerate(record.actions):
        action = replay.parse_action(text, seat)
        in_turn = replay.to_act == seat and action.kind not in (CATCH, UNO)
        if in_turn and len(searched_actions(replay.legal_actions(seat))) > 1:
            decisions.append((seat, step))
            sizes = [len(h) for h in replay.hands]
            facts[step] = (replay.decision.value, sizes[seat], min(n for s, n in enumerate(sizes) if s != seat))
        replay.apply(text, seat=seat)
    rng = Rng((seed * 0x9E3779B97F4A7C15 + hand) & MASK64)
    rng.shuffle(decisions)
    chosen = sorted(decisions[:per_hand])
    by_seat: dict[int, list[int]] = defaultdict(list)
    for seat, step in chosen:
        by_seat[seat].append(step)
    positions = []
    for seat, steps in sorted(by_seat.items()):
        for estimate in estimate_steps(record, seat, effort, seed + hand, steps):
            text = record.actions[estimate.step][1]
            plain = text.removesuffix(" uno")
            made = next(c for c in estimate.choices if c[0].removesuffix(" uno") == plain)
            positions.append(
                {
                    "hand": hand,
                    "seat": seat,
                    "step": estimate.step,
                    "made": made[2],
                    "best": max(c[2] for c in estimate.choices),
                    "choices": len(estimate.choices),
                    "decision": facts[estimate.step][0],
                    "cards": facts[estimate.step][1],
                    "fewest": facts[estimate.step][2],
                    "engine": estimate.engine,
                    "won": (1.0 / len(winners)) if seat in winners else 0.0,
                }
            )
    return {
        "hand": hand,
        "record": record.to_json(),  # to estimate its positions again with other settings, without playing
        "actions": len(record.actions),
        "left": [len(h) for h in game.hands],
        "play_seconds": played,
        "seconds": time.perf_counter() - started,
        "positions": positions,
    }


def _task(args: tuple[str, int, int, int, str, int]) -> dict[str, Any]:
    return hand_positions(*args)


def play(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():  # go on where a stopped run left off
        done = {json.loads(line)["hand"] for line in out.read_text().splitlines() if line.strip()}
    hands = [h for h in range(args.first, args.first + args.hands) if h not in done]
    deadline = time.monotonic() + args.deadline if args.deadline else None
    # Compile (or load) the kernel once here, so that the workers find it in the cache.
    hand_positions(args.variant, args.players, -1, 1, args.effort, args.seed)
    count = 0
    with out.open("a") as sink, ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = {
            pool.submit(_task, (args.variant, args.players, h, args.per_hand, args.effort, args.seed)): h for h in hands
        }
        for future in as_completed(futures):
            result = future.result()
            sink.write(json.dumps(result) + "\n")
            sink.flush()
            count += len(result["positions"])
            if deadline is not None and time.monotonic() > deadline:
                for other in futures:
                    other.cancel()
                print(f"deadline reached: {count} positions written", file=sys.stderr)
                break
    print(f"{out}: {count} positions from {len(hands)} hands planned", file=sys.stderr)


# --------------------------------------------------------------------------- the report


def load(path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def table(positions: list[dict[str, Any]], key: str) -> list[tuple[int, int, float, float]]:
    """The reliability table of prediction ``key``: per bin, (bin, positions, mean predicted,
    share won)."""
    bins: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for p in positions:
        bins[min(int(p[key] * BINS), BINS - 1)].append((p[key], p["won"]))
    rows = []
    for b in range(BINS):
        pairs = bins.get(b, [])
        if pairs:
            rows.append((b, len(pairs), sum(x for x, _ in pairs) / len(pairs), sum(y for _, y in pairs) / len(pairs)))
    return rows


def intervals(hands: list[dict[str, Any]], key: str, rounds: int = 1000) -> dict[int, tuple[float, float]]:
    """Per bin, a 95% interval of (share won - mean predicted) by resampling whole hands (the
    positions of a hand share its outcome, so they are not independent): the 2.5th and 97.5th
    percentiles over ``rounds`` resamples, from a generator seeded for the report."""
    rng = Rng(0xB007)
    diffs: dict[int, list[float]] = defaultdict(list)
    for _ in range(rounds):
        sample = [p for _ in hands for p in hands[rng.below(len(hands))]["positions"]]
        for b, _n, predicted, won in table(sample, key):
            diffs[b].append(won - predicted)
    out = {}
    for b, values in diffs.items():
        values.sort()
        out[b] = (values[int(0.025 * len(values))], values[min(len(values) - 1, int(0.975 * len(values)))])
    return out


def brier(positions: list[dict[str, Any]], key: str) -> float:
    return float(sum((p[key] - p["won"]) ** 2 for p in positions) / len(positions))


def report(args: argparse.Namespace) -> None:
    games = []
    for path in args.files:
        hands = load(path)
        positions = [p for h in hands for p in h["positions"]]
        name = Path(path).stem
        games.append((name, hands, positions))
        base = sum(p["won"] for p in positions) / len(positions)
        print(f"## {name}: {len(positions)} positions from {len(hands)} hands")
        mean_actions = sum(h["actions"] for h in hands) / len(hands)
        losers = [n for h in hands for n in h["left"] if n]
        print(f"actions per hand {mean_actions:.1f}; cards left in a losing hand {sum(losers) / len(losers):.2f}")
        for key in ("made", "best"):
            print(f"\nprediction: the chance of the {'choice made' if key == 'made' else 'best choice'}")
            print("| predicted | positions | mean predicted | share won | difference | 95% interval (by hand) |")
            print("|---|---|---|---|---|---|")
            worst = 0.0
            spread = intervals(hands, key)
            for b, n, predicted, won in table(positions, key):
                diff = won - predicted
                flag = "" if n < ENOUGH else (" ✓" if abs(diff) <= TARGET else " ✗")
                if n >= ENOUGH:
                    worst = max(worst, abs(diff))
                low, high = spread.get(b, (math.nan, math.nan))
                print(
                    f"| {10 * b}-{10 * b + 10}% | {n} | {100 * predicted:.1f}% | {100 * won:.1f}% | "
                    f"{100 * diff:+.1f}{flag} | {100 * low:+.1f} to {100 * high:+.1f} |"
                )
            score = brier(positions, key)
            print(
                f"Brier score {score:.4f} (always {100 * base:.1f}%: {base * (1 - base):.4f}); "
                f"largest difference in a bin of {ENOUGH}+: {100 * worst:.1f} points"
            )
        seconds = sum(h["seconds"] - h["play_seconds"] for h in hands) / max(1, len(positions))
        print(f"\nestimating: {seconds:.3f} s per position (one process)\n")
    if args.plot:
        plot(games, args.plot, args.powers or [1.0] * len(games))


def plot(games: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]], path: str, powers: list[float]) -> None:
    """The reliability diagram of each game; where its power is not 1, also its positions'
    predictions under that temperature (``--powers``, one per file)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(games), figsize=(5 * len(games), 5), dpi=110, squeeze=False)
    for ax, (name, _hands, positions), power in zip(axes[0], games, powers, strict=True):
        rows = table(positions, "made")
        ax.plot([0, 100], [0, 100], color="#999999", lw=0.8, ls=":")
        ax.fill_between([0, 100], [-5, 95], [5, 105], color="#e8f0e8", label=f"within {round(100 * TARGET)} points")
        xs = [100 * r[2] for r in rows]
        ys = [100 * r[3] for r in rows]
        sizes = [12 + 60 * math.sqrt(r[1] / len(positions)) for r in rows]
        ax.plot(xs, ys, color="#1f5fa8", lw=1.2)
        ax.scatter(xs, ys, s=sizes, color="#1f5fa8", zorder=3, label="positions by predicted chance")
        title = f"{name}: {len(positions)} positions, Brier {brier(positions, 'made'):.3f}"
        if power != 1.0:
            players = max(p["seat"] for p in positions) + 1
            moved = _with_power(positions, players, power)
            rows = table(moved, "made")
            xs = [100 * r[2] for r in rows]
            ys = [100 * r[3] for r in rows]
            sizes = [12 + 60 * math.sqrt(r[1] / len(moved)) for r in rows]
            ax.plot(xs, ys, color="#c0631b", lw=1.2, ls="--")
            ax.scatter(xs, ys, s=sizes, color="#c0631b", marker="s", zorder=3, label=f"under the power {power:.2f}")
            title += f"\n(power {power:.2f}: Brier {brier(moved, 'made'):.3f})"
        ax.set_xlim(0, 100)
        ax.set_ylim(0, 100)
        ax.set_xlabel("predicted chance to win the hand (%)")
        ax.set_ylabel("hands won (%)")
        ax.set_title(title, fontsize=10)
        ax.legend(loc="upper left", fontsize=8, frameon=False)
    figure.tight_layout()
    figure.savefig(path)
    print(f"wrote {path}")


# --------------------------------------------------------------------------- the temperature

#: The powers tried by ``fit``: 0.05 to 2.00 by 0.01.
POWERS = [round(0.01 * i, 2) for i in range(5, 201)]


def _with_power(positions: list[dict[str, Any]], players: int, power: float) -> list[dict[str, Any]]:
    """``positions`` with their predictions under ``power``."""
    return [
        {**p, "made": tempered(p["made"], players, power), "best": tempered(p["best"], players, power)}
        for p in positions
    ]


def log_likelihood(positions: list[dict[str, Any]], players: int, power: float) -> float:
    total = 0.0
    for p in positions:
        q = min(max(tempered(p["made"], players, power), 1e-4), 1 - 1e-4)
        total += p["won"] * math.log(q) + (1 - p["won"]) * math.log(1 - q)
    return total


def fitted_power(positions: list[dict[str, Any]], players: int) -> float:
    """The power of :data:`POWERS` under which ``positions``' outcomes are likeliest."""
    return max(POWERS, key=lambda a: log_likelihood(positions, players, a))


def _print_table(positions: list[dict[str, Any]]) -> float:
    """Print the reliability table of ``positions``; returns the largest difference in a bin
    of :data:`ENOUGH` or more."""
    worst = 0.0
    print("| predicted | positions | mean predicted | share won | difference |")
    print("|---|---|---|---|---|")
    for b, n, predicted, won in table(positions, "made"):
        diff = won - predicted
        flag = "" if n < ENOUGH else (" ✓" if abs(diff) <= TARGET else " ✗")
        if n >= ENOUGH:
            worst = max(worst, abs(diff))
        print(
            f"| {10 * b}-{10 * b + 10}% | {n} | {100 * predicted:.1f}% | {100 * won:.1f}% | {100 * diff:+.1f}{flag} |"
        )
    return worst


def fit(args: argparse.Namespace) -> None:
    hands = sorted((h for path in args.files for h in load(path)), key=lambda h: h["hand"])
    fitting = [p for h in hands[0::2] for p in h["positions"]]
    held = [p for h in hands[1::2] for p in h["positions"]]
    power = fitted_power(fitting, args.players)
    print(f"fitted on {len(hands[0::2])} hands ({len(fitting)} positions): power {power:.2f}")
    print(f"held out: {len(hands[1::2])} hands ({len(held)} positions)")
    base = sum(p["won"] for p in held) / len(held)
    for name, positions in (("as searched", held), (f"power {power:.2f}", _with_power(held, args.players, power))):
        print(f"\n{name}:")
        worst = _print_table(positions)
        print(
            f"Brier {brier(positions, 'made'):.4f} (always {100 * base:.1f}%: {base * (1 - base):.4f}); "
            f"largest difference in a bin of {ENOUGH}+: {100 * worst:.1f} points"
        )
    everything = fitting + held
    overall = fitted_power(everything, args.players)
    print(f"\nfitted on all {len(hands)} hands ({len(everything)} positions): power {overall:.2f}")
    halves = [fitted_power([p for h in hands[k::2] for p in h["positions"]], args.players) for k in (0, 1)]
    print(f"fitted on each half: {halves[0]:.2f} (even), {halves[1]:.2f} (odd)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play hands between experts and estimate positions of them")
    p.add_argument("--variant", default="classic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--first", type=int, default=0, help="the first hand's number")
    p.add_argument("--per-hand", type=int, default=12, help="decisions estimated per hand")
    p.add_argument("--effort", default="normal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    p.add_argument("--deadline", type=float, default=None, help="seconds after which no more hands are waited for")
    p.add_argument("--out", required=True, help="JSON-lines file (appended to: a stopped run goes on)")
    r = sub.add_parser("report", help="the reliability tables, Brier scores and the diagram")
    r.add_argument("files", nargs="+")
    r.add_argument("--plot", default=None, help="draw the reliability diagrams into this PNG")
    r.add_argument(
        "--powers",
        type=float,
        nargs="+",
        default=None,
        help="a temperature per file: also draw its diagram with the predictions under that power",
    )
    f = sub.add_parser("fit", help="fit a temperature on half the hands, measure it on the others")
    f.add_argument("files", nargs="+", help="the positions of one game (several files of it)")
    f.add_argument("--players", type=int, required=True)
    args = parser.parse_args()
    {"play": play, "report": report, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
