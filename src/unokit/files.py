"""Files that unokit writes: checked before any work starts, replaced in one step, and locked
while a command reads, changes and writes them back (standard library only; POSIX locks).

- :func:`prepare_file` / :func:`prepare_folder` create the missing folders of an output path
  and make sure something can be written there, so that a long run never ends in a crash when
  it saves its results; :class:`PathError` says why not.
- :func:`write_atomically` replaces a file through a temporary file in the same folder, flushed
  to disk and renamed over it: a reader (or a crash) sees the old content or the new one,
  never half of it.
- :func:`locked` holds an exclusive lock on a lock file beside a file (``.NAME.lock``), so that
  two processes changing the same file take turns instead of losing each other's changes.
- :func:`parse_json` reads the JSON text of a file that unokit wrote (a record, a score
  table), and says in one :class:`JsonError` why it cannot.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class JsonError(ValueError):
    """JSON text that cannot be read, with the reason in words (completing "the file is ...")."""


def parse_json(text: str) -> Any:
    """The value of the JSON ``text``. :class:`JsonError` says why it cannot be read: it is not
    JSON, it is nested deeper than Python reads, or it holds a number with more digits than
    Python converts (``sys.get_int_max_str_digits()``, 4,300 by default)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonError(f"not valid JSON ({exc})") from None
    except RecursionError:
        raise JsonError("not valid JSON: it is nested too deeply") from None
    except ValueError:  # int() refused a number of that many digits
        limit = sys.get_int_max_str_digits()
        raise JsonError(f"not readable: it holds a number of more than {limit:,} digits") from None


class PathError(ValueError):
    """A path that cannot be written to, with the reason in words."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


#: The longest name of one file or folder that unokit writes, in bytes: ``NAME_MAX`` of
#: Linux's, macOS's and Windows' usual file systems.
NAME_MAX = 255


def check_names(path: str | Path) -> None:
    """Raise :class:`PathError` when a part of ``path`` is a name longer than file systems
    take (:data:`NAME_MAX` bytes), or the path holds a NUL character (no name may)."""
    text = str(path)
    if "\0" in text:
        raise PathError(f"{text!r} holds a NUL character, which no file name may hold")
    for part in Path(text).expanduser().parts:
        size = len(os.fsencode(part))
        if size > NAME_MAX:
            raise PathError(
                f"the name {part[:24] + '...'!r} is {size} bytes long; a file name takes at most {NAME_MAX}"
            )


def prepare_folder(path: str | Path) -> Path:
    """Create the folder ``path`` (and its parents) when missing and check that files can be
    created in it; return it. Raise :class:`PathError` when it cannot be used."""
    check_names(path)
    folder = Path(path).expanduser()
    existing = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if existing is not None and not existing.is_dir():
        raise PathError(f"{existing} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PathError(f"cannot create the folder {folder}: {_reason(exc)}") from None
    probe = folder / f".unokit-{secrets.token_hex(6)}.probe"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as exc:
        raise PathError(f"cannot write in the folder {folder}: {_reason(exc)}") from None
    probe.unlink()
    return folder


def prepare_file(path: str | Path) -> Path:
    """Make sure the file ``path`` can be written: its missing folders are created, and it must
    not be a folder or a file that cannot be written. Return it; raise :class:`PathError`."""
    check_names(path)
    target = Path(path).expanduser()
    if target.is_dir() or str(path).endswith(("/", os.sep)):
        raise PathError(f"{target} is a folder; name a file")
    prepare_folder(target.parent)
    if target.exists() and not os.access(target, os.W_OK):
        raise PathError(f"{target} cannot be written (permission denied)")
    return target


def write_atomically(path: str | Path, text: str | bytes) -> Path:
    """Replace the content of ``path`` by ``text`` (UTF-8; bytes as they are) in one step; the
    file keeps its permissions. The folder must exist. Return the path."""
    target = Path(path)
    while True:
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    return target


def lock_path(path: str | Path) -> Path:
    """The lock file that :func:`locked` uses for ``path``: ``.NAME.lock`` in the same folder."""
    target = Path(path)
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold an exclusive lock for ``path`` while the block runs; other processes wait at the
    same call. The lock file is left in place (removing it would race with a waiting process).
    The folder must exist."""
    fd = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
