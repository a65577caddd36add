"""Alembic environment: migrations run on the connection that :func:`unokit.server.storage.migrate`
passes in ``config.attributes["connection"]`` (the server never reads an alembic.ini)."""

from __future__ import annotations

from alembic import context

from unokit.server.storage import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
