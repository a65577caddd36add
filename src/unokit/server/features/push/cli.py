"""Web Push on the command line: its ``unokit serve`` options (``--no-push``, ``--push-service``,
``--push-away``, ``--push-contact``), the settings they make, and ``unokit admin push-key``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from ....clickopts import local_time
from ... import AWAY_SECONDS
from ...seam import FeatureCommands

if TYPE_CHECKING:
    from ...admin import Target


@dataclass(frozen=True)
class PushSettings:
    """What ``unokit serve`` was told of Web Push: the origins the host adds to the browsers'
    push services, how long a player is away before "your turn" is sent, and the contact its
    messages name (RFC 8292 ``sub``; ``None``: :meth:`contact_for` chooses)."""

    services: tuple[str, ...] = ()
    away: float = AWAY_SECONDS
    contact: str | None = None

    def contact_for(self, public_url: str | None) -> str:
        """Who the push services may write to about this server's messages: ``--push-contact``,
        else an ``https://`` public URL, else a placeholder address."""
        if self.contact:
            return self.contact
        if public_url and public_url.startswith("https://"):
            return public_url.rstrip("/")
        return "mailto:unokit@localhost"


def _services(values: tuple[str, ...]) -> tuple[str, ...]:
    """``--push-service`` origins, each checked (:class:`~.keys.ServiceOrigin`)."""
    from .keys import ServiceOrigin

    for value in values:
        try:
            ServiceOrigin.parse(value, named=True)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--push-service") from None
    return values


def _contact(value: str | None) -> str | None:
    """``--push-contact``: a ``mailto:`` address or an ``https://`` address (RFC 8292 ``sub``)."""
    if value is None:
        return None
    mail = value.startswith("mailto:") and "@" in value and " " not in value
    site = value.startswith("https://") and len(value) > len("https://") and " " not in value
    if not (mail or site):
        raise click.BadParameter(f"{value!r} is not a mailto: or https:// address", param_hint="--push-contact")
    return value.rstrip("/")


def _settings(values: Mapping[str, Any]) -> PushSettings:
    return PushSettings(_services(values["push_services"]), values["push_away"], _contact(values["push_contact"]))


@click.command("push-key")
@click.option(
    "--rotate",
    is_flag=True,
    help="make a new key pair and delete the old one with every subscription made for it",
)
@click.pass_obj
def push_key(target: Target, rotate: bool) -> None:
    """The public key the server signs its notifications with (Web Push's VAPID key pair, kept
    in the database; the private key is never shown) and when it was made. With --rotate, a new
    pair: the subscriptions made for the old one are deleted, and each player's page subscribes
    again by itself when it is next opened (every process of a cluster uses the new key within
    30 seconds)."""
    if target.server is not None:
        done = json.loads(target.call("POST" if rotate else "GET", "/api/admin/push-key", {} if rotate else None))
    else:
        from . import keys

        store = target.store()
        if rotate:
            key, dropped = keys.rotate_key(store)
            done = {"key": key.public_key, "created_at": key.created_at, "dropped": dropped}
        else:
            found = keys.current_key(store)
            if found is None:
                raise click.ClickException(
                    "no key pair yet: the server makes one at its first start (without --no-push)"
                )
            done = {"key": found.public_key, "created_at": found.created_at}
    click.echo(f"public key {done['key']} (made {local_time(done['created_at'])})")
    if rotate:
        click.echo(f"{done['dropped']} subscriptions of the old key deleted; pages subscribe again when next opened")


COMMANDS = FeatureCommands(
    serve_options=(
        click.Option(
            ["--no-push"],
            is_flag=True,
            help="send no notifications to players whose page is closed (Web Push; on by default): --without push",
        ),
        click.Option(
            ["--push-service", "push_services"],
            multiple=True,
            metavar="ORIGIN",
            help="another push service the server may post notifications to, besides the browsers' own "
            "(https://push.example.org, https://*.example.org, or http://127.0.0.1:PORT for tests); repeatable",
        ),
        click.Option(
            ["--push-away"],
            default=AWAY_SECONDS,
            show_default=True,
            type=click.FloatRange(0.1, 3600),
            metavar="SECONDS",
            help="how long a player has been away from the table before they are told it is their turn",
        ),
        click.Option(
            ["--push-contact"],
            default=None,
            help="who push services may write to about this server (mailto:you@example.org or https://...)  "
            "[default: --public-url when https, else mailto:unokit@localhost]",
        ),
    ),
    settings=_settings,
    turned_off=lambda values: bool(values["no_push"]),
    admin=(push_key,),
)

__all__ = ["COMMANDS", "PushSettings"]
