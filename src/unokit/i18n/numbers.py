"""Numbers as each language writes them, by CLDR's rules, with the standard library only.

``make catalogs`` (``scripts/catalogs.py``, with Babel's CLDR data) writes each language's number
symbols into ``locale/numbers.json``: the decimal sign, the group sign, the minus sign, the size
of a group and the fewest digits before the first group sign is written (CLDR's
``minimumGroupingDigits``: Spanish writes *1000* but *10.000*). :func:`format_number` writes a
number with them, as the browser's ``Intl.NumberFormat`` does (``number()`` in ``i18n.js``): 0,3
and 1 000 in Russian, 0.3 and 1,000 in English. A test compares it with Babel and the browser.
"""

from __future__ import annotations

import functools
import json
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .catalog import DEFAULT, LOCALE_DIR

#: The number symbols of every language (written by ``make catalogs``).
NUMBERS_FILE = LOCALE_DIR / "numbers.json"
#: The most fraction digits a number is written with when none are asked for (CLDR's ``#,##0.###``).
MOST_FRACTION_DIGITS = 3


@functools.cache
def _symbols() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = json.loads(NUMBERS_FILE.read_text(encoding="utf-8"))
    return found


def number_symbols(code: str) -> dict[str, Any]:
    """The number symbols of language ``code`` (``decimal``, ``group``, ``minus``,
    ``group_size``, ``min_grouping``); English's for the pseudo-language or an unknown code."""
    table = _symbols()
    return table.get(code) or table[DEFAULT]


def format_number(code: str, value: float, digits: int | None = None) -> str:
    """``value`` written in language ``code``: with exactly ``digits`` digits after the decimal
    sign, or (``None``) as few as it needs up to :data:`MOST_FRACTION_DIGITS`; rounded half away
    from zero; groups of digits apart by the language's group sign once the whole part is long
    enough (``1 000``, ``12.345,6``)."""
    symbols = number_symbols(code)
    places = MOST_FRACTION_DIGITS if digits is None else digits
    rounded = Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    negative = rounded < 0
    whole, _, fraction = f"{abs(rounded):f}".partition(".")
    if digits is None:
        fraction = fraction.rstrip("0")
    size = int(symbols["group_size"])
    if len(whole) >= size + int(symbols["min_grouping"]):
        groups: list[str] = []
        while len(whole) > size:
            groups.insert(0, whole[-size:])
            whole = whole[:-size]
        whole = str(symbols["group"]).join([whole, *groups])
    text = f"{whole}{symbols['decimal']}{fraction}" if fraction else whole
    return f"{symbols['minus']}{text}" if negative and (rounded != 0) else text


__all__ = ["MOST_FRACTION_DIGITS", "NUMBERS_FILE", "format_number", "number_symbols"]
