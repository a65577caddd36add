"""A small external bot for command-line tests, run as a subprocess speaking unokit-bot/1.

It plays the first legal action. Arguments: a file it adds its process id to when it starts
(``-``: none);
optionally a number of decisions after which it sends Ctrl-C (SIGINT) to the process group of
the unokit process that runs it, as a terminal does when a person presses Ctrl-C in the middle
of a run. Only the first such bot of a run sends it (the one that creates ``<started>.sent``).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

BOT_SOURCE = r"""
import json, os, signal, sys

started = sys.argv[1]
interrupt_after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
if started != "-":
    with open(started, "a") as log:
        log.write(f"{os.getpid()}\n")
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "first-legal"}), flush=True)
    elif kind == "act":
        decisions += 1
        if interrupt_after and decisions == interrupt_after:
            try:
                os.close(os.open(started + ".sent", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass
            else:
                os.killpg(os.getpgid(os.getppid()), signal.SIGINT)
        print(message["legal_actions"][0], flush=True)
    elif kind == "quit":
        break
"""


def bot_spec(folder: Path, started: Path | None = None, interrupt_after: int = 0) -> str:
    """An ``external:`` spec for the bot, its script written into ``folder``."""
    script = folder / "first_legal_bot.py"
    script.write_text(BOT_SOURCE, encoding="utf-8")
    args = [sys.executable, str(script), str(started) if started else "-"]
    if interrupt_after:
        args.append(str(interrupt_after))
    return "external:" + shlex.join(args)
