"""What ``unokit serve`` was told (``docs/server.md``, "Options"): one :class:`ServerConfig`,
read by the hub, the application and the features (:mod:`.features`), each its own fields."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from . import (
    DEFAULT_SEND_BUFFER,
    RETAIN_PLAYERS_DAYS,
    RETAIN_RECORDS_DAYS,
    RETAIN_ROOMS_DAYS,
)
from .botpool import default_threads
from .edge import EdgeConfig

Settings = TypeVar("Settings")


@dataclass
class ServerConfig:
    """Everything ``unokit serve`` can be told (``docs/server.md``, "Options")."""

    database: str
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    node_url: str | None = None
    lease_seconds: float = 10.0
    idle_close_seconds: float = 1800.0
    sweep_seconds: float = 30.0
    rate: float = 20.0
    burst: float = 60.0
    room_connections: int = 64
    max_connections: int = 20000
    send_buffer: int = DEFAULT_SEND_BUFFER
    sqlite_synchronous: str = "NORMAL"
    bot_threads: int = field(default_factory=default_threads)
    bot_cpu: float = 0.5
    #: Warm the compiled engine before saying ready (``--warm-engine``), else in the background.
    warm_engine: bool = True
    hello_timeout: float = 10.0
    request_timeout: float = 10.0
    client_connections: int = 64
    room_rate: float = 10.0  # rooms a client address may create a minute
    lookup_rate: float = 20.0  # room codes a client address may look up in vain a minute
    trusted_proxies: tuple[str, ...] = ()
    allow_hosts: tuple[str, ...] = ()
    allow_origins: tuple[str, ...] = ()
    admin_token: str | None = None
    retain_rooms_days: float = RETAIN_ROOMS_DAYS
    retain_records_days: float = RETAIN_RECORDS_DAYS
    retain_players_days: float = RETAIN_PLAYERS_DAYS
    export_dir: Path | None = None
    chat_rate: float = 1.0
    chat_burst: float = 5.0
    play_now_wait: float = 20.0
    public_rooms: int = 3  # open public rooms one client address may have created
    public_seats: int = 2  # seats one client address may hold at a public table
    word_filter: Path | None = None
    #: Trained policies offered to hosts as seat bots (``policy:FILE.onnx``; ``docs/server.md``).
    bots: tuple[str, ...] = ()
    #: The features turned off (``--without NAME``; :mod:`.features`).
    without: frozenset[str] = frozenset()
    node: str = field(default_factory=lambda: secrets.token_hex(8))
    #: Each feature's settings from its own options (:class:`~.seam.FeatureCommands`), by its
    #: name; a feature missing here runs on its defaults (:meth:`settings_of`).
    settings: dict[str, object] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        """The address of the service, given out when no request says which (``--public-url``,
        else the listening address): links are built from the request's own address (:mod:`.edge`)."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def own_url(self) -> str:
        """The address at which clients reach this very process (``--node-url``): where the
        other processes send the clients of the rooms it owns."""
        return (self.node_url or self.base_url).rstrip("/")

    def edge(self) -> EdgeConfig:
        return EdgeConfig(self.public_url, self.trusted_proxies, self.allow_hosts, self.allow_origins)

    def settings_of(self, name: str, kind: type[Settings]) -> Settings:
        """The feature ``name``'s settings, of its type ``kind`` (made with its defaults when
        ``unokit serve`` was not the one to fill them, as in a test's own configuration)."""
        found = self.settings.get(name)
        return found if isinstance(found, kind) else kind()
