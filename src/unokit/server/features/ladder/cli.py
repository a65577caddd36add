"""``unokit ladder``: put a bot on a server's public bot ladder (``docs/research.md``, "The bot
ladder") and read its standings."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ....clickopts import read_token_file, require_extra, server_url
from ....core.rng import Rng
from ...seam import FeatureCommands

if TYPE_CHECKING:
    from ...admin import Target

#: The bots ``--bot`` names besides ``external:COMMAND``: each decides from the server's
#: observation alone.
SIMPLE_BOTS = ("first", "random")


def _chooser(spec: str, seed: int) -> tuple[Callable[[dict[str, Any]], str], Callable[[int], None] | None, Any]:
    """The decision function of ``--bot SPEC``, the hook told of each new table, and what to
    close at the end; raise :class:`click.BadParameter` for an unknown spec."""
    if spec == "first":
        from ...client import first_legal

        return first_legal, None, None
    if spec == "random":
        rng = Rng(seed)
        return (lambda observation: str(rng.choice(observation["legal_actions"]))), None, None
    if spec.startswith("external:"):
        from ....bots.external import ExternalBot

        try:
            bot = ExternalBot(seed, spec[len("external:") :], time_limit=10.0)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bot") from None
        return bot.act_on, bot.reset, bot
    raise click.BadParameter(
        f"{spec!r} is not a ladder bot: use {', '.join(SIMPLE_BOTS)} or external:COMMAND (the unokit-bot/1 protocol)",
        param_hint="--bot",
    )


@click.group()
def ladder() -> None:
    """The public bot ladder of a unokit server: rated, seeded tables of bots, around the clock."""


@ladder.command()
@click.argument("url", callback=server_url)
@click.option("--name", required=True, help="the bot's name on the ladder (the host made its token for it)")
@click.option(
    "--token-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    required=True,
    help="the file holding the bot's ladder token (unokit admin ladder-token NAME)",
)
@click.option("--bot", "spec", default="external:", help="first, random or external:COMMAND (unokit-bot/1)")
@click.option("--variant", default="classic", show_default=True)
@click.option("--players", type=click.IntRange(2, 10), default=2, show_default=True)
@click.option("--tables", type=click.IntRange(1, None), default=None, help="stop after this many (default: never)")
@click.option("--seed", type=int, default=0, show_default=True, help="the bot's own random seed")
def join(
    url: str, name: str, token_file: Path, spec: str, variant: str, players: int, tables: int | None, seed: int
) -> None:
    """Play ladder tables at the server URL as the bot NAME, one after another."""
    require_extra("ladder join", "server", ["websockets"])
    from ...client import NotUnokitError, ServerError, ladder_play

    token = read_token_file(token_file, "the ladder token", "--token-file")
    choose, on_sit, closing = _chooser(spec, seed)

    def told(final: dict[str, Any]) -> None:
        observation = final.get("observation") or {}
        won = observation.get("seat") in (observation.get("winners") or [])
        click.echo(f"a table is over: {'won' if won else 'lost'}")

    try:
        played = asyncio.run(
            ladder_play(
                url,
                name,
                token,
                choose,
                variant=variant,
                players=players,
                tables=tables,
                on_sit=on_sit,
                on_table=told,
            )
        )
    except (ServerError, NotUnokitError, OSError) as exc:
        raise _server_trouble(url, exc) from None
    except KeyboardInterrupt:
        played = 0
    finally:
        if closing is not None:
            closing.close()
    click.echo(f"{played} tables played")


def _server_trouble(url: str, exc: Exception) -> click.ClickException:
    """The one line that says why talking to the server at ``url`` failed."""
    from ...client import ServerError

    if isinstance(exc, ServerError) and exc.code == "disconnected":
        return click.ClickException(f"lost the connection to {url} and could not get it back: {exc}")
    if isinstance(exc, ServerError):
        return click.ClickException(f"the server refused: {exc}")
    if isinstance(exc, OSError):
        return click.ClickException(f"cannot reach {url}: {exc}")
    return click.ClickException(str(exc))


@ladder.command()
@click.argument("url", callback=server_url)
@click.option("--variant", default="classic", show_default=True)
@click.option("--players", type=click.IntRange(2, 10), default=2, show_default=True)
def standings(url: str, variant: str, players: int) -> None:
    """Print the ladder's standings of VARIANT at tables of PLAYERS at the server URL."""
    from ...client import NotUnokitError, ServerError, ladder_standings

    try:
        places = ladder_standings(url, variant, players)
    except (ServerError, NotUnokitError, OSError) as exc:
        raise _server_trouble(url, exc) from None
    for place in places:
        click.echo(f"{place['place']:>3}  {place['name']:<24} {place['rating']:>7.2f}  {place['games']} games")


@click.command("ladder-token")
@click.argument("name")
@click.pass_obj
def ladder_token(target: Target, name: str) -> None:
    """Print the bot ladder's token of the bot NAME (docs/research.md, "The bot ladder"): give it
    to the bot's author, who connects with `unokit ladder join URL --name NAME --token-file FILE`.
    The token is made from the server's secret and the name, so the same name always gets the
    same token; it is printed, never stored."""
    from ...room import RoomError
    from ...vault import secret
    from . import bots

    if target.database is None:
        raise click.UsageError("ladder-token reads the server's secret from its database: --database URL")
    try:
        checked = bots.check_bot_name(name)
    except RoomError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from None
    click.echo(bots.bot_token(secret(target.store(), bots.SECRET_NAME), checked))


#: The ladder's ``unokit admin`` command (``unokit ladder`` itself is a command of its own).
COMMANDS = FeatureCommands(admin=(ladder_token,))

__all__ = ["COMMANDS", "ladder"]
