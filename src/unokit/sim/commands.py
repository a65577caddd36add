"""``unokit sim`` and ``unokit tournament``: the simulator and tournaments from the command line."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ..clickopts import (
    VARIANT_HELP,
    deck_option,
    format_options,
    output_file,
    output_folder,
    parse_option_pairs,
    require_extra,
    with_deck,
)
from ..core.errors import UnokitError
from ..narration import plural
from .runner import BACKENDS, ENGINES, INTERRUPTS, SimConfig, SimResult, run_sim
from .tournament import FORMATS, TournamentConfig, TournamentResult, run_tournament


def _split_bots(text: str) -> tuple[str, ...]:
    bots = tuple(part.strip() for part in text.split(",") if part.strip())
    if not bots:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    return bots


@contextmanager
def _progress(enabled: bool, total: int, what: str) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (nothing when disabled); yields ``update(done)``.

    The bar (and rich's refresh thread) starts on the first update, after the worker processes
    have been forked."""
    if not enabled:
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = progress.add_task(what, total=total)

    def update(done: int) -> None:
        if not progress.live.is_started:
            progress.start()
        progress.update(task, completed=done)

    try:
        yield update
    finally:
        progress.stop()


def _common(function: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--variant", default="classic", show_default=True, help=VARIANT_HELP),
        click.option(
            "--games", default=1000, show_default=True, type=int, help="games to play (in a tournament: per table)"
        ),
        click.option("--seed", default=1, show_default=True, type=int),
        click.option("--workers", default=1, show_default=True, type=int, help="worker processes"),
        click.option("--option", "option", multiple=True, metavar="NAME=VALUE", help="a rule option; repeatable"),
        deck_option,
        click.option("--hands-only", is_flag=True, help="play single hands (rounds=1) instead of whole games"),
        click.option(
            "--time-limit",
            default=5.0,
            show_default=True,
            type=click.FloatRange(min=0, min_open=True),
            help="seconds per decision for external bots (more than 0)",
        ),
        click.option(
            "--json", "json_path", type=click.Path(), help="write the results as JSON (missing folders are created)"
        ),
        click.option(
            "--engine",
            default="reference",
            show_default=True,
            type=click.Choice(ENGINES),
            help="fast: the compiled kernel (extra 'fast'; random and rlcard_rule bots, --hands-only)",
        ),
        click.option(
            "--backend",
            default="local",
            show_default=True,
            type=click.Choice(BACKENDS),
            help="ray: play the chunks of games on a Ray cluster (extra 'ray'); --workers CPUs for a local one",
        ),
        click.option("--address", help="with --backend ray: the address of a running Ray cluster to join"),
        click.option("--quiet", is_flag=True, help="no progress bar"),
    ]
    for option in reversed(options):
        function = option(function)
    return function


@click.command()
@click.option("--players", type=int, help="seats (default: the number of bots)")
@click.option(
    "--bots",
    required=True,
    help="one bot per seat, comma-separated: a level (beginner, easy, normal, hard, expert), an engine name "
    "(random, rlcard_rule, heuristic, ismcts, ismcts_fast) or external:<command>",
)
@_common
@click.option("--effects", is_flag=True, help="count draws and presses per card effect (slower: builds events)")
@click.option(
    "--csv", "csv_path", type=click.Path(), help="write the per-bot table as CSV (missing folders are created)"
)
@click.option("--plot", "plot_dir", type=click.Path(), help="write PNG charts into this folder (created if missing)")
def sim(
    variant: str,
    players: int | None,
    bots: str,
    games: int,
    seed: int,
    workers: int,
    option: tuple[str, ...],
    deck: Path | None,
    hands_only: bool,
    time_limit: float,
    engine: str,
    backend: str,
    address: str | None,
    json_path: str | None,
    quiet: bool,
    effects: bool,
    csv_path: str | None,
    plot_dir: str | None,
) -> None:
    """Play many games between bots and print win rates and statistics.

    Seats rotate from game to game; the same seed gives the same results for any number of
    workers. Example:

    \b
        unokit sim --variant flip --players 4 --bots heuristic,random,random,random \\
            --games 10000 --workers 2 --hands-only --effects --plot plots
    """
    specs = _split_bots(bots)
    config = SimConfig(
        variant=variant,
        players=players if players is not None else len(specs),
        bots=specs,
        games=games,
        seed=seed,
        workers=workers,
        options=tuple(parse_option_pairs(with_deck(option, deck)).items()),
        hands_only=hands_only,
        effects=effects,
        time_limit=time_limit,
        engine=engine,
        backend=backend,
        address=address,
    )
    try:
        config.validate()
    except ValueError as exc:  # an OptionError too
        raise click.UsageError(str(exc)) from None
    require_extra("sim", "sim", ["rich", *(["matplotlib"] if plot_dir else [])])
    json_file = output_file(json_path, "--json")
    csv_file = output_file(csv_path, "--csv")
    plot_folder = output_folder(plot_dir, "--plot")
    try:
        with _progress(not quiet and sys.stderr.isatty(), games, "games") as update:
            result = run_sim(config, update)
    except (UnokitError, RuntimeError) as exc:  # a bot broke the rules or the protocol
        raise click.ClickException(str(exc)) from None

    def report() -> None:
        _print_sim(result)
        written = []
        with _writing():
            if json_file:
                result.write_json(json_file)
                written.append(json_file)
            if csv_file:
                result.write_csv(csv_file)
                written.append(csv_file)
            if plot_folder:
                from .plots import write_plots

                written += write_plots(result, plot_folder)
        for path in written:
            click.echo(f"wrote {path}")

    stopped = _whole(report)
    _stop_if_interrupted(result.interrupted or stopped, result.tally.games, config.games)


