"""``unokit admin``: look after a server's rooms and data (``docs/server.md``, "Retention and
backups").

It works either on the database itself (``--database``, the same URL as ``unokit serve``'s:
on the server's machine, or wherever the database can be reached), or through a running server
(``--server URL`` with the admin token, ``--token-file``; the server must have been started
with ``--admin-token-file``). ``backup`` works on the database only.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import click

from ..clickopts import OutputPath, extras_present, local_time, require_extra, server_url
from .commands import SERVER_MODULES, read_admin_token


class Target:
    """Where the admin commands act: a database, or a running server with its token."""

    def __init__(self, database: str | None, server: str | None, token: str | None, *, create: bool = False) -> None:
        if database is None and server is None:
            raise click.UsageError("say where: --database URL (or $UNOKIT_DATABASE), or --server URL --token-file FILE")
        if server is not None:
            database = None  # --server wins over $UNOKIT_DATABASE
        if server is not None and token is None:
            raise click.UsageError("--server needs the admin token: --token-file FILE (or $UNOKIT_ADMIN_TOKEN_FILE)")
        self.database = database
        self.server = None if server is None else server.rstrip("/")
        self.token = token
        self.create = create

    def store(self) -> Any:
        """The database (its schema migrated to the newest, as the server does at start). It
        must be a unokit database with every table, unless ``create`` (``--create``) asks for
        a new one: a mistyped path never becomes a new, empty database."""
        from sqlalchemy import inspect
        from sqlalchemy.engine import make_url

        from .features import store_hooks
        from .storage import Store, metadata, migrate, schema_revision, sqlalchemy_url

        named = str(self.database)
        try:
            parsed = make_url(sqlalchemy_url(named))
            named = parsed.render_as_string(hide_password=True)
            path = parsed.database if parsed.get_backend_name() == "sqlite" else None
            if path not in (None, "", ":memory:") and not Path(path).expanduser().is_file() and not self.create:
                raise click.UsageError(f"there is no database file {path}; check the path (--create makes a new one)")
            store = Store(str(self.database), hooks=store_hooks())
            with store.engine.connect() as connection:
                revision = schema_revision(connection)
            if revision is None and not self.create:
                store.close()
                raise click.UsageError(f"{named} is not a unokit database (--create makes one there)")
            migrate(store.engine)
            missing = sorted(set(metadata.tables) - set(inspect(store.engine).get_table_names()))
        except click.UsageError:
            raise
        except Exception as exc:  # a bad URL, a database away or not unokit's: said in one line
            lines = str(exc).splitlines() or [type(exc).__name__]
            raise click.UsageError(f"cannot open the database {named}: {lines[0]}") from None
        if missing:
            store.close()
            raise click.UsageError(
                f"the database {named} lacks the tables {', '.join(missing)}: it is not a whole unokit database"
            )
        return store

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> bytes:
        """A request to the server's admin API; raise :class:`click.ClickException` for a refusal."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        request = urllib.request.Request(f"{self.server}{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return bytes(response.read())
        except urllib.error.HTTPError as exc:
            try:
                detail = json.loads(exc.read()).get("message", str(exc))
            except ValueError:
                detail = str(exc)
            raise click.ClickException(f"the server refused: {detail}") from None
        except OSError as exc:
            raise click.ClickException(f"cannot reach {self.server}: {exc}") from None


