"""The ratings' ``unokit admin`` commands (``docs/ratings.md``, "Signals for the operator"):
``suspicious`` (what may be a rating farmed or shared), ``annul ROOM GAME`` and
``reset-rating IDENTITY``; on the database, or through a running server with the admin token,
as every admin command. A refusal is one line (:class:`click.ClickException`), never a
traceback."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from ....clickopts import local_time
from ...seam import FeatureCommands

if TYPE_CHECKING:
    from ...admin import Target


def _who(person: dict[str, Any]) -> str:
    """An identity as a list shows it: its name and the first 12 characters of its hash."""
    return f"{person['name']} ({person['player'][:12]})"


def _local(target: Target, work: str, *args: Any) -> dict[str, Any]:
    """``signals.WORK(store, *args)`` on the target's database; its refusal as one line."""
    from ...room import RoomError
    from . import signals

    try:
        done: dict[str, Any] = getattr(signals, work)(target.store(), *args)
    except RoomError as exc:
        raise click.ClickException(exc.message) from None
    return done


@click.command()
@click.option("--json", "as_json", is_flag=True, help="one JSON document, for scripts (full identity hashes)")
@click.pass_obj
def suspicious(target: Target, as_json: bool) -> None:
    """What may be a rating farmed or shared, in the rated games of the last 30 days: pairs of
    rated identities that often play together with one of them nearly always winning;
    identities seen from one address (a mark of it) in different games; and games a stand-in
    mostly played. A list to look at, not a verdict."""
    if target.server is not None:
        found = json.loads(target.call("GET", "/api/admin/suspicious"))
    else:
        found = _local(target, "suspicious")
    if as_json:
        click.echo(json.dumps(found, indent=2, ensure_ascii=False))
        return
    limits = found["thresholds"]
    click.echo(
        f"Pairs: {limits['pair_games']}+ rated games together in {limits['days']:g} days, "
        f"one winning {limits['pair_share']:.0%}+ of them"
    )
    for pair in found["pairs"]:
        click.echo(
            f"  {_who(pair['winner'])} beat {_who(pair['loser'])}: "
            f"{pair['won']} of {pair['games']} games ({pair['share']:.0%}); the other won {pair['lost']}"
        )
    click.echo(f"{len(found['pairs'])} pairs")
    click.echo("Identities seen from one address in rated games (a mark of it, never the address)")
    for seen in found["addresses"]:
        people = ", ".join(f"{_who(person)} {person['games']} games" for person in seen["identities"])
        click.echo(f"  address {seen['mark'][:12]}: {people}")
    click.echo(f"{len(found['addresses'])} addresses")
    click.echo(f"Rated games a stand-in mostly played (over {limits['standin_share']:.0%} of the seat's moves)")
    for game in found["standins"]:
        click.echo(
            f"  room {game['room']} game {game['game']} {local_time(game['at'])} {game['variant']}-{game['players']}: "
            f"{_who(game)} {game['standins']} of {game['moves']} moves by the stand-in, "
            f"{'won' if game['won'] else 'lost'}"
        )
    click.echo(f"{len(found['standins'])} games")


def _room(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if not (0 < len(value) <= 16 and value.isascii() and value.isalnum()):
        raise click.BadParameter(f"{value!r} is not a room's code")
    return value.upper()


@click.command()
@click.argument("room", callback=_room)
@click.argument("game", type=click.IntRange(1, 2**31 - 1))
@click.pass_obj
def annul(target: Target, room: str, game: int) -> None:
    """Annul rated game GAME of room ROOM: each of its rated players' rating moves back by that
    game's change, counts one game less and no longer counts an opponent met only there; their
    history keeps the game, marked annulled, and the game's record says so."""
    body = {"room": room, "game": game}
    if target.server is not None:
        done = json.loads(target.call("POST", "/api/admin/annul", body))
    else:
        done = _local(target, "annul", room, game)
    for player in done["players"]:
        now = "left as it was (reset since)" if player["mu"] is None else f"mu {player['mu']} sigma {player['sigma']}"
        click.echo(f"  {_who(player)} {player['variant']}-{player['players']}: {now}, {player['games']} games")
    click.echo(f"game {game} of room {room} annulled for {len(done['players'])} rated players")


def _identity(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    from .signals import is_identity

    if not is_identity(value):
        raise click.BadParameter(f"{value[:70]!r} is not an identity's hash (suspicious --json lists them whole)")
    return value


@click.command("reset-rating")
@click.argument("identity", callback=_identity)
@click.option("--variant", default=None, help="only the rating of this variant")
@click.option("--players", type=click.IntRange(2, 10), default=None, help="only the rating at tables of this size")
@click.pass_obj
def reset_rating(target: Target, identity: str, variant: str | None, players: int | None) -> None:
    """Put the ratings of IDENTITY (a rated identity's whole hash) back to a new player's: all
    of them, or those of --variant and --players. Its owner's My games says when the operator
    reset it."""
    if target.server is not None:
        body: dict[str, Any] = {"player": identity, "variant": variant, "players": players}
        done = json.loads(
            target.call("POST", "/api/admin/reset-rating", {k: v for k, v in body.items() if v is not None})
        )
    else:
        done = _local(target, "reset_rating", identity, variant, players)
    which = ", ".join(f"{r['variant']}-{r['players']}" for r in done["reset"])
    click.echo(f"{_who(done)}: {len(done['reset'])} ratings reset to a new player's ({which})")


COMMANDS = FeatureCommands(admin=(suspicious, annul, reset_rating))

__all__ = ["COMMANDS"]
