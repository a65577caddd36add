"""The graph of a review's winning chance as text, for the terminal: one column per state
(resampled to the width), the chance to win the hand as ``●`` and the game's as ``·`` where
rounds are scored, the rounds marked under the axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n.cells import cells, char_cells, pad
from .model import Review

if TYPE_CHECKING:
    from .words import ReviewWords

#: Rows of the graph (from 0% to 100%).
ROWS = 9
HAND_MARK = "●"
GAME_MARK = "·"


def columns(count: int, width: int) -> list[int]:
    """Which of ``count`` points each column shows: every point when they fit in ``width``
    columns, else ``width`` points spread evenly (the first and the last among them)."""
    if count <= width:
        return list(range(count))
    return [round(i * (count - 1) / (width - 1)) for i in range(width)]


def text_graph(review: Review, words: ReviewWords, width: int = 80) -> list[str]:
    """The graph as lines of text at most ``width`` characters wide (see the module docstring)."""
    labels = [words.percent(1.0), words.percent(0.5), words.percent(0.0)]
    widest = max(cells(label) for label in labels)
    points = review.points
    if not points:
        return []
    shown = columns(len(points), max(8, width - widest - 2))
    grid = [[" "] * len(shown) for _ in range(ROWS)]
    for x, i in enumerate(shown):
        point = points[i]
        if point.game is not None:
            grid[_row(point.game)][x] = GAME_MARK
        grid[_row(point.chance)][x] = HAND_MARK
    title = words.t("review.graph.hand")
    if review.scored:
        title = f"{HAND_MARK} {title}   {GAME_MARK} {words.t('review.graph.game')}"
    out = [title]
    for r in range(ROWS - 1, -1, -1):
        label = labels[0] if r == ROWS - 1 else labels[1] if r == ROWS // 2 else labels[2] if r == 0 else ""
        out.append(f"{pad(label, widest, '>')} ┤{''.join(grid[r])}".rstrip())
    axis = ["─"] * len(shown)
    names: list[tuple[int, str]] = []
    last_round = None
    for x, i in enumerate(shown):
        if points[i].round != last_round:
            last_round = points[i].round
            axis[x] = "┬" if x else "─"
            names.append((x, words.t("review.graph.round", round=last_round)))
    out.append(f"{'':>{widest}} └{''.join(axis)}")
    # One entry per cell: a wide character (a Chinese round label) fills two, the second "".
    under = [" "] * (len(shown) + 1)
    for x, name in names:
        glyphs = [part for ch in name for part in ((ch, "") if char_cells(ch) == 2 else (ch,))]
        if all(c == " " for c in under[max(0, x - 1) : x + len(glyphs) + 1]):
            under[x : x + len(glyphs)] = glyphs
    out.append(f"{'':>{widest}}  {''.join(under)}".rstrip())
    return out


def _row(chance: float) -> int:
    return min(ROWS - 1, max(0, round(chance * (ROWS - 1))))


__all__ = ["ROWS", "columns", "text_graph"]
