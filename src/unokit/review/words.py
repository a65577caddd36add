"""A review in the reader's language: the text ``unokit review`` prints (the catalogues,
``docs/i18n.md``), with the graph of the winning chance as text (:mod:`unokit.review.graph`).

Every word comes from a catalogue key; actions are the review's lines, said with the seats'
names. :func:`registry_keys` lists the keys of the review's closed sets (marks, kinds of
moment, efforts), which the catalogue tests check in every language.
"""

from __future__ import annotations

import textwrap

from ..bots.advice import EFFORTS
from ..i18n import catalog
from ..i18n.lines import Line, Words
from .graph import text_graph
from .model import MARKS, MOMENT_KINDS, THRESHOLDS, Decision, Moment, Review


def registry_keys() -> list[str]:
    """The catalogue keys of the review's closed sets: each mark's name and its count, each
    kind of moment, each effort."""
    keys = [key for mark in MARKS for key in (f"review.mark.{mark}", f"n.review.marks.{mark}")]
    keys += [f"review.moment.{kind}" for kind in MOMENT_KINDS]
    keys += [f"review.effort.{name}" for name in EFFORTS]
    return keys


class ReviewWords:
    """Says a :class:`Review` in the language ``lang`` (``None``: the terminal's)."""

    def __init__(self, review: Review, lang: str | None = None) -> None:
        self.review = review
        self.words = Words(catalog(lang), list(review.names))

    def t(self, key: str, /, **params: object) -> str:
        return self.words.t(key, **params)

    def percent(self, chance: float | None) -> str:
        """A chance (0 to 1) as a whole percentage in the language's form: ``62%``, ``62 %``."""
        if chance is None:
            return ""
        return self.t("number.percent", value=round(100 * chance))

    def chance(self, hand: float, game: float | None) -> str:
        """The chance to win the hand, and the game's beside it where rounds are scored."""
        if game is None:
            return self.percent(hand)
        return self.t("review.with_game", hand=self.percent(hand), game=self.percent(game))

    def action(self, line: dict[str, object]) -> str:
        """An action of the review (its line) in words."""
        params = line.get("params", {})
        return self.words.say(Line(str(line["key"]), dict(params) if isinstance(params, dict) else {}))

    def mark(self, mark: str) -> str:
        return self.t(f"review.mark.{mark}")

    # ------------------------------------------------------------------ the parts
    def header(self) -> list[str]:
        r = self.review
        lines = [
            self.t(
                "review.title",
                player=r.seat,
                variant=r.variant,
                effort=self.t(f"review.effort.{r.effort}"),
            )
        ]
        finished = [o for o in r.rounds if o.winner is not None]
        if finished:
            lines.append(self.t("review.hands_won", won=sum(o.won for o in finished), total=len(finished)))
        marks = r.marks()
        counts = self.words.cat.join(self.t(f"n.review.marks.{mark}", count=marks[mark]) for mark in MARKS)
        lines.append(self.t("review.marks", marks=counts))
        hints = sum(d.hinted for d in r.decisions)
        if hints:
            lines.append(self.t("n.review.hints", count=hints))
        return lines

    def moment(self, number: int, moment: Moment) -> str:
        return self.t(
            "review.moment",
            number=number,
            step=moment.step + 1,
            round=moment.round,
            player=moment.seat,
            action=self.action(moment.line),
            before=self.percent(moment.before),
            after=self.percent(moment.after),
            what=self.t(f"review.moment.{moment.kind}"),
        )

    def decision(self, decision: Decision) -> str:
        played, best = decision.played_choice, decision.best_choice
        text = self.t(
            "review.decision",
            step=decision.step + 1,
            round=decision.round,
            action=self.action(played.line),
            chance=self.chance(played.chance, played.game),
            mark=self.mark(decision.mark),
        )
        if decision.best != decision.played:
            text += " " + self.t(
                "review.better", best=self.action(best.line), chance=self.chance(best.chance, best.game)
            )
        notes = []
        if decision.hinted:
            notes.append(self.t("review.hinted"))
        if decision.uno_missed:
            notes.append(self.t("review.uno_missed"))
        if notes:
            text += f" ({self.words.cat.join(notes)})"
        return text

    def lines(self, width: int = 80, every: bool = True) -> list[str]:
        """The whole review as lines of text at most about ``width`` wide (the graph's width):
        the header, the graph, the key moments, the decisions that mattered most and, with
        ``every``, every decision."""
        r = self.review
        out = self.header()
        out.append("")
        out += text_graph(r, self, width)
        out.append("")
        out.append(self.t("review.moments"))
        if r.moments:
            out += [f"  {self.moment(i, m)}" for i, m in enumerate(r.moments, start=1)]
        else:
            out.append(f"  {self.t('review.no_moments')}")
        out.append("")
        out.append(self.t("review.worst"))
        worst = r.worst()
        if worst:
            out += [f"  {self.decision(d)}" for d in worst]
        elif r.decisions:
            out.append(f"  {self.t('n.review.all_good', count=round(100 * THRESHOLDS['inaccuracy']))}")
        else:
            out.append(f"  {self.t('review.no_decisions')}")
        if every and r.decisions:
            out.append("")
            out.append(self.t("review.decisions"))
            out += [f"  {self.decision(d)}" for d in r.decisions]
        return [part for line in out for part in _wrapped(line, width)]


def _wrapped(line: str, width: int) -> list[str]:
    """An item of a list (a line indented by two spaces) wrapped at ``width`` between words, its
    next lines indented under its text; any other line as it is (the graph fits already)."""
    if not line.startswith("  ") or len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, initial_indent="", subsequent_indent="      ", break_long_words=False)


__all__ = ["ReviewWords", "registry_keys"]
