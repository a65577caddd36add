"""The edges of ``unokit admin`` and ``unokit ladder``: a database that is not there, not
unokit's or not whole, a number or an address out of range, an answer that is not a unokit
server's, a token file that is not text: each one clear line, nothing created or changed; and a
ladder bot whose server is killed stops by itself (``docs/server.md``, ``docs/research.md``)."""

from __future__ import annotations

import http.server
import shlex
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from unokit.cli import main
from unokit.server.client import LADDER_RECONNECT_SECONDS

from .support import UNOKIT, ServerProcess
from .test_ladder import EXTERNAL_BOT, _token


def _one_line(args: list[str], said: str) -> Result:
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (1, 2) and said in result.output, (args, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    return result


def test_admin_refuses_a_database_that_is_not_there_not_unokits_or_not_whole(tmp_path: Path) -> None:
    typo = tmp_path / "typo.db"
    _one_line(["admin", "--database", f"sqlite:///{typo}", "ban", "--address", "10.0.0.1"], "no database file")
    assert not typo.exists(), "a mistyped path made a database"
    foreign = tmp_path / "foreign.db"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.commit()
    _one_line(["admin", "--database", f"sqlite:///{foreign}", "bans"], "is not a unokit database")
    made = tmp_path / "made.db"
    created = CliRunner().invoke(main, ["admin", "--database", f"sqlite:///{made}", "--create", "bans"])
    assert created.exit_code == 0 and "0 bans" in created.output, created.output
    database = f"sqlite:///{made}"
    _one_line(["admin", "--database", database, "unban", str(2**70)], "is not in the range")
    with sqlite3.connect(made) as connection:
        connection.execute("DROP TABLE bans")
    for args in (["bans"], ["ban", "--address", "10.0.0.1"], ["list"], ["reports"]):
        _one_line(["admin", "--database", database, *args], "lacks the tables bans")
    _one_line(["admin", "--server", "notaurl", "list"], "is not a server address")
    _one_line(["admin", "--database", database, "export", str(tmp_path / ("x" * 300))], "300 bytes long")


@pytest.fixture
def not_unokit() -> Iterator[str]:
    """A loopback HTTP server that answers everything with a page that is not JSON."""

    class Page(http.server.BaseHTTPRequestHandler):
        def answer(self) -> None:
            body = b"<html>not a unokit server</html>"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = answer

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_ladder_says_what_is_wrong_in_one_line(not_unokit: str, tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("a-token-of-the-right-length")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00")
    join = ["ladder", "join", "--name", "bot", "--bot", "first", "--tables", "1"]
    for url in ("notaurl", "ftp://host", "http://", "http://127.0.0.1:99999"):
        _one_line(["ladder", "standings", url], "is not a server address")
        _one_line([*join, url, "--token-file", str(token)], "is not a server address")
    _one_line(["ladder", "standings", not_unokit], "is it a unokit server?")
    _one_line([*join, not_unokit, "--token-file", str(token)], "is it a unokit server?")
    _one_line([*join, not_unokit, "--token-file", str(binary)], "cannot read the ladder token")


def test_a_ladder_bot_stops_once_its_server_is_killed(
    make_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'ladder.db'}")
    script, games = tmp_path / "bot.py", tmp_path / "games.jsonl"
    script.write_text(EXTERNAL_BOT, encoding="utf-8")
    external = f"external:{shlex.join([sys.executable, str(script), str(games)])}"
    bots = []
    for name, spec in (("first-bot", "first"), ("ext-bot", external)):
        token = _token(server, name, tmp_path)
        command = [UNOKIT, "ladder", "join", server.url, "--name", name, "--token-file", str(token), "--bot", spec]
        bots.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    try:
        # both sit and play: the external bot has been told of its first game
        end = time.monotonic() + 120
        while not (games.exists() and games.read_text()):
            assert time.monotonic() < end and all(bot.poll() is None for bot in bots), "no ladder table began"
            time.sleep(0.1)
        server.kill()
        # each notices and stops by itself within its reconnect window and ping timeout, with one line
        bound = 4 * LADDER_RECONNECT_SECONDS + 30
        for bot in bots:
            _out, err = bot.communicate(timeout=bound)
            assert bot.returncode == 1 and "Traceback" not in err, err
            assert "lost the connection" in err or "cannot reach" in err, err
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
