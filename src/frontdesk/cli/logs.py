"""The log file: rotating, mode 0600, every key the process uses masked; and, while the
console runs, nothing written to the terminal but the console itself."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .common import Fail

if TYPE_CHECKING:
    from ..api.secrets import ApiKey

#: Environment variable with the log level (DEBUG, INFO, WARNING, ERROR); default WARNING.
LOG_ENV = "FRONTDESK_LOG"
LOG_FILE = "frontdesk.log"
_LOG_BYTES = 1_000_000
_LOG_BACKUPS = 3


def log_unexpected(exc: BaseException, command: str | None) -> bool:
    """Write ``exc`` and its traceback to the log file (never to the terminal); whether it
    is there to read now."""
    if getattr(exc, "_frontdesk_logged", False):
        return _log_has_text()
    logger = logging.getLogger("frontdesk.cli")
    handler = _file_handler()
    if handler is None:
        return False
    handler.setFormatter(KeyMaskingFormatter())
    previous_raise = logging.raiseExceptions
    logging.raiseExceptions = False  # a full disk: the record is lost, nothing printed
    try:
        record = logger.makeRecord(logger.name, logging.ERROR, __file__, 0,
                                   "unexpected error in frontdesk %s", (command or "",),
                                   (type(exc), exc, exc.__traceback__))
        handler.handle(record)
    finally:
        _close_quietly(handler)
        logging.raiseExceptions = previous_raise
    return _log_has_text()


def _close_quietly(handler: logging.Handler) -> None:
    """Close a log file: one that cannot be flushed any more (a full disk) loses its last
    records, and says nothing on the terminal (the console has said the disk is full)."""
    with contextlib.suppress(OSError):
        handler.close()


def _log_has_text() -> bool:
    """Whether the log file exists and holds something (a message may point to it)."""
    try:
        return log_file().stat().st_size > 0
    except OSError:
        return False


def _file_handler() -> logging.Handler | None:
    """The rotating log file's handler (mode 0600, in a 0700 directory), or None when the
    file cannot be opened for writing."""
    from logging.handlers import RotatingFileHandler

    path = log_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        if not os.access(path, os.W_OK):
            return None
        return RotatingFileHandler(path, maxBytes=_LOG_BYTES, backupCount=_LOG_BACKUPS,
                                   encoding="utf-8")
    except OSError:
        return None


def log_file() -> Path:
    from ..settings import log_dir

    return log_dir() / LOG_FILE


def _log_level(env: Mapping[str, str]) -> int:
    """The level named by ``FRONTDESK_LOG`` (a name or a number); WARNING when unset or odd."""
    value = env.get(LOG_ENV, "").strip().upper()
    if value.isdigit():
        return int(value)
    return logging.getLevelNamesMapping().get(value, logging.WARNING)


class KeyMaskingFormatter(logging.Formatter):
    """Formats log records and masks every API key this process uses, wherever it appears
    (message, arguments, traceback text): the last line of defence behind ``ApiKey``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.keys: list[ApiKey] = []

    def format(self, record: logging.LogRecord) -> str:
        from ..api.secrets import redact

        text = super().format(record)
        for key in self.keys:
            text = redact(text, key)
        return text


class _LogFile(logging.Handler):
    """The rotating log file (:func:`_file_handler`), opened at its first record: a console
    start that logs nothing before its first frame neither loads ``logging.handlers`` nor
    opens the file for it. Records are dropped when the file cannot be opened."""

    def __init__(self) -> None:
        super().__init__()
        self._file: logging.Handler | None = None
        self._opened = False

    def emit(self, record: logging.LogRecord) -> None:
        # called under this handler's lock: the file is opened once
        if not self._opened:
            self._opened = True
            self._file = _file_handler()
            if self._file is not None:
                self._file.setFormatter(self.formatter)
        if self._file is not None:
            self._file.handle(record)

    def close(self) -> None:
        if self._file is not None:
            _close_quietly(self._file)
        super().close()


class Logs:
    """The log file set up for one command; ``protect`` adds a key to mask."""

    def __init__(self, handler: logging.Handler, formatter: KeyMaskingFormatter) -> None:
        self.handler = handler
        self.formatter = formatter

    def protect(self, key: str | ApiKey) -> None:
        """Mask ``key`` in everything logged from now on."""
        from ..api.secrets import ApiKey

        secret = key if isinstance(key, ApiKey) else ApiKey(key)
        if secret not in self.formatter.keys:
            self.formatter.keys.append(secret)


@contextlib.contextmanager
def file_logging() -> Iterator[Logs]:
    """Send every log record (and warnings) to ``log_dir()/frontdesk.log``, never the terminal.

    A rotating file (1 MB, 3 backups, mode 0600); the level comes from ``FRONTDESK_LOG``. If
    the file cannot be opened, records are dropped rather than shown on the terminal.
    Everything is put back as it was afterwards (tests run commands in one process).
    """
    root = logging.getLogger()
    level = _log_level(os.environ)
    formatter = KeyMaskingFormatter()
    handler = _LogFile()
    handler.setFormatter(formatter)
    handler.setLevel(level)
    previous_level = root.level
    httpcore = logging.getLogger("httpcore2")
    previous_httpcore = httpcore.level
    httpx_log = logging.getLogger("httpx2")
    previous_httpx = httpx_log.level
    root.addHandler(handler)
    root.setLevel(level)
    httpcore.setLevel(max(level, logging.INFO))  # its DEBUG lines are about sockets, noise
    # httpx2 logs every request's full URL at INFO, query string included (a searched email
    # address, a customer's name): our own DEBUG line names the path template instead.
    httpx_log.setLevel(logging.WARNING)
    logging.captureWarnings(True)
    # A record the file cannot take (a full disk) is dropped: with raiseExceptions on,
    # logging prints each failure's traceback to the terminal instead, over the console and
    # after it (the documented switch for programs in use rather than in development).
    previous_raise = logging.raiseExceptions
    logging.raiseExceptions = False
    try:
        yield Logs(handler, formatter)
    except Exception as exc:  # a bug: logged while the key is still masked, then reported
        if not isinstance(exc, Fail):
            logging.getLogger("frontdesk.cli").error(
                "unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
            with contextlib.suppress(AttributeError):
                exc._frontdesk_logged = True  # type: ignore[attr-defined]
        raise
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        root.setLevel(previous_level)
        httpcore.setLevel(previous_httpcore)
        httpx_log.setLevel(previous_httpx)
        _close_quietly(handler)
        logging.raiseExceptions = previous_raise