def _whole(report: Callable[[], None]) -> bool:
    """Run ``report`` (print the results and write their files) to its end: a Ctrl-C meanwhile
    (a second one, after the one that stopped the run) waits until the files are written, as
    they hold what the run has. True when a Ctrl-C came."""
    try:
        with INTERRUPTS.installed(), INTERRUPTS.held():
            report()
    except KeyboardInterrupt:
        return True
    return False


@contextmanager
def _writing() -> Iterator[None]:
    """Turn a failure to write a result file (a full disk, a folder removed during the run)
    into a message; the results are already printed."""
    try:
        yield
    except OSError as exc:
        raise click.ClickException(f"cannot write {exc.filename or 'the results'}: {exc.strerror or exc}") from None


def _stop_if_interrupted(interrupted: bool, played: int, planned: int) -> None:
    """After an interrupted run: say so on stderr and exit with status 130 (as after Ctrl-C)."""
    if interrupted:
        click.echo(
            f"Interrupted: {played:,} of {plural(planned, 'game')} finished; the results above count them.", err=True
        )
        sys.exit(130)


def _print_sim(result: SimResult) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 100, highlight=False)
    config = result.config
    summary = result.summary()
    played = summary["games"]
    games = f"{played:,} of {plural(config.games, 'game')}" if result.interrupted else plural(played, "game")
    notes = [*(["single hands"] if config.hands_only else []), *(["interrupted"] if result.interrupted else [])]
    console.print(
        f"[bold]{config.variant}[/bold], {config.players} players, {games}"
        + (f" ({'; '.join(notes)})" if notes else "")
        + f", seed {config.seed}"
        + (f", options {format_options(dict(config.options))}" if config.options else "")
    )
    if not played:
        return
    table = Table(title="Win rates (95% Wilson intervals)")
    for column in ("bot", "wins", "win rate", "95% interval", "mean points"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in result.bot_rows():
        table.add_row(
            row["label"],
            f"{row['wins']:g}",
            f"{row['win_rate']:.1%}",
            f"{row['ci_low']:.1%} to {row['ci_high']:.1%}",
            f"{row['mean_points']:.1f}",
        )
    console.print(table)
    team_rows = result.team_rows()
    if team_rows:
        teams = Table(title="Teams: partners facing each other (95% Wilson intervals)")
        for column in ("team", "wins", "win rate", "95% interval", "mean team points"):
            teams.add_column(column, justify="left" if column == "team" else "right")
        for row in team_rows:
            teams.add_row(
                row["label"],
                f"{row['wins']:g}",
                f"{row['win_rate']:.1%}",
                f"{row['ci_low']:.1%} to {row['ci_high']:.1%}",
                f"{row['mean_points']:.1f}",
            )
        console.print(teams)
    places = ", ".join(f"{rate:.1%}" for rate in summary["round_wins_by_place"]["rates"])
    low, high = summary["turns_per_round_ci"]
    console.print(
        f"rounds per game {summary['rounds_per_game']:.2f}, turns per round {summary['turns_per_round']:.1f} "
        f"(95% interval {low:.1f} to {high:.1f}), decisions per game {summary['decisions_per_game']:.0f}"
    )
    console.print(f"round wins by place after the dealer (first player first): {places}")
    if config.effects:
        columns = ("effect", "draws", "cards drawn", "presses", "cards pressed", "per game", "per event")
        rows = [
            (
                row["effect"],
                str(row["draws"]),
                str(row["cards_drawn"]),
                str(row["presses"]),
                str(row["cards_pressed"]),
                f"{row['cards_per_game']:.2f}",
                f"{row['cards_per_event']:.2f}",
            )
            for row in result.effect_rows()
        ]
        console.print(_rows_table("Cards taken by effect", columns, 1, rows))
    seconds = result.seconds
    console.print(
        f"{_duration(seconds)}: {_rate(played / seconds)} games/s, "
        f"{_rate(result.tally.decisions / seconds)} decisions/s with {plural(config.processes(), 'worker')}"
    )


def _duration(seconds: float) -> str:
    """A run's wall time: ``4 ms``, ``310 ms``, ``6.5 s``, ``125 s``."""
    if seconds < 0.001:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s" if seconds < 100 else f"{seconds:.0f} s"


def _rate(per_second: float) -> str:
    """A speed with the digits that matter: ``618``, ``42.5``, ``3.7``, ``0.25``."""
    if per_second >= 100:
        return f"{per_second:,.0f}"
    return f"{per_second:.3g}"


@click.command()
@click.option("--players", default=2, show_default=True, type=int, help="players per table")
@click.option(
    "--bots",
    required=True,
    help="the bots, comma-separated, each once: levels (beginner, easy, normal, hard, expert) or engine names "
    "(random, rlcard_rule, heuristic, ...)",
)
@click.option("--format", "format_", default="round-robin", show_default=True, type=click.Choice(FORMATS))
@_common
def tournament(
    variant: str,
    players: int,
    bots: str,
    format_: str,
    games: int,
    seed: int,
    workers: int,
    option: tuple[str, ...],
    deck: Path | None,
    hands_only: bool,
    time_limit: float,
    engine: str,
    backend: str,
    address: str | None,
    json_path: str | None,
    quiet: bool,
) -> None:
    """Play every bot against every other and print OpenSkill ratings.

    round-robin: every combination of --players bots meets at a table; gauntlet: the first
    bot against all the others; free-for-all: all bots at one table. Example:

    \b
        unokit tournament --bots heuristic,rlcard_rule,random --games 500 --hands-only
        unokit tournament --bots beginner,easy,normal,hard,expert --games 200 --hands-only
    """
    config = TournamentConfig(
        variant=variant,
        players=players,
        bots=_split_bots(bots),
        games=games,
        seed=seed,
        workers=workers,
        options=tuple(parse_option_pairs(with_deck(option, deck)).items()),
        hands_only=hands_only,
        format=format_,
        time_limit=time_limit,
        engine=engine,
        backend=backend,
        address=address,
    )
    try:
        tables = config.tables()
        total = len(tables) * games
        for number, table in enumerate(tables):  # check the rules and bots before playing anything
            config.table_config(number, table).validate()
    except ValueError as exc:  # an OptionError too
        raise click.UsageError(str(exc)) from None
    require_extra("tournament", "sim", ["rich", "openskill"])
    json_file = output_file(json_path, "--json")
    try:
        with _progress(not quiet and sys.stderr.isatty(), total, "games") as update:
            result = run_tournament(config, lambda done, _total: update(done))
    except (UnokitError, RuntimeError) as exc:  # a bot broke the rules or the protocol
        raise click.ClickException(str(exc)) from None

    def report() -> None:
        _print_tournament(result)
        if json_file:
            with _writing():
                result.write_json(json_file)
            click.echo(f"wrote {json_file}")

    stopped = _whole(report)
    _stop_if_interrupted(result.interrupted or stopped, sum(row["games"] for row in result.tables), total)


def _print_tournament(result: TournamentResult) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 100, highlight=False)
    config = result.config
    console.print(
        f"[bold]{config.variant}[/bold] tournament ({config.format}), tables of {config.table_size()}, "
        f"{plural(config.games, 'game')} per table{' (single hands)' if config.hands_only else ''}, seed {config.seed}"
        + (f", options {format_options(dict(config.options))}" if config.options else "")
    )
    if result.interrupted:
        played = plural(sum(row["games"] for row in result.tables), "game")
        console.print(f"Interrupted: the ratings count the {played} finished.")
    table = Table(title="OpenSkill ratings (Plackett-Luce; ordinal = mu - 3 sigma)")
    for column in ("rank", "bot", "mu", "sigma", "ordinal", "games", "win rate"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, row in enumerate(result.ratings, start=1):
        table.add_row(
            str(rank),
            row["bot"],
            f"{row['mu']:.2f}",
            f"{row['sigma']:.2f}",
            f"{row['ordinal']:.2f}",
            str(row["games"]),
            f"{row['win_rate']:.1%}",
        )
    console.print(table)
    console.print("Win rates at each table:")
    for row in result.tables:
        pairs = ", ".join(f"{bot} {rate:.1%}" for bot, rate in zip(row["bots"], row["win_rates"], strict=True))
        console.print(f"  {pairs}")
    if result.head_to_head:
        title = "Head to head: of the games one of the two won, the share the first won (95% Wilson)"
        rows = [
            (p["bot"], p["other"], str(p["games"]), str(p["wins"]), str(p["losses"]), f"{p['rate']:.1%}", interval)
            for p in result.head_to_head
            for interval in [f"{p['ci_low']:.1%} to {p['ci_high']:.1%}"]
        ]
        console.print(_rows_table(title, ("bot", "against", "games", "won", "lost", "rate", "95% interval"), 2, rows))


def _rows_table(title: str, columns: Sequence[str], labels: int, rows: Iterable[Sequence[str]]) -> Any:
    """A Rich table of ``rows``: the first ``labels`` columns are labels (left, not wrapped),
    the others figures (right)."""
    from rich.table import Table

    table = Table(title=title)
    for i, column in enumerate(columns):
        if i < labels:
            table.add_column(column, no_wrap=True)
        else:
            table.add_column(column, justify="right")
    for row in rows:
        table.add_row(*row)
    return table