class AdminGroup(click.Group):
    """The ``admin`` group: a database that refuses what a command asks (a damaged or foreign
    database, a value out of its range) is said in one line, never as a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        from sqlalchemy.exc import SQLAlchemyError

        from .storage import StorageError

        try:
            return super().invoke(ctx)
        except (SQLAlchemyError, StorageError) as exc:
            lines = str(getattr(exc, "orig", None) or exc).splitlines() or [type(exc).__name__]
            raise click.ClickException(f"the database refused: {lines[0]}") from None


@click.group(cls=AdminGroup)
@click.option("--database", default=None, envvar="UNOKIT_DATABASE", help="the server's database URL")
@click.option(
    "--create",
    is_flag=True,
    help="with --database: make the database when it does not exist (else a missing one is refused)",
)
@click.option(
    "--server", default=None, callback=server_url, help="a running server's address (https://uno.example.org)"
)
@click.option(
    "--token-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    envvar="UNOKIT_ADMIN_TOKEN_FILE",
    help="the file holding the server's admin token (with --server)",
)
@click.pass_context
def admin(ctx: click.Context, database: str | None, create: bool, server: str | None, token_file: Path | None) -> None:
    """Look after a server's rooms and data: list, close, export, prune, backup; its public
    rooms: reports, ban, bans, unban; and the features' own (push-key, ladder-token, the
    ratings' suspicious, annul, reset-rating)."""
    require_extra("admin", "server", SERVER_MODULES)
    ctx.obj = Target(database, server, read_admin_token(token_file), create=create)


@admin.command("list")
@click.option("--closed", "which", flag_value="closed", help="closed rooms (kept until retention prunes them)")
@click.option("--all", "which", flag_value="all", help="open and closed rooms")
@click.option("--json", "as_json", is_flag=True, help="one JSON document, for scripts")
@click.pass_obj
def list_rooms(target: Target, which: str | None, as_json: bool) -> None:
    """The open rooms (or --closed, --all), the latest used first, and what the database holds."""
    which = which or "open"
    if target.server is not None:
        listed = json.loads(target.call("GET", f"/api/admin/rooms?which={which}"))
    else:
        store = target.store()
        listed = {"rooms": store.upkeep.rooms_list(which), "totals": store.upkeep.totals()}
    if as_json:
        click.echo(json.dumps(listed, indent=2))
        return
    click.echo(f"{'ROOM':8} {'VARIANT':12} {'SEATS':>5} {'GAMES':>5} {'LAST USED':16} {'CLOSED':16} SERVED BY")
    for room in listed["rooms"]:
        click.echo(
            f"{room['room']:8} {room['variant']:12} {room['players']:>5} {room['games']:>5} "
            f"{local_time(room['last_activity']):16} {local_time(room['closed']):16} {room['served_by'] or '-'}"
        )
    totals = listed["totals"]
    click.echo(
        f"{totals['rooms_open']} open rooms, {totals['rooms_closed']} closed, {totals['log_entries']} log entries, "
        f"{totals['chat_lines']} chat lines, {totals['records']} finished games"
    )


@admin.command()
@click.argument("code")
@click.pass_obj
def close(target: Target, code: str) -> None:
    """Close room CODE: its players are told, as when its host closes it."""
    code = code.upper()
    if target.server is not None:
        target.call("POST", f"/api/admin/rooms/{code}/close", {})
        click.echo(f"room {code} is closing")
        return
    from .storage import StorageError

    try:
        closed = target.store().close_unserved(code, "admin")
    except StorageError as exc:
        raise click.ClickException(f"{exc} (unokit admin --server URL close {code})") from None
    if not closed:
        raise click.ClickException(f"there is no open room {code}")
    click.echo(f"room {code} is closed")


