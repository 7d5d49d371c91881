"""API keys in files only their owner can read (mode 0600)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import KeyFileError
from .settings_file import atomic_write


def read_key_file(path: str | os.PathLike[str]) -> str:
    """Read an API key from a file that only its owner can read.

    Refuses a file that group or others may read or write (it would leak the key), telling
    the ``chmod 600`` command that fixes it. Surrounding whitespace is stripped.
    """
    file = Path(path).expanduser()
    try:
        fd = os.open(file, os.O_RDONLY)
    except FileNotFoundError:
        raise KeyFileError(f"The key file {file} does not exist.") from None
    except OSError as exc:
        raise KeyFileError(f"Cannot open the key file {file}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError(f"The key file {file} is not a regular file.")
        if os.name == "posix" and info.st_mode & 0o077:
            import shlex  # only for this message: not loaded with the console

            raise KeyFileError(
                f"The key file {file} can be read by other users "
                f"(mode {stat.S_IMODE(info.st_mode):04o}), so frontdesk will not use it. "
                f"Make it private with:  chmod 600 {shlex.quote(str(file))}"
            )
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read()
    except OSError as exc:
        raise KeyFileError(f"Cannot read the key file {file}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        key = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise KeyFileError(f"The key file {file} is not UTF-8 text.") from None
    if not key:
        raise KeyFileError(f"The key file {file} is empty.")
    return key


def write_key_file(path: str | os.PathLike[str], key: str) -> None:
    """Store an API key in a file created with mode 0600.

    A new file is created exclusively with 0600 from the start, so the key is never readable
    by others even for a moment; an existing file is replaced atomically by a 0600 one.
    """
    key = key.strip()
    if not key or "\n" in key or "\r" in key:
        raise KeyFileError("An API key must be one non-empty line.")
    file = Path(path).expanduser()
    content = (key + "\n").encode("utf-8")
    try:
        fd = os.open(file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        try:
            atomic_write(file, content)
        except OSError as exc:
            raise KeyFileError(f"Cannot write the key file {file}: {exc.strerror or exc}") from None
        return
    except OSError as exc:
        raise KeyFileError(f"Cannot create the key file {file}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        file.unlink(missing_ok=True)
        raise
