"""``unokit serve``: run the game server (``docs/server.md``)."""

from __future__ import annotations

import contextlib
import functools
import gc
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from ..clickopts import extras_present, lang_option, read_token_file, require_extra
from ..i18n import catalog
from . import (
    DEFAULT_SEND_BUFFER,
    RETAIN_PLAYERS_DAYS,
    RETAIN_RECORDS_DAYS,
    RETAIN_ROOMS_DAYS,
    SEND_BUFFER_RANGE,
)

#: Below this many connections a file limit that lowers the default --max-connections is worth a warning.
FEW_CONNECTIONS = 1000

#: What ``unokit serve`` needs from the optional ``server`` extra.
SERVER_MODULES = (
    "uvicorn",
    "starlette",
    "websockets",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "uvloop",
    "httptools",
    "orjson",
    "openskill",
    "prometheus_client",
    "pywebpush",
    "py_vapid",
    "http_ece",
)


#: The shortest admin token accepted (characters).
ADMIN_TOKEN_LENGTH = 16


def read_admin_token(path: Path | None) -> str | None:
    """The admin token kept in file ``path`` (its first line), or ``None`` without a file;
    raise :class:`click.UsageError` for a file that cannot be read or a token too short to
    guard anything."""
    if path is None:
        return None
    token = read_token_file(path, "the admin token", "--token-file").splitlines()[0].strip()
    if len(token) < ADMIN_TOKEN_LENGTH:
        raise click.UsageError(f"the admin token in {path} is shorter than {ADMIN_TOKEN_LENGTH} characters")
    return token


def _web_address(value: str | None, option: str) -> str | None:
    """``value`` when it is an ``http://`` or ``https://`` address; a usage error otherwise."""
    if value is not None and not value.startswith(("http://", "https://")):
        raise click.BadParameter(f"{value!r} is not an http:// or https:// address", param_hint=option)
    return value


