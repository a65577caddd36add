"""``unokit play``: a game in the terminal against bots, or several people on one keyboard."""

from __future__ import annotations

import os
import secrets
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import click

from ..bots import Bot, check_bot_spec, external_command, level_names, make_bot
from ..bots.external import ExternalBot, ExternalBotError
from ..bots.habits import Habits
from ..bots.levels import DEFAULT_LEVEL, for_people
from ..clickopts import (
    VARIANT_HELP,
    deck_option,
    lang_option,
    output_file,
    output_folder,
    parse_option_pairs,
    program,
    require_extra,
    with_deck,
)
from ..core.errors import OptionError, UnokitError
from ..core.rng import MASK64, Rng
from ..files import PathError, prepare_folder
from ..i18n import catalog
from ..i18n.lines import words
from ..record import RecordError, RecordingGame, Replay
from ..record.commands import load
from ..record.render import render_log, render_step
from .names import name_problem
from .session import Player, Session, default_record_dir, default_record_path

#: How many names a catalogue's ``play.bot_names`` gives: one for each seat of the largest table.
BOT_NAME_COUNT = 10


def bot_names() -> tuple[str, ...]:
    """The names given to bots in the reader's language, in seat order (``Ana Bo Cy …``;
    ``Аня Боря Сима …``): the catalogue's ``play.bot_names``, :data:`BOT_NAME_COUNT` names
    apart by spaces."""
    return tuple(catalog().t("play.bot_names").split())


def default_bot() -> str:
    """The level of a person's opponents when nobody says otherwise (``normal``)."""
    return DEFAULT_LEVEL


def bot_seed(game_seed: int, seat: int) -> int:
    """Each bot's RNG seed, derived from the game's seed and its seat (reproducible)."""
    return Rng((game_seed * 0x9E3779B1 + seat * 0x85EBCA77 + 1) & MASK64).next64()


@dataclass(frozen=True)
class Setup:
    """Everything ``unokit play`` needs to deal a game; :meth:`session` deals one.

    ``bots`` are bot specs; an ``external:`` bot at position ``k`` of ``bots`` is the program
    ``externals[k]``, started once and reused (reseeded) from game to game. Every bot plays
    with human habits: ``habits`` for all of them, or with ``None`` each its level's
    (:func:`~unokit.bots.levels.habits_for`)."""

    variant: str
    players: int
    humans: list[str]
    bots: list[str]
    options: dict[str, str]
    habits: Habits | None
    seed: int | None = None
    record: Path | None = None
    record_in_folder: bool = False
    externals: dict[int, ExternalBot] = field(default_factory=dict)
    bot_names: tuple[str, ...] = field(default_factory=bot_names)  # skipping any a person uses
    hints: bool = True  # the H key, in a game of one person against bots

    def session(self, number: int = 1) -> Session:
        """Deal game ``number`` of this setup: seed ``seed + number - 1`` when a seed was
        given, else a fresh random one."""
        seed = secrets.randbits(32) if self.seed is None else self.seed + number - 1
        game, setup_events = RecordingGame.new(self.variant, self.players, seed, **self.options)
        taken = {h.lower() for h in self.humans}
        free_names = [n for n in self.bot_names if n.lower() not in taken]
        players: list[Player] = [Player(name) for name in self.humans]
        for k, bot_name in enumerate(self.bots):
            seed_of_bot = bot_seed(game.seed, len(players))
            bot: Bot
            if k in self.externals:
                bot = self.externals[k]
                bot.rng = Rng(seed_of_bot)
            else:
                bot = make_bot(bot_name, seed_of_bot)
            players.append(
                Player(
                    free_names[k % len(free_names)],
                    for_people(bot, bot_name, self.habits),
                    bot_name,
                    {"seed": seed_of_bot},
                )
            )
        return Session(game, players, setup_events, self.record_path(game.variant, game.seed, number), hints=self.hints)

    def record_path(self, variant: str, seed: int, number: int) -> Path:
        """Where game ``number`` of this setup is saved."""
        if self.record is None:
            return default_record_path(variant, seed)
        if self.record_in_folder:
            return self.record / default_record_path(variant, seed).name
        if number == 1:
            return self.record
        return self.record.with_name(f"{self.record.stem}-{number}{self.record.suffix}")


