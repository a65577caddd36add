"""``unokit play``: a game in the terminal against bots, or several people on one keyboard."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from ..bots import bot_names, make_bot
from ..clickopts import parse_option_pairs
from ..core.errors import OptionError, UnokitError
from ..core.rng import MASK64, Rng
from ..record import RecordingGame
from .forgetful import ForgetfulBot, Habits
from .session import Player, Session, default_record_path

#: Names given to bots, in seat order (skipping any a person uses).
BOT_NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")


def default_bot() -> str:
    """``heuristic`` when that bot is installed, else ``random``."""
    return "heuristic" if "heuristic" in bot_names() else "random"


def bot_seed(game_seed: int, seat: int) -> int:
    """Each bot's RNG seed, derived from the game's seed and its seat (reproducible)."""
    return Rng((game_seed * 0x9E3779B1 + seat * 0x85EBCA77 + 1) & MASK64).next64()


@dataclass(frozen=True)
class Setup:
    """Everything ``unokit play`` needs to deal a game; :meth:`session` deals one."""

    variant: str
    players: int
    humans: list[str]
    bots: list[str]
    options: dict[str, str]
    habits: Habits
    seed: int | None = None
    record: Path | None = None

    def session(self, number: int = 1) -> Session:
        """Deal game ``number`` of this setup: seed ``seed + number - 1`` when a seed was
        given, else a fresh random one."""
        seed = secrets.randbits(32) if self.seed is None else self.seed + number - 1
        game, setup_events = RecordingGame.new(self.variant, self.players, seed, **self.options)
        taken = {h.lower() for h in self.humans}
        free_names = [n for n in BOT_NAMES if n.lower() not in taken]
        players: list[Player] = [Player(name) for name in self.humans]
        for k, bot_name in enumerate(self.bots):
            seed_of_bot = bot_seed(game.seed, len(players))
            players.append(
                Player(
                    free_names[k % len(free_names)],
                    ForgetfulBot(make_bot(bot_name, seed_of_bot), self.habits),
                    bot_name,
                    {"seed": seed_of_bot},
                )
            )
        return Session(game, players, setup_events, self.record_path(game.variant, game.seed, number))

    def record_path(self, variant: str, seed: int, number: int) -> Path:
        if self.record is None:
            return default_record_path(variant, seed)
        if self.record.is_dir() or str(self.record).endswith(("/", "\\")):
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
    habits: Habits,
    record: Path | None,
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
    known = bot_names()
    for name in bot_list:
        if name not in known:
            raise click.BadParameter(f"unknown bot {name!r}; bots are {', '.join(known)}", param_hint="--bots")
    human_count = players - len(bot_list)
    if human_count < 0:
        raise click.BadParameter(f"{len(bot_list)} bots do not fit at {players} seats", param_hint="--bots")
    if len(names) > human_count:
        raise click.BadParameter(
            f"{len(names)} names for {human_count} human seat(s) ({players} players, {len(bot_list)} bots)",
            param_hint="--name",
        )
    humans = list(names)
    if human_count == 1 and not humans:
        humans = ["You"]
    humans += [f"Player {i + 1}" for i in range(len(humans), human_count)]
    if len({h.lower() for h in humans}) != len(humans):
        raise click.BadParameter("two people have the same name", param_hint="--name")
    setup = Setup(variant, players, humans, bot_list, parsed, habits, seed, record)
    try:
        RecordingGame.new(variant, players, 0 if seed is None else seed, **parsed)
    except (OptionError, UnokitError) as exc:
        raise click.UsageError(str(exc)) from None
    return setup


def _reaction(text: str) -> tuple[float, float]:
    low, sep, high = text.partition("-")
    try:
        return (float(low), float(high)) if sep else (float(low), float(low))
    except ValueError:
        raise click.BadParameter(f"write seconds as MIN-MAX, e.g. 0.8-2.5, not {text!r}") from None


@click.command()
@click.option("--variant", default="flip", show_default=True, help="classic, flip, attack, flip_attack")
@click.option("--players", default=4, show_default=True, type=int, help="seats at the table, people and bots")
@click.option(
    "--bots",
    default=None,
    help="bots, comma-separated, one per bot seat; 'none' for people only  [default: heuristic (random if "
    "not installed) at every seat but yours]",
)
@click.option("--seed", type=int, default=None, help="the game's seed (default: a random one, shown in the record)")
@click.option("--option", "option", multiple=True, metavar="NAME=VALUE", help="a rule option; repeatable")
@click.option(
    "--deck",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="a deck file: play with the cards of your own copy (docs/formats.md)",
)
@click.option("--name", "names", multiple=True, help="a person's name; repeat it for hot seat (several people)")
@click.option("--delay", default=0.6, show_default=True, type=float, help="seconds a bot waits before it acts")
@click.option("--catch-window", default=2.5, show_default=True, type=float, help="seconds to catch a missing UNO call")
@click.option("--forget", default=0.25, show_default=True, type=float, help="chance a bot forgets to call UNO")
@click.option("--catch", "catch_chance", default=0.6, show_default=True, type=float, help="chance a bot catches")
@click.option("--reaction", default="0.8-2.5", show_default=True, help="a bot's reaction time in seconds, MIN-MAX")
@click.option(
    "--record",
    "record",
    type=click.Path(path_type=Path),
    default=None,
    help="where to save the game record (a file or a folder)  [default: ~/.local/share/unokit/records/]",
)
def play(
    variant: str,
    players: int,
    bots: str | None,
    seed: int | None,
    option: tuple[str, ...],
    deck: Path | None,
    names: tuple[str, ...],
    delay: float,
    catch_window: float,
    forget: float,
    catch_chance: float,
    reaction: str,
    record: Path | None,
) -> None:
    """Play UNO in the terminal against bots, or hot seat with several people.

    Keys: ←/→ or 1-9 pick a card, Enter plays it, D draws (or presses the launcher), U calls
    UNO with your next play, C catches a player who forgot UNO, Q quits. Every game is saved as
    a record that `unokit replay` and `unokit verify` read.
    """
    try:
        habits = Habits(forget=forget, catch=catch_chance, reaction=_reaction(reaction))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if delay < 0 or catch_window < 0:
        raise click.UsageError("--delay and --catch-window are seconds, 0 or more")
    if deck is not None:
        option = (*option, f"deck={deck.read_text(encoding='utf-8')}")
    setup = make_setup(variant, players, bots, seed, option, names, habits, record)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise click.UsageError("unokit play needs a terminal")
    try:
        from .app import PlayApp
    except ImportError as exc:
        raise click.ClickException(f"unokit play needs the 'play' extra (textual): {exc}") from None

    counter = iter(range(1, 1_000_000))
    app = PlayApp(lambda: setup.session(next(counter)), delay=delay, catch_window=catch_window)
    try:
        app.run()
    finally:  # whatever happened, the game so far is on disk
        last = app.session.save() if app.session is not None else None
        for path in [*app.saved, *([last] if last is not None and last not in app.saved else [])]:
            click.echo(f"Game record saved to {path}  (unokit replay {path})")
