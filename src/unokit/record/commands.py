"""``unokit verify FILE``: does a record reproduce on this engine? (``unokit replay`` is in
:mod:`unokit.play.commands`: its viewer draws the table as the terminal game does.)"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .format import GameRecord, RecordError, load_record
from .replay import verify as verify_record


def load(path: Path) -> GameRecord:
    """Read the record at ``path``; a ``click`` error names what is wrong."""
    try:
        return load_record(path)
    except (RecordError, OSError) as exc:
        raise click.ClickException(f"{path}: {exc}") from None


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