def make_setup(
    variant: str,
    players: int,
    bots: str | None,
    seed: int | None,
    options: Sequence[str],
    names: Sequence[str],
    habits: Habits | None,
    record: str | Path | None,
) -> Setup:
    """Check the command line and build the :class:`Setup`; ``click.UsageError`` says what
    is wrong."""
    parsed = parse_option_pairs(options)
    if bots is None:
        bot_list = [default_bot()] * (players - max(1, len(names)))
    elif bots.strip().lower() in ("", "none"):
        bot_list = []
    else:
        bot_list = [b.strip() for b in bots.split(",") if b.strip()]
    for name in bot_list:
        try:
            check_bot_spec(name, variant, players)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from None
    human_count = players - len(bot_list)
    w = words()
    if human_count < 0:
        raise click.BadParameter(w.t("n.cli.bots_do_not_fit", count=len(bot_list), total=players), param_hint="--bots")
    if len(names) > human_count:
        raise click.BadParameter(
            w.t("n.cli.names_do_not_fit", count=human_count, number=len(names), total=players), param_hint="--name"
        )
    humans = [name.strip() for name in names]
    for name in humans:
        problem = name_problem(name)
        if problem is not None:
            raise click.BadParameter(w.say(problem), param_hint="--name")
    if human_count == 1 and not humans:
        humans = [catalog().t("play.you")]
    humans += [catalog().t("play.player_n", number=i + 1) for i in range(len(humans), human_count)]
    if len({h.lower() for h in humans}) != len(humans):
        raise click.BadParameter(w.t("cli.same_names"), param_hint="--name")
    # --record names a folder when it is one, or when it ends with a slash (to be created)
    in_folder = record is not None and (str(record).endswith(("/", os.sep)) or Path(record).is_dir())
    place = None if record is None else Path(record).expanduser()
    setup = Setup(variant, players, humans, bot_list, parsed, habits, seed, place, in_folder)
    try:
        RecordingGame.new(variant, players, 0 if seed is None else seed, **parsed)
    except (OptionError, UnokitError) as exc:
        raise click.UsageError(words().error(exc)) from None
    check_record_place(setup)
    return setup


def check_record_place(setup: Setup) -> None:
    """Make sure the records of ``setup`` can be saved (creating missing folders) before the
    game starts; ``click`` errors say why not."""
    if setup.record is None:
        try:
            prepare_folder(default_record_dir())
        except PathError as exc:
            raise click.ClickException(f"cannot save game records: {exc}; choose a place with --record") from None
    elif setup.record_in_folder:
        output_folder(setup.record, "--record")
    else:
        output_file(setup.record, "--record")


def start_external_bots(bots: Sequence[str], time_limit: float) -> dict[int, ExternalBot]:
    """Start the ``external:`` bots of ``bots`` (by position) and do their handshakes, so
    that a broken program is reported before the game begins."""
    started: dict[int, ExternalBot] = {}
    try:
        for k, spec in enumerate(bots):
            command = external_command(spec)
            if command is not None:
                started[k] = ExternalBot(0, command, time_limit)
                started[k].start()
    except ExternalBotError as exc:
        close_bots(started)
        raise click.ClickException(str(exc)) from None
    return started


def close_bots(bots: dict[int, ExternalBot]) -> None:
    for bot in bots.values():
        bot.close()


