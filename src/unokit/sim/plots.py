"""PNG charts of a simulation with matplotlib's Agg backend (no display needed)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from .runner import SimResult


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_plots(result: SimResult, directory: str | Path) -> list[Path]:
    """Write ``win_rates.png``, ``round_lengths.png`` and ``round_points.png`` into
    ``directory`` (created if needed); return their paths."""
    plt = _pyplot()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    config = result.config
    title = f"{config.variant}, {config.players} players, {result.tally.games} games"
    paths = []

    rows = result.bot_rows()
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(rows) + 2), 4))
    rates = [r["win_rate"] for r in rows]
    errors = [
        [max(0.0, r["win_rate"] - r["ci_low"]) for r in rows],
        [max(0.0, r["ci_high"] - r["win_rate"]) for r in rows],
    ]
    ax.bar([r["label"] for r in rows], rates, yerr=errors, capsize=6, color="#4c72b0")
    ax.axhline(1.0 / config.players, color="grey", linestyle="--", linewidth=1, label="chance")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Win rates: {title}")
    ax.legend()
    fig.tight_layout()
    paths.append(_save(fig, plt, out / "win_rates.png"))

    fig, ax = plt.subplots(figsize=(7, 4))
    _histogram(ax, result.tally.turns, "#55a868")
    ax.set_xlabel("turns in the round")
    ax.set_ylabel("rounds")
    ax.set_title(f"Round length: {title}")
    fig.tight_layout()
    paths.append(_save(fig, plt, out / "round_lengths.png"))

    fig, ax = plt.subplots(figsize=(7, 4))
    _histogram(ax, result.tally.round_points, "#c44e52")
    who = "the round's winner" if result.config.resolved_options().scoring == "winner" else "each player"
    ax.set_xlabel(f"points scored in a round by {who}")
    ax.set_ylabel("rounds" if who != "each player" else "player-rounds")
    ax.set_title(f"Points: {title}")
    fig.tight_layout()
    paths.append(_save(fig, plt, out / "round_points.png"))
    return paths


def _histogram(ax: Any, counts: Counter[int], color: str) -> None:
    """A histogram of tallied values, in at most 60 bins."""
    if not counts:
        return
    keys = sorted(counts)
    bins = max(1, min(60, keys[-1] - keys[0] + 1))
    ax.hist(keys, bins=bins, weights=[counts[k] for k in keys], color=color)


def _save(fig: Any, plt: Any, path: Path) -> Path:
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
