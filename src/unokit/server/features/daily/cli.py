"""The deal of the day on the command line: its ``unokit serve`` options (``--daily-rollover``,
``--daily-bot-seconds``, ``--daily``) and the settings they make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from ... import DAILY_BOT_SECONDS
from ...seam import FeatureCommands

if TYPE_CHECKING:
    from .deals import Deal


@dataclass(frozen=True)
class DailySettings:
    """What ``unokit serve`` was told of the deal of the day: the hour (UTC) a new day begins,
    its bots' pause before each move, and the host's own deals instead of the featured ones
    (empty: the featured ones)."""

    rollover_hours: float = 0.0
    bot_seconds: float = DAILY_BOT_SECONDS
    deals: tuple[Deal, ...] = ()


def deal_list(texts: tuple[str, ...]) -> tuple[Deal, ...]:
    """The deals of ``--daily`` (each checked by the engine too); a bad one stops ``unokit serve``."""
    from ...room import RoomError, RoomSpec
    from .deals import parse_deal

    deals = []
    for text in texts:
        try:
            deal = parse_deal(text)
            RoomSpec.build(deal.variant, deal.players, deal.options, None)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--daily") from None
        except RoomError as exc:
            raise click.BadParameter(f"{text!r}: {exc.message}", param_hint="--daily") from None
        deals.append(deal)
    if len({deal.key for deal in deals}) != len(deals):
        raise click.BadParameter("two deals are the same", param_hint="--daily")
    return tuple(deals)


def _settings(values: Mapping[str, Any]) -> DailySettings:
    return DailySettings(values["daily_rollover_hours"], values["daily_bot_seconds"], deal_list(values["daily_deals"]))


COMMANDS = FeatureCommands(
    serve_options=(
        click.Option(
            ["--daily-rollover", "daily_rollover_hours"],
            default=0.0,
            show_default=True,
            type=click.FloatRange(0, 24, max_open=True),
            help="the hour (UTC) at which the deal of the day changes",
        ),
        click.Option(
            ["--daily-bot-seconds"],
            default=DAILY_BOT_SECONDS,
            show_default=True,
            type=click.FloatRange(0, 10),
            help="how long the bots of a deal of the day pause before each move",
        ),
        click.Option(
            ["--daily", "daily_deals"],
            multiple=True,
            metavar="VARIANT:PLAYERS:BOTS[:OPTION=VALUE,...]",
            help="a deal of the day instead of the featured ones (repeat for several)",
        ),
    ),
    settings=_settings,
)

__all__ = ["COMMANDS", "DailySettings", "deal_list"]