@click.command()
@lang_option
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--database",
    default=None,
    envvar="UNOKIT_DATABASE",
    help="sqlite:///PATH or postgresql://USER@HOST/DB  [default: SQLite in ~/.local/share/unokit/server.db]",
)
@click.option(
    "--public-url",
    default=None,
    help="the address clients use (https://NAME behind a TLS proxy): room links, Host and Origin checks",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDRESS[/BITS]",
    help="a proxy whose X-Forwarded-For/-Proto/-Host headers are believed (repeatable; Forwarded never is)",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="another name the server answers to besides IP addresses, localhost and --public-url's (repeatable)",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    metavar="URL",
    help="another site whose pages may open the websocket and post to the API (repeatable)",
)
@click.option(
    "--node-url",
    default=None,
    callback=lambda _ctx, _param, value: _web_address(value, "--node-url"),
    help="the address at which clients reach this process itself, where the other processes send "
    "the clients of its rooms (PostgreSQL)  [default: --public-url, else http://HOST:PORT]",
)
@click.option(
    "--lease",
    "lease_seconds",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.5, 600),
    help="seconds a process holds a room without renewing (PostgreSQL)",
)
@click.option(
    "--idle-close",
    "idle_close_seconds",
    default=1800.0,
    show_default=True,
    type=click.FloatRange(1, None),
    help="close rooms nobody used for this many seconds",
)
@click.option(
    "--sweep",
    "sweep_seconds",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0.1, 3600),
    help="seconds between checks for idle rooms and leases",
)
@click.option(
    "--rate",
    default=20.0,
    show_default=True,
    type=click.FloatRange(0.1, None),
    help="messages per second a connection may send",
)
@click.option(
    "--burst",
    default=60.0,
    show_default=True,
    type=click.FloatRange(1, None),
    help="messages a connection may send at once",
)
@click.option(
    "--room-connections",
    default=64,
    show_default=True,
    type=click.IntRange(1, None),
    help="connections one room accepts",
)
@click.option(
    "--max-connections",
    default=20000,
    show_default=True,
    type=click.IntRange(1, None),
    help="connections the process accepts",
)
@click.option(
    "--client-connections",
    default=64,
    show_default=True,
    type=click.IntRange(1, None),
    help="connections one client address may hold",
)
@click.option(
    "--room-rate",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, None),
    help="rooms one client address may create a minute (bursts of twice as many)",
)
@click.option(
    "--lookup-rate",
    default=20.0,
    show_default=True,
    type=click.FloatRange(0.1, None),
    help="room codes that do not exist one client address may try a minute",
)
@click.option(
    "--hello-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 3600),
    help="seconds a websocket may stay open without joining a room",
)
@click.option(
    "--request-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 3600),
    help="seconds a request's headers and body may take to arrive",
)
@click.option(
    "--bot-threads",
    default=None,
    type=click.IntRange(1, 64),
    help="threads search bots think in  [default: one fewer than the cores, at least 1]",
)
@click.option(
    "--bot-cpu",
    default=0.5,
    show_default=True,
    type=click.FloatRange(0.01, 64),
    help="the share of a core one room's bots may use on average",
)
@click.option(
    "--send-buffer",
    default=DEFAULT_SEND_BUFFER,
    show_default=True,
    type=click.IntRange(*SEND_BUFFER_RANGE),
    metavar="BYTES",
    help="bytes sent to a client and not yet read that a connection may hold before it is closed as too slow",
)
@click.option(
    "--sqlite-sync",
    "sqlite_synchronous",
    default="NORMAL",
    show_default=True,
    type=click.Choice(["NORMAL", "FULL"]),
    help="SQLite durability: NORMAL survives a killed server, FULL also a power cut",
)
@click.option(
    "--warm-engine/--no-warm-engine",
    default=True,
    show_default=True,
    help="import and compile the search bots' compiled engine at start, before saying ready (else in the background)",
)
@click.option(
    "--chat-rate",
    default=1.0,
    show_default=True,
    type=click.FloatRange(0.01, None),
    help="chat messages per second one seat (or spectator) may send in a room",
)
@click.option(
    "--chat-burst",
    default=5.0,
    show_default=True,
    type=click.FloatRange(1, None),
    help="chat messages one seat may send at once",
)
@click.option(
    "--play-now-wait",
    default=20.0,
    show_default=True,
    type=click.FloatRange(0, 600),
    help="seconds a room opened by 'play now' waits for people before bots take the open seats",
)
@click.option(
    "--public-rooms",
    default=3,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="public rooms one client address may have open (created, or made public)",
)
@click.option(
    "--public-seats",
    default=2,
    show_default=True,
    type=click.IntRange(1, 10),
    help="seats one client address may hold at a public table",
)
@click.option(
    "--word-filter",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="a file of words (one a line) that names and chat may not hold  [default: none]",
)
@click.option(
    "--bots",
    "policies",
    multiple=True,
    metavar="policy:FILE.onnx",
    help="offer a trained policy to hosts as the seat bot 'policy:<file name>' (repeat for several)",
)
@click.option(
    "--without",
    multiple=True,
    metavar="FEATURE",
    help='run without the server feature FEATURE (repeatable; docs/server.md, "Features")',
)
@click.option(
    "--log-level", default="info", show_default=True, type=click.Choice(["debug", "info", "warning", "error"])
)
@click.option(
    "--retain-rooms",
    "retain_rooms_days",
    default=RETAIN_ROOMS_DAYS,
    show_default=True,
    type=click.FloatRange(0, None),
    metavar="DAYS",
    help="delete a closed room, its log and chat this many days after it closed",
)
@click.option(
    "--retain-records",
    "retain_records_days",
    default=RETAIN_RECORDS_DAYS,
    show_default=True,
    type=click.FloatRange(0, None),
    metavar="DAYS",
    help="delete a finished game's record this many days after it was played",
)
@click.option(
    "--retain-players",
    "retain_players_days",
    default=RETAIN_PLAYERS_DAYS,
    show_default=True,
    type=click.FloatRange(0, None),
    metavar="DAYS",
    help="forget a player identity and its list of games this many days after it was last used",
)
@click.option(
    "--export-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="write each record there (unokit-ROOM-GAME.json) before retention deletes it",
)
@click.option(
    "--log-format",
    default="plain",
    show_default=True,
    type=click.Choice(["plain", "json"]),
    help="plain lines, or one JSON object a line (with the room's code); never a token either way",
)
@click.option(
    "--admin-token-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    envvar="UNOKIT_ADMIN_TOKEN_FILE",
    help="a file holding the token that opens /api/admin and /metrics to other machines "
    "(unokit admin --server); without it they answer loopback only, and /api/admin not at all",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    public_url: str | None,
    node_url: str | None,
    trusted_proxies: tuple[str, ...],
    allow_hosts: tuple[str, ...],
    allow_origins: tuple[str, ...],
    lease_seconds: float,
    idle_close_seconds: float,
    sweep_seconds: float,
    rate: float,
    burst: float,
    room_connections: int,
    max_connections: int,
    client_connections: int,
    room_rate: float,
    lookup_rate: float,
    hello_timeout: float,
    request_timeout: float,
    bot_threads: int | None,
    bot_cpu: float,
    send_buffer: int,
    sqlite_synchronous: str,
    warm_engine: bool,
    chat_rate: float,
    chat_burst: float,
    play_now_wait: float,
    public_rooms: int,
    public_seats: int,
    word_filter: Path | None,
    policies: tuple[str, ...],
    without: tuple[str, ...],
    log_level: str,
    retain_rooms_days: float,
    retain_records_days: float,
    retain_players_days: float,
    export_dir: Path | None,
    log_format: str,
    admin_token_file: Path | None,
    **feature_values: Any,
) -> None:
    """Serve online games: rooms, bots, spectators, at http://HOST:PORT (API under /api, websocket /ws)."""
    require_extra("serve", "server", SERVER_MODULES)
    import uvicorn

    from . import logs
    from .announce import AnnouncingServer
    from .app import create_app
    from .botpool import default_threads
    from .config import ServerConfig
    from .connections import ConnectionGuard, connection_budget, http_protocol
    from .edge import is_loopback
    from .protocol import HARD_MAX_BYTES
    from .sendbuffer import websocket_protocol
    from .storage import default_database_url

    if not is_loopback(host) and not (public_url or "").startswith("https://"):
        click.echo(catalog().t("cli.serve_plain_http", url=f"{host}:{port}"), err=True)
    allowed, files = connection_budget(max_connections)
    chosen = click.get_current_context().get_parameter_source("max_connections") != ParameterSource.DEFAULT
    if allowed < max_connections and (chosen or allowed < FEW_CONNECTIONS):
        click.echo(
            catalog().t(
                "cli.serve_few_files", count=files, total=allowed, value=f"--max-connections {max_connections}"
            ),
            err=True,
        )
    settings, off = feature_settings(feature_values)
    config = ServerConfig(
        database=database or default_database_url(),
        host=host,
        port=port,
        public_url=public_url,
        node_url=node_url,
        trusted_proxies=trusted_proxies,
        allow_hosts=allow_hosts,
        allow_origins=allow_origins,
        lease_seconds=lease_seconds,
        idle_close_seconds=idle_close_seconds,
        sweep_seconds=sweep_seconds,
        rate=rate,
        burst=burst,
        room_connections=room_connections,
        max_connections=allowed,
        client_connections=client_connections,
        room_rate=room_rate,
        lookup_rate=lookup_rate,
        hello_timeout=hello_timeout,
        request_timeout=request_timeout,
        bot_threads=bot_threads or default_threads(),
        bot_cpu=bot_cpu,
        send_buffer=send_buffer,
        sqlite_synchronous=sqlite_synchronous,
        warm_engine=warm_engine,
        admin_token=read_admin_token(admin_token_file),
        retain_rooms_days=retain_rooms_days,
        retain_records_days=retain_records_days,
        retain_players_days=retain_players_days,
        export_dir=export_dir,
        chat_rate=chat_rate,
        chat_burst=chat_burst,
        play_now_wait=play_now_wait,
        public_rooms=public_rooms,
        public_seats=public_seats,
        word_filter=word_filter,
        bots=tuple(spec.strip() for specs in policies for spec in specs.split(",") if spec.strip()),
        without=frozenset(without) | off,
        settings=settings,
    )
    # Many long-lived games and connections make the collector's full passes long pauses for
    # every room at once; collecting less often keeps latency flat (cycles are rare here).
    gc.set_threshold(100_000, 50, 1000)
    gc.freeze()
    logs.configure(log_level, log_format)
    try:
        app = create_app(config)
        app.state.hub.check_database()
    except (ValueError, RuntimeError) as exc:
        raise click.UsageError(str(exc)) from None
    hub = app.state.hub
    guard = ConnectionGuard(allowed, client_connections, request_timeout, app.state.edge)
    guard.refused = functools.partial(hub.metrics.refused, via="tcp")
    hub.open_connections = lambda: len(guard.open)
    server = AnnouncingServer(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level=log_level,
            log_config=None,  # the log is set up above (logs.configure): plain or JSON, redacted
            ws_max_size=HARD_MAX_BYTES,
            ws_per_message_deflate=False,  # compressing every state costs more CPU than it saves on a LAN
            ws_ping_interval=20,
            ws_ping_timeout=20,
            loop="uvloop",
            http=http_protocol(guard),  # uvicorn's "httptools", under the connection caps and deadline
            # uvicorn's "websockets-sansio", bounded
            ws=websocket_protocol(config.send_buffer, guard, hub.metrics.too_slow.inc),
            proxy_headers=False,  # only --trusted-proxy is believed (edge.py), never any loopback client
            lifespan="on",
            access_log=False,
        ),
        public_url=public_url,
        database=config.database.split("@")[-1],
    )
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise SystemExit(3)  # uvicorn has logged why (the port is taken, ...)


