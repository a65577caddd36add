"""The arenas' ``unokit admin arena`` commands (``docs/arena.md``): ``create``, ``list`` and
``cancel``, on the database or through a running server with the admin token
(``/api/admin/arenas``), as every admin command. A refusal is one line, never a traceback."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import click

from ....clickopts import local_time
from ...seam import FeatureCommands

if TYPE_CHECKING:
    from ...admin import Target


def _show(arena: dict[str, Any]) -> str:
    return (
        f"{arena['id']}  {arena['status']:<9}  {local_time(arena['starts'])} to {local_time(arena['ends'])}  "
        f"{arena['variant']}-{arena['players']}  bots {arena['bot_level']} after {arena['bot_wait']:g} s  "
        f"{arena['name']}"
    )


def _local(work: str, target: Target, *args: Any) -> dict[str, Any]:
    """``rows.WORK(store, *args)`` on the target's database, as JSON; a refusal as one line."""
    from ...room import RoomError
    from . import rows

    now = time.time()
    try:
        store = target.store()
        if work == "create":
            arena = rows.create(store, rows.new_arena(args[0], now))
            return arena.to_json(now)
        if work == "cancel":
            return rows.cancel(store, rows.check_id(args[0]), now).to_json(now)
        return {"arenas": rows.listed_json(store, now, every=True)}
    except RoomError as exc:
        raise click.ClickException(exc.message) from None


@click.group()
def arena() -> None:
    """Schedule, list and cancel arenas (docs/arena.md)."""


@arena.command()
@click.argument("name")
@click.option("--variant", default="classic", show_default=True, help="the variant its tables play")
@click.option("--players", type=click.IntRange(2, 10), default=2, show_default=True, help="seats a table")
@click.option("--minutes", type=click.IntRange(5, 24 * 60), default=60, show_default=True, help="how long it runs")
@click.option(
    "--starts-in", type=click.IntRange(0, 365 * 24 * 60), default=0, show_default=True, help="minutes from now"
)
@click.option("--bot-level", default="normal", show_default=True, help="the level of the bots that fill a table")
@click.option(
    "--bot-wait", type=click.FloatRange(0, 600), default=20.0, show_default=True, help="seconds before bots fill"
)
@click.pass_obj
def create(
    target: Target,
    name: str,
    variant: str,
    players: int,
    minutes: int,
    starts_in: int,
    bot_level: str,
    bot_wait: float,
) -> None:
    """Schedule the arena NAME: from now (or --starts-in minutes) for --minutes."""
    body = {
        "name": name,
        "variant": variant,
        "players": players,
        "minutes": minutes,
        "starts": time.time() + 60.0 * starts_in,
        "bot_level": bot_level,
        "bot_wait": bot_wait,
    }
    if target.server is not None:
        made = json.loads(target.call("POST", "/api/admin/arenas", body))
    else:
        made = _local("create", target, body)
    click.echo(_show(made))


@arena.command("list")
@click.option("--json", "as_json", is_flag=True, help="one JSON document, for scripts")
@click.pass_obj
def list_arenas(target: Target, as_json: bool) -> None:
    """Every arena, the cancelled too, the soonest first."""
    remote = target.server is not None
    found = json.loads(target.call("GET", "/api/admin/arenas")) if remote else _local("list", target)
    if as_json:
        click.echo(json.dumps(found, indent=2, ensure_ascii=False))
        return
    for one in found["arenas"]:
        click.echo(_show(one))
    click.echo(f"{len(found['arenas'])} arenas")


def _ident(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if not (0 < len(value) <= 16 and value.isascii() and value.isalnum() and value == value.lower()):
        raise click.BadParameter(f"{value[:40]!r} is not an arena's id (arena list shows them)")
    return value


@arena.command()
@click.argument("ident", metavar="ID", callback=_ident)
@click.pass_obj
def cancel(target: Target, ident: str) -> None:
    """Cancel the arena ID: it seats nobody more, and its games no longer count."""
    if target.server is not None:
        done = json.loads(target.call("POST", f"/api/admin/arenas/{ident}/cancel", {}))
    else:
        done = _local("cancel", target, ident)
    click.echo(_show(done))


COMMANDS = FeatureCommands(admin=(arena,))

__all__ = ["COMMANDS"]
