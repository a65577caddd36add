"""Keeping the database tidy and safe: retention, exports and backups (``docs/server.md``,
"Retention and backups"). Used by the server's sweeper and by ``unokit admin``.

* **Retention.** A closed room, its log and its chat are deleted ``--retain-rooms`` days after
  it closed; a finished game's record ``--retain-records`` days after it was played (first
  written to ``--export-dir``, when the host keeps them); a player identity with its list of
  games ``--retain-players`` days after it was last used; players' reports (and bans that ran
  out) ``--retain-rooms`` days after they were made. :func:`prune` does it in batches.
* **Exports** write records as ``unokit-record/1`` files, ``unokit-ROOM-GAME.json``, which
  ``unokit verify`` and ``unokit replay`` read, and the tables of the deal of the day's attempts
  and of ratings as JSON lines, ``NAME.jsonl``.
* **Backups** copy a live database: SQLite with its online backup API (consistent while the
  server writes), PostgreSQL with its own ``pg_dump`` (custom format, for ``pg_restore``).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.engine import make_url

from . import RETAIN_PLAYERS_DAYS, RETAIN_RECORDS_DAYS, RETAIN_ROOMS_DAYS
from .features import store_hooks
from .storage import Pruned, Store, libpq_url, sqlalchemy_url

DAY = 86400.0


def record_name(room: str, game: int) -> str:
    """The file name of an exported record."""
    return f"unokit-{room}-{game}.json"


def write_record(folder: Path, room: str, game: int, text: str) -> Path:
    """Write one record into ``folder`` (created if need be), whole or not at all; return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / record_name(room, game)
    partial = path.with_suffix(".part")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
    return path


def prune(
    store: Store,
    rooms_days: float,
    records_days: float,
    players_days: float = RETAIN_PLAYERS_DAYS,
    *,
    export_dir: Path | None = None,
    now: float | None = None,
    batch: int = 500,
) -> Pruned:
    """Apply the retention to ``store`` until nothing more is due; return the totals."""
    now = time.time() if now is None else now
    total = Pruned()

    def keep(room: str, game: int, text: str) -> None:
        assert export_dir is not None
        write_record(export_dir, room, game, text)

    export = None if export_dir is None else keep
    while True:
        done = store.upkeep.prune(now - rooms_days * DAY, now - records_days * DAY, limit=batch, export=export)
        total.rooms += done.rooms
        total.entries += done.entries
        total.chat += done.chat
        total.records += done.records
        total.reports += done.reports
        if done.rooms < batch and done.records < batch:
            break
    total.players = store.prune_players(now - players_days * DAY)
    total.allowances = store.allowances.prune()
    return total


def export(store: Store, folder: Path, *, since: float = 0.0, room: str | None = None) -> int:
    """Write every record since ``since`` (of ``room`` only, if given) into ``folder``; return how many."""
    count = 0
    for code, game, _when, text in store.upkeep.records_since(since, room):
        write_record(folder, code, game, text)
        count += 1
    return count


def exported_tables() -> dict[str, Table]:
    """The tables ``unokit admin export`` writes beside the records, by name: those each
    feature names (:attr:`~.seam.StoreHooks.exported`: the deal of the day's attempts, the
    ratings, their history; the bot ladder's too)."""
    return {table.name: table for hooks in store_hooks() for table in hooks.exported}


def table_rows(store: Store, name: str) -> Iterator[dict[str, Any]]:
    """Every row of the exported table ``name`` (:func:`exported_tables`), as JSON objects, in
    its primary key's order; raise ``KeyError`` for another name."""
    table = exported_tables()[name]
    query = select(table).order_by(*table.primary_key.columns)
    with store.engine.connect() as c:
        for row in c.execution_options(yield_per=500).execute(query):
            yield dict(row._mapping)


def write_table(folder: Path, name: str, rows: Iterable[dict[str, Any]]) -> int:
    """Write ``rows`` as JSON lines into ``folder/NAME.jsonl``, whole or not at all; return how many."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    partial = path.with_suffix(".part")
    count = 0
    with partial.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
            count += 1
    os.replace(partial, path)
    return count


def export_tables(store: Store, folder: Path) -> dict[str, int]:
    """Write each of :func:`exported_tables` into ``folder`` (``NAME.jsonl``); return the rows of each."""
    return {name: write_table(folder, name, table_rows(store, name)) for name in exported_tables()}


def pg_dump_program() -> str:
    """``pg_dump`` on the ``PATH``, else Debian's newest under ``/usr/lib/postgresql``; raise
    ``RuntimeError`` naming the package when there is none."""
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_dump"), reverse=True)
    found = shutil.which("pg_dump") or (debian[0] if debian else None)
    if found is None:
        raise RuntimeError("pg_dump is not installed: install PostgreSQL's client programs (Debian: postgresql-client)")
    return found


def backup(database: str, target: Path) -> Path:
    """Copy ``database`` (a URL) to file ``target`` while the server may be running: SQLite's
    online backup (``target`` is an SQLite database), or ``pg_dump --format=custom`` (restore
    it with ``pg_restore``). Raise ``RuntimeError`` with a message for people on failure; a
    failed backup leaves no file behind."""
    url = make_url(sqlalchemy_url(database))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    try:
        if url.get_backend_name() == "sqlite":
            source_path = url.database
            if not source_path or source_path == ":memory:" or not Path(source_path).exists():
                raise RuntimeError(f"there is no SQLite database at {source_path!r}")
            source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)
            finally:
                copy.close()
                source.close()
        else:
            done = subprocess.run(
                [pg_dump_program(), "--format=custom", "--no-owner", "--file", str(partial), libpq_url(str(url))],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
                raise RuntimeError(f"pg_dump failed: {reason}")
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        raise RuntimeError(f"the backup to {target} failed: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return target


__all__ = [
    "DAY",
    "RETAIN_PLAYERS_DAYS",
    "RETAIN_RECORDS_DAYS",
    "RETAIN_ROOMS_DAYS",
    "backup",
    "export",
    "export_tables",
    "exported_tables",
    "pg_dump_program",
    "prune",
    "record_name",
    "table_rows",
    "write_record",
    "write_table",
]
