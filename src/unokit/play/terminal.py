"""Leaving a full-screen terminal app when its terminal goes away.

When a terminal window closes, the kernel hangs the terminal up and signals its session
leader. A game started through ``make run`` is not that leader, and ``make`` holds the hangup
signal back while it waits for its child, so the game may never hear of it.
Textual then finds the hung-up terminal always readable and spins a core on it, and its own
exit cannot finish either: its output thread dies on the first write to the dead terminal,
and the exit waits on that thread forever.

A hung-up terminal is no longer a terminal to ``isatty``, so the apps look every
:data:`HANGUP_CHECK_SECONDS`; once it has gone they save what must not be lost and end the
process at once, with the status a hangup signal would have given it.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from textual.app import App

#: Seconds between two looks at whether the terminal is still there.
HANGUP_CHECK_SECONDS = 1.0
#: The exit status of a process whose terminal hung up: that of a process the hangup signal
#: ended (128 + the signal's number, as shells report it).
HANGUP_EXIT_STATUS = 128 + signal.SIGHUP


def terminal_fd() -> int | None:
    """The descriptor Textual reads keys from (the process's original standard input), or
    ``None`` when there is none."""
    stdin = sys.__stdin__
    if stdin is None:
        return None
    try:
        return stdin.fileno()
    except (OSError, ValueError):
        return None


def leave_on_hangup(app: App[Any], before_leaving: Callable[[], object] | None = None) -> None:
    """From now on, once ``app``'s terminal has hung up, call ``before_leaving`` (to save what
    must not be lost; whatever it raises is ignored, as nobody is left to tell) and end the
    process with :data:`HANGUP_EXIT_STATUS` (child processes, such as external bots, see their
    pipes close). Call it from the app's ``on_mount``; an app not started on a terminal is left
    alone."""
    fd = terminal_fd()
    if fd is None or not os.isatty(fd):
        return

    def look() -> None:
        if os.isatty(fd):
            return
        try:
            if before_leaving is not None:
                before_leaving()
        finally:
            os._exit(HANGUP_EXIT_STATUS)

    app.set_interval(HANGUP_CHECK_SECONDS, look)


__all__ = ["HANGUP_CHECK_SECONDS", "HANGUP_EXIT_STATUS", "leave_on_hangup", "terminal_fd"]
