"""``unokit review RECORD``: a review of one seat's game, in words, as JSON or as a graph."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import click
from click._termui_impl import ProgressBar

from ..bots.advice import DEFAULT_EFFORT, EFFORTS
from ..clickopts import lang_option, output_file, require_extra
from ..i18n import catalog
from ..record import GameRecord, RecordError
from ..record.commands import load
from .analysis import review_record
from .model import ReviewError
from .words import ReviewWords


def default_seat(record: GameRecord) -> int:
    """The seat reviewed when ``--seat`` is not given: the first person's (``human`` in the
    record: your seat in a game of ``unokit play``), else seat 0."""
    return next((s for s, seat in enumerate(record.seats) if seat.kind == "human"), 0)


def default_workers() -> int:
    """Processes sharing a review by default: the CPUs this process may use, at most 2."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(2, cpus))


@click.command()
@lang_option
@click.argument("file", metavar="RECORD", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--seat",
    type=int,
    default=None,
    help="the seat to review, counted from 0 as in the record  [default: the first person's seat, else 0]",
)
@click.option(
    "--effort",
    type=click.Choice(list(EFFORTS)),
    default=DEFAULT_EFFORT,
    show_default=True,
    help="how hard the engine looks: search iterations per choice (docs/review.md)",
)
@click.option("--seed", type=int, default=0, show_default=True, help="the searches' seed: same seed, same review")
@click.option("--json", "as_json", is_flag=True, help="print the review as JSON (unokit-review/1) instead of words")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="also draw the graph of the winning chance into this PNG file (needs the 'sim' extra: matplotlib)",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="processes sharing the searches; the review is the same with any number  [default: up to 2 CPUs]",
)
@click.option("--any-version", is_flag=True, help="review a record of an incompatible unokit version anyway")
def review(
    file: Path,
    seat: int | None,
    effort: str,
    seed: int,
    as_json: bool,
    plot: Path | None,
    workers: int | None,
    any_version: bool,
) -> None:
    """Review one seat's game in a record: for each of its decisions the chance to win the hand
    (and the game, where rounds are scored) after every choice it had, computed from what that
    seat knew then (its cards, what was played, and a belief over the rest; never the hidden
    hands or the order of the draw pile), the choice made and the best one, each decision
    marked good, inaccuracy (5 points of winning chance lost), mistake (10) or blunder (20);
    the key moments (the largest swings: decisions, the luck of the draw, the other players'
    moves) and a graph of the winning chance over the game. The same record, effort and seed
    always give the same review. Progress goes to standard error.
    """
    record = load(file)
    if seat is None:
        seat = default_seat(record)
    if not 0 <= seat < record.players:
        raise click.BadParameter(catalog().t("cli.seats_range", high=record.players - 1), param_hint="--seat")
    if plot is not None:
        require_extra("review --plot", "sim", ["matplotlib"])
        output_file(plot, "--plot")
    words = catalog()
    count = workers or default_workers()
    try:
        if sys.stderr.isatty():
            with click.progressbar(
                length=1, label=words.t("review.progress"), file=sys.stderr, width=max(10, _width() - 40)
            ) as bar:
                result = review_record(
                    record, seat, effort, seed, workers=count, progress=_advance(bar), check_version=not any_version
                )
        else:
            result = review_record(record, seat, effort, seed, workers=count, check_version=not any_version)
    except (RecordError, ReviewError) as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    else:
        click.echo("\n".join(ReviewWords(result).lines(min(_width(), 100))))
    if plot is not None:
        from .plot import plot_review

        try:
            saved = plot_review(result, plot)
        except OSError as exc:
            raise click.ClickException(f"{plot}: {exc.strerror or exc}") from None
        click.echo(words.t("review.plot_saved", path=str(saved)), err=as_json)


def _advance(bar: ProgressBar[int]) -> Callable[[int, int], None]:
    """A progress callback of :func:`review_record` that moves ``bar``."""
    done = [0]

    def progress(now: int, total: int) -> None:
        bar.length = max(total, 1)
        bar.update(now - done[0])
        done[0] = now

    return progress


def _width() -> int:
    return shutil.get_terminal_size((80, 24)).columns
