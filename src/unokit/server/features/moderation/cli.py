"""The moderation's ``unokit admin`` commands: players' reports, and the bans (on the database,
or through a running server with the admin token, as every admin command)."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import click

from ....clickopts import local_time
from ...seam import FeatureCommands

if TYPE_CHECKING:
    from ...admin import Target

#: The largest ban number (a database's 64-bit row id).
MAX_ROW_ID = 2**63 - 1


def _short(value: str | None) -> str:
    """An identity hash as a list shows it (its first 12 characters; ``-`` for none)."""
    return "-" if not value else value[:12]


@click.command()
@click.option("--room", default=None, help="only this room's reports")
@click.option("--json", "as_json", is_flag=True, help="one JSON document, for scripts (full identity hashes)")
@click.pass_obj
def reports(target: Target, room: str | None, as_json: bool) -> None:
    """Players' reports, newest first: what was reported (a chat line, a name, a player's
    conduct), in which room, the identities of who reported and who was reported, and the
    chat lines around it."""
    code = room.upper() if room else None
    if code is not None and not (len(code) <= 16 and code.isalnum()):
        raise click.BadParameter(f"{room!r} is not a room's code", param_hint="--room")
    if target.server is not None:
        found = json.loads(target.call("GET", "/api/admin/reports" + (f"?room={code}" if code else "")))["reports"]
    else:
        from . import rows

        found = rows.reports_list(target.store(), 500, code)
    if as_json:
        click.echo(json.dumps({"reports": found}, indent=2, ensure_ascii=False))
        return
    for report in found:
        click.echo(
            f"#{report['id']} {local_time(report['at'])} room {report['room']} {report['kind']}: "
            f"{report['name'] or '-'} (identity {_short(report['reported'])}), "
            f"reported by {_short(report['reporter'])}"
        )
        for line in report["lines"]:
            said = line.get("text") if "text" in line else f"[{line.get('reaction')}]"
            where = "" if line.get("seat") is not None else " (watching)"
            click.echo(f"    {line.get('n', '?'):>5} {line.get('name') or '-'}{where}: {said}")
    click.echo(f"{len(found)} reports")


def _ban_request(identity: str | None, address: str | None, hours: float | None, reason: str | None) -> dict[str, Any]:
    if (identity is None) == (address is None):
        raise click.UsageError("ban one: --identity HASH (as reports show it) or --address ADDRESS[/BITS]")
    kind, value = ("identity", identity) if identity is not None else ("address", address)
    return {"kind": kind, "value": value, "hours": hours, "reason": reason}


@click.command()
@click.option("--identity", default=None, help="a player identity's hash (reports list them; --json in full)")
@click.option("--address", default=None, metavar="ADDRESS[/BITS]", help="an address or a network")
@click.option("--hours", type=click.FloatRange(0.001, 1e6), default=None, help="how long  [default: for good]")
@click.option("--reason", default=None, help="a note for the list of bans")
@click.pass_obj
def ban(target: Target, identity: str | None, address: str | None, hours: float | None, reason: str | None) -> None:
    """Ban an identity or an address from public rooms and chat, on every process of the
    server (within seconds): they can neither join a public room nor write in any chat, and
    their connections to public rooms end."""
    body = _ban_request(identity, address, hours, reason)
    if target.server is not None:
        done = json.loads(target.call("POST", "/api/admin/bans", body))
    else:
        from ...room import RoomError
        from . import rows
        from .rules import ban_fields

        try:
            kind, value, until, why = ban_fields({k: v for k, v in body.items() if v is not None})
        except RoomError as exc:
            raise click.BadParameter(exc.message) from None
        done = {
            "ban": rows.add_ban(target.store(), kind, value, until, why),
            "kind": kind,
            "value": value,
            "until": until,
        }
    until_text = "for good" if done["until"] is None else f"until {local_time(done['until'])}"
    click.echo(f"ban #{done['ban']}: {done['kind']} {done['value']} {until_text}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="one JSON document, for scripts")
@click.pass_obj
def bans(target: Target, as_json: bool) -> None:
    """The bans in force."""
    if target.server is not None:
        found = json.loads(target.call("GET", "/api/admin/bans"))["bans"]
    else:
        from . import rows

        found = rows.bans_list(target.store(), time.time())
    if as_json:
        click.echo(json.dumps({"bans": found}, indent=2))
        return
    for item in found:
        until = "for good" if item["until"] is None else f"until {local_time(item['until'])}"
        click.echo(f"#{item['id']} {item['kind']} {item['value']} {until} {item['reason'] or ''}".rstrip())
    click.echo(f"{len(found)} bans")


@click.command()
@click.argument("number", type=click.IntRange(1, MAX_ROW_ID))
@click.pass_obj
def unban(target: Target, number: int) -> None:
    """Lift ban NUMBER (as `unokit admin bans` lists it)."""
    if target.server is not None:
        target.call("POST", f"/api/admin/bans/{number}/lift", {})
    elif not _lift(target, number):
        raise click.ClickException(f"there is no ban #{number}")
    click.echo(f"ban #{number} lifted")


def _lift(target: Target, number: int) -> bool:
    from . import rows

    return rows.lift_ban(target.store(), number)


COMMANDS = FeatureCommands(admin=(reports, ban, bans, unban))

__all__ = ["COMMANDS"]
