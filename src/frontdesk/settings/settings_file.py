"""Reading ``config.toml`` (with :mod:`tomllib`) and writing it back atomically, mode 0600,
keeping a hand-edited file's comments and layout."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path

from .checks import SettingsError
from .errors import ConfigError
from .locations import settings_path
from .schema import Settings
from .toml_text import dumps_toml, merge_toml


def describe_problems(error: SettingsError) -> str:
    """List what is wrong, by field, without echoing values (one of them could be a secret)."""
    return "\n".join(f"  {problem}" for problem in error.problems)


def load_settings(path: Path | None = None) -> Settings:
    """Read and validate the settings; a missing file means defaults.

    Raises :class:`ConfigError` naming the file (and the line, for TOML syntax errors) when the
    file cannot be read, is not TOML, or holds invalid settings.
    """
    path = settings_path() if path is None else path
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        raise ConfigError(f"Cannot read the settings file {path}: {exc.strerror or exc}") from None
    import tomllib  # here: a start without a settings file never needs the parser

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ConfigError(
            f"The settings file {path} nests tables or arrays too deeply to be read."
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"The settings file {path} is not UTF-8 text (byte {exc.start})."
        ) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if found:
            reason = message[: found.start()]
            where = f"{path}, line {found.group(1)}, column {found.group(2)}"
        else:
            reason, where = message, str(path)
        raise ConfigError(f"The settings file {where} is not valid TOML: {reason}.") from None
    try:
        return Settings.from_mapping(data)
    except SettingsError as exc:
        raise ConfigError(
            f"The settings file {path} has invalid settings:\n{describe_problems(exc)}"
        ) from None
    except RecursionError:
        raise ConfigError(
            f"The settings file {path} nests tables or arrays too deeply to be read."
        ) from None


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings to ``config.toml`` atomically with mode 0600.

    Written to a temporary file in the same directory and moved into place with
    :func:`os.replace`, so a crash leaves the old file or the new one, never half of one.
    A hand-edited file keeps its comments, order and layout: only the values that changed are
    rewritten, new ones added and removed ones dropped (:func:`merge_toml`).
    """
    path = settings_path() if path is None else path
    try:
        checked = Settings.from_mapping(settings.to_mapping())  # dicts may have been changed
    except SettingsError as exc:
        raise ConfigError(
            f"Refusing to save invalid settings:\n{describe_problems(exc)}"
        ) from None
    data = checked.to_mapping()  # unset (None) values are left out
    try:
        current = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        current = ""
    text = merge_toml(current, data) if current.strip() else dumps_toml(data)
    atomic_write(path, text.encode("utf-8"))


def atomic_write(path: Path, content: bytes) -> None:
    """Replace ``path`` with ``content`` via a 0600 temporary file in the same directory."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), 0o600)
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make a rename durable where the platform allows it; best effort."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
