"""The ``unokit dataset`` command (extra ``dataset``)."""

from __future__ import annotations

from pathlib import Path

import click

from ..clickopts import VARIANT_HELP, output_folder, parse_option_pairs
from ..core.errors import UnokitError
from ..sim.commands import _progress
from ..sim.runner import MAX_WORKERS
from .builder import DEFAULT_ITERATIONS, DEFAULT_SHARD_HANDS, DatasetConfig, DatasetError, build


@click.command()
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--variant", default="classic", show_default=True, help=VARIANT_HELP)
@click.option("--players", default=2, show_default=True, type=int)
@click.option("--hands", default=10_000, show_default=True, type=int, help="hands to play")
@click.option("--seed", default=1, show_default=True, type=int, help="the same seed gives the same dataset")
@click.option(
    "--iterations",
    default=DEFAULT_ITERATIONS,
    show_default=True,
    type=int,
    help="the expert's search iterations per decision (ismcts_fast)",
)
@click.option("--shard-hands", default=DEFAULT_SHARD_HANDS, show_default=True, type=int, help="hands per shard")
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, MAX_WORKERS),
    help="processes that build shards at once (never more than shards to build)",
)
@click.option(
    "--play",
    default=None,
    metavar="BOT",
    help="a bot that plays the hands while the expert labels every decision (e.g. policy:agent.onnx)",
)
@click.option("--option", "option", multiple=True, metavar="NAME=VALUE", help="a rule option; repeatable")
@click.option("--resume", is_flag=True, help="keep the shards an interrupted build of the same settings left in OUT")
@click.option("--progress/--no-progress", default=True, show_default=True, help="show a progress bar")
def dataset(
    out: Path,
    variant: str,
    players: int,
    hands: int,
    seed: int,
    iterations: int,
    shard_hands: int,
    workers: int,
    play: str | None,
    option: tuple[str, ...],
    resume: bool,
    progress: bool,
) -> None:
    """Play expert hands and write them to OUT as unokit records and Parquet training tables
    (observation, legal mask, action, the search's visits, outcome); see docs/research.md."""
    config = DatasetConfig(
        variant, players, hands, seed, iterations, shard_hands, play, dict(parse_option_pairs(option))
    )
    try:
        config.validate()
    except (ValueError, UnokitError) as exc:
        raise click.UsageError(str(exc)) from None
    output_folder(out, "OUT")
    done = 0
    with _progress(progress, hands, "hands") as update:

        def report(count: int) -> None:
            nonlocal done
            done += count
            update(done)

        try:
            manifest = build(config, out, workers, report, resume)
        except DatasetError as exc:
            raise click.UsageError(str(exc)) from None
        except OSError as exc:  # the disk filled up, the folder went away
            raise click.ClickException(f"cannot write the dataset in {out}: {exc.strerror or exc}") from None
    click.echo(f"{manifest['hands']} hands, {manifest['rows']} decisions, {len(manifest['shards'])} shards in {out}")
