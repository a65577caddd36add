"""How wide text is in a terminal, in cells: a Chinese character takes two, an accent none.

Columns laid out with ``str.ljust`` or ``f"{name:<14}"`` count characters, so a name or a title
in Chinese (``小明``, ``万能 +4``) pushes every column after it out of line. :func:`cells` counts
what a terminal shows (Unicode's East Asian Width: wide and fullwidth characters two cells,
combining marks and zero-width characters none), as Rich and Textual measure it
(``rich.cells.cell_len``; a test compares the two on every catalogue), and :func:`pad` fills a
text out to a width in cells. Standard library only: ``unokit score`` and ``unokit table`` run
without Rich.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Literal


@functools.lru_cache(maxsize=4096)
def char_cells(ch: str) -> int:
    """The cells one character takes: 2 (wide, fullwidth), 0 (combining, zero-width, control), else 1."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf", "Cc"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    """The cells ``text`` takes on one line of a terminal."""
    if text.isascii():
        return sum(1 for ch in text if ch.isprintable())
    return sum(char_cells(ch) for ch in text)


def pad(text: str, width: int, align: Literal["<", ">"] = "<") -> str:
    """``text`` filled out with spaces to ``width`` cells (on the right for ``<``, on the left for
    ``>``); text as wide or wider is returned as it is."""
    fill = " " * max(0, width - cells(text))
    return text + fill if align == "<" else fill + text


__all__ = ["cells", "char_cells", "pad"]
