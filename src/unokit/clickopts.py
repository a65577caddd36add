"""Command-line helpers shared by every ``unokit`` subcommand (click only, no game logic)."""

from __future__ import annotations

from collections.abc import Iterable

import click

from .core import variants
from .core.errors import UnokitError


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``--option name=value`` pairs as a dict (values stay text; the engine converts them).

    A malformed pair is a :class:`click.BadParameter` naming it.
    """
    try:
        return variants.parse_option_pairs(pairs)
    except UnokitError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None
