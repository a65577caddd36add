"""How cards and the table look on screen: Rich text with the card colours.

Colour is never the only clue: every card also shows its colour-blind symbol and its name,
and playable cards are bracketed (``[3 ● Red 5]``), so the screen reads the same in a
terminal without colours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from ..i18n import catalog
from ..i18n.cells import cells
from . import faces

#: Background colour of each card colour (and wilds), with a readable text colour on it.
CARD_COLORS: dict[str | None, tuple[str, str]] = {
    "red": ("#d70000", "white"),
    "yellow": ("#ffd700", "black"),
    "green": ("#00af00", "black"),
    "blue": ("#0087ff", "white"),
    "pink": ("#ff5fd7", "black"),
    "teal": ("#00afaf", "black"),
    "orange": ("#ff8700", "black"),
    "purple": ("#8700d7", "white"),
    None: ("#303030", "white"),
}

#: How each side's badge looks: its glyph and style (its words are the catalogue's).
SIDE_BADGES: dict[str, tuple[str, str]] = {
    "light": ("☀", "bold black on #f0f0f0"),
    "dark": ("☾", "bold white on #5f00af"),
    "mild": ("☀", "bold black on #f0f0f0"),
    "wild": ("☾", "bold white on #af0000"),
}


def card_style(face: str, playable: bool = True) -> str:
    """The Rich style of a card face: its colour as background when playable, else dim text."""
    background, text = CARD_COLORS[faces.color_of(face)]
    if playable:
        return f"bold {text} on {background}"
    shade = background if faces.color_of(face) is not None else "grey70"
    return f"{shade}"


def chip(
    face: str, *, index: int | None = None, playable: bool = True, marked: bool = True, selected: bool = False
) -> Text:
    """A card as a chip (lay chips out with ``wrap_chips``). With ``marked``, playable cards
    are bracketed, ``[3 ● Red 5]``, and the others are not, `` 3 ● Red 5 ``."""
    number = f"{index} " if index is not None else ""
    body = f"{number}{faces.glyph(faces.color_of(face))} {faces.title(face)}"
    text = f"[{body}]" if playable and marked else f" {body} "
    style = card_style(face, playable)
    if selected:
        style += " reverse underline"
    return Text(text, style=style)


def short_chip(face: str) -> Text:
    """A short code of a face (``●7``) in its colour, for the backs of other hands."""
    background, _ = CARD_COLORS[faces.color_of(face)]
    return Text(faces.short(face), style=f"bold {background}" if faces.color_of(face) else "bold")


def color_chip(color: str | None) -> Text:
    """The colour in play with its symbol: ``red ● circle``."""
    if color is None:
        return Text(catalog().t("table.being_chosen"), style="italic")
    background, text = CARD_COLORS[color]
    return Text(f" {faces.color_label(color)} ", style=f"bold {text} on {background}")


def side_badge(side: str) -> Text:
    """The side in play as a badge: ``☾ DARK SIDE``."""
    glyph, style = SIDE_BADGES[side]
    label = catalog().t("table.side_value", side=catalog().t(f"side.{side}")).upper()
    return Text(f" {glyph} {label} ", style=style)


class Glued(Text):
    """A chip that follows the one before it with no gap when both are on one line: a piece of
    Chinese text, which has no spaces between its words but may break between its characters."""


def chip_rows(chips: list[Text], width: int, gap: str = " ") -> list[list[int]]:
    """Lay chips out in rows of at most ``width`` cells, never breaking a chip: the indices of
    the chips of each row. A :class:`Glued` chip takes no gap before it."""
    rows: list[list[int]] = []
    used = 0
    for i, chip in enumerate(chips):
        size = chip.cell_len
        space = 0 if isinstance(chip, Glued) else cells(gap)
        if not rows or used + space + size > width:
            rows.append([i])
            used = size
        else:
            rows[-1].append(i)
            used += space + size
    return rows


def wrap_chips(chips: list[Text], width: int, gap: str = " ") -> Text:
    """Lay chips out in lines of at most ``width`` cells, never breaking a chip."""
    lines = []
    for row in chip_rows(chips, width, gap):
        line = Text()
        for k, i in enumerate(row):
            if k and not isinstance(chips[i], Glued):
                line.append(gap)
            line.append_text(chips[i])
        lines.append(line)
    return Text("\n").join(lines)


#: Chinese text (docs/i18n.md, "Chinese") may break after any Han character, except before a
#: closing mark (an ideographic comma or full stop, a closing bracket) or after an opening one; a run
#: of Latin letters or digits stays whole.
HAN = "\u2e80-\u2fff\u3040-\u9fff\uf900-\ufaff"
OPENING = "\uff08\u300c\u300e\u3010\u201c\u2018\u300a\u3008\uff3b\uff5b"
CLOSING = "\u3001\u3002\uff0c\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300f\u3011\u201d\u2019\u300b\u3009\uff3d\uff5d\u2026"
CJK = f"{HAN}{OPENING}{CLOSING}\u3000-\u303f\uff00-\uffef"


def flow_pieces(whole: Iterable[str]) -> re.Pattern[str]:
    """The pattern :func:`words_to_flow` cuts by: each of ``whole`` (a card's title) one piece,
    with any punctuation that follows it, else a run of text between spaces, or in Chinese one
    character with the marks around it. Built once for many lines."""
    names = "|".join(re.escape(name) for name in sorted(whole, key=len, reverse=True))
    named = rf"(?:{names})(?:[{CLOSING}]|[^\s{CJK}])*|" if names else ""
    return re.compile(rf"{named}[{OPENING}]*[{HAN}][{CLOSING}]*|[{OPENING}]*[^\s{CJK}]+[{CLOSING}]*|[{CJK}]+")


def words_to_flow(text: str, pieces: re.Pattern[str]) -> list[Text]:
    """``text`` cut at its spaces into pieces for a :class:`Flow`, except inside what
    ``pieces`` (:func:`flow_pieces`) keeps whole; a piece written right after the one before
    it (Chinese) is :class:`Glued` to it."""
    out: list[Text] = []
    end = None
    for match in pieces.finditer(text):
        out.append(Glued(match.group()) if match.start() == end else Text(match.group()))
        end = match.end()
    return out


class Flow:
    """Chips laid out in lines at the width they are drawn at (a Rich renderable): a resized
    screen lays them out again, never breaking a chip. ``lead`` starts the first line; ``style``
    is laid over all of it, gaps included."""

    def __init__(self, chips: list[Text], gap: str = " ", lead: Text | None = None, style: str = "") -> None:
        self.chips = [lead, *chips] if lead is not None else chips
        self.gap = gap
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = wrap_chips(self.chips, options.max_width, self.gap)
        if self.style:
            text.stylize(self.style)
        yield text