@admin.command()
@click.argument("folder", type=OutputPath(folder=True))
@click.option("--since", default=None, help="only games played since this date (YYYY-MM-DD)")
@click.option("--room", default=None, help="only this room's games")
@click.option(
    "--tables/--no-tables",
    default=True,
    show_default=True,
    help="also write the daily attempts and the ratings tables (NAME.jsonl, whole)",
)
@click.pass_obj
def export(target: Target, folder: Path, since: str | None, room: str | None, tables: bool) -> None:
    """Write finished games into FOLDER as unokit-record/1 files (unokit verify, unokit replay),
    and the tables of the deal of the day's attempts and of ratings as JSON lines."""
    from . import upkeep

    start = 0.0
    if since is not None:
        try:
            start = time.mktime(time.strptime(since, "%Y-%m-%d"))
        except ValueError:
            raise click.BadParameter(f"{since!r} is not a date YYYY-MM-DD", param_hint="--since") from None
    code = room.upper() if room else None
    written: dict[str, int] = {}
    if target.server is not None:
        query = f"/api/admin/records?since={start}" + (f"&room={code}" if code else "")
        lines = target.call("GET", query).decode().splitlines()
        for line in lines:
            entry = json.loads(line)
            upkeep.write_record(folder, entry["room"], entry["game"], entry["record"])
        count = len(lines)
        for name in upkeep.exported_tables() if tables else ():
            lines = target.call("GET", f"/api/admin/tables/{name}").decode().splitlines()
            written[name] = upkeep.write_table(folder, name, (json.loads(line) for line in lines))
    else:
        store = target.store()
        count = upkeep.export(store, folder, since=start, room=code)
        if tables:
            written = upkeep.export_tables(store, folder)
    click.echo(f"{count} finished games written to {folder}")
    for name, number in written.items():
        click.echo(f"{number} rows of {name} written to {folder / (name + '.jsonl')}")


@admin.command()
@click.option("--rooms-days", type=click.FloatRange(0, None), default=None, help="prune rooms closed this long ago")
@click.option("--records-days", type=click.FloatRange(0, None), default=None, help="prune games played this long ago")
@click.option("--players-days", type=click.FloatRange(0, None), default=None, help="forget identities unused this long")
@click.option("--export-dir", type=OutputPath(folder=True), default=None, help="export records first")
@click.pass_obj
def prune(
    target: Target,
    rooms_days: float | None,
    records_days: float | None,
    players_days: float | None,
    export_dir: Path | None,
) -> None:
    """Apply the retention now: delete closed rooms and old records, forget unused player
    identities (defaults: the server's)."""
    from . import upkeep

    if target.server is not None:
        if export_dir is not None:
            raise click.UsageError("through --server, records are exported to the server's own --export-dir")
        done = json.loads(
            target.call(
                "POST",
                "/api/admin/prune",
                {"rooms_days": rooms_days, "records_days": records_days, "players_days": players_days},
            )
        )
    else:
        pruned = upkeep.prune(
            target.store(),
            upkeep.RETAIN_ROOMS_DAYS if rooms_days is None else rooms_days,
            upkeep.RETAIN_RECORDS_DAYS if records_days is None else records_days,
            upkeep.RETAIN_PLAYERS_DAYS if players_days is None else players_days,
            export_dir=export_dir,
        )
        done = vars(pruned)
    click.echo(
        f"pruned {done['rooms']} closed rooms ({done['entries']} log entries, {done['chat']} chat lines), "
        f"{done.get('reports', 0)} old reports and bans, "
        f"{done['records']} finished games and {done['players']} player identities"
    )


@admin.command()
@click.argument("target_file", metavar="FILE", type=OutputPath())
@click.pass_obj
def backup(target: Target, target_file: Path) -> None:
    """Back the database up into FILE while the server runs: SQLite's online backup (FILE is an
    SQLite database), or PostgreSQL's pg_dump in its custom format (restore with pg_restore)."""
    from . import upkeep

    if target.database is None:
        raise click.UsageError("backup works on the database: --database URL")
    try:
        upkeep.backup(target.database, target_file)
    except (RuntimeError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"backed up to {target_file} ({target_file.stat().st_size} bytes)")


def _add_feature_commands() -> None:
    """The features' own commands (:attr:`~.seam.FeatureCommands.admin`), when the server extra
    is there to run them (without it, ``admin`` itself says what is missing)."""
    if not extras_present(SERVER_MODULES):
        return
    from .features import FEATURES

    for feature in FEATURES:
        for command in feature.commands.admin:
            admin.add_command(command)


_add_feature_commands()

__all__ = ["admin"]
