"""A terminal app that loses its terminal leaves, and ``unokit play`` saves the game first.

Each test starts the real command on a real pseudo-terminal, with the hangup signal ignored,
as it is for a game started through ``make run`` (``make`` holds it back while it waits), waits
until the app has drawn its screen, closes the terminal and expects the process to end on
its own (``unokit.play.terminal``). Without the check it spins on the dead terminal forever.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

from unokit.play.terminal import HANGUP_CHECK_SECONDS, HANGUP_EXIT_STATUS
from unokit.record import load_record

UNOKIT = str(Path(sys.executable).with_name("unokit"))
#: Seconds the app gets to draw its screen, and to end once the terminal is gone.
STARTUP_SECONDS = 60.0
LEAVE_SECONDS = 10 * HANGUP_CHECK_SECONDS + 10.0


def _start(args: list[str]) -> tuple[int, int]:
    """Run ``unokit ARGS`` on a new 40x120 pseudo-terminal; return its pid and the terminal's
    controlling side."""
    pid, master = pty.fork()
    if pid == 0:  # the child: never returns
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
        os.execve(UNOKIT, [UNOKIT, *args], env)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    return pid, master


def _read_until(master: int, text: bytes, seconds: float) -> bytes:
    """Read the terminal until ``text`` appears; fail with what was read after ``seconds``."""
    seen = b""
    deadline = time.monotonic() + seconds
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{text!r} not shown in {seconds} s; the screen ended with {seen[-400:]!r}"
        ready, _, _ = select.select([master], [], [], min(left, 0.5))
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return seen


def _hang_up_and_wait(pid: int, master: int) -> int:
    """Close the terminal; return the process's wait status once it has ended on its own (it
    is killed, and the test fails, if it is still running after ``LEAVE_SECONDS``)."""
    os.close(master)
    deadline = time.monotonic() + LEAVE_SECONDS
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError(f"the app was still running {LEAVE_SECONDS} s after its terminal closed")


def test_play_and_replay_leave_when_the_terminal_closes_and_the_game_is_saved(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    pid, master = _start(["play", "--variant", "classic", "--players", "2", "--seed", "5", "--record", str(record)])
    _read_until(master, b"Your turn", STARTUP_SECONDS)
    os.write(master, b"d")  # a move of the person's: the record must hold it
    _read_until(master, b"You drew", STARTUP_SECONDS)
    assert os.waitstatus_to_exitcode(_hang_up_and_wait(pid, master)) == HANGUP_EXIT_STATUS
    saved = load_record(record)
    you = next(seat for seat, sitter in enumerate(saved.seats) if sitter.kind == "human")
    assert (saved.variant, saved.players, saved.seed) == ("classic", 2, 5)
    assert (you, "draw") in saved.actions

    pid, master = _start(["replay", str(record)])
    _read_until(master, b"Q quit", STARTUP_SECONDS)
    assert os.waitstatus_to_exitcode(_hang_up_and_wait(pid, master)) == HANGUP_EXIT_STATUS
