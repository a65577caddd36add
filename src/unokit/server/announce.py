"""uvicorn's server, saying "ready at URL" when the first page can be answered."""

from __future__ import annotations

import socket

import click
import uvicorn

from ..i18n import catalog


class AnnouncingServer(uvicorn.Server):
    """A :class:`uvicorn.Server` that prints ``unokit serve: ready at URL (database ...)`` on
    standard error once its start-up is complete: the database opened and migrated, the hub
    started and the port listening (with ``--port 0``, the port the system chose)."""

    def __init__(self, config: uvicorn.Config, *, public_url: str | None, database: str) -> None:
        super().__init__(config)
        self.public_url = public_url
        self.database = database

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.started:
            return
        port = self.servers[0].sockets[0].getsockname()[1]
        host = f"[{self.config.host}]" if ":" in self.config.host else self.config.host
        url = (self.public_url or f"http://{host}:{port}").rstrip("/")
        click.echo(catalog().t("cli.serve_ready", url=url, database=self.database), err=True)


__all__ = ["AnnouncingServer"]
