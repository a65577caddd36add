"""``unokit serve``: run the game server (``docs/server.md``)."""

from __future__ import annotations

import contextlib
import functools
import gc
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from ..clickopts import lang_option, read_token_file, require_extra
from ..i18n import catalog
from . import (
    DAILY_BOT_SECONDS,
    DEFAULT_SEND_BUFFER,
    RETAIN_PLAYERS_DAYS,
    RETAIN_RECORDS_DAYS,
    RETAIN_ROOMS_DAYS,
    SEND_BUFFER_RANGE,
)

if TYPE_CHECKING:
    from .features.daily.deals import Deal

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


def _push_services(values: tuple[str, ...]) -> tuple[str, ...]:
    """``--push-service`` origins, each checked (:class:`~.push.ServiceOrigin`); the server
    extra is asked for first, as ``serve`` itself does, since the check lives beside it."""
    if not values:
        return values
    require_extra("serve", "server", SERVER_MODULES)
    from .features.push.keys import ServiceOrigin

    for value in values:
        try:
            ServiceOrigin.parse(value, named=True)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--push-service") from None
    return values


def _push_contact(value: str | None) -> str | None:
    """``--push-contact``: a ``mailto:`` address or an ``https://`` address (RFC 8292 ``sub``)."""
    if value is None:
        return None
    mail = value.startswith("mailto:") and "@" in value and " " not in value
    site = value.startswith("https://") and len(value) > len("https://") and " " not in value
    if not (mail or site):
        raise click.BadParameter(f"{value!r} is not a mailto: or https:// address", param_hint="--push-contact")
    return value.rstrip("/")


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
    "--daily-rollover",
    "daily_rollover_hours",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 24, max_open=True),
    help="the hour (UTC) at which the deal of the day changes",
)
@click.option(
    "--daily-bot-seconds",
    default=DAILY_BOT_SECONDS,
    show_default=True,
    type=click.FloatRange(0, 10),
    help="how long the bots of a deal of the day pause before each move",
)
@click.option(
    "--daily",
    "daily_deals",
    multiple=True,
    metavar="VARIANT:PLAYERS:BOTS[:OPTION=VALUE,...]",
    help="a deal of the day instead of the featured ones (repeat for several)",
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
    help="run without the server feature FEATURE (repeatable): push, daily, ratings, ladder, reviews, "
    'standings or finishing (docs/server.md, "Features")',
)
@click.option(
    "--no-push",
    is_flag=True,
    help="send no notifications to players whose page is closed (Web Push; on by default): --without push",
)
@click.option(
    "--push-service",
    "push_services",
    multiple=True,
    metavar="ORIGIN",
    callback=lambda _ctx, _param, value: _push_services(value),
    help="another push service the server may post notifications to, besides the browsers' own "
    "(https://push.example.org, https://*.example.org, or http://127.0.0.1:PORT for tests); repeatable",
)
@click.option(
    "--push-away",
    default=15.0,
    show_default=True,
    type=click.FloatRange(0.1, 3600),
    metavar="SECONDS",
    help="how long a player has been away from the table before they are told it is their turn",
)
@click.option(
    "--push-contact",
    default=None,
    callback=lambda _ctx, _param, value: _push_contact(value),
    help="who push services may write to about this server (mailto:you@example.org or https://...)  "
    "[default: --public-url when https, else mailto:unokit@localhost]",
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
    daily_rollover_hours: float,
    daily_bot_seconds: float,
    daily_deals: tuple[str, ...],
    policies: tuple[str, ...],
    no_push: bool,
    without: tuple[str, ...],
    push_services: tuple[str, ...],
    push_away: float,
    push_contact: str | None,
    log_level: str,
    retain_rooms_days: float,
    retain_records_days: float,
    retain_players_days: float,
    export_dir: Path | None,
    log_format: str,
    admin_token_file: Path | None,
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
        daily_rollover_hours=daily_rollover_hours,
        daily_bot_seconds=daily_bot_seconds,
        daily_deals=daily_deal_list(daily_deals),
        bots=tuple(spec.strip() for specs in policies for spec in specs.split(",") if spec.strip()),
        without=frozenset(without) | ({"push"} if no_push else set()),
        push_services=push_services,
        push_away=push_away,
        push_contact=push_contact,
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


def daily_deal_list(texts: tuple[str, ...]) -> tuple[Deal, ...]:
    """The deals of ``--daily`` (each checked by the engine too); a bad one stops ``unokit serve``."""
    from .features.daily.deals import parse_deal
    from .room import RoomError, RoomSpec

    deals = []
    for text in texts:
        try:
            deal = parse_deal(text)
            RoomSpec.build(deal.variant, deal.players, deal.options, None)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--daily") from None
        except RoomError as exc:
            raise click.BadParameter(f"{text!r}: {exc.message}", param_hint="--daily") from None
        deals.append(deal)
    if len({deal.key for deal in deals}) != len(deals):
        raise click.BadParameter("two deals are the same", param_hint="--daily")
    return tuple(deals)


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