def _feature_options() -> None:
    """Give ``serve`` every feature's own options (:attr:`~.seam.FeatureCommands.serve_options`),
    when the server extra is there to run them (without it, ``serve`` says what is missing), and
    name the features in ``--without``'s help."""
    if not extras_present(SERVER_MODULES):
        return
    from .features import FEATURES

    for feature in FEATURES:
        serve.params.extend(feature.commands.serve_options)
    for param in serve.params:
        if param.name == "without" and isinstance(param, click.Option):
            param.help = f"{param.help}: {', '.join(feature.name for feature in FEATURES)}"


def feature_settings(values: dict[str, Any]) -> tuple[dict[str, object], frozenset[str]]:
    """Each feature's settings made from its options' ``values`` (by parameter name), and the
    features those values turn off; a bad value raises :class:`click.BadParameter`."""
    from .features import FEATURES

    settings: dict[str, object] = {}
    off = set()
    for feature in FEATURES:
        commands = feature.commands
        own = {option.name: values[option.name] for option in commands.serve_options if option.name}
        if commands.settings is not None:
            settings[feature.name] = commands.settings(own)
        if commands.turned_off is not None and commands.turned_off(own):
            off.add(feature.name)
    return settings, frozenset(off)


_feature_options()


@click.command("web-export")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def web_export(folder: Path) -> None:
    """Write a static site of offline play into FOLDER (new or empty): the page, Pyodide's files
    and the engine, for any static file host (no unokit server; docs/offline.md)."""
    require_extra("web-export", "server", SERVER_MODULES)
    from .offline import OfflineError, export
    from .web import catalog

    try:
        written = export(folder, catalog())
    except OfflineError as exc:
        raise click.ClickException(str(exc)) from None
    size = sum(path.stat().st_size for path in written)
    click.echo(f"wrote {len(written)} files ({size / 1e6:.1f} MB) into {folder}: serve it as it is, at its root")
