"""The graph of a review's winning chance as a PNG, drawn with matplotlib (extra ``sim``): the
chance to win the hand after each action of the game, the game's where rounds are scored, the
rounds shaded in turn, each costly decision as a bar from its best choice's chance down to the
chosen one's in its mark's colour, the key moments numbered, every word in the reader's
language."""

from __future__ import annotations

from pathlib import Path

from .model import MARKS, Review
from .words import ReviewWords

#: The colour of each mark of a costly decision on the graph, and of the lines.
MARK_COLORS = {"inaccuracy": "#d4a017", "mistake": "#e07020", "blunder": "#c0392b"}
HAND_COLOR = "#1f5fa8"
GAME_COLOR = "#6a6a6a"


def plot_review(review: Review, path: str | Path, lang: str | None = None) -> Path:
    """Draw ``review``'s graph into the PNG file ``path`` (its folder must exist); return it.
    Raises ``ImportError`` when matplotlib is not installed and ``OSError`` when the file
    cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    words = ReviewWords(review, lang)
    points = review.points
    xs = [p.step for p in points]
    figure, axes = plt.subplots(figsize=(10, 4.2), dpi=120)
    try:
        room = 0.07 * max(xs[-1] if xs else 1, 1)  # the least distance between two rounds' names
        named = -room
        for k, outcome in enumerate(review.rounds):
            if k % 2:
                axes.axvspan(outcome.first - 0.5, outcome.last + 1.5, color="#f0f0f0", zorder=0)
            if outcome.first - named >= room:
                named = outcome.first
                axes.text(outcome.first, 1.01, words.t("review.graph.round", round=outcome.round), fontsize=8,
                          va="bottom", transform=axes.get_xaxis_transform())  # fmt: skip
        axes.plot(xs, [100 * p.chance for p in points], color=HAND_COLOR, lw=1.6, label=words.t("review.graph.hand"))
        if review.scored:
            game = [100 * p.game if p.game is not None else float("nan") for p in points]
            axes.plot(xs, game, color=GAME_COLOR, lw=1.2, ls="--", label=words.t("review.graph.game"))
        for mark in MARKS[1:]:
            costly = [d for d in review.decisions if d.mark == mark]
            for d in costly:
                axes.plot([d.step, d.step], [100 * d.best_choice.chance, 100 * d.played_choice.chance],
                          color=MARK_COLORS[mark], lw=2.2, zorder=2)  # fmt: skip
            if costly:
                axes.scatter([d.step for d in costly], [100 * d.played_choice.chance for d in costly],
                             color=MARK_COLORS[mark], s=36, zorder=3, label=words.t(f"review.mark.{mark}"))  # fmt: skip
        chance_at = {(p.step, p.round): p.chance for p in points if p.actor is not None}
        for number, moment in enumerate(review.moments, start=1):
            at = chance_at.get((moment.step, moment.round))
            if at is not None:
                axes.annotate(str(number), (moment.step, 100 * at), textcoords="offset points", xytext=(0, 8),
                              ha="center", fontsize=8, weight="bold")  # fmt: skip
        axes.set_ylim(0, 100)
        axes.set_xlim(-0.5, max(max(xs, default=0) + 0.5, 0.5))
        axes.set_ylabel(words.t("review.graph.axis"))
        axes.set_xlabel(words.t("review.graph.steps"))
        axes.set_title(words.header()[0], fontsize=10, pad=16)
        axes.axhline(50, color="#999999", lw=0.6, ls=":")
        axes.legend(loc="lower left", fontsize=8, frameon=False)
        figure.tight_layout()
        target = Path(path)
        figure.savefig(target, format="png")
    finally:
        plt.close(figure)
    return target


__all__ = ["plot_review"]
