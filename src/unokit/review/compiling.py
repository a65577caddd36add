"""``unokit compile``: compile the kernels into numba's on-disk cache once, after an install or
an upgrade, so that no bot move, hint or review compiles them on a player's ask
(:mod:`unokit.review.warm`, ``docs/fast.md``, "Compiling ahead")."""

from __future__ import annotations

import time

import click

from .warm import compile_kernels


@click.command(name="compile")
def compile_command() -> None:
    """Compile the fast engine's searches into numba's cache (once after an install or an
    upgrade: minutes on a small machine; about a second when the cache is there)."""
    started = time.perf_counter()
    tables = compile_kernels(lambda table: click.echo(f"compiling the searches of {table}", err=True))
    click.echo(f"compiled ({', '.join(tables)}) in {time.perf_counter() - started:.1f} s", err=True)


__all__ = ["compile_command"]
