"""The names people give themselves at a terminal table and on a score sheet (``unokit play
--name``, ``unokit table new --players``): printable text on one line, of at most
:data:`NAME_CHARACTERS` characters, so that a name can neither break the table's lines, move
the cursor, colour the terminal nor hide or reorder itself."""

from __future__ import annotations

import unicodedata

from ..core.errors import quote
from ..i18n import N_
from ..i18n.lines import Line

#: The most characters of a name (a score sheet's column, a row of the terminal table).
NAME_CHARACTERS = 40
#: Unicode categories never allowed in a name: controls (a newline, an escape), invisible
#: formatting (bidirectional overrides, zero-width characters), private use, unassigned code
#: points, surrogates, line and paragraph separators.
NAME_FORBIDDEN = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


def name_problem(name: str) -> Line | None:
    """What is wrong with the (stripped) ``name``, as a message with its parameters (the name
    quoted with its control characters escaped), or ``None`` for a name that may be used."""
    if not name:
        return Line(N_("sheet.error.empty_name"))
    for ch in name:
        if unicodedata.category(ch) in NAME_FORBIDDEN:
            return Line(N_("cli.name_character"), {"given": quote(name), "code": f"U+{ord(ch):04X}"})
    if len(name) > NAME_CHARACTERS:
        return Line(N_("cli.name_too_long"), {"given": quote(name), "number": NAME_CHARACTERS})
    return None
