"""How much does each house rule shorten a 4-player round? The table of docs/rules/house_rules.md.

For every variant and every house rule it accepts, the simulator plays ``--games`` single
hands (``rounds=1``) between four ``heuristic`` bots, with the official rules and with that one
rule on, and prints a Markdown table of the mean turns per round with its 95% interval and the
change against the official rules. A turn is a ``turn`` or ``stack`` decision, or a jump
(Jump-In); the figures depend only on the seed and the number of games.

    python scripts/house_rules_table.py --games 4000 --workers 2
"""

from __future__ import annotations

import argparse
import time

from unokit import VARIANT_NAMES
from unokit.core.errors import OptionError
from unokit.sim.runner import SimConfig, run_sim

VARIANTS = VARIANT_NAMES  # the themed UNO Flip editions too
#: The columns: a name and the options (``--option`` pairs).
RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "official": (),
    "jump_in": (("jump_in", "true"),),
    "seven_o": (("seven_o", "true"),),
    "stacking=true": (("stacking", "true"),),
    "stacking=progressive": (("stacking", "progressive"),),
    "stacking=mixed": (("stacking", "mixed"),),
    "draw_until_playable": (("draw_until_playable", "true"),),
    "force_play": (("force_play", "true"),),
    "teams": (("teams", "true"),),
}


def measure(
    variant: str, options: tuple[tuple[str, str], ...], games: int, seed: int, workers: int
) -> tuple[float, float, float]:
    """Mean turns per round and its 95% interval, for ``games`` hands of ``variant``."""
    config = SimConfig(
        variant=variant,
        players=4,
        bots=("heuristic",) * 4,
        games=games,
        seed=seed,
        workers=workers,
        options=options,
        hands_only=True,
    )
    summary = run_sim(config).summary()
    low, high = summary["turns_per_round_ci"]
    return summary["turns_per_round"], low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000, help="hands per variant and rule")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    started = time.perf_counter()
    lines = [
        "| variant | rule | turns per round | 95% interval | change |",
        "|---|---|---:|---|---:|",
    ]
    for variant in args.variants.split(","):
        base = 0.0
        for name, options in RULES.items():
            try:
                mean, low, high = measure(variant, options, args.games, args.seed, args.workers)
            except OptionError:
                lines.append(f"| {variant} | {name} | n/a | not applicable | |")
                continue
            if not options:
                base = mean
            change = "" if not options else f"{(mean - base) / base:+.1%}"
            lines.append(f"| {variant} | {name} | {mean:.1f} | {low:.1f} to {high:.1f} | {change} |")
            print(lines[-1], flush=True)
    print()
    print("\n".join(lines))
    print(f"\n{args.games} hands per row, seed {args.seed}, {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
