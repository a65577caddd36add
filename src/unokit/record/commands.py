"""``unokit replay FILE`` and ``unokit verify FILE``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .format import GameRecord, RecordError, load_record
from .replay import Replay
from .replay import verify as verify_record


def _load(path: Path) -> GameRecord:
    try:
        return load_record(path)
    except (RecordError, OSError) as exc:
        raise click.ClickException(f"{path}: {exc}") from None


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seat", type=int, default=None, help="view the table as this seat (default: omniscient)")
@click.option("--step", type=int, default=None, help="start at this step (default: 0; with --print: the end)")
@click.option("--print", "print_", is_flag=True, help="print the table at --step and exit (no interactive viewer)")
@click.option("--log", is_flag=True, help="with --print: also print every action up to --step, in words")
@click.option("--any-version", is_flag=True, help="replay a record of an incompatible unokit version anyway")
def replay(file: Path, seat: int | None, step: int | None, print_: bool, log: bool, any_version: bool) -> None:
    """Step through a game record, forward and back, as any seat or seeing everything.

    Keys in the viewer: right/left step, PgDn/PgUp ten steps, Home/End, n/p next/previous
    round, 0-9 view as that seat, o omniscient, q quit.
    """
    record = _load(file)
    if seat is not None and not 0 <= seat < record.players:
        raise click.BadParameter(f"seats are 0 to {record.players - 1}", param_hint="--seat")
    try:
        game_replay = Replay(record, check_version=not any_version)
    except RecordError as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    last = len(game_replay)
    if step is not None and not 0 <= step <= last:
        raise click.BadParameter(f"steps are 0 to {last}", param_hint="--step")
    if print_:
        from .render import render_log, render_step

        at = last if step is None else step
        if log:
            click.echo("\n".join(render_log(game_replay, at, seat)))
            click.echo("")
        click.echo("\n".join(render_step(game_replay, at, seat)))
        return
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise click.UsageError("the viewer needs a terminal; use --print to print a step instead")
    try:
        from .viewer import ReplayApp
    except ImportError as exc:  # the optional 'play' extra (textual) is missing
        raise click.ClickException(f"the replay viewer needs textual ({exc}); use --print") from None
    ReplayApp(game_replay, seat, step or 0).run()


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--any-version", is_flag=True, help="try records of an incompatible unokit version anyway")
def verify(files: tuple[Path, ...], any_version: bool) -> None:
    """Replay game records and say whether each reproduces (exit code 0 when all do, else 1)."""
    failed = False
    for path in files:
        try:
            record = load_record(path)
        except (RecordError, OSError) as exc:
            click.echo(f"{path}: cannot be read: {exc}", err=True)
            failed = True
            continue
        verdict = verify_record(record, check_version=not any_version)
        click.echo(f"{path}: {verdict.message}", err=not verdict.ok)
        failed = failed or not verdict.ok
    sys.exit(1 if failed else 0)
