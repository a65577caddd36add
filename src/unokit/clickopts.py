"""Command-line helpers shared by every ``unokit`` subcommand (click only, no game logic)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from importlib.util import find_spec
from pathlib import Path
from typing import Any, TypeVar

import click

from . import files, i18n
from .core import variants
from .core.errors import UnokitError
from .i18n.lines import words

#: The help text of every ``--variant`` option: the names the engine knows, themed editions included.
VARIANT_HELP = ", ".join(variants.VARIANT_NAMES)

F = TypeVar("F", bound=Callable[..., Any])


def _use_language(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str:
    return i18n.use(i18n.resolve(value))


def lang_option(function: F) -> F:
    """The ``--lang CODE`` option of the commands players use: their output (and the terminal
    game) speaks that language, else the one ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``
    names; anything unknown is English (docs/i18n.md). It sets the language before the
    command's other options are read."""
    option = click.option(
        "--lang",
        metavar="CODE",
        default=None,
        is_eager=True,
        expose_value=False,
        callback=_use_language,
        help=f"the language of the output: {', '.join(i18n.LANGUAGES)} (default: from LANG and the like)",
    )
    return option(function)


def deck_option(function: F) -> F:
    """The ``--deck FILE`` option (a parameter ``deck: Path | None``): play with the cards of
    one's own copy; :func:`with_deck` turns it into the ``deck`` rule option."""
    option = click.option(
        "--deck",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=None,
        help="a deck file: play with the cards of your own copy (docs/formats.md)",
    )
    return option(function)


def with_deck(pairs: tuple[str, ...], deck: Path | None) -> tuple[str, ...]:
    """``--option`` pairs plus ``deck=<the file's text>`` when ``--deck`` names a file; a file
    that cannot be read as UTF-8 text is a :class:`click.BadParameter` naming it (the engine
    then checks the cards, naming the line it cannot read)."""
    if deck is None:
        return pairs
    try:
        text = deck.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read the deck file {str(deck)!r}: {exc}", param_hint="--deck") from None
    return (*pairs, f"deck={text}")


def program() -> str:
    """How to type this ``unokit`` program in the current folder so that it works as written:
    ``unokit`` when that name on ``PATH`` is this program, else its path (relative to the
    current folder when it is inside it, e.g. ``.venv/bin/unokit`` after ``make run``), quoted
    for a POSIX shell where needed."""
    running = Path(sys.argv[0])
    if running.name != "unokit":  # e.g. python -m, or a test runner
        return "unokit"
    found = shutil.which("unokit")
    if found is not None and Path(found).resolve() == running.resolve():
        return "unokit"
    absolute = running.absolute()
    try:
        shown = str(absolute.relative_to(Path.cwd()))
    except ValueError:
        shown = str(absolute)
    return shlex.quote(shown if os.sep in shown else f".{os.sep}{shown}")


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``--option name=value`` pairs as a dict (values stay text; the engine converts them).

    A malformed pair is a :class:`click.BadParameter` naming it.
    """
    try:
        return variants.parse_option_pairs(pairs)
    except UnokitError as exc:
        raise click.BadParameter(words().error(exc), param_hint="--option") from None


def local_time(stamp: float | None) -> str:
    """A moment as a command prints it, in the machine's time zone to the minute (``-`` for none)."""
    return "-" if stamp is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def extras_present(modules: Iterable[str]) -> bool:
    """Whether every module of ``modules`` (an optional extra's) is installed."""
    return all(find_spec(name) is not None for name in modules)


def require_extra(command: str, extra: str, modules: Iterable[str]) -> None:
    """Stop ``unokit COMMAND`` before it does any work when a module of the optional ``extra``
    it needs is not installed; the message names the extra and how to add it."""
    missing = [name for name in modules if find_spec(name) is None]
    if missing:
        raise click.ClickException(
            f"unokit {command} needs the optional '{extra}' extra, which is not installed "
            f"(missing: {', '.join(missing)}). Install unokit with it, e.g. "
            f'pip install "unokit[{extra}] @ <path or URL of unokit>", or run make setup in a checkout.'
        )


def output_file(path: str | Path | None, option: str) -> Path | None:
    """Check, before any work, that the file of ``option`` (``--json``) can be written: its
    missing folders are created; a :class:`click.BadParameter` says what is wrong."""
    if path is None:
        return None
    try:
        return files.prepare_file(path)
    except files.PathError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None


def output_folder(path: str | Path | None, option: str) -> Path | None:
    """Like :func:`output_file` for an option that names a folder (``--plot``)."""
    if path is None:
        return None
    try:
        return files.prepare_folder(path)
    except files.PathError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None


class OutputPath(click.ParamType[Path]):
    """An option or argument that names a file (or, with ``folder``, a folder) a command
    writes: checked as it is read, before any work, by :func:`output_file` /
    :func:`output_folder` (a name too long, a folder where a file goes, no permission...),
    so that every output option refuses the same things in the same words."""

    name = "path"

    def __init__(self, *, folder: bool = False) -> None:
        self.folder = folder

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "FOLDER" if self.folder else "FILE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        try:
            return files.prepare_folder(value) if self.folder else files.prepare_file(value)
        except files.PathError as exc:
            self.fail(str(exc), param, ctx)


def server_url(_ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """A click callback for an option or argument naming a server (``http://host:port``,
    ``https://uno.example.org``): the address without a trailing ``/``; anything else (no
    scheme, no host, another scheme) is a :class:`click.BadParameter` naming it."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not a server address: {exc}", param=param) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise click.BadParameter(
            f"{value!r} is not a server address; write it as http://HOST:PORT or https://HOST", param=param
        )
    return value.rstrip("/")


def read_token_file(path: Path, what: str, param_hint: str) -> str:
    """The token held in the file ``path`` (its text, stripped); a file that cannot be read
    as UTF-8 text, or holds nothing, is a :class:`click.BadParameter` naming it."""
    try:
        token = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read {what} from {path}: {exc}", param_hint=param_hint) from None
    if not token:
        raise click.BadParameter(f"{path} holds no {what}", param_hint=param_hint)
    return token


def options_in_words(options: Mapping[str, object]) -> str:
    """Rule options as people read them, in the terminal's language: ``Stacking: off; Target
    score: 500`` (a deck given as a file's text reads as the file)."""
    w = i18n.catalog()
    parts = []
    for name, value in options.items():
        if name == "deck":
            shown = w.t("cli.deck_file")
        elif isinstance(value, bool) or (isinstance(value, str) and w.has(f"option.{name}.{value}")):
            word = "same" if name == "stacking" and value is True else str(value).lower()
            shown = w.t(f"option.{name}.{word}")
        elif value is None:
            shown = w.t("lobby.none")
        else:
            shown = _option_text(value)
        parts.append(w.t("room.option_value", option=w.t(f"option.{name}"), value=shown))
    return "; ".join(parts)


def format_options(options: Mapping[str, object]) -> str:
    """Rule options as they are written on the command line: ``stacking=true, rounds=1``
    (``none`` for no value, lists as ``[0,3,0]``); a deck given as a file's text reads
    ``deck=<file>`` (the whole text stays in the results' JSON)."""
    return ", ".join(
        f"{name}=<file>" if name == "deck" and value else f"{name}={_option_text(value)}"
        for name, value in options.items()
    )


def _option_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return "[" + ",".join(_option_text(v) for v in value) + "]"
    return str(value)
