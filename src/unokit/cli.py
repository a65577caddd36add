"""The ``unokit`` command. Subcommands of outer layers load lazily, so a missing optional
extra only affects its own subcommand."""

from __future__ import annotations

from importlib import import_module

import click
from click.core import ParameterSource

from . import Game, __version__, redact
from .clickopts import VARIANT_HELP, lang_option, options_in_words, parse_option_pairs
from .core.errors import UnokitError
from .core.rng import Rng
from .i18n.lines import words
from .narration import Narrator, action_line

#: Subcommands defined in other modules, as "module:attribute" (loaded on first use).
LAZY_COMMANDS: dict[str, str] = {
    "play": "unokit.play.commands:play",
    "replay": "unokit.play.commands:replay",
    "verify": "unokit.record.commands:verify",
    "review": "unokit.review.commands:review",
    "score": "unokit.play.scorekeeper:score",
    "table": "unokit.play.scorekeeper:table",
    "sim": "unokit.sim.commands:sim",
    "tournament": "unokit.sim.commands:tournament",
    "serve": "unokit.server.commands:serve",
    "web-export": "unokit.server.commands:web_export",
    "admin": "unokit.server.admin:admin",
    "ladder": "unokit.server.features.ladder.cli:ladder",
    "dataset": "unokit.dataset.commands:dataset",
    "eval": "unokit.eval.commands:eval_command",
    "compile": "unokit.review.compiling:compile_command",
}


class LazyGroup(click.Group):
    """A group whose listed subcommands are imported only when used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._available()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in LAZY_COMMANDS:
            return command
        module_name, _, attribute = LAZY_COMMANDS[cmd_name].partition(":")
        try:
            module = import_module(module_name)
        except ImportError as exc:
            raise click.UsageError(f"'unokit {cmd_name}' is not available: {exc}") from None
        loaded: click.Command = getattr(module, attribute)
        return loaded

    @staticmethod
    def _available() -> list[str]:
        names = []
        for name, target in LAZY_COMMANDS.items():
            try:
                import_module(target.partition(":")[0])
            except ImportError:
                continue
            names.append(name)
        return names


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="unokit")
def main() -> None:
    """unokit: Classic UNO, UNO Flip, UNO Attack, UNO Flip Attack and the themed UNO Flip editions."""


@main.command()
@click.option("--variant", default="classic", show_default=True, help=VARIANT_HELP)
@click.option("--players", default=4, show_default=True, type=int)
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--option", "option", multiple=True, metavar="NAME=VALUE", help="a rule option; repeatable")
@click.option(
    "--rounds",
    default="1",
    show_default=True,
    help="rounds to play, or 'none' for the whole game (to the target score); same as --option rounds=N",
)
@lang_option
def demo(variant: str, players: int, seed: int, option: tuple[str, ...], rounds: str) -> None:
    """Print a game between random players, turn by turn, with every card shown."""
    options: dict[str, object] = dict(parse_option_pairs(option))
    given = click.get_current_context().get_parameter_source("rounds") is not ParameterSource.DEFAULT
    if given and "rounds" in options and str(options["rounds"]).strip().lower() != rounds.strip().lower():
        given_rounds = f"--option rounds={options['rounds']}"
        raise click.UsageError(words().t("cli.rounds_disagree", value=f"--rounds {rounds}", detail=given_rounds))
    options.setdefault("rounds", rounds)
    w = words()
    try:
        game, setup = Game.new(variant, players, seed, **options)
    except UnokitError as exc:
        raise click.UsageError(w.error(exc)) from None
    chooser = Rng(seed ^ 0x5EED)
    click.echo(
        w.t(
            "cli.demo_header",
            variant=game.variant,
            count=players,
            seed=seed,
            options=options_in_words(game.options.as_dict(game.rules)),
        )
    )
    narrator = Narrator(0, game.rules.double_sided)
    for line in narrator.lines(redact(setup, None)):
        click.echo(w.say(line))
    while not game.is_over:
        actor = game.to_act
        assert actor is not None
        action = chooser.choice(game.legal_actions())
        round_number = game.round_number
        said = w.say(action_line(game, action.text, actor))
        try:
            events = game.apply(action)
        except UnokitError as exc:  # e.g. a scripted launcher that has run out
            stopped = w.t("cli.demo_stopped", player=actor, action=said, error=w.error(exc))
            raise click.ClickException(stopped) from None
        click.echo(f"  [{round_number}] {w.t('cli.demo_action', player=actor, action=said)}")
        for line in narrator.lines(events):
            click.echo(f"      {w.say(line)}")
