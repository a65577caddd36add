"""The graph of a review's winning chance as a PNG, drawn with matplotlib (extra ``sim``): the
chance to win the hand over the states of the game, the game's where rounds are scored, the
rounds shaded in turn, the key moments and the costly decisions marked, every word in the
reader's language."""

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
    xs = list(range(len(points)))
    figure, axes = plt.subplots(figsize=(10, 4.2), dpi=120)
    try:
        starts = [i for i, p in enumerate(points) if i == 0 or p.round != points[i - 1].round]
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(points)
            if k % 2:
                axes.axvspan(start - 0.5, end - 0.5, color="#f0f0f0", zorder=0)
            axes.text(start, 1.02, words.t("review.graph.round", round=points[start].round), fontsize=8, va="bottom")
        axes.plot(xs, [100 * p.chance for p in points], color=HAND_COLOR, lw=1.6, label=words.t("review.graph.hand"))
        if review.scored:
            game = [100 * p.game if p.game is not None else float("nan") for p in points]
            axes.plot(xs, game, color=GAME_COLOR, lw=1.2, ls="--", label=words.t("review.graph.game"))
        index = {(p.step, p.round): i for i, p in enumerate(points) if p.actor is not None}
        for mark in MARKS[1:]:
            where = [
                index[(d.step, d.round)] for d in review.decisions if d.mark == mark and (d.step, d.round) in index
            ]
            if where:
                axes.scatter(
                    where,
                    [100 * points[i].chance for i in where],
                    color=MARK_COLORS[mark],
                    s=36,
                    zorder=3,
                    label=words.t(f"review.mark.{mark}"),
                )
        for number, moment in enumerate(review.moments, start=1):
            at = index.get((moment.step, moment.round))
            if at is not None:
                axes.annotate(str(number), (at, 100 * points[at].chance), textcoords="offset points", xytext=(0, 8),
                              ha="center", fontsize=8, weight="bold")  # fmt: skip
        axes.set_ylim(0, 100)
        axes.set_xlim(-0.5, max(len(points) - 0.5, 0.5))
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
