"""The ``unokit eval`` command (extra ``eval``)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..clickopts import OutputPath
from ..files import write_atomically
from ..sim.commands import _progress
from .protocol import BASELINES, DEFAULT_BUDGET_MS, EvalConfig, EvalError, load_suite, markdown_table, run_eval


@click.command("eval")
@click.argument("agent")
@click.option("--suite", "suite_name", default="classic-2", show_default=True, help="a shipped suite or a suite file")
@click.option("--deals", default=None, type=int, help="play only the suite's first DEALS deals (a quick look)")
@click.option(
    "--against",
    default=",".join(BASELINES),
    show_default=True,
    help="the opponents, comma-separated bot specs",
)
@click.option(
    "--budget-ms",
    default=DEFAULT_BUDGET_MS,
    show_default=True,
    type=float,
    help="time per decision; a decision over it forfeits the hand",
)
@click.option("--round-robin", is_flag=True, help="every pair of the agent and the opponents, rated with OpenSkill")
@click.option("--workers", default=1, show_default=True, type=int, help="processes (or Ray CPUs) to play in")
@click.option("--ray", "use_ray", is_flag=True, help="play the matches as Ray tasks")
@click.option("--json", "json_out", type=OutputPath(), help="write the result here")
@click.option("--markdown", type=OutputPath(), help="write the tables for docs here")
@click.option("--progress/--no-progress", default=True, show_default=True, help="show a progress bar")
def eval_command(
    agent: str,
    suite_name: str,
    deals: int | None,
    against: str,
    budget_ms: float,
    round_robin: bool,
    workers: int,
    use_ray: bool,
    json_out: Path | None,
    markdown: Path | None,
    progress: bool,
) -> None:
    """Measure AGENT (any bot spec: a level, policy:FILE.onnx, external:COMMAND,
    openspiel:ismcts, llm:URL[:MODEL]) on a fixed suite with the protocol unokit-eval/1
    (docs/research.md)."""
    opponents = tuple(part.strip() for part in against.split(",") if part.strip())
    try:
        suite = load_suite(suite_name).first(deals)
        config = EvalConfig(suite, agent, opponents, budget_ms, round_robin, workers, use_ray)
        config.validate()
        total = len(config.pairs()) * suite.hands
        with _progress(progress, total, "hands") as update:
            result = run_eval(config, update)
    except EvalError as exc:
        raise click.UsageError(str(exc)) from None
    text = json.dumps(result, indent=2) + "\n"
    if json_out is not None:
        write_atomically(json_out, text)
    table = markdown_table(result)
    if markdown is not None:
        write_atomically(markdown, table)
    click.echo(table, nl=False)
