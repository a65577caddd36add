"""The ``unokit`` command."""

from __future__ import annotations

import click

from . import Game, __version__, redact
from .core.errors import UnokitError
from .core.rng import Rng
from .narration import describe


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"write options as name=value, not {pair!r}", param_hint="--option")
        out[key.strip()] = value.strip()
    return out


@click.group()
@click.version_option(__version__, prog_name="unokit")
def main() -> None:
    """unokit: Classic UNO, UNO Flip, UNO Attack and UNO Flip Attack."""


@main.command()
@click.option("--variant", default="classic", show_default=True, help="classic, flip, attack, flip_attack")
@click.option("--players", default=4, show_default=True, type=int)
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--option", "option", multiple=True, metavar="NAME=VALUE", help="a rule option; repeatable")
@click.option("--rounds", default=1, show_default=True, type=int, help="rounds to show (0: the whole game)")
def demo(variant: str, players: int, seed: int, option: tuple[str, ...], rounds: int) -> None:
    """Print a game between random players, turn by turn, with every card shown."""
    options: dict[str, object] = dict(_options(option))
    if rounds:
        options.setdefault("rounds", rounds)
    try:
        game, setup = Game.new(variant, players, seed, **options)
    except UnokitError as exc:
        raise click.UsageError(str(exc)) from None
    chooser = Rng(seed ^ 0x5EED)
    click.echo(f"{game.rules.title}, {players} players, seed {seed}, options {game.options.as_dict(game.rules)}")
    for event in redact(setup, None):
        line = describe(event)
        if line:
            click.echo(line)
    while not game.is_over:
        actor = game.to_act
        assert actor is not None
        action = chooser.choice(game.legal_actions())
        round_number = game.round_number
        events = game.apply(action)
        click.echo(f"  [{round_number}] seat {actor} > {action}")
        for event in events:
            line = describe(event)
            if line:
                click.echo(f"      {line}")
