"""The ``external`` bot: a program in any language, run as a subprocess, speaking a line-based
JSON protocol over its standard input and output (much like UCI for chess engines).

The protocol, ``unokit-bot/1`` (the full specification with examples is in ``docs/bots.md``).
Every message is one line of UTF-8 text; unokit writes JSON objects, the bot answers with one
line each time an answer is asked for:

1. **Handshake.** unokit sends ``{"type": "hello", "protocol": "unokit-bot/1"}``. The bot
   answers a JSON object ``{"type": "ready", "name": "<its name>"}``; it may add
   ``"react": true`` to be asked about out-of-turn actions too.
2. **New game.** ``{"type": "new_game", "seat": 2, "players": 4, "variant": "flip",
   "options": {...}, "seed": 1234}``. No answer. ``seed`` lets a bot with randomness play
   reproducibly.
3. **Decision.** ``{"type": "act", "decision": "turn", "observation": {...},
   "legal_actions": ["play red 5", "draw"]}``: the observation is exactly what the seat may
   know (:func:`unokit.core.observation.observe`). The bot answers one line: the text of one
   of the legal actions (``play red 5``).
4. **Reaction** (only when the bot asked for it): ``{"type": "react", "observation": {...},
   "legal_actions": ["catch 1"]}`` when the bot may catch a player who forgot UNO, or call
   its own UNO late. It answers an action text, or ``pass``. Bots that do not ask always
   call their own UNO and catch.
5. **Quit.** ``{"type": "quit"}``; the bot should exit. It is killed if it has not exited
   within a second.

Each answer must come within the time limit (``time_limit`` seconds, 5 by default). An answer
that is not one of the legal actions, a late answer, or a bot that exits raises
:class:`ExternalBotError` with a message saying which.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
from typing import IO, Any

from ..core.actions import CATCH, UNO, Action
from ..core.observation import View
from .base import Bot

PROTOCOL = "unokit-bot/1"
#: Seconds a bot may take to start and answer the handshake.
STARTUP_TIME = 10.0


class ExternalBotError(RuntimeError):
    """An external bot broke the protocol: a late, illegal or malformed answer, or it exited."""


class ExternalBotLate(ExternalBotError):
    """An external bot did not answer within its time limit (it is stopped)."""


class ExternalBot(Bot):
    """A bot run as a subprocess speaking ``unokit-bot/1`` (see the module docstring).

    ``command`` is the command line (split like a shell would, without running a shell), or a
    list of arguments. The process starts on first use and lives until :meth:`close`, serving
    any number of games. Use it as a context manager to close it reliably.
    """

    name = "external"

    def __init__(self, seed: int = 0, command: str | list[str] = "", time_limit: float = 5.0) -> None:
        super().__init__(seed)
        if isinstance(command, str):
            args = shlex.split(command)
            self.command = command
        else:
            args = list(command)
            self.command = shlex.join(args)
        if not args:
            raise ValueError("an external bot needs a command, e.g. 'external:python3 mybot.py'")
        if time_limit <= 0:
            raise ValueError(f"the time limit must be positive, not {time_limit}")
        self.args = args
        self.time_limit = time_limit
        self.bot_name = ""
        self.wants_react = False
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._buffer = b""
        self._new_game: dict[str, Any] | None = None

    # ------------------------------------------------------------------ process
    def start(self) -> None:
        """Start the process and do the handshake (done automatically on first use)."""
        if self._proc is not None:
            return
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open with the process
        try:
            self._proc = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                bufsize=0,
                # Its own session: Ctrl-C in the terminal goes to unokit, which closes the bot.
                start_new_session=True,
            )
        except OSError as exc:
            self._stderr.close()
            self._stderr = None
            raise ExternalBotError(f"external bot {self.command!r} could not start: {exc}") from None
        assert self._proc.stdout is not None
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._proc.stdout, selectors.EVENT_READ)
        self._send({"type": "hello", "protocol": PROTOCOL})
        line = self._read_line(STARTUP_TIME, "the handshake")
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or a number too long or nesting too deep for Python
            answer = None
        if not isinstance(answer, dict) or answer.get("type") != "ready":
            self.close()
            raise ExternalBotError(
                f"external bot {self.command!r} answered the handshake with {line!r}; "
                'it must answer {"type": "ready", "name": "..."}'
            )
        self.bot_name = str(answer.get("name", ""))
        self.wants_react = bool(answer.get("react", False))

    def close(self) -> None:
        """Ask the process to quit; kill it if it has not exited within a second, and then
        every process it started that is still in its process group."""
        proc = self._proc
        self._proc = None
        if proc is not None:
            try:
                assert proc.stdin is not None
                proc.stdin.write(b'{"type": "quit"}\n')
                proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            # The process leads its own group (its session): what it started goes with it.
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            if proc.stdout is not None:
                proc.stdout.close()
        if self._selector is not None:
            self._selector.close()
            self._selector = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        self._buffer = b""

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # ------------------------------------------------------------------ the Bot protocol
    def reset(self, seat: int) -> None:
        self.start()
        self._new_game = {"type": "new_game", "seat": seat, "seed": self.rng.next64()}

    def act(self, view: View) -> Action:
        self.start()
        legal = view.legal_actions()
        self._announce(view)
        self._send(
            {
                "type": "act",
                "decision": view.decision,
                "observation": view.observe(),
                "legal_actions": [str(a) for a in legal],
            }
        )
        action = self._answer(legal, f"the decision {view.decision!r}")
        assert action is not None
        return action

    def react(self, view: View) -> Action | None:
        # Out of turn every legal action is a reaction (a catch, a late call, a jump); the seat
        # to act reacts only with a catch or its late call.
        legal = [a for a in view.legal_actions() if view.seat != view.to_act or a.kind in (UNO, CATCH)]
        if not legal:
            return None
        if not self.wants_react:
            return super().react(view)
        self._announce(view)
        self._send({"type": "react", "observation": view.observe(), "legal_actions": [str(a) for a in legal]})
        return self._answer(legal, "a reaction", allow_pass=True)

    def act_on(self, observation: dict[str, Any]) -> str:
        """The process's decision from an ``observation`` (:func:`unokit.core.observation.observe`'s
        object, as a server's ``state`` message carries it, with its ``legal_actions``): the text
        of one of them. Call :meth:`reset` when a new game begins (a server's bot plays one table
        after another): the ``new_game`` message goes before the game's first decision."""
        if self._proc is None and self._new_game is None:
            self.reset(int(observation["seat"]))
        self.start()
        message = self._new_game
        if message is not None:
            self._new_game = None
            message.update({key: observation[key] for key in ("players", "variant", "options")})
            self._send(message)
        legal = [str(text) for text in observation["legal_actions"]]
        self._send(
            {"type": "act", "decision": observation["decision"], "observation": observation, "legal_actions": legal}
        )
        what = f"the decision {observation['decision']!r}"
        line = self._read_line(self.time_limit, what)
        text = " ".join(line.lower().split())
        if text not in legal:
            raise ExternalBotError(
                f"external bot {self.command!r} answered {line!r} to {what}, which is not a legal action now; "
                f"the legal actions were: {', '.join(legal)}"
            )
        return text

    # ------------------------------------------------------------------ messages
    def _announce(self, view: View) -> None:
        """Send the pending ``new_game`` message, completed from the first view of the game."""
        message = self._new_game
        if message is None:
            return
        self._new_game = None
        message.update(
            players=view.players,
            variant=view.variant,
            options=view.options.as_dict(view.rules),
        )
        self._send(message)

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            raise ExternalBotError(self._died("while unokit was writing to it")) from None

    def _answer(self, legal: list[Action], what: str, allow_pass: bool = False) -> Action | None:
        """Read the bot's answer and return the legal action it names (None for ``pass``)."""
        line = self._read_line(self.time_limit, what)
        text = " ".join(line.lower().split())
        if allow_pass and text == "pass":
            return None
        for action in legal:
            if action.text == text:
                return action
        raise ExternalBotError(
            f"external bot {self.command!r} answered {line!r} to {what}, which is not a legal action now; "
            f"the legal actions were: {', '.join(str(a) for a in legal)}"
        )

    def _read_line(self, limit: float, what: str) -> str:
        proc = self._proc
        selector = self._selector
        assert proc is not None and proc.stdout is not None and selector is not None
        deadline = time.monotonic() + limit
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise ExternalBotLate(f"external bot {self.command!r} did not answer {what} within {limit:g} s")
            if not selector.select(left):
                continue
            chunk = proc.stdout.read(65536)
            if chunk is None:
                continue
            if not chunk:
                raise ExternalBotError(self._died(f"before answering {what}"))
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    def _died(self, when: str) -> str:
        proc = self._proc
        code: int | None = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
        tail = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            err = self._stderr.read().decode("utf-8", errors="replace").strip()
            if err:
                tail = "; its last error output: " + err[-500:]
        self.close()
        return f"external bot {self.command!r} exited (code {code}) {when}{tail}"
