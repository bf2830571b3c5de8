"""Reading input files with bounds (only regular files, and never more than a set size), and
writing files whole or not at all."""
from __future__ import annotations

import os
import stat
import secrets
from pathlib import Path

from .errors import EngineError

MB = 1024 * 1024
NUL_NAME = "the file's name holds a NUL character (\\0), which no file name can"


class FileRefused(EngineError):
    """A file that cannot be read as input: missing, not a regular file, too large or unreadable."""


def read_bounded(path: Path, limit: int) -> bytes:
    """Returns a regular file's bytes; raises FileRefused (without the path) for anything else.

    A device (/dev/zero), a named pipe or a folder is refused before it is opened, so
    reading never blocks or runs on without end; a file over `limit` bytes is refused
    without being read.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FileRefused("no such file") from None
    except OSError as e:
        raise FileRefused(f"cannot read: {e.strerror or e}") from None
    except ValueError:   # (Python refuses a name holding a NUL before asking the system)
        raise FileRefused(NUL_NAME) from None
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(f"not a regular file ({_kind(st.st_mode)})")
    if st.st_size > limit:
        raise FileRefused(too_large(st.st_size, limit))
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise FileRefused(f"cannot read: {e.strerror or e}") from None
    if len(data) > limit:   # the file grew after it was looked at
        raise FileRefused(too_large(len(data), limit))
    return data


def resolved(path: Path | str) -> Path:
    """Path(path).resolve(); raises FileRefused (without the path) for a name no file can
    have (a NUL in it) and for links that lead back to themselves (Python 3.11 raises
    RuntimeError for those, which is not the input's error to show)."""
    try:
        return Path(path).resolve()
    except ValueError:
        raise FileRefused(NUL_NAME) from None
    except RuntimeError:
        raise FileRefused("cannot read: a link that leads back to itself (a loop of links)") from None


def too_large(size: int, limit: int) -> str:
    """Says a file is over its size limit, in megabytes."""
    return f"the file is {size / MB:.1f} MB; the limit is {limit / MB:g} MB"


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file of data"


def write_whole(path: Path, text: str) -> None:
    """Writes text to a file so that a failure part way (a full disk, a kill) leaves the file
    as it was: the text goes to a new file beside it, which then takes its place. A file
    that is not a regular file (a device such as /dev/null, a pipe) is written to as it is;
    a link is followed, so the file it points at is the one replaced. Raises OSError."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except ValueError:
        raise OSError(22, NUL_NAME, str(path).replace("\0", "\\0")) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        path.write_text(text, encoding="utf-8")
        return
    target = path.resolve() if path.is_symlink() else path
    # (opened as a new file, so it gets the mode a new file gets here; an old file's is kept)
    tmp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.part"
    try:
        with open(tmp, "x", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
