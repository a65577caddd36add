"""The server's log: plain lines, or one JSON object a line (``--log-format json``), never a
secret (``docs/server.md``, "Logs").

A JSON line has ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message`` and, when the line
is about a room, ``room`` (its code); an exception adds ``exception``. Every line, in either
format, passes :class:`Redact` first: the value of any field named like a secret
(``token``, ``host_token``, ``player``, ``Authorization``) is replaced by ``"…"``, so that a
log that quotes a client's message or a request never holds what would let a reader take a
seat, a room or an identity.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

#: Fields whose values are secrets: seat and host tokens, player identities, admin tokens.
SECRET_FIELDS = ("host_token", "token", "player", "authorization", "admin_token")
_FIELDS = "|".join(SECRET_FIELDS)
_SECRET = re.compile(
    r"""(?P<key>["']?(?:""" + _FIELDS + r""")["']?\s*[:=]\s*)"""
    r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|(?:Bearer\s+)?[^\s,}'"]+)""",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """``text`` with the value of every secret field replaced by ``"…"``."""
    return _SECRET.sub(lambda m: f'{m.group("key")}"…"', text)


#: Formats the tracebacks that :class:`Redact` clears.
_TRACEBACKS = logging.Formatter()


class Redact(logging.Filter):
    """Replaces the values of secret fields in every record's message (arguments filled in)
    and in its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            # A traceback may quote a message too: formatters print exc_text when it is set.
            record.exc_text = redact(_TRACEBACKS.formatException(record.exc_info))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        room = getattr(record, "room", None)
        if room is not None:
            line["room"] = room
        if record.exc_info:
            line["exception"] = redact(record.exc_text or self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, form: str) -> None:
    """Send the log to standard error at ``level``, as ``plain`` lines or ``json``, redacted.
    uvicorn's own loggers are formatted the same way."""
    handler = logging.StreamHandler()
    handler.addFilter(Redact())
    if form == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    logging.getLogger("alembic").setLevel(logging.WARNING)


__all__ = ["JsonFormatter", "Redact", "configure", "redact"]
