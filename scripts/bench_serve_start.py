"""Start-up benchmark of ``unokit serve``: the seconds from starting the process to its first page.

Each start runs ``unokit serve`` on a free loopback port with a SQLite database in a temporary
folder and asks for ``/`` every 10 ms until it is answered; the time from starting the process to
that answer is reported, with the CPU seconds the server process had used by then (the
figure to compare on a busy machine: waiting for a core does not count).

* **cold**: the first start after an install: no compiled bytecode for the project or its
  packages (the standard library's is there, as on a stock system) and a new database;
* **warm**: a start after an earlier one: bytecode compiled, the database already made.

``--src`` (repeatable) runs other checkouts' ``src`` folders in this environment, alternating
with this checkout's start by start, so that figures are compared in one run on one machine:

    .venv/bin/python scripts/bench_serve_start.py --starts 5
    .venv/bin/python scripts/bench_serve_start.py --starts 5 --src /tmp/unokit-before/src
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import io
import os
import shutil
import socket
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
#: Runs the ``unokit`` command from whichever ``src`` folder is first on ``PYTHONPATH``.
LAUNCH = "import sys; from unokit.cli import main; sys.argv[0] = 'unokit'; main()"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def stdlib_bytecode(folder: Path) -> None:
    """Compile the standard library's bytecode into ``folder`` (used as ``PYTHONPYCACHEPREFIX``)."""
    sys.pycache_prefix = str(folder)
    with contextlib.redirect_stderr(io.StringIO()):  # the library's own test files warn
        compileall.compile_dir(sysconfig.get_paths()["stdlib"], quiet=2, workers=0)
    sys.pycache_prefix = None


def cpu_seconds(pid: int) -> float:
    """The user and system CPU seconds process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def start_once(src: Path, pycache: Path, database: Path, timeout: float) -> tuple[float, float]:
    """Seconds from starting ``unokit serve`` to ``/`` answered, and the CPU seconds it used."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(src), "PYTHONPYCACHEPREFIX": str(pycache), "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryFile() as log:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "serve", "--port", str(port), "--database", f"sqlite:///{database}"],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            while True:
                now = time.perf_counter()
                if now - started > timeout or proc.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(f"no page from {src} after {now - started:.1f} s:\n{log.read().decode()}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                        if response.status == 200:
                            return time.perf_counter() - started, cpu_seconds(proc.pid)
                except OSError:
                    time.sleep(0.01)
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starts", type=int, default=5, help="starts of each kind for each checkout")
    parser.add_argument("--src", action="append", default=[], help="another checkout's src folder to compare")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    sources = [ROOT / "src", *(Path(s).resolve() for s in args.src)]
    kinds = ("cold", "warm")
    results: dict[tuple[Path, str], list[tuple[float, float]]] = {(src, kind): [] for src in sources for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="unokit-bench-start-") as tmp:
        work = Path(tmp)
        stdlib_bytecode(work / "stdlib")
        for number in range(args.starts):
            for index, src in enumerate(sources):
                cold = work / f"cold-{index}-{number}"
                shutil.copytree(work / "stdlib", cold)
                database = work / f"db-{index}-{number}.sqlite"
                results[(src, "cold")].append(start_once(src, cold, database, args.timeout))
                # the bytecode and the database are there now
                results[(src, "warm")].append(start_once(src, cold, database, args.timeout))
                shutil.rmtree(cold)
    print(
        f"unokit serve: seconds to the first page (wall; CPU of the server), median of {args.starts} starts, "
        f"{os.cpu_count()} cores"
    )
    base = {kind: statistics.median(cpu for _, cpu in results[(sources[0], kind)]) for kind in kinds}
    for src in sources:
        cells = []
        for kind in kinds:
            wall = statistics.median(seconds for seconds, _ in results[(src, kind)])
            cpu = statistics.median(cpu for _, cpu in results[(src, kind)])
            ratio = "" if src == sources[0] else f", CPU x{cpu / base[kind]:.2f} of the first"
            cells.append(f"{kind} {wall:.2f} s; CPU {cpu:.2f} s{ratio}")
        print(f"  {src}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