def play_habits(forget: float | None, catch: float | None, reaction: str | None, none: bool) -> Habits | None:
    """The habits the command line sets for every bot: ``None`` (each its level's) when no
    option is given; the options over :class:`Habits`' defaults; with ``none``, no habit at
    all. ``click.UsageError`` says what is wrong."""
    if none:
        if forget is not None or catch is not None or reaction is not None:
            raise click.UsageError("--no-habits cannot go with --forget, --catch or --reaction")
        return Habits(forget=0.0, late_uno=1.0, catch=1.0, reaction=(0.0, 0.0))
    if forget is None and catch is None and reaction is None:
        return None
    base = Habits()
    try:
        return Habits(
            forget=base.forget if forget is None else forget,
            catch=base.catch if catch is None else catch,
            reaction=base.reaction if reaction is None else _reaction(reaction),
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _reaction(text: str) -> tuple[float, float]:
    low, sep, high = text.partition("-")
    try:
        return (float(low), float(high)) if sep else (float(low), float(low))
    except ValueError:
        raise click.BadParameter(f"write seconds as MIN-MAX, e.g. 0.8-2.5, not {text!r}") from None


@click.command()
@lang_option
@click.option("--variant", default="flip", show_default=True, help=VARIANT_HELP)
@click.option("--players", default=4, show_default=True, type=int, help="seats at the table, people and bots")
@click.option(
    "--bots",
    default=None,
    help=f"bots, comma-separated, one per bot seat: a level ({', '.join(level_names())}), an engine name "
    "(random, rlcard_rule, heuristic, ismcts, ismcts_fast) or external:<command>; 'none' for people only  "
    f"[default: {DEFAULT_LEVEL} at every seat but yours]",
)
@click.option("--seed", type=int, default=None, help="the game's seed (default: a random one, shown in the record)")
@click.option("--option", "option", multiple=True, metavar="NAME=VALUE", help="a rule option; repeatable")
@deck_option
@click.option("--name", "names", multiple=True, help="a person's name; repeat it for hot seat (several people)")
@click.option(
    "--delay",
    default=None,
    type=float,
    help="seconds every bot waits before it acts  [default: each level's think time]",
)
@click.option("--catch-window", default=2.5, show_default=True, type=float, help="seconds to catch a missing UNO call")
@click.option(
    "--forget", default=None, type=float, help="chance a bot forgets to call UNO  [default: its level's habits]"
)
@click.option("--catch", "catch_chance", default=None, type=float, help="chance a bot catches  [default: its level's]")
@click.option("--reaction", default=None, help="a bot's reaction time in seconds, MIN-MAX  [default: its level's]")
@click.option(
    "--no-habits",
    is_flag=True,
    help="bots never forget UNO and always catch at once (their play is the same: habits are not strength)",
)
@click.option(
    "--time-limit",
    default=5.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="seconds per decision for external bots (more than 0)",
)
@click.option(
    "--record",
    "record",
    type=click.Path(),
    default=None,
    help="where to save the game record (a file or a folder; missing folders are created)  "
    "[default: ~/.local/share/unokit/records/]",
)
@click.option(
    "--no-hints",
    is_flag=True,
    help="no hints: H shows the engine's choice and your chance to win in a game of one person against bots "
    "(each hint is marked in the record)",
)
@click.option(
    "--plain",
    is_flag=True,
    help="line mode for screen readers, braille displays and pipes: each event a line, each decision "
    "numbered answers; type a number, a move in the notation or a command (help lists them); "
    "no screen redraws, works without a terminal",
)
def play(
    variant: str,
    players: int,
    bots: str | None,
    seed: int | None,
    option: tuple[str, ...],
    deck: Path | None,
    names: tuple[str, ...],
    delay: float | None,
    catch_window: float,
    forget: float | None,
    catch_chance: float | None,
    reaction: str | None,
    no_habits: bool,
    time_limit: float,
    record: str | None,
    no_hints: bool,
    plain: bool,
) -> None:
    """Play UNO in the terminal against bots, or hot seat with several people.

    Keys: ←/→ or 1-9, 0 pick a card, Enter plays it, D draws (or presses the launcher), U calls
    UNO with your next play, C catches a player who forgot UNO, H shows a hint (the engine's choice
    and your chance to win; marked in the record), ? shows the keys and the rules, Q quits. Every
    game is saved as a record that `unokit replay`, `unokit verify` and `unokit review` read.

    With --plain: one line per event, each decision as numbered answers; type the number, a
    move in the notation (play red 5, draw; any unique beginning of one) or a command: hand,
    table, moves, uno, catch, jump, help, quit. It reads standard input, so a pipe plays too
    (no hints there).
    """
    habits = play_habits(forget, catch_chance, reaction, no_habits)
    if (delay is not None and delay < 0) or catch_window < 0:
        raise click.UsageError(words().t("cli.seconds_not_negative"))
    option = with_deck(option, deck)
    setup = make_setup(variant, players, bots, seed, option, names, habits, record)
    if plain:
        play_plain(setup, delay, catch_window, time_limit)
        return
    require_extra("play", "play", ["textual", "rich"])
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise click.UsageError(catalog().t("cli.play_needs_terminal"))
    from .app import PlayApp

    externals = start_external_bots(setup.bots, time_limit)
    setup = replace(setup, externals=externals, hints=not no_hints)
    counter = iter(range(1, 1_000_000))
    app = PlayApp(lambda: setup.session(next(counter)), delay=delay, catch_window=catch_window)
    try:
        app.run()
    finally:  # whatever happened, the game so far is on disk
        close_bots(externals)
        last = app.save_game()
        for path in [*app.saved, *([last] if last is not None and last not in app.saved else [])]:
            click.echo(
                catalog().t("cli.record_saved", path=str(path), replay=f"{program()} replay {shlex.quote(str(path))}")
            )
        if app.session is not None and app.session.save_error is not None:
            click.echo(catalog().t("cli.error", error=app.session.save_error), err=True)
    if app.error is not None:
        raise click.ClickException(app.error)


def play_plain(setup: Setup, delay: float | None, catch_window: float, time_limit: float) -> None:
    """``unokit play --plain``: one game of ``setup`` in lines on standard input and output
    (:class:`~unokit.play.plain.PlainGame`); the record is saved and its place said."""
    from .plain import PlainGame

    externals = start_external_bots(setup.bots, time_limit)
    session = replace(setup, externals=externals).session()
    try:
        PlainGame(session, sys.stdin, sys.stdout, think=delay, catch_window=catch_window).run()
    except (ExternalBotError, UnokitError) as exc:
        error = session.words.error(exc) if isinstance(exc, UnokitError) else str(exc)
        raise click.ClickException(catalog().t("play.game_stopped", error=error)) from None
    finally:
        close_bots(externals)
        path = session.save()
        if path is not None:
            click.echo(
                catalog().t("cli.record_saved", path=str(path), replay=f"{program()} replay {shlex.quote(str(path))}")
            )
        if session.save_error is not None:
            click.echo(catalog().t("cli.error", error=session.save_error), err=True)


@click.command()
@lang_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seat", type=int, default=None, help="view the table as this seat (default: everyone)")
@click.option("--step", type=int, default=None, help="start at this step (default: 0; with --print: the end)")
@click.option("--print", "print_", is_flag=True, help="print the table at --step and exit (no interactive viewer)")
@click.option("--log", is_flag=True, help="with --print: also print every action up to --step, in words")
@click.option("--any-version", is_flag=True, help="replay a record of an incompatible unokit version anyway")
def replay(file: Path, seat: int | None, step: int | None, print_: bool, log: bool, any_version: bool) -> None:
    """Step through a game record, forward and back, as any seat or seeing everything.

    Keys in the viewer: ←/→ (or h/l, space) step, PgUp/PgDn ten steps, Home/End the first and
    last step, N/P next and previous round, 0-9 view as that seat, O everyone, ↑/↓ scroll,
    Q quit. --print needs no terminal and no extra.
    """
    record = load(file)
    if seat is not None and not 0 <= seat < record.players:
        raise click.BadParameter(catalog().t("cli.seats_range", high=record.players - 1), param_hint="--seat")
    try:
        game_replay = Replay(record, check_version=not any_version)
    except RecordError as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    last = len(game_replay)
    if step is not None and not 0 <= step <= last:
        raise click.BadParameter(catalog().t("cli.steps_range", high=last), param_hint="--step")
    if print_:
        at = last if step is None else step
        if log:
            click.echo("\n".join(render_log(game_replay, at, seat)))
            click.echo("")
        click.echo("\n".join(render_step(game_replay, at, seat)))
        return
    require_extra("replay", "play", ["textual", "rich"])
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise click.UsageError(catalog().t("cli.viewer_needs_terminal"))
    from .viewer import ReplayApp

    ReplayApp(game_replay, seat, step or 0).run()
